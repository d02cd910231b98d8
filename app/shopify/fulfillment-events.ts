import { z } from "zod";

import type { TrackingStatus } from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type RunAdminGraphqlOptions,
  type ShopifyError,
  toUserError,
  type UserError,
  UserErrorSchema,
} from "./admin-client";
import { CREATE_FULFILLMENT_EVENT_MUTATION } from "./fulfillment-events.graphql";
import type { FulfillmentGid } from "./ids";
import { GidSchema } from "./response-schemas";

export type FulfillmentEventGid = string & { readonly __brand: "FulfillmentEventGid" };

/** Shopify's FulfillmentEventStatus (Admin 2026-10). */
export const FULFILLMENT_EVENT_STATUSES = [
  "ATTEMPTED_DELIVERY",
  "CARRIER_PICKED_UP",
  "CONFIRMED",
  "DELAYED",
  "DELIVERED",
  "FAILURE",
  "IN_TRANSIT",
  "LABEL_PRINTED",
  "LABEL_PURCHASED",
  "OUT_FOR_DELIVERY",
  "READY_FOR_PICKUP",
] as const;
export type ShopifyFulfillmentEventStatus = (typeof FULFILLMENT_EVENT_STATUSES)[number];

// What the merchant and the customer see for each of the service's statuses. Shopify shows the
// event's status on the order page and on the customer's order status page, so each choice is
// the one that tells the customer the truth without alarming them for nothing.
const SHOPIFY_STATUS_FOR: Record<TrackingStatus, ShopifyFulfillmentEventStatus> = {
  // The label exists and the carrier has its data but no scan yet. LABEL_PURCHASED says exactly
  // that; CONFIRMED is Shopify's "no other information" default and would say less.
  pre_transit: "LABEL_PURCHASED",
  in_transit: "IN_TRANSIT",
  out_for_delivery: "OUT_FOR_DELIVERY",
  delivered: "DELIVERED",
  attempted_delivery: "ATTEMPTED_DELIVERY",
  // A carrier exception (weather, customs hold, address query, damage) usually resolves and the
  // parcel moves on: DELAYED. FAILURE ("the fulfillment request failed") is final and would tell
  // the customer their order is lost; the event's message carries the carrier's detail.
  exception: "DELAYED",
  // Back to the sender: the delivery has failed for good. Shopify has no "returned" event status;
  // FAILURE is its only final not-delivered one, and the event's message says what happened.
  returned: "FAILURE",
};

/** The Shopify event status for one of the service's tracking statuses. */
export function toShopifyFulfillmentEventStatus(status: TrackingStatus): ShopifyFulfillmentEventStatus {
  return SHOPIFY_STATUS_FOR[status];
}

export interface CreateFulfillmentEventInput {
  readonly fulfillmentId: FulfillmentGid;
  readonly status: ShopifyFulfillmentEventStatus;
  /** ISO 8601; when the carrier saw it (the service's `occurred_at`). */
  readonly happenedAt: string;
  /** ISO 8601. */
  readonly estimatedDeliveryAt?: string | null;
  /** The carrier's words (`status_detail`), shown with the status. */
  readonly message?: string | null;
  readonly city?: string | null;
  /** The service's `location.state`. */
  readonly province?: string | null;
  readonly zip?: string | null;
  readonly country?: string | null;
}

export interface CreatedFulfillmentEvent {
  readonly id: FulfillmentEventGid;
  readonly status: ShopifyFulfillmentEventStatus;
  readonly happenedAt: string;
}

const CreateDataSchema = z.object({
  fulfillmentEventCreate: z
    .object({
      fulfillmentEvent: z
        .object({
          id: GidSchema<FulfillmentEventGid>("FulfillmentEvent"),
          status: z.string(),
          happenedAt: z.string(),
        })
        .nullish(),
      userErrors: z.array(UserErrorSchema),
    })
    .nullable(),
});

const FULFILLMENT_GONE = "This shipment's fulfillment no longer exists in Shopify.";
const SAYS_NOT_FOUND = /does not exist|not found|could not be found|couldn't be found|invalid id/i;

const notFound = (operation: string, id: FulfillmentGid, detail: string) =>
  createShopifyError("NOT_FOUND", `${operation}: ${id} not found (${detail})`, { message: FULFILLMENT_GONE });

// Shopify's userError for a fulfillment it doesn't have is on fulfillmentId.
function isMissingFulfillment(error: UserError): boolean {
  return error.field?.[error.field.length - 1] === "fulfillmentId" && SAYS_NOT_FOUND.test(error.message);
}

const optional = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);

/**
 * Adds a tracking event to a fulfillment. Shopify shows the status of the event created last (as
 * we understand it; the emulator does the same), and the service may deliver updates out of
 * order: callers post only events newer than the parcel's stored status (labels/shipping-events.server.ts).
 * NOT_FOUND when Shopify says the fulfillment doesn't exist; other refusals are USER_ERROR.
 */
export async function createFulfillmentEvent(
  admin: AdminGraphqlClient,
  input: CreateFulfillmentEventInput,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<CreatedFulfillmentEvent, ShopifyError>> {
  const operation = "CreateFulfillmentEvent";
  const fulfillmentEvent: Record<string, string> = {
    fulfillmentId: input.fulfillmentId,
    status: input.status,
    happenedAt: input.happenedAt,
  };
  for (const key of ["estimatedDeliveryAt", "message", "city", "province", "zip", "country"] as const) {
    const value = optional(input[key]);
    if (value !== undefined) fulfillmentEvent[key] = value;
  }
  const result = await runAdminGraphql(
    admin,
    {
      operation,
      document: CREATE_FULFILLMENT_EVENT_MUTATION,
      variables: { fulfillmentEvent },
      schema: CreateDataSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const payload = result.value.data.fulfillmentEventCreate;
  if (!payload) {
    // A top-level error next to a null payload, such as an id Shopify can't resolve.
    const detail = result.value.problems.map((p) => p.logMessage).join("; ");
    if (SAYS_NOT_FOUND.test(detail)) return err(notFound(operation, input.fulfillmentId, detail));
    return err(createShopifyError("GRAPHQL_ERROR", `${operation}: payload is null${detail ? ` (${detail})` : ""}`));
  }
  const missing = payload.userErrors.find(isMissingFulfillment);
  if (missing) return err(notFound(operation, input.fulfillmentId, missing.message));
  if (payload.userErrors.length > 0) return err(toUserError(operation, payload.userErrors));
  if (!payload.fulfillmentEvent) {
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: no fulfillmentEvent and no userErrors`));
  }
  // The event is created: its status is the one sent, whatever spelling comes back.
  const { id, happenedAt } = payload.fulfillmentEvent;
  return ok({ id, status: input.status, happenedAt });
}
