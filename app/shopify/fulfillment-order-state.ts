import { z } from "zod";

import type { FulfillmentOrderGuardQuery } from "~/types/admin.generated";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type RunAdminGraphqlOptions,
  type ShopifyError,
} from "./admin-client";
import { schemaFor } from "./document-schema";
import {
  FULFILLMENT_ORDER_GUARD_QUERY,
  FULFILLMENT_ORDER_STATE_QUERY,
  ORDER_CANCELLATION_QUERY,
} from "./fulfillments.graphql";
import type { FulfillmentOrderGid, OrderGid } from "./ids";
import { FULFILLMENT_ORDER_STATUSES, type ShopifyFulfillmentOrderStatus, type ShopifyStreetAddress } from "./orders";
import { GidSchema } from "./response-schemas";

export interface FulfillmentOrderState {
  readonly id: FulfillmentOrderGid;
  // null: a status this app doesn't know; treated as not open.
  readonly status: ShopifyFulfillmentOrderStatus | null;
  readonly orderGid: OrderGid;
  readonly orderName: string;
}

const StateSchema = z.object({
  fulfillmentOrder: z
    .object({
      id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
      status: z.string(),
      orderId: GidSchema<OrderGid>("Order"),
      orderName: z.string(),
    })
    .nullable(),
});

const CancellationSchema = z.object({
  order: z
    .object({ id: GidSchema<OrderGid>("Order"), name: z.string(), cancelledAt: z.string().nullable() })
    .nullable(),
});

const knownStatus = (status: string): ShopifyFulfillmentOrderStatus | null =>
  (FULFILLMENT_ORDER_STATUSES as readonly string[]).includes(status) ? (status as ShopifyFulfillmentOrderStatus) : null;

const shipmentNotFound = (operation: string, id: FulfillmentOrderGid) =>
  createShopifyError("NOT_FOUND", `${operation}: ${id} not found`, {
    message: "This shipment no longer exists in Shopify.",
  });

/** NOT_FOUND when Shopify no longer has it (or never had it for this shop). */
export async function getFulfillmentOrderState(
  admin: AdminGraphqlClient,
  id: FulfillmentOrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<FulfillmentOrderState, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "FulfillmentOrderState",
      document: FULFILLMENT_ORDER_STATE_QUERY,
      variables: { id },
      schema: StateSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const fo = result.value.data.fulfillmentOrder;
  if (!fo) return err(shipmentNotFound("FulfillmentOrderState", id));
  return ok({ id: fo.id, status: knownStatus(fo.status), orderGid: fo.orderId, orderName: fo.orderName });
}

/** Whether the order was cancelled; NOT_FOUND when Shopify no longer has it. */
export async function getOrderCancellation(
  admin: AdminGraphqlClient,
  id: OrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<{ orderGid: OrderGid; name: string; cancelled: boolean }, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "OrderCancellation",
      document: ORDER_CANCELLATION_QUERY,
      variables: { id },
      schema: CancellationSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const order = result.value.data.order;
  if (!order) {
    return err(
      createShopifyError("NOT_FOUND", `OrderCancellation: ${id} not found`, {
        message: "This order no longer exists in Shopify.",
      }),
    );
  }
  return ok({ orderGid: order.id, name: order.name, cancelled: order.cancelledAt !== null });
}

/** Where an address sends a parcel: what a label's ship-to key is made of (app/shipments/ship-to-key.ts). */
export type ShipToAddress = Omit<ShopifyStreetAddress, "phone">;

export interface FulfillmentOrderGuard {
  readonly id: FulfillmentOrderGid;
  readonly status: ShopifyFulfillmentOrderStatus | null;
  readonly orderGid: OrderGid;
  /** A fulfillment can be created now (Shopify offers CREATE_FULFILLMENT). */
  readonly canCreateFulfillment: boolean;
  /** Shopify's hold reasons (AWAITING_PAYMENT, HIGH_RISK_OF_FRAUD, …) with the merchant's notes. */
  readonly holds: readonly { readonly reason: string; readonly notes: string | null }[];
  readonly orderCancelled: boolean;
  readonly destination: ShipToAddress | null;
  readonly orderShippingAddress: ShipToAddress | null;
  /** What is left to ship per fulfillment order line; `complete` false when more lines exist than were read. */
  readonly remaining: { readonly byLine: ReadonlyMap<string, number>; readonly complete: boolean };
}

const ns = z
  .string()
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const StreetSchema = z.object({ address1: ns, address2: ns, city: ns, province: ns, zip: ns });

const GuardSchema = schemaFor<FulfillmentOrderGuardQuery>()(
  z.object({
    fulfillmentOrder: z
      .object({
        id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
        status: z.string(),
        supportedActions: z.array(z.object({ action: z.string() })),
        fulfillmentHolds: z.array(z.object({ reason: z.string(), reasonNotes: ns })),
        destination: StreetSchema.extend({ countryCode: ns }).nullable(),
        lineItems: z.object({
          pageInfo: z.object({ hasNextPage: z.boolean() }),
          nodes: z.array(z.object({ id: z.string(), remainingQuantity: z.number() })),
        }),
        order: z.object({
          id: GidSchema<OrderGid>("Order"),
          cancelledAt: ns,
          shippingAddress: StreetSchema.extend({ countryCodeV2: ns }).nullable(),
        }),
      })
      .nullable(),
  }),
);

/**
 * What a purchase checks right before it spends (app/shipments/buy-label.server.ts): whether
 * Shopify would let the shipment be fulfilled now, and where it goes now. NOT_FOUND when Shopify
 * no longer has it.
 */
export async function getFulfillmentOrderGuard(
  admin: AdminGraphqlClient,
  id: FulfillmentOrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<FulfillmentOrderGuard, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "FulfillmentOrderGuard",
      document: FULFILLMENT_ORDER_GUARD_QUERY,
      variables: { id },
      schema: GuardSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const fo = result.value.data.fulfillmentOrder;
  if (!fo) return err(shipmentNotFound("FulfillmentOrderGuard", id));
  const shipping = fo.order.shippingAddress;
  return ok({
    id: fo.id,
    status: knownStatus(fo.status),
    orderGid: fo.order.id,
    canCreateFulfillment: fo.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT"),
    holds: fo.fulfillmentHolds.map((h) => ({ reason: h.reason, notes: h.reasonNotes })),
    orderCancelled: fo.order.cancelledAt !== null,
    remaining: {
      byLine: new Map(fo.lineItems.nodes.map((line) => [line.id, line.remainingQuantity])),
      complete: !fo.lineItems.pageInfo.hasNextPage,
    },
    destination: fo.destination,
    orderShippingAddress: shipping
      ? {
          address1: shipping.address1,
          address2: shipping.address2,
          city: shipping.city,
          province: shipping.province,
          zip: shipping.zip,
          countryCode: shipping.countryCodeV2,
        }
      : null,
  });
}
