import { z } from "zod";

import type {
  ApproveReturnRequestMutation,
  CreateReverseDeliveryWithShippingMutation,
  OrderReturnsQuery,
  ReverseDeliveryForLabelFragment,
  ReverseFulfillmentOrderForLabelFragment,
} from "~/types/admin.generated";
import type { ReturnStatus, ReverseFulfillmentOrderStatus } from "~/types/admin.types";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type RunAdminGraphqlOptions,
  type ShopifyError,
  type ShopifyProblem,
  toUserError,
  UserErrorSchema,
} from "./admin-client";
import { schemaFor } from "./document-schema";
import type {
  LineItemGid,
  OrderGid,
  ReturnGid,
  ReverseDeliveryGid,
  ReverseFulfillmentOrderGid,
  ReverseFulfillmentOrderLineItemGid,
} from "./ids";
import { toLineItem } from "./order-mapping";
import { LineItemSchema } from "./order-schemas";
import type { ShopifyOrderLineItem } from "./orders";
import { GidSchema, ns, readEnum } from "./response-schemas";
import {
  APPROVE_RETURN_REQUEST_MUTATION,
  CREATE_REVERSE_DELIVERY_WITH_SHIPPING_MUTATION,
  ORDER_RETURNS_QUERY,
} from "./returns.graphql";

// An order's Shopify returns as a return label needs them, and the mutations that approve a
// customer's request and attach a bought return label (file and tracking) to the return. Shopify
// takes a reverse delivery only on an OPEN return: a REQUESTED one must be approved first.

export const RETURN_STATUSES = [
  "REQUESTED",
  "OPEN",
  "DECLINED",
  "CLOSED",
  "CANCELED",
] as const satisfies readonly `${ReturnStatus}`[];
export type ShopifyReturnStatus = (typeof RETURN_STATUSES)[number];

export const REVERSE_FULFILLMENT_ORDER_STATUSES = [
  "OPEN",
  "CLOSED",
  "CANCELED",
] as const satisfies readonly `${ReverseFulfillmentOrderStatus}`[];
export type ShopifyReverseFulfillmentOrderStatus = (typeof REVERSE_FULFILLMENT_ORDER_STATUSES)[number];

/** One returned item: the order's line item as prefill reads it, and how many come back. */
export interface ShopifyReturnItem {
  readonly returnLineItemId: string;
  readonly quantity: number;
  /** Title, SKU, paid unit price, weight, HS code and origin for the label's customs. */
  readonly lineItem: ShopifyOrderLineItem;
}

/** A reverse delivery: the label attached to (part of) a return, as Shopify holds it. */
export interface ShopifyReverseDelivery {
  readonly id: ReverseDeliveryGid;
  readonly labelUrl: string | null;
  readonly trackingNumber: string | null;
  readonly trackingUrl: string | null;
  readonly carrierName: string | null;
}

export interface ShopifyReverseFulfillmentOrder {
  readonly id: ReverseFulfillmentOrderGid;
  /** Null for a status this app does not know (reported as a problem). */
  readonly status: ShopifyReverseFulfillmentOrderStatus | null;
  /** What attachReturnLabel's `lineItems` name; lineItemId is null if Shopify does not link it. */
  readonly lineItems: readonly {
    readonly id: ReverseFulfillmentOrderLineItemGid;
    readonly lineItemId: LineItemGid | null;
    readonly quantity: number;
  }[];
  readonly reverseDeliveries: readonly ShopifyReverseDelivery[];
}

export interface ShopifyReturn {
  readonly id: ReturnGid;
  /** "#1017-R1" */
  readonly name: string;
  /** Null for a status this app does not know (reported as a problem). */
  readonly status: ShopifyReturnStatus | null;
  /** Items a customer listed without a fulfilled line behind them (unverified) are left out. */
  readonly items: readonly ShopifyReturnItem[];
  /** Empty until the return is OPEN (approved, or made by the merchant). */
  readonly reverseFulfillmentOrders: readonly ShopifyReverseFulfillmentOrder[];
  /** True when some reverse delivery already carries a label file or a tracking number. */
  readonly hasLabel: boolean;
}

export interface ShopifyOrderReturns {
  readonly orderId: OrderGid;
  readonly returns: readonly ShopifyReturn[];
  readonly problems: readonly ShopifyProblem[];
}

const ReverseDeliverySchema = schemaFor<ReverseDeliveryForLabelFragment>()(
  z.object({
    id: GidSchema<ReverseDeliveryGid>("ReverseDelivery"),
    deliverable: z
      .object({
        label: z.object({ publicFileUrl: ns }).nullish(),
        tracking: z.object({ number: ns, url: ns, carrierName: ns }).nullish(),
      })
      .nullish(),
  }),
);

const ReverseFulfillmentOrderSchema = schemaFor<ReverseFulfillmentOrderForLabelFragment>()(
  z.object({
    id: GidSchema<ReverseFulfillmentOrderGid>("ReverseFulfillmentOrder"),
    status: z.string(),
    lineItems: z.object({
      nodes: z.array(
        z.object({
          id: GidSchema<ReverseFulfillmentOrderLineItemGid>("ReverseFulfillmentOrderLineItem"),
          totalQuantity: z.number().int(),
          fulfillmentLineItem: z.object({ lineItem: z.object({ id: GidSchema<LineItemGid>("LineItem") }) }).nullish(),
        }),
      ),
    }),
    reverseDeliveries: z.object({ nodes: z.array(ReverseDeliverySchema) }),
  }),
);

const OrderReturnsSchema = schemaFor<OrderReturnsQuery>()(
  z.object({
    order: z
      .object({
        id: GidSchema<OrderGid>("Order"),
        returns: z.object({
          pageInfo: z.object({ hasNextPage: z.boolean() }),
          nodes: z.array(
            z.object({
              id: GidSchema<ReturnGid>("Return"),
              name: z.string(),
              status: z.string(),
              returnLineItems: z.object({
                pageInfo: z.object({ hasNextPage: z.boolean() }),
                nodes: z.array(
                  z.object({
                    id: z.string(),
                    quantity: z.number().int(),
                    // Absent on an UnverifiedReturnLineItem.
                    fulfillmentLineItem: z.object({ id: z.string(), lineItem: LineItemSchema }).optional(),
                  }),
                ),
              }),
              reverseFulfillmentOrders: z.object({ nodes: z.array(ReverseFulfillmentOrderSchema) }),
            }),
          ),
        }),
      })
      .nullish(),
  }),
);

const ReturnUserErrorSchema = UserErrorSchema.extend({ code: ns });

const ApproveSchema = schemaFor<ApproveReturnRequestMutation>()(
  z.object({
    returnApproveRequest: z
      .object({
        return: z
          .object({
            id: GidSchema<ReturnGid>("Return"),
            status: z.string(),
            reverseFulfillmentOrders: z.object({ nodes: z.array(ReverseFulfillmentOrderSchema) }),
          })
          .nullish(),
        userErrors: z.array(ReturnUserErrorSchema),
      })
      .nullish(),
  }),
);

const ReverseDeliveryPayloadSchema = z
  .object({ reverseDelivery: ReverseDeliverySchema.nullish(), userErrors: z.array(ReturnUserErrorSchema) })
  .nullish();
const CreateDeliverySchema = schemaFor<CreateReverseDeliveryWithShippingMutation>()(
  z.object({ reverseDeliveryCreateWithShipping: ReverseDeliveryPayloadSchema }),
);

function toReverseDelivery(delivery: z.infer<typeof ReverseDeliverySchema>): ShopifyReverseDelivery {
  const label = delivery.deliverable?.label;
  const tracking = delivery.deliverable?.tracking;
  return {
    id: delivery.id,
    labelUrl: label?.publicFileUrl ?? null,
    trackingNumber: tracking?.number ?? null,
    trackingUrl: tracking?.url ?? null,
    carrierName: tracking?.carrierName ?? null,
  };
}

function toReverseFulfillmentOrder(
  rfo: z.infer<typeof ReverseFulfillmentOrderSchema>,
  operation: string,
  problems: ShopifyProblem[],
): ShopifyReverseFulfillmentOrder {
  return {
    id: rfo.id,
    status: readEnum(
      REVERSE_FULFILLMENT_ORDER_STATUSES,
      rfo.status,
      { operation, path: `reverseFulfillmentOrders.${rfo.id}.status`, what: "return shipment status" },
      problems,
    ),
    lineItems: rfo.lineItems.nodes.map((line) => ({
      id: line.id,
      lineItemId: line.fulfillmentLineItem?.lineItem.id ?? null,
      quantity: line.totalQuantity,
    })),
    reverseDeliveries: rfo.reverseDeliveries.nodes.map(toReverseDelivery),
  };
}

const truncated = (path: string, what: string): ShopifyProblem => ({
  code: "TRUNCATED",
  path,
  message: `This order has more ${what} than the app reads; check the rest in Shopify.`,
  logMessage: `OrderReturns: ${path} has a next page`,
});

/** The order's returns (the first three), with their items, reverse fulfillment orders and labels. */
export async function readOrderReturns(
  admin: AdminGraphqlClient,
  orderId: OrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<ShopifyOrderReturns, ShopifyError>> {
  const operation = "OrderReturns";
  const result = await runAdminGraphql(
    admin,
    { operation, document: ORDER_RETURNS_QUERY, variables: { id: orderId }, schema: OrderReturnsSchema },
    callOptions,
  );
  if (!result.ok) return result;
  const order = result.value.data.order;
  if (!order) {
    return err(
      createShopifyError("NOT_FOUND", `${operation}: no order ${orderId}`, {
        message: "Shopify has no such order: it may have been deleted.",
      }),
    );
  }
  const problems: ShopifyProblem[] = [...result.value.problems];
  if (order.returns.pageInfo.hasNextPage) problems.push(truncated("returns", "returns"));
  const returns = order.returns.nodes.map((ret): ShopifyReturn => {
    if (ret.returnLineItems.pageInfo.hasNextPage) {
      problems.push(truncated(`returns.${ret.id}.returnLineItems`, `returned items in ${ret.name}`));
    }
    const reverseFulfillmentOrders = ret.reverseFulfillmentOrders.nodes.map((rfo) =>
      toReverseFulfillmentOrder(rfo, operation, problems),
    );
    return {
      id: ret.id,
      name: ret.name,
      status: readEnum(
        RETURN_STATUSES,
        ret.status,
        { operation, path: `returns.${ret.id}.status`, what: "return status" },
        problems,
      ),
      items: ret.returnLineItems.nodes.flatMap((line) =>
        line.fulfillmentLineItem
          ? [
              {
                returnLineItemId: line.id,
                quantity: line.quantity,
                lineItem: toLineItem(line.fulfillmentLineItem.lineItem, problems),
              },
            ]
          : [],
      ),
      reverseFulfillmentOrders,
      hasLabel: reverseFulfillmentOrders.some((rfo) =>
        rfo.reverseDeliveries.some((d) => d.labelUrl !== null || d.trackingNumber !== null),
      ),
    };
  });
  return ok({ orderId: order.id, returns, problems });
}

/** A mutation's payload read as Shopify answers it: its userErrors, else the record it names. */
function checkPayload<T>(
  operation: string,
  payload: { readonly userErrors: readonly z.infer<typeof ReturnUserErrorSchema>[] } | null | undefined,
  record: T | null | undefined,
): Result<T, ShopifyError> {
  if (!payload) return err(createShopifyError("GRAPHQL_ERROR", `${operation}: payload is null`));
  if (payload.userErrors.length > 0) return err(toUserError(operation, payload.userErrors));
  if (record === null || record === undefined) {
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: no result and no userErrors`));
  }
  return ok(record);
}

export interface ApprovedReturn {
  readonly id: ReturnGid;
  readonly status: ShopifyReturnStatus | null;
  readonly reverseFulfillmentOrders: readonly ShopifyReverseFulfillmentOrder[];
}

/** Approves a customer's requested return (REQUESTED → OPEN), so a return label can be attached. */
export async function approveReturnRequest(
  admin: AdminGraphqlClient,
  returnId: ReturnGid,
): Promise<Result<ApprovedReturn, ShopifyError>> {
  const operation = "ApproveReturnRequest";
  const result = await runAdminGraphql(admin, {
    operation,
    document: APPROVE_RETURN_REQUEST_MUTATION,
    variables: { id: returnId },
    schema: ApproveSchema,
  });
  if (!result.ok) return result;
  const payload = result.value.data.returnApproveRequest;
  const checked = checkPayload(operation, payload, payload?.return);
  if (!checked.ok) return checked;
  const approved = checked.value;
  const problems: ShopifyProblem[] = [];
  return ok({
    id: approved.id,
    status: readEnum(RETURN_STATUSES, approved.status, { operation, path: "status", what: "return status" }, problems),
    reverseFulfillmentOrders: approved.reverseFulfillmentOrders.nodes.map((rfo) =>
      toReverseFulfillmentOrder(rfo, operation, problems),
    ),
  });
}

export interface AttachReturnLabelInput {
  readonly reverseFulfillmentOrderId: ReverseFulfillmentOrderGid;
  /** The items in the parcel; always listed (an empty list would mean every item left to send). */
  readonly lineItems: readonly { readonly id: ReverseFulfillmentOrderLineItemGid; readonly quantity: number }[];
  /** Where Shopify fetches the label file (it must be reachable by Shopify). */
  readonly labelFileUrl: string;
  readonly trackingNumber: string | null;
  readonly trackingUrl: string | null;
  /** Shopify emails the customer the label when true. */
  readonly notifyCustomer: boolean;
}

/** Attaches a bought return label (file and tracking) to an OPEN return's reverse fulfillment order. */
export async function attachReturnLabel(
  admin: AdminGraphqlClient,
  input: AttachReturnLabelInput,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<ShopifyReverseDelivery, ShopifyError>> {
  if (input.lineItems.length === 0) {
    return err(
      createShopifyError("USER_ERROR", "CreateReverseDeliveryWithShipping: no items", {
        message: "Choose the items the customer sends back with this label.",
        fields: ["lineItems"],
      }),
    );
  }
  const operation = "CreateReverseDeliveryWithShipping";
  const result = await runAdminGraphql(
    admin,
    {
      operation,
      document: CREATE_REVERSE_DELIVERY_WITH_SHIPPING_MUTATION,
      variables: {
        reverseFulfillmentOrderId: input.reverseFulfillmentOrderId,
        reverseDeliveryLineItems: input.lineItems.map((l) => ({
          reverseFulfillmentOrderLineItemId: l.id,
          quantity: l.quantity,
        })),
        labelInput: { fileUrl: input.labelFileUrl },
        trackingInput: input.trackingNumber === null ? null : { number: input.trackingNumber, url: input.trackingUrl },
        notifyCustomer: input.notifyCustomer,
      },
      schema: CreateDeliverySchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const payload = result.value.data.reverseDeliveryCreateWithShipping;
  const checked = checkPayload(operation, payload, payload?.reverseDelivery);
  return checked.ok ? ok(toReverseDelivery(checked.value)) : checked;
}

/** The reverse delivery of a reverse fulfillment order that carries one of these tracking numbers. */
export function findReverseDeliveryWithTracking(
  returns: ShopifyOrderReturns,
  reverseFulfillmentOrderId: ReverseFulfillmentOrderGid,
  trackingNumbers: readonly string[],
): ShopifyReverseDelivery | null {
  const rfo = returns.returns
    .flatMap((ret) => ret.reverseFulfillmentOrders)
    .find((candidate) => candidate.id === reverseFulfillmentOrderId);
  return (
    rfo?.reverseDeliveries.find((d) => d.trackingNumber !== null && trackingNumbers.includes(d.trackingNumber)) ?? null
  );
}
