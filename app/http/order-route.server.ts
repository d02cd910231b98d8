import { type LabelError, type LabelErrorCode } from "~/labels/label-errors";
import { numericOrderGid } from "~/shopify/ids";

import { respondWithError } from "./error-response.server";

// What the order page's routes (/app/orders/:orderId and its Returns section) share: the order id
// from the path, and how a label use case's refusal is answered.

/** The order's GID from its numeric id in the path; anything else is a 404, not an error. */
export function requireOrderGid(params: { orderId?: string }) {
  const gid = numericOrderGid(params.orderId ?? "");
  if (!gid) throw new Response("Order not found", { status: 404 });
  return gid;
}

/** Refusals the merchant can act on from the page: answered 422 with their problems beside the fields. */
export const PAGE_REFUSALS: readonly LabelErrorCode[] = [
  "PREFLIGHT_BLOCKED",
  "NOT_FULFILLABLE",
  "PACKAGE_COUNT_MISMATCH",
];

/** A refusal the merchant can fix lists its problems next to the fields; the rest answer one way. */
export function answerLabelError(
  error: LabelError,
  redirect: (url: string) => Response,
  refusals: readonly LabelErrorCode[] = PAGE_REFUSALS,
): Response {
  // A label or shipment that is not this shop's (or no longer exists) is a 404, not our failure.
  if (error.code === "NOT_FOUND") {
    return Response.json({ error: { code: error.code, message: error.message, fields: [] } }, { status: 404 });
  }
  if (refusals.includes(error.code)) {
    return Response.json(
      { error: { code: error.code, message: error.message, fields: error.fields }, problems: error.problems ?? [] },
      { status: 422 },
    );
  }
  return respondWithError(error, { redirect });
}
