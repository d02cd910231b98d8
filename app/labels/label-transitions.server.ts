import type { Prisma, PrismaClient } from "@prisma/client";

import { digestPersonal, sealPersonal } from "~/settings/personal-data-box.server";
import type { FulfillmentOrderGid, OrderGid, ReturnGid, ReverseFulfillmentOrderGid } from "~/shopify/ids";
import { isUniqueViolation } from "~/utils/prisma-errors";
import { parseStoredJson } from "~/utils/stored-json";

import { type AuditInput, recordAudit } from "./audit.server";
import {
  activeKeyFor,
  DRAFT_MAY_EXIST,
  LABEL_TRANSITIONS,
  type LabelLineItem,
  type LabelTransition,
  type ReturnLabelLineItem,
  StringListSchema,
  withRequestId,
} from "./label-repository.server";
import type { LabelAttention } from "./label-state";

// Every change of a Label row's state, one named transition each (LABEL_TRANSITIONS in
// label-repository.server.ts is the table): a conditional update that names the states it leaves
// and, for a claimed state, the owner's token. See docs/decisions/0005-exactly-once-purchase-and-write-back.md.

export type Ref = { db: PrismaClient; shop: string; labelId: string };

/** One conditional update leaving `transition`'s states; true when it happened. */
export async function apply(
  client: Prisma.TransactionClient,
  ref: Omit<Ref, "db">,
  transition: LabelTransition,
  where: Prisma.LabelWhereInput,
  data: Omit<Prisma.LabelUpdateManyMutationInput, "status">,
): Promise<boolean> {
  const { from, to } = LABEL_TRANSITIONS[transition];
  const result = await client.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, status: { in: [...from] }, ...where },
    data: { ...data, status: to },
  });
  return result.count === 1;
}

export type NewLabel =
  | {
      kind: "outbound";
      orderGid: OrderGid;
      orderName: string;
      fulfillmentOrderGid: FulfillmentOrderGid;
      lineItems: readonly LabelLineItem[];
    }
  | {
      kind: "return";
      returnGid: ReturnGid;
      orderGid: OrderGid;
      orderName: string;
      fulfillmentOrderGid: ReverseFulfillmentOrderGid;
      lineItems: readonly ReturnLabelLineItem[];
    };

/**
 * Takes the fulfillment order's one active slot (a unique key) as `creating`, owned by `token`
 * until `leaseUntil`. Returns the new label's id, or null when another label holds the slot.
 */
export async function claimCreationSlot(
  db: PrismaClient,
  shop: string,
  label: NewLabel,
  claim: { token: string; leaseUntil: Date },
): Promise<string | null> {
  try {
    const row = await db.label.create({
      data: {
        shop,
        orderGid: label.orderGid,
        orderName: label.orderName,
        kind: label.kind,
        returnGid: label.kind === "return" ? label.returnGid : null,
        fulfillmentOrderGid: label.fulfillmentOrderGid,
        activeKey: activeKeyFor(shop, label.fulfillmentOrderGid),
        status: LABEL_TRANSITIONS.claimCreationSlot.to,
        lineItems: JSON.stringify(label.lineItems),
        claimToken: claim.token,
        leaseUntil: claim.leaseUntil,
      },
    });
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** A `creating` label whose owner's lease ran out is taken over by a new owner. */
export function takeOverCreation(
  ref: Ref,
  claim: { token: string; leaseUntil: Date; now: Date; lineItems: readonly LabelLineItem<string>[] },
): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "takeOverCreation",
    { leaseUntil: { lt: claim.now } },
    { claimToken: claim.token, leaseUntil: claim.leaseUntil, lineItems: JSON.stringify(claim.lineItems) },
  );
}

export type CreatedDraft = {
  serviceLabelId: string;
  rateId: string;
  carrier: string;
  serviceCode: string;
  serviceName: string;
  quotedCents: number | null;
  currency: string;
  shipDate: string | null;
  labelFormat: string;
  labelSize: string;
  packageCount: number;
  requestId: string | null;
  /** The request the draft was created from, as sent. */
  request: unknown;
  /** The Shopify ship-to address it was drafted for (ship-to-key.ts); null when not known. */
  shipToKey: string | null;
};

/** The owner of a `creating` label records its service draft; false when it no longer owns it. */
export function completeCreation(ref: Ref, token: string, draft: CreatedDraft): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "completeCreation",
    { claimToken: token },
    {
      serviceLabelId: draft.serviceLabelId,
      rateId: draft.rateId,
      carrier: draft.carrier,
      serviceCode: draft.serviceCode,
      serviceName: draft.serviceName,
      quotedCents: draft.quotedCents,
      currency: draft.currency,
      shipDate: draft.shipDate,
      labelFormat: draft.labelFormat,
      labelSize: draft.labelSize,
      packageCount: draft.packageCount,
      requestIds: withRequestId([], draft.requestId),
      // The ship-to details, sealed; the address it was drafted for, only as a digest (ADR 28).
      request: sealPersonal(JSON.stringify(draft.request)),
      shipToKey: draft.shipToKey === null ? null : digestPersonal(draft.shipToKey),
      claimToken: null,
      leaseUntil: null,
      lastError: null,
    },
  );
}

/** A draft that could not be created frees the fulfillment order for the next attempt. */
/**
 * Ends a creation that made no usable draft and frees the slot. `draftMayExist`: the request
 * reached the service and its answer was lost, so a draft may exist there that nobody tracks
 * (findUnconfirmedDrafts).
 */
export function failCreation(
  ref: Ref,
  token: string,
  reason: string,
  options: { draftMayExist?: boolean } = {},
): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "failCreation",
    { claimToken: token },
    {
      activeKey: null,
      lastError: options.draftMayExist ? `${DRAFT_MAY_EXIST}${reason}` : reason,
      claimToken: null,
      leaseUntil: null,
    },
  );
}

/**
 * Claims the purchase: a draft, or a purchase whose owner's lease ran out. Returns which state
 * it left ("purchasing" means a takeover: an earlier attempt may have been charged), or null
 * when another caller owns it or it is not buyable.
 */
export async function claimPurchase(
  ref: Ref,
  claim: { token: string; leaseUntil: Date; now: Date },
): Promise<"draft" | "purchasing" | null> {
  const data = { claimToken: claim.token, leaseUntil: claim.leaseUntil, lastError: null };
  if (await apply(ref.db, ref, "claimPurchase", { status: "draft" }, data)) return "draft";
  if (await apply(ref.db, ref, "claimPurchase", { status: "purchasing", leaseUntil: { lt: claim.now } }, data)) {
    return "purchasing";
  }
  return null;
}

/**
 * The attempt ended without knowing whether the service bought the label: it stays
 * `purchasing`, and its lease is shortened to `takeOverAfter`, a short quiet period in which a
 * request still in flight can land, after which the next caller (or the recovery job) takes
 * it over and reads it back before anything else. It leaves `purchasing` only once the
 * service says what it is.
 */
export function endPurchaseLease(ref: Ref, token: string, reason: string, takeOverAfter: Date): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "endPurchaseLease",
    { claimToken: token },
    { leaseUntil: takeOverAfter, lastError: reason },
  );
}

/** Only for a purchase the service refused, or one a read-back proved still a draft. */
export function returnToDraft(ref: Ref, token: string, reason: string): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "returnToDraft",
    { claimToken: token },
    { claimToken: null, leaseUntil: null, lastError: reason },
  );
}

export type BoughtLabel = {
  chargedCents: number | null;
  chargeMismatch: boolean;
  currency: string;
  carrier: string;
  serviceCode: string;
  serviceName: string | null;
  trackingNumbers: readonly string[];
  trackingUrl: string | null;
  labelUrl: string;
  labelFormat: string | null;
  packageCount: number | null;
  requestId: string | null;
  purchasedAt: Date;
};

/**
 * Saves a purchase the service confirmed, with its charge in the audit trail, in one
 * transaction: a bought label never lacks its audit entry. The service's word is a fact, so
 * this needs no claim token: whichever caller learns of the purchase first saves it (a caller
 * whose attempt was taken over included), and the others find it saved. False when the label
 * was already saved (or is no longer this draft).
 */
export async function savePurchased(
  ref: Ref,
  serviceLabelId: string,
  bought: BoughtLabel,
  audit: Omit<AuditInput, "shop" | "labelId" | "action">,
): Promise<boolean> {
  return ref.db.$transaction(async (tx) => {
    const current = await tx.label.findFirst({
      where: { id: ref.labelId, shop: ref.shop },
      select: { requestIds: true, serviceName: true, labelFormat: true, packageCount: true },
    });
    if (!current) return false;
    const saved = await apply(
      tx,
      ref,
      "savePurchased",
      { serviceLabelId },
      {
        chargedCents: bought.chargedCents,
        chargeMismatch: bought.chargeMismatch,
        currency: bought.currency,
        carrier: bought.carrier,
        serviceCode: bought.serviceCode,
        serviceName: bought.serviceName ?? current.serviceName,
        trackingNumbers: JSON.stringify(bought.trackingNumbers),
        trackingUrl: bought.trackingUrl,
        labelUrl: bought.labelUrl,
        labelFormat: bought.labelFormat ?? current.labelFormat,
        packageCount: bought.packageCount ?? current.packageCount,
        requestIds: withRequestId(parseStoredJson(current.requestIds, StringListSchema, []), bought.requestId),
        purchasedAt: bought.purchasedAt,
        claimToken: null,
        leaseUntil: null,
        lastError: null,
        writeBackStatus: "pending",
      },
    );
    // "On hold" is a draft's flag: a bought label no longer carries it (flags of a bought label stay).
    if (saved) {
      await tx.label.updateMany({
        where: { id: ref.labelId, shop: ref.shop, attention: "on_hold" },
        data: { attention: null, attentionAt: null },
      });
    }
    if (saved) await recordAudit(tx, { ...audit, shop: ref.shop, labelId: ref.labelId, action: "purchase" });
    return saved;
  });
}

export type OutsidePurchase = {
  orderGid: OrderGid;
  orderName: string;
  fulfillmentOrderGid: FulfillmentOrderGid;
  lineItems: readonly LabelLineItem[];
  serviceLabelId: string;
  bought: BoughtLabel;
};

/**
 * A label bought outside the app for one of the shop's fulfillment orders, as a bought label with
 * its write-back pending. Null when the fulfillment order already has an active label, or the
 * service label is already recorded (the event came twice): the unique keys decide, not a read.
 */
export async function recordOutsidePurchase(
  db: PrismaClient,
  shop: string,
  input: OutsidePurchase,
): Promise<string | null> {
  try {
    const row = await db.label.create({
      data: {
        shop,
        orderGid: input.orderGid,
        orderName: input.orderName,
        fulfillmentOrderGid: input.fulfillmentOrderGid,
        activeKey: activeKeyFor(shop, input.fulfillmentOrderGid),
        status: LABEL_TRANSITIONS.recordOutsidePurchase.to,
        boughtOutside: true,
        serviceLabelId: input.serviceLabelId,
        lineItems: JSON.stringify(input.lineItems),
        chargedCents: input.bought.chargedCents,
        currency: input.bought.currency,
        carrier: input.bought.carrier,
        serviceCode: input.bought.serviceCode,
        serviceName: input.bought.serviceName,
        trackingNumbers: JSON.stringify(input.bought.trackingNumbers),
        trackingUrl: input.bought.trackingUrl,
        labelUrl: input.bought.labelUrl,
        labelFormat: input.bought.labelFormat,
        packageCount: input.bought.packageCount ?? 1,
        requestIds: withRequestId([], input.bought.requestId),
        purchasedAt: input.bought.purchasedAt,
        writeBackStatus: "pending",
      },
    });
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** What Shopify's fulfillment now shows for the shipment (not a state change of the label). */
/**
 * Takes the right to send `next` as the shipment's status to Shopify: only while the recorded
 * status is still `previous` (what the caller judged against) and nothing as new or newer is
 * recorded. Compare-and-set, so of two jobs judging at once only one sends, and an older status
 * never replaces a newer one. False: someone moved it meanwhile; judge again.
 */
export async function claimTrackingStatus(
  db: PrismaClient,
  shop: string,
  labelId: string,
  previous: { status: string; at: Date } | null,
  next: { status: string; at: Date },
): Promise<boolean> {
  const { count } = await db.label.updateMany({
    where: {
      id: labelId,
      shop,
      trackingStatus: previous?.status ?? null,
      OR: [{ trackingStatusAt: null }, { trackingStatusAt: { lt: next.at } }],
    },
    data: { trackingStatus: next.status, trackingStatusAt: next.at },
  });
  return count === 1;
}

/** Shopify did not take the status claimed: back to `previous`, unless someone moved it on since. */
export async function releaseTrackingStatus(
  db: PrismaClient,
  shop: string,
  labelId: string,
  claimed: { status: string; at: Date },
  previous: { status: string; at: Date } | null,
): Promise<void> {
  await db.label.updateMany({
    where: { id: labelId, shop, trackingStatus: claimed.status, trackingStatusAt: claimed.at },
    data: { trackingStatus: previous?.status ?? null, trackingStatusAt: previous?.at ?? null },
  });
}

/** Frees the fulfillment order of a draft the service confirmed it never bought. */
export function voidDraft(ref: Ref): Promise<boolean> {
  return apply(ref.db, ref, "voidDraft", {}, { activeKey: null });
}

/**
 * Flags a bought label for the merchant (the order changed after it was bought). The first reason
 * stays: a later change does not hide why the label was flagged. Not a state change: the label
 * stays bought, and its write-back goes on as before.
 */
export async function flagLabelAttention(
  db: PrismaClient,
  shop: string,
  labelId: string,
  reason: LabelAttention,
  now = new Date(),
): Promise<boolean> {
  const { count } = await db.label.updateMany({
    // A draft's "On hold" gives way to what happened to the bought label; another flag stays.
    where: {
      id: labelId,
      shop,
      OR: [{ attention: null }, { attention: "on_hold" }],
      status: { in: ["purchasing", "purchased", "fulfilled"] },
    },
    data: { attention: reason, attentionAt: now },
  });
  return count === 1;
}

/**
 * Shopify put the draft's shipment on hold (fulfillment_orders/placed_on_hold, re-read): the draft
 * reads "On hold" until the hold is released. A flag of another kind is left as it is.
 */
export async function markDraftOnHold(
  db: PrismaClient,
  shop: string,
  labelId: string,
  now = new Date(),
): Promise<boolean> {
  const { count } = await db.label.updateMany({
    where: { id: labelId, shop, attention: null, status: { in: ["creating", "draft"] } },
    data: { attention: "on_hold", attentionAt: now },
  });
  return count === 1;
}

/** The hold was released (or the label moved on): the "On hold" flag goes, and only that one. */
export async function clearOnHold(db: PrismaClient, shop: string, labelId: string): Promise<boolean> {
  const { count } = await db.label.updateMany({
    where: { id: labelId, shop, attention: "on_hold" },
    data: { attention: null, attentionAt: null },
  });
  return count === 1;
}

/** The merchant dealt with the flag (voided with the carrier, or shipped it anyway). */
export async function dismissLabelAttention(db: PrismaClient, shop: string, labelId: string): Promise<boolean> {
  const { count } = await db.label.updateMany({
    where: { id: labelId, shop, attention: { not: null } },
    data: { attention: null, attentionAt: null },
  });
  return count === 1;
}

/**
 * Shopify released the hold of a label flagged "Bought for a held order" (and the order was not
 * cancelled): the flag goes and its refused write-back is handed back to the recovery job, which
 * sends the tracking now that Shopify takes it. Not a state change: the label stays bought.
 */
export async function releaseHeldPurchase(db: PrismaClient, shop: string, labelId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.label.updateMany({
      where: { id: labelId, shop, attention: "bought_while_held", status: { in: ["purchased", "fulfilled"] } },
      data: { attention: null, attentionAt: null },
    });
    if (count === 1) {
      await tx.label.updateMany({
        where: { id: labelId, shop, status: "purchased", writeBackStatus: "failed" },
        data: { writeBackStatus: "pending" },
      });
    }
    return count === 1;
  });
}
