import type { Label, Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import {
  type FulfillmentGid,
  type FulfillmentOrderGid,
  type FulfillmentOrderLineItemGid,
  type OrderGid,
  parseFulfillmentGid,
  parseFulfillmentOrderGid,
  parseFulfillmentOrderLineItemGid,
  parseOrderGid,
} from "~/shopify/ids";
import { isUniqueViolation } from "~/utils/prisma-errors";
import { parseStoredJson } from "~/utils/stored-json";

import { type AuditInput, recordAudit } from "./audit.server";
import {
  ACTIVE_STATUSES,
  LABEL_ATTENTIONS,
  LABEL_STATUSES,
  type LabelAttention,
  type LabelStatus,
  WRITE_BACK_STATUSES,
  type WriteBackStatus,
} from "./label-state";

// The only code that reads or writes Label rows. Every state change is a named transition: a
// conditional update whose `where` names the states it leaves (and, for a claimed state, the
// token of the caller that owns it), and that reports whether it happened. Callers never write
// a status themselves, so a caller that lost a race cannot overwrite what the winner wrote.
// Every query filters by shop. See docs/decisions/0005-exactly-once-purchase-and-write-back.md.

/**
 * The label state machine: every transition, the states it may leave and the one it enters.
 * The functions below are its only implementation; a test walks this table.
 */
export const LABEL_TRANSITIONS = {
  claimCreationSlot: { from: [], to: "creating" },
  takeOverCreation: { from: ["creating"], to: "creating" },
  completeCreation: { from: ["creating"], to: "draft" },
  failCreation: { from: ["creating"], to: "failed" },
  claimPurchase: { from: ["draft", "purchasing"], to: "purchasing" },
  endPurchaseLease: { from: ["purchasing"], to: "purchasing" },
  returnToDraft: { from: ["purchasing"], to: "draft" },
  savePurchased: { from: ["draft", "purchasing"], to: "purchased" },
  voidDraft: { from: ["draft"], to: "voided" },
  completeWriteBack: { from: ["purchased"], to: "fulfilled" },
  // A label bought in the service's dashboard or by another tool, learned from its event.
  recordOutsidePurchase: { from: [], to: "purchased" },
} as const satisfies Record<string, { from: readonly LabelStatus[]; to: LabelStatus }>;
export type LabelTransition = keyof typeof LABEL_TRANSITIONS;

export type LabelLineItem = { id: FulfillmentOrderLineItemGid; quantity: number };

export type { LabelAttention };

export type LabelView = {
  id: string;
  shop: string;
  orderGid: OrderGid;
  orderName: string;
  fulfillmentOrderGid: FulfillmentOrderGid;
  status: LabelStatus;
  serviceLabelId: string | null;
  rateId: string | null;
  carrier: string | null;
  serviceCode: string | null;
  serviceName: string | null;
  quotedCents: number | null;
  chargedCents: number | null;
  currency: string;
  /** Charged differs from the quote (re-priced): the merchant should look. */
  chargeMismatch: boolean;
  trackingNumbers: string[];
  trackingUrl: string | null;
  labelFormat: string | null;
  labelSize: string | null;
  labelUrl: string | null;
  shipDate: string | null;
  packageCount: number;
  /** The fulfillment-order line items this label ships, and how many of each. */
  lineItems: LabelLineItem[];
  /** The request the draft was created from (addresses, boxes, customs), as sent; null before. */
  request: unknown;
  requestIds: string[];
  fulfillmentGid: FulfillmentGid | null;
  writeBack: { status: WriteBackStatus; attempts: number; lastError: string | null };
  lastError: string | null;
  /** The Shopify ship-to address the label was drafted for (ship-to-key.ts); null for older labels. */
  shipToKey: string | null;
  /** Bought in the shipping service's dashboard or by another tool, not through this app. */
  boughtOutside: boolean;
  /** The shipment's status last added to its Shopify fulfillment, and when it occurred. */
  tracking: { status: string; at: Date } | null;
  /** Set when the order changed after the label was bought (see LABEL_ATTENTIONS), and when. */
  attention: { reason: LabelAttention; at: Date } | null;
  purchasedAt: Date | null;
  /** While creating or purchasing: until when the current claim holds (or the quiet period runs). */
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

// ---------- Reading rows ----------

const StringListSchema = z.array(z.string());
const LineItemListSchema = z.array(z.object({ id: z.string(), quantity: z.number().int().positive() }));

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** A stored id that is not the GID it must be is a broken invariant: rows are written only here. */
function requireGid<T>(parse: (value: string) => T | undefined, value: string, what: string): T {
  const parsed = parse(value);
  if (parsed === undefined) throw new Error(`label row holds an invalid ${what}: ${value}`);
  return parsed;
}

function toLineItems(json: string): LabelLineItem[] {
  return parseStoredJson(json, LineItemListSchema, []).map((line) => ({
    id: requireGid(parseFulfillmentOrderLineItemGid, line.id, "fulfillment order line item id"),
    quantity: line.quantity,
  }));
}

export function toLabelView(row: Label): LabelView {
  if (!isOneOf(LABEL_STATUSES, row.status)) throw new Error(`label ${row.id} has unknown status ${row.status}`);
  if (!isOneOf(WRITE_BACK_STATUSES, row.writeBackStatus)) {
    throw new Error(`label ${row.id} has unknown write-back status ${row.writeBackStatus}`);
  }
  return {
    id: row.id,
    shop: row.shop,
    orderGid: requireGid(parseOrderGid, row.orderGid, "order id"),
    orderName: row.orderName,
    fulfillmentOrderGid: requireGid(parseFulfillmentOrderGid, row.fulfillmentOrderGid, "fulfillment order id"),
    status: row.status,
    serviceLabelId: row.serviceLabelId,
    rateId: row.rateId,
    carrier: row.carrier,
    serviceCode: row.serviceCode,
    serviceName: row.serviceName,
    quotedCents: row.quotedCents,
    chargedCents: row.chargedCents,
    currency: row.currency,
    chargeMismatch: row.chargeMismatch,
    trackingNumbers: parseStoredJson(row.trackingNumbers, StringListSchema, []),
    trackingUrl: row.trackingUrl,
    labelFormat: row.labelFormat,
    labelSize: row.labelSize,
    labelUrl: row.labelUrl,
    shipDate: row.shipDate,
    packageCount: row.packageCount,
    lineItems: toLineItems(row.lineItems),
    request: row.request === null ? null : parseStoredJson(row.request, z.unknown(), null),
    requestIds: parseStoredJson(row.requestIds, StringListSchema, []),
    fulfillmentGid: row.fulfillmentGid ? requireGid(parseFulfillmentGid, row.fulfillmentGid, "fulfillment id") : null,
    writeBack: {
      status: row.writeBackStatus,
      attempts: row.writeBackAttempts,
      lastError: row.writeBackLastError,
    },
    lastError: row.lastError,
    shipToKey: row.shipToKey,
    boughtOutside: row.boughtOutside,
    tracking: row.trackingStatus ? { status: row.trackingStatus, at: row.trackingStatusAt ?? row.updatedAt } : null,
    attention:
      row.attention && isOneOf(LABEL_ATTENTIONS, row.attention)
        ? { reason: row.attention, at: row.attentionAt ?? row.updatedAt }
        : null,
    purchasedAt: row.purchasedAt,
    leaseUntil: row.leaseUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function activeKeyFor(shop: string, fulfillmentOrderGid: FulfillmentOrderGid): string {
  return `${shop}:${fulfillmentOrderGid}`;
}

function withRequestId(list: readonly string[], requestId: string | null | undefined): string {
  return JSON.stringify(requestId && !list.includes(requestId) ? [...list, requestId] : list);
}

export async function findLabel(db: PrismaClient, shop: string, labelId: string): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { id: labelId, shop } });
  return row ? toLabelView(row) : null;
}

export async function findActiveLabel(
  db: PrismaClient,
  shop: string,
  fulfillmentOrderGid: FulfillmentOrderGid,
): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { shop, activeKey: activeKeyFor(shop, fulfillmentOrderGid) } });
  return row ? toLabelView(row) : null;
}

export async function listLabelsForOrder(db: PrismaClient, shop: string, orderGid: OrderGid): Promise<LabelView[]> {
  const rows = await db.label.findMany({ where: { shop, orderGid }, orderBy: { createdAt: "asc" } });
  return rows.map(toLabelView);
}

/** The active labels of several orders in one query (a page of the Orders list). */
export async function listActiveLabelsForOrders(
  db: PrismaClient,
  shop: string,
  orderGids: readonly string[],
): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, orderGid: { in: [...orderGids] }, status: { in: [...ACTIVE_STATUSES] } },
  });
  return rows.map(toLabelView);
}

/** The label the service knows by this id, if it is one of this shop's. */
export async function findLabelByServiceId(
  db: PrismaClient,
  shop: string,
  serviceLabelId: string,
): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { shop, serviceLabelId } });
  return row ? toLabelView(row) : null;
}

/** The active labels of these fulfillment orders. */
export async function listActiveLabelsForFulfillmentOrders(
  db: Prisma.TransactionClient,
  shop: string,
  fulfillmentOrderGids: readonly FulfillmentOrderGid[],
): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, activeKey: { in: fulfillmentOrderGids.map((gid) => activeKeyFor(shop, gid)) } },
  });
  return rows.map(toLabelView);
}

/** Whether the order has a label not voided or failed: only then can a change to the order make one stale. */
export async function hasActiveLabels(
  db: Prisma.TransactionClient,
  shop: string,
  orderGid: OrderGid,
): Promise<boolean> {
  const row = await db.label.findFirst({
    where: { shop, orderGid, status: { in: [...ACTIVE_STATUSES] } },
    select: { id: true },
  });
  return row !== null;
}

/**
 * The shop's labels, newest first (by creation, or by last change), optionally in some states or
 * for one order name. The id breaks ties so pages never overlap.
 */
export async function listLabels(
  db: PrismaClient,
  shop: string,
  filter: {
    statuses?: readonly LabelStatus[];
    orderName?: string;
    newestBy?: "createdAt" | "updatedAt";
    take: number;
    skip?: number;
  },
): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: {
      shop,
      ...(filter.statuses ? { status: { in: [...filter.statuses] } } : {}),
      ...(filter.orderName ? { orderName: filter.orderName } : {}),
    },
    orderBy: [{ [filter.newestBy ?? "updatedAt"]: "desc" }, { id: "desc" }],
    take: filter.take,
    ...(filter.skip ? { skip: filter.skip } : {}),
  });
  return rows.map(toLabelView);
}

/** How many labels the shop has in each state. */
export async function countLabelsByStatus(db: PrismaClient, shop: string): Promise<Record<LabelStatus, number>> {
  const groups = await db.label.groupBy({ by: ["status"], where: { shop }, _count: { _all: true } });
  const counts = Object.fromEntries(LABEL_STATUSES.map((status) => [status, 0])) as Record<LabelStatus, number>;
  for (const group of groups) {
    if (isOneOf(LABEL_STATUSES, group.status)) counts[group.status] = group._count._all;
  }
  return counts;
}

/** The current state of each of these labels of the shop. */
export async function findLabelStatuses(
  db: PrismaClient | Prisma.TransactionClient,
  shop: string,
  labelIds: readonly string[],
): Promise<Map<string, LabelStatus>> {
  if (labelIds.length === 0) return new Map();
  const rows = await db.label.findMany({
    where: { shop, id: { in: [...labelIds] } },
    select: { id: true, status: true },
  });
  return new Map(rows.flatMap((row) => (isOneOf(LABEL_STATUSES, row.status) ? [[row.id, row.status] as const] : [])));
}

/** The order names (#1001) the shop's labels know for these order GIDs. */
export async function findOrderNames(
  db: PrismaClient,
  shop: string,
  orderGids: readonly string[],
): Promise<Map<string, string>> {
  if (orderGids.length === 0) return new Map();
  const rows = await db.label.findMany({
    where: { shop, orderGid: { in: [...orderGids] } },
    select: { orderGid: true, orderName: true },
    distinct: ["orderGid"],
  });
  return new Map(rows.map((row) => [row.orderGid, row.orderName]));
}

/** Purchased labels whose tracking has not reached Shopify yet (shown as "tracking pending"). */
export async function listPendingWriteBacks(db: PrismaClient, shop: string): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, status: "purchased", writeBackStatus: { in: ["pending", "writing", "failed"] } },
    orderBy: { updatedAt: "asc" },
  });
  return rows.map(toLabelView);
}

/** Purchases whose attempt ended without a known outcome or whose owner died (lease over). */
export async function listStuckPurchaseIds(db: PrismaClient, shop: string, now: Date): Promise<string[]> {
  const rows = await db.label.findMany({
    where: { shop, status: "purchasing", leaseUntil: { lt: now } },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** Write-backs the recovery job should try again: pending, or claimed by a writer that died. */
export async function listRetryableWriteBackIds(
  db: PrismaClient,
  shop: string,
  now: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db.label.findMany({
    where: { shop, ...retryableWriteBack(now) },
    orderBy: { updatedAt: "asc" },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

function retryableWriteBack(now: Date): Prisma.LabelWhereInput {
  return {
    status: "purchased",
    OR: [{ writeBackStatus: "pending" }, { writeBackStatus: "writing", writeBackLeaseUntil: { lt: now } }],
  };
}

/** The shops that have stuck purchases or retryable write-backs: the recovery job's work list. */
export async function listShopsWithRecoveryWork(db: PrismaClient, now: Date): Promise<string[]> {
  const rows = await db.label.findMany({
    where: { OR: [{ status: "purchasing", leaseUntil: { lt: now } }, retryableWriteBack(now)] },
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}

// ---------- Transitions ----------

type Ref = { db: PrismaClient; shop: string; labelId: string };

/** One conditional update leaving `transition`'s states; true when it happened. */
async function apply(
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

export type NewLabel = {
  orderGid: OrderGid;
  orderName: string;
  fulfillmentOrderGid: FulfillmentOrderGid;
  lineItems: readonly LabelLineItem[];
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
  claim: { token: string; leaseUntil: Date; now: Date; lineItems: readonly LabelLineItem[] },
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
      request: JSON.stringify(draft.request),
      shipToKey: draft.shipToKey,
      claimToken: null,
      leaseUntil: null,
      lastError: null,
    },
  );
}

/** A draft that could not be created frees the fulfillment order for the next attempt. */
export function failCreation(ref: Ref, token: string, reason: string): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "failCreation",
    { claimToken: token },
    { activeKey: null, lastError: reason, claimToken: null, leaseUntil: null },
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
export async function saveTrackingStatus(
  db: PrismaClient,
  shop: string,
  labelId: string,
  tracking: { status: string; at: Date },
): Promise<void> {
  await db.label.updateMany({
    where: { id: labelId, shop },
    data: { trackingStatus: tracking.status, trackingStatusAt: tracking.at },
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

// ---------- The write-back's own claim (a label stays `purchased` while it runs) ----------

/** Claims the write-back: not yet done, and not owned by a writer whose lease still runs. */
export async function claimWriteBack(
  ref: Ref,
  claim: { token: string; leaseUntil: Date; now: Date },
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: {
      id: ref.labelId,
      shop: ref.shop,
      status: "purchased",
      fulfillmentGid: null,
      OR: [
        { writeBackStatus: { in: ["none", "pending", "failed"] } },
        { writeBackStatus: "writing", writeBackLeaseUntil: { lt: claim.now } },
      ],
    },
    data: {
      writeBackStatus: "writing",
      writeBackToken: claim.token,
      writeBackLeaseUntil: claim.leaseUntil,
      writeBackAttempts: { increment: 1 },
    },
  });
  return result.count === 1;
}

/**
 * Records the fulfillment that carries the label's tracking. Shopify holding it is a fact, so
 * any writer may record it (no token); false when one was recorded already.
 */
export function completeWriteBack(ref: Ref, fulfillmentGid: FulfillmentGid): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "completeWriteBack",
    { fulfillmentGid: null },
    {
      fulfillmentGid,
      writeBackStatus: "done",
      writeBackLastError: null,
      writeBackToken: null,
      writeBackLeaseUntil: null,
    },
  );
}

/**
 * The writer gives the write-back up: `pending` (the recovery job retries it) or `failed`
 * (Shopify refused it; the merchant must act). Only the writer that owns it may.
 */
export async function releaseWriteBack(
  ref: Ref,
  token: string,
  outcome: { status: "pending" | "failed"; error: string },
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, status: "purchased", writeBackStatus: "writing", writeBackToken: token },
    data: {
      writeBackStatus: outcome.status,
      writeBackLastError: outcome.error,
      writeBackToken: null,
      writeBackLeaseUntil: null,
    },
  });
  return result.count === 1;
}

// ---------- Privacy (compliance webhooks) ----------
// They change no state, lease or token: only what the rows say of a person, or the shop's rows
// all at once.

/** The rows of these orders as stored (the request JSON as sent), oldest first: privacy reads them whole. */
export function listLabelRowsOfOrders(
  client: Prisma.TransactionClient,
  shop: string,
  orderGids: readonly string[],
): Promise<Label[]> {
  return client.label.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, orderBy: { createdAt: "asc" } });
}

export type LabelRedaction = {
  id: string;
  request: string | null;
  lastError: string | null;
  writeBackLastError: string | null;
};

/** customers/redact: the personal data in these labels' stored request and error texts, replaced. */
export async function redactLabelRequests(
  client: Prisma.TransactionClient,
  shop: string,
  updates: readonly LabelRedaction[],
): Promise<void> {
  for (const { id, ...data } of updates) await client.label.updateMany({ where: { id, shop }, data });
}

/** shop/redact: every label of the shop, gone. */
export async function deleteShopLabels(client: Prisma.TransactionClient, shop: string): Promise<number> {
  return (await client.label.deleteMany({ where: { shop } })).count;
}
