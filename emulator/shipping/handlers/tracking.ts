// POST /__emulator/labels/{id}/tracking: a tracking update of a purchased label, emitted as one
// label.tracking_updated event per tracking number.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { DEFAULT_STATUS_DETAILS, isScanAtDestination, parseTrackingUpdate } from "../events";
import type { LabelRecord } from "../state";
import { ProblemList } from "../validation";
import { recordScan } from "./label-void";
import { findAnyLabel } from "./labels";
import { parseBody } from "./request-steps";
import { isError, respondError, respondJson, respondProblems } from "./responses";
import { emitEvent } from "./webhook-endpoints";

export function handleControlTracking(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const label = findAnyLabel(core, ctx);
  if (isError(label)) return label;
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const problems = new ProblemList();
  const update = parseTrackingUpdate(body, problems);
  if (!problems.isEmpty || update === null) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  const purchase = label.purchase;
  if (purchase === null) {
    return respondError(
      ctx.requestId,
      409,
      "LABEL_NOT_PURCHASED",
      `Label ${label.id} is a draft: only a purchased label has tracking numbers`,
    );
  }
  if (label.status === "voided") {
    return respondError(
      ctx.requestId,
      409,
      "LABEL_VOIDED",
      `Label ${label.id} is voided: its parcels can no longer travel on it`,
    );
  }
  if (update.trackingNumber !== null && !purchase.trackingNumbers.includes(update.trackingNumber)) {
    return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "tracking_number is not one of the label's", [
      { field: "tracking_number", message: `must be one of ${purchase.trackingNumbers.join(", ")}` },
    ]);
  }
  const numbers = update.trackingNumber === null ? purchase.trackingNumbers : [update.trackingNumber];
  const at = isScanAtDestination(update.status) ? label.to : label.from;
  const location = update.location ?? {
    city: at.city.toUpperCase(),
    state: at.state,
    zip: at.zip,
    country: at.country,
  };
  const estimatedDeliveryAt =
    update.estimatedDeliveryAt === undefined ? estimateDelivery(core, label) : update.estimatedDeliveryAt;
  const occurredAt = update.occurredAt ?? core.now().toISOString();
  const events = numbers.map((trackingNumber) =>
    emitEvent(core, label.orgId, "label.tracking_updated", {
      label_id: label.id,
      tracking_number: trackingNumber,
      status: update.status,
      status_detail: update.statusDetail ?? DEFAULT_STATUS_DETAILS[update.status],
      occurred_at: occurredAt,
      estimated_delivery_at: estimatedDeliveryAt,
      location,
    }),
  );
  // Beyond pre_transit the carrier has the parcel: no void from now on, and a pending one fails.
  if (update.status !== "pre_transit") recordScan(core, label, ctx.req.origin);
  return respondJson(ctx.requestId, 200, { events });
}

/** Ship date (or purchase day) plus the service's transit days, at midnight UTC. */
function estimateDelivery(core: ShippingCore, label: LabelRecord): string {
  const shipDate = label.shipDate ?? label.rate?.shipDate ?? (label.purchase?.purchasedAt ?? "").slice(0, 10);
  const start = Date.parse(`${shipDate}T00:00:00Z`);
  const base = Number.isNaN(start) ? core.now().getTime() : start;
  const day = new Date(base + label.service.deliveryDays * 86_400_000).toISOString().slice(0, 10);
  return `${day}T00:00:00Z`;
}
