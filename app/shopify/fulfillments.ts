import { z } from "zod";

import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type ShopifyError,
  toUserError,
  UserErrorSchema,
} from "./admin-client";
import {
  CREATE_FULFILLMENT_WITH_TRACKING_MUTATION,
  FULFILLMENT_ORDER_FULFILLMENTS_QUERY,
  UPDATE_FULFILLMENT_TRACKING_MUTATION,
} from "./fulfillments.graphql";
import type { FulfillmentGid, FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "./ids";
import { GidSchema } from "./response-schemas";

export interface ShopifyTracking {
  // A carrier name Shopify knows ("UPS", "USPS", "FedEx", "DHL Express") lets it build the link.
  readonly company: string;
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
  // "all remaining" omits the item list, which Shopify reads as: fulfil everything left.
  readonly lineItems:
    readonly { readonly id: FulfillmentOrderLineItemGid; readonly quantity: number }[] | "all remaining";
  readonly tracking: ShopifyTracking;
  readonly notifyCustomer: boolean;
}

export interface UpdateFulfillmentTrackingInput {
  readonly fulfillmentId: FulfillmentGid;
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
const UpdateDataSchema = z.object({ fulfillmentTrackingInfoUpdate: PayloadSchema.nullable() });

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
    company: tracking.company,
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
): Promise<Result<ShopifyFulfillment, ShopifyError>> {
  const trackingInfo = toTrackingInput(input.tracking);
  if (!trackingInfo.ok) return trackingInfo;
  const lineItemsByFulfillmentOrder = [
    {
      fulfillmentOrderId: input.fulfillmentOrderId,
      ...(input.lineItems === "all remaining"
        ? {}
        : { fulfillmentOrderLineItems: input.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })) }),
    },
  ];
  const result = await runAdminGraphql(admin, {
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
  });
  if (!result.ok) return result;
  return readPayload("CreateFulfillmentWithTracking", result.value.data.fulfillmentCreate);
}

export async function updateFulfillmentTracking(
  admin: AdminGraphqlClient,
  input: UpdateFulfillmentTrackingInput,
): Promise<Result<ShopifyFulfillment, ShopifyError>> {
  const trackingInfo = toTrackingInput(input.tracking);
  if (!trackingInfo.ok) return trackingInfo;
  const result = await runAdminGraphql(admin, {
    operation: "UpdateFulfillmentTracking",
    document: UPDATE_FULFILLMENT_TRACKING_MUTATION,
    variables: {
      fulfillmentId: input.fulfillmentId,
      trackingInfoInput: trackingInfo.value,
      notifyCustomer: input.notifyCustomer,
    },
    schema: UpdateDataSchema,
  });
  if (!result.ok) return result;
  return readPayload("UpdateFulfillmentTracking", result.value.data.fulfillmentTrackingInfoUpdate);
}

const FulfillmentOrderFulfillmentsSchema = z.object({
  fulfillmentOrder: z
    .object({
      id: z.string(),
      status: z.string(),
      fulfillments: z.object({
        nodes: z.array(
          z.object({
            id: z.string(),
            status: z.string(),
            trackingInfo: z.array(z.object({ number: z.string().nullish() })),
          }),
        ),
      }),
    })
    .nullable(),
});

/**
 * The fulfillment of this fulfillment order that already carries one of these tracking numbers, if
 * any: a write-back that crashed after Shopify created the fulfillment (but before the app saved
 * its id) adopts it instead of creating a second one.
 */
export async function findFulfillmentWithTracking(
  admin: AdminGraphqlClient,
  fulfillmentOrderGid: string,
  trackingNumbers: readonly string[],
): Promise<Result<FulfillmentGid | null, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "FulfillmentOrderFulfillments",
    document: FULFILLMENT_ORDER_FULFILLMENTS_QUERY,
    variables: { id: fulfillmentOrderGid },
    schema: FulfillmentOrderFulfillmentsSchema,
  });
  if (!result.ok) return result;
  const numbers = new Set(trackingNumbers);
  const match = result.value.data.fulfillmentOrder?.fulfillments.nodes.find(
    (f) => f.status !== "CANCELLED" && f.trackingInfo.some((t) => t.number && numbers.has(t.number)),
  );
  return ok(match ? (match.id as FulfillmentGid) : null);
}
