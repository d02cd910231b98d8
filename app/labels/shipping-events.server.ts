import type { PrismaClient } from "@prisma/client";

import { sealPersonal } from "~/settings/personal-data-box.server";
import {
  isTrackingStatus,
  type LabelPurchasedEvent,
  PurchasedLabelSchema,
  type TrackingStatus,
  type TrackingUpdatedEvent,
} from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { createFulfillmentEvent, toShopifyFulfillmentEventStatus } from "~/shopify/fulfillment-events";
import { selectFulfillmentOrder } from "~/shopify/fulfillment-order-choice";
import { type FulfillmentGid, toOrderGid } from "~/shopify/ids";
import { getOrderForLabel } from "~/shopify/orders";
import { isUniqueViolation } from "~/utils/prisma-errors";
import { err, ok, type Result } from "~/utils/result";

import { discardDraft, type DiscardShippingPort } from "./discard-draft.server";
import { fromShopifyError, type LabelError, labelError } from "./label-errors";
import { findActiveLabel, findLabel, findLabelByServiceId, type LabelView } from "./label-repository.server";
import { claimTrackingStatus, recordOutsidePurchase, releaseTrackingStatus } from "./label-transitions.server";
import { listParcels, type Parcel } from "./parcel-tracking.server";
import { recordConfirmedPurchase } from "./purchase.server";
import { writeTracking } from "./write-tracking.server";

// What the shipping service's events change (contract.md, "Events"). `label.purchased`: a label
// we know is saved as bought by the same repository rules as our own purchase (which also settles
// a purchase whose answer was lost); a label bought outside the app for one of the shop's orders
// becomes a bought label of that order and its tracking goes to Shopify; anything else is only
// recorded. `label.tracking_updated`: the parcel's status is kept, and the shipment's status goes to
// its Shopify fulfillment as an event, never backwards. Events arrive at least once, in any order.

export type EventOutcome =
  | { outcome: "applied"; detail: string }
  | { outcome: "not_ours"; detail: string }
  | { outcome: "recorded"; detail: string };

export type ShippingEventDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** To ask the service before discarding our own draft of an order bought elsewhere; null: no key. */
  shipping: DiscardShippingPort | null;
  now?: () => Date;
};

/** Not there yet (the purchase or the fulfillment comes first): the job tries again later. */
export const notYet = (logMessage: string): LabelError =>
  labelError("INVALID_STATE", "Waiting for the label or its fulfillment.", logMessage);

// ---------- label.purchased ----------

export async function applyLabelPurchased(
  deps: ShippingEventDeps,
  event: LabelPurchasedEvent,
): Promise<Result<EventOutcome, LabelError>> {
  const { db, shop } = deps;
  const record = event.data.label;
  const purchased = PurchasedLabelSchema.safeParse(record);
  if (!purchased.success) {
    return ok({ outcome: "recorded", detail: `label ${record.id} is not a bought label (${record.status})` });
  }
  const known = await findLabelByServiceId(db, shop, record.id);
  if (known) {
    if (known.status === "draft" || known.status === "purchasing") {
      await recordConfirmedPurchase(deps, known, purchased.data, {
        outcome: "recovered",
        note: "confirmed by the service's label.purchased event",
      });
    }
    await sendTrackingToShopify(deps, known.id);
    return ok({ outcome: "applied", detail: `${known.orderName}: label ${record.id} bought` });
  }

  const orderId = record.platform === "shopify" ? record.platform_order_id : null;
  if (!orderId || !/^\d+$/.test(orderId)) {
    return ok({ outcome: "not_ours", detail: `label ${record.id} names no Shopify order` });
  }
  const order = await getOrderForLabel(deps.admin, toOrderGid(orderId));
  if (!order.ok) {
    if (order.error.code === "NOT_FOUND") {
      return ok({ outcome: "not_ours", detail: `label ${record.id} names order ${orderId}, not one of this shop's` });
    }
    return err(fromShopifyError("applyLabelPurchased", order.error));
  }
  const data = order.value.order;
  const fo = selectFulfillmentOrder(data);
  if (!fo) {
    return ok({
      outcome: "recorded",
      detail: `${data.name}: bought outside the app, but no shipment is left to fulfil`,
    });
  }
  const holder = await findActiveLabel(db, shop, fo.id);
  if (holder && holder.status === "draft" && deps.shipping) {
    // Our own draft is moot now that the shipment was bought elsewhere (asked first: never voids a purchase).
    const discarded = await discardDraft({ db, shop, shipping: deps.shipping }, holder.id);
    if (!discarded.ok) return discarded;
  } else if (holder) {
    return ok({
      outcome: "recorded",
      detail: `${data.name}: bought outside the app while the shipment has a label of its own (${holder.status})`,
    });
  }
  const chargedCents = parseAmountCents(purchased.data.charged ?? purchased.data.rate.amount);
  const labelId = await recordOutsidePurchase(db, shop, {
    orderGid: data.id,
    orderName: data.name,
    fulfillmentOrderGid: fo.id,
    lineItems: fo.lineItems
      .filter((l) => l.requiresShipping && l.remainingQuantity > 0)
      .map((l) => ({ id: l.id, quantity: l.remainingQuantity })),
    serviceLabelId: record.id,
    bought: {
      chargedCents,
      chargeMismatch: false,
      currency: purchased.data.rate.currency,
      carrier: purchased.data.rate.carrier,
      serviceCode: purchased.data.rate.service_code,
      serviceName: purchased.data.rate.service ?? null,
      trackingNumbers: purchased.data.tracking_numbers,
      trackingUrl: purchased.data.tracking_url ?? null,
      labelUrl: purchased.data.label_url,
      labelFormat: purchased.data.label_format ?? null,
      packageCount: purchased.data.package_count ?? null,
      requestId: purchased.data.request_id ?? null,
      purchasedAt: (deps.now ?? (() => new Date()))(),
    },
  });
  // Null: another delivery of this event recorded it first (or the shipment got a label meanwhile).
  const recorded = labelId ? await findLabel(db, shop, labelId) : await findLabelByServiceId(db, shop, record.id);
  if (!recorded) {
    return ok({ outcome: "recorded", detail: `${data.name}: the shipment got another label meanwhile` });
  }
  await sendTrackingToShopify(deps, recorded.id);
  return ok({ outcome: "applied", detail: `${data.name}: label ${record.id} bought outside the app` });
}

// The write-back's own failures are kept on the label (pending, retried by the recovery job).
async function sendTrackingToShopify(deps: ShippingEventDeps, labelId: string): Promise<void> {
  await writeTracking(
    { db: deps.db, shop: deps.shop, admin: deps.admin, ...(deps.now ? { now: deps.now } : {}) },
    labelId,
    {},
  );
}

// ---------- label.tracking_updated ----------

// How far along a parcel is. Detours (an exception, an attempt) rank with where they happen;
// delivered and returned end the journey.
const RANK: Record<TrackingStatus, number> = {
  pre_transit: 0,
  in_transit: 1,
  exception: 1,
  attempted_delivery: 2,
  out_for_delivery: 2,
  delivered: 3,
  returned: 4,
};
const ENDED = new Set<string>(["delivered", "returned"]);

/**
 * The shipment's status from its parcels: delivered once every parcel is; otherwise the least
 * advanced parcel still travelling (a box still in transit keeps the shipment in transit). Parcels
 * with no news yet are left out: the first box scanned moves the shipment.
 */
export function summarizeShipment(trackingNumbers: readonly string[], parcels: readonly Parcel[]): Parcel | null {
  const known = parcels.filter((p) => trackingNumbers.includes(p.trackingNumber));
  if (known.length === 0) return null;
  const latest = (list: readonly Parcel[]) =>
    [...list].sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime())[0] ?? null;
  const returned = known.filter((p) => p.status === "returned");
  if (returned.length > 0) return latest(returned);
  const travelling = known.filter((p) => p.status !== "delivered");
  if (travelling.length === 0) {
    return known.length === trackingNumbers.length ? latest(known) : null;
  }
  const least = Math.min(...travelling.map((p) => RANK[p.status]));
  return latest(travelling.filter((p) => RANK[p.status] === least));
}

/** Whether Shopify should hear of `next` after `last`: newer, not backwards, and not after the end. */
export function isForward(last: { status: string; at: Date } | null, next: Pick<Parcel, "status" | "occurredAt">) {
  if (!last) return true;
  if (ENDED.has(last.status) && !(last.status === "delivered" && next.status === "returned")) return false;
  const lastRank = isTrackingStatus(last.status) ? RANK[last.status] : -1;
  // The same status later on (another scan on the way) is news; an older one never is.
  return RANK[next.status] >= lastRank && next.occurredAt.getTime() > last.at.getTime();
}

export async function applyTrackingUpdate(
  deps: ShippingEventDeps,
  event: TrackingUpdatedEvent,
): Promise<Result<EventOutcome, LabelError>> {
  const { db, shop } = deps;
  const update = event.data;
  const label = await findLabelByServiceId(db, shop, update.label_id);
  if (!label) {
    // The purchase event may still be on its way (no order is guaranteed) — unless it came and
    // was found to be none of ours.
    const foreign = await db.shippingEvent.findFirst({
      where: { shop, serviceLabelId: update.label_id, type: "label.purchased", outcome: "not_ours" },
    });
    if (foreign) return ok({ outcome: "not_ours", detail: `label ${update.label_id} is not one of this shop's` });
    return err(notYet(`tracking for ${update.label_id} before its purchase`));
  }
  const late = !(await recordParcelStatus(db, shop, label.id, update));
  const sent = await sendShipmentStatus(deps, label);
  if (!sent.ok) return sent;
  if (late) {
    return ok({
      outcome: "recorded",
      detail: `${update.tracking_number}: ${update.status} at ${update.occurred_at} is older than what is known; not sent`,
    });
  }
  return ok({
    outcome: sent.value ? "applied" : "recorded",
    detail: `${update.tracking_number}: ${update.status}${sent.value ? ", added to the Shopify fulfillment" : ""}`,
  });
}

/**
 * Stores the parcel's status only if it is newer than the one stored, in one conditional write
 * (tracking jobs run side by side, and events come in any order): true when it was stored.
 */
async function recordParcelStatus(
  db: PrismaClient,
  shop: string,
  labelId: string,
  update: TrackingUpdatedEvent["data"],
): Promise<boolean> {
  const occurredAt = new Date(update.occurred_at);
  const key = { labelId, trackingNumber: update.tracking_number };
  const data = {
    status: update.status,
    statusDetail: update.status_detail ?? null,
    occurredAt,
    estimatedDeliveryAt: update.estimated_delivery_at ? new Date(update.estimated_delivery_at) : null,
    // A delivered parcel's scan is the recipient's town and zip: sealed at rest (ADR 28).
    location: update.location ? sealPersonal(JSON.stringify(update.location)) : null,
  };
  const storeIfNewer = async () =>
    (await db.parcelTracking.updateMany({ where: { ...key, shop, occurredAt: { lt: occurredAt } }, data })).count === 1;
  if (await storeIfNewer()) return true;
  if (!(await db.parcelTracking.findUnique({ where: { labelId_trackingNumber: key } }))) {
    try {
      await db.parcelTracking.create({ data: { shop, ...key, ...data } });
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  // The parcel has a status now, but another job may have stored it after the write above found
  // none: only a write made now that the row exists says whether this update is the newer one.
  return storeIfNewer();
}

/**
 * Adds the shipment's status to its Shopify fulfillment when it moved forward; true when sent.
 * The status is claimed before it is sent (compare-and-set on the label), so each is sent once
 * and never after a newer one, however the jobs interleave.
 */
async function sendShipmentStatus(deps: ShippingEventDeps, label: LabelView): Promise<Result<boolean, LabelError>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const parcels = await listParcels(deps.db, deps.shop, [label.id]);
    const summary = summarizeShipment(label.trackingNumbers, parcels);
    const current = await findLabel(deps.db, deps.shop, label.id);
    if (!summary || !current || !isForward(current.tracking, summary)) return ok(false);
    const next = { status: summary.status, at: summary.occurredAt };
    // A return label's reverse delivery takes no tracking events in Shopify (its carrier's
    // tracking page shows them): the status is kept for the app's own lists only.
    if (current.kind === "return") {
      await claimTrackingStatus(deps.db, deps.shop, label.id, current.tracking, next);
      return ok(false);
    }
    // The fulfillment is made by the write-back; until then there is nothing to add the event to.
    if (!current.fulfillmentGid) return err(notYet(`${label.id}: no Shopify fulfillment yet for its tracking`));
    if (!(await claimTrackingStatus(deps.db, deps.shop, label.id, current.tracking, next))) continue;
    const sent = await sendFulfillmentEvent(deps, current.fulfillmentGid, summary);
    if (!sent.ok) await releaseTrackingStatus(deps.db, deps.shop, label.id, next, current.tracking);
    return sent;
  }
  return ok(false);
}

async function sendFulfillmentEvent(
  deps: ShippingEventDeps,
  fulfillmentId: FulfillmentGid,
  summary: Parcel,
): Promise<Result<boolean, LabelError>> {
  const created = await createFulfillmentEvent(deps.admin, {
    fulfillmentId,
    status: toShopifyFulfillmentEventStatus(summary.status),
    happenedAt: summary.occurredAt.toISOString(),
    estimatedDeliveryAt: summary.estimatedDeliveryAt?.toISOString() ?? null,
    message: summary.statusDetail,
    city: summary.location?.city ?? null,
    province: summary.location?.state ?? null,
    zip: summary.location?.zip ?? null,
    country: summary.location?.country ?? null,
  });
  if (!created.ok) return err(fromShopifyError("sendShipmentStatus", created.error));
  return ok(true);
}
