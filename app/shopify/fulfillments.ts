import { z } from "zod";

import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type RunAdminGraphqlOptions,
  type ShopifyError,
  toUserError,
  UserErrorSchema,
} from "./admin-client";
import {
  CANCEL_FULFILLMENT_MUTATION,
  CREATE_FULFILLMENT_WITH_TRACKING_MUTATION,
  FULFILLMENT_ORDER_FOR_WRITE_BACK_QUERY,
  FULFILLMENT_ORDER_LINE_ITEMS_QUERY,
} from "./fulfillments.graphql";
import type { FulfillmentGid, FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "./ids";
import { GidSchema } from "./response-schemas";

export interface ShopifyTracking {
  // A carrier name Shopify knows ("UPS", "USPS", "FedEx", "DHL Express") lets it build the link;
  // null omits it (an unknown carrier is better unnamed than called "Other").
  readonly company: string | null;
  readonly numbers: readonly string[];
  // Parallel to `numbers`; may be empty.
  readonly urls: readonly string[];
}

export interface ShopifyFulfillment {
  readonly id: FulfillmentGid;
  readonly name: string;
  readonly status: string;
  readonly createdAt: string;
  readonly trackingInfo: readonly {
    readonly company: string | null;
    readonly number: string | null;
    readonly url: string | null;
  }[];
}

export interface CreateFulfillmentWithTrackingInput {
  readonly fulfillmentOrderId: FulfillmentOrderGid;
  // Always the items the label ships: an omitted list would fulfil everything left on the
  // fulfillment order, items not in the box included, and tell the customer so.
  readonly lineItems: readonly { readonly id: FulfillmentOrderLineItemGid; readonly quantity: number }[];
  readonly tracking: ShopifyTracking;
  readonly notifyCustomer: boolean;
}

const FulfillmentSchema = z.object({
  id: GidSchema<FulfillmentGid>("Fulfillment"),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  trackingInfo: z.array(
    z.object({
      company: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
      number: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
      url: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
    }),
  ),
});

const PayloadSchema = z.object({ fulfillment: FulfillmentSchema.nullish(), userErrors: z.array(UserErrorSchema) });
const CreateDataSchema = z.object({ fulfillmentCreate: PayloadSchema.nullable() });
const CancelDataSchema = z.object({ fulfillmentCancel: PayloadSchema.nullable() });

// numbers/urls only: Shopify rejects mixing them with number/url, and urls need numbers.
function toTrackingInput(tracking: ShopifyTracking): Result<Record<string, unknown>, ShopifyError> {
  const numbers = tracking.numbers.map((n) => n.trim()).filter(Boolean);
  const urls = tracking.urls.map((u) => u.trim()).filter(Boolean);
  if (urls.length > 0 && numbers.length === 0) {
    return err(
      createShopifyError("USER_ERROR", "tracking urls without numbers", {
        message: "A tracking link needs a tracking number.",
        fields: ["tracking.numbers"],
      }),
    );
  }
  return ok({
    ...(tracking.company ? { company: tracking.company } : {}),
    ...(numbers.length ? { numbers } : {}),
    ...(urls.length ? { urls } : {}),
  });
}

function readPayload(
  operation: string,
  payload: z.infer<typeof PayloadSchema> | null,
): Result<ShopifyFulfillment, ShopifyError> {
  if (!payload) return err(createShopifyError("GRAPHQL_ERROR", `${operation}: payload is null`));
  if (payload.userErrors.length > 0) return err(toUserError(operation, payload.userErrors));
  if (!payload.fulfillment) {
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: no fulfillment and no userErrors`));
  }
  return ok(payload.fulfillment);
}

export async function createFulfillmentWithTracking(
  admin: AdminGraphqlClient,
  input: CreateFulfillmentWithTrackingInput,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<ShopifyFulfillment, ShopifyError>> {
  const trackingInfo = toTrackingInput(input.tracking);
  if (!trackingInfo.ok) return trackingInfo;
  if (input.lineItems.length === 0) {
    return err(
      createShopifyError("USER_ERROR", "CreateFulfillmentWithTracking: no line items to fulfil", {
        message: "Nothing on this label is left to fulfil in Shopify.",
      }),
    );
  }
  const lineItemsByFulfillmentOrder = [
    {
      fulfillmentOrderId: input.fulfillmentOrderId,
      fulfillmentOrderLineItems: input.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
    },
  ];
  const result = await runAdminGraphql(
    admin,
    {
      operation: "CreateFulfillmentWithTracking",
      document: CREATE_FULFILLMENT_WITH_TRACKING_MUTATION,
      variables: {
        fulfillment: {
          lineItemsByFulfillmentOrder,
          trackingInfo: trackingInfo.value,
          notifyCustomer: input.notifyCustomer,
        },
      },
      schema: CreateDataSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  return readPayload("CreateFulfillmentWithTracking", result.value.data.fulfillmentCreate);
}

/**
 * Cancels a fulfillment (a voided label's): Shopify returns its items to the fulfillment order.
 * One already cancelled is a success here: the caller wanted it gone and it is.
 */
export async function cancelFulfillment(
  admin: AdminGraphqlClient,
  id: FulfillmentGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<{ id: FulfillmentGid }, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "CancelFulfillment",
      document: CANCEL_FULFILLMENT_MUTATION,
      variables: { id },
      schema: CancelDataSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const payload = result.value.data.fulfillmentCancel;
  if (payload?.userErrors.some((e) => /already been cancell?ed/i.test(e.message))) return ok({ id });
  const read = readPayload("CancelFulfillment", payload);
  return read.ok ? ok({ id: read.value.id }) : read;
}

const RemainingLineItemsSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  nodes: z.array(
    z.object({ id: GidSchema<FulfillmentOrderLineItemGid>("FulfillmentOrderLineItem"), remainingQuantity: z.number() }),
  ),
});

const FulfillmentOrderForWriteBackSchema = z.object({
  fulfillmentOrder: z
    .object({
      id: z.string(),
      status: z.string(),
      fulfillments: z.object({
        nodes: z.array(
          z.object({
            id: GidSchema<FulfillmentGid>("Fulfillment"),
            status: z.string(),
            trackingInfo: z.array(z.object({ number: z.string().nullish() })),
          }),
        ),
      }),
      lineItems: RemainingLineItemsSchema,
    })
    .nullable(),
});

const RemainingLineItemsPageSchema = z.object({
  fulfillmentOrder: z.object({ id: z.string(), lineItems: RemainingLineItemsSchema }).nullable(),
});

export interface FulfillmentOrderForWriteBack {
  /** The fulfillment (not cancelled) that already carries one of the tracking numbers, if any. */
  readonly fulfillmentWithTracking: FulfillmentGid | null;
  /** What remains to fulfil of each line item. */
  readonly remaining: ReadonlyMap<FulfillmentOrderLineItemGid, number>;
}

// A fulfillment order holds at most a few hundred lines; past this many pages something is wrong.
const MAX_LINE_ITEM_PAGES = 20;

/**
 * What a tracking write-back needs from a fulfillment order: a fulfillment of ours already
 * there (a write-back that crashed after Shopify created it adopts it instead of creating a
 * second), and the quantities that remain, read in full.
 */
export async function getFulfillmentOrderForWriteBack(
  admin: AdminGraphqlClient,
  fulfillmentOrderGid: FulfillmentOrderGid,
  trackingNumbers: readonly string[],
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<FulfillmentOrderForWriteBack, ShopifyError>> {
  const first = await runAdminGraphql(
    admin,
    {
      operation: "FulfillmentOrderForWriteBack",
      document: FULFILLMENT_ORDER_FOR_WRITE_BACK_QUERY,
      variables: { id: fulfillmentOrderGid },
      schema: FulfillmentOrderForWriteBackSchema,
    },
    callOptions,
  );
  if (!first.ok) return first;
  const fo = first.value.data.fulfillmentOrder;
  if (!fo) {
    return err(
      createShopifyError("NOT_FOUND", `FulfillmentOrderForWriteBack: ${fulfillmentOrderGid} not found`, {
        message: "This shipment no longer exists in Shopify.",
      }),
    );
  }
  // Compared as Shopify may store them: trimmed, any case.
  const normalize = (number: string) => number.trim().toUpperCase();
  const numbers = new Set(trackingNumbers.map(normalize).filter(Boolean));
  const match = fo.fulfillments.nodes.find(
    (f) => f.status !== "CANCELLED" && f.trackingInfo.some((t) => t.number && numbers.has(normalize(t.number))),
  );
  const remaining = new Map(fo.lineItems.nodes.map((l) => [l.id, l.remainingQuantity]));
  let page = fo.lineItems.pageInfo;
  for (let pages = 1; page.hasNextPage; pages++) {
    if (pages >= MAX_LINE_ITEM_PAGES) {
      return err(
        createShopifyError(
          "INVALID_RESPONSE",
          `FulfillmentOrderForWriteBack: ${fulfillmentOrderGid} has too many lines`,
        ),
      );
    }
    const next = await runAdminGraphql(
      admin,
      {
        operation: "FulfillmentOrderRemainingLineItems",
        document: FULFILLMENT_ORDER_LINE_ITEMS_QUERY,
        variables: { id: fulfillmentOrderGid, after: page.endCursor ?? null },
        schema: RemainingLineItemsPageSchema,
      },
      callOptions,
    );
    if (!next.ok) return next;
    const connection = next.value.data.fulfillmentOrder?.lineItems;
    if (!connection) break;
    for (const line of connection.nodes) remaining.set(line.id, line.remainingQuantity);
    page = connection.pageInfo;
  }
  return ok({ fulfillmentWithTracking: match?.id ?? null, remaining });
}
