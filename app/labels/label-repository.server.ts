import type { Label, Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { openPersonalOrNull } from "~/settings/personal-data-box.server";
import {
  type FulfillmentGid,
  type FulfillmentOrderGid,
  type FulfillmentOrderLineItemGid,
  type OrderGid,
  parseFulfillmentGid,
  parseFulfillmentOrderGid,
  parseFulfillmentOrderLineItemGid,
  parseOrderGid,
  parseReturnGid,
  parseReverseDeliveryGid,
  parseReverseFulfillmentOrderGid,
  parseReverseFulfillmentOrderLineItemGid,
  type ReturnGid,
  type ReverseDeliveryGid,
  type ReverseFulfillmentOrderGid,
  type ReverseFulfillmentOrderLineItemGid,
} from "~/shopify/ids";
import { parseStoredJson } from "~/utils/stored-json";

import { whereLabelsNeed } from "./label-needs.server";
import {
  ACTIVE_STATUSES,
  LABEL_ATTENTIONS,
  LABEL_STATUSES,
  type LabelAttention,
  type LabelNeed,
  type LabelStatus,
  WRITE_BACK_STATUSES,
  type WriteBackStatus,
} from "./label-state";
import { recordPersonalDataAccess } from "./personal-data-access.server";

// Reading Label rows, and what a label is (LabelView, the state machine's table). With
// label-transitions.server.ts (every state change), write-back-claims.server.ts (the write-back's
// own claim) and label-redaction.server.ts (compliance), the only code that reads or writes Label
// rows. Every state change is a named transition: a conditional update whose `where` names the
// states it leaves (and, for a claimed state, the token of the caller that owns it), and that
// reports whether it happened. Callers never write a status themselves, so a caller that lost a
// race cannot overwrite what the winner wrote. Every query filters by shop. See
// docs/decisions/0005-exactly-once-purchase-and-write-back.md.

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
  // Voiding a bought label (ADR 22, void-label.server.ts). The claim is on `refundStatus`; the
  // service's acceptance frees the fulfillment order for a replacement; its decision settles it.
  acceptVoid: { from: ["purchased", "fulfilled"], to: "void_pending" },
  refundVoid: { from: ["void_pending", "purchased", "fulfilled"], to: "voided" },
  refuseVoid: { from: ["void_pending"], to: "purchased" },
  // A label bought in the service's dashboard or by another tool, learned from its event.
  recordOutsidePurchase: { from: [], to: "purchased" },
} as const satisfies Record<string, { from: readonly LabelStatus[]; to: LabelStatus }>;
export type LabelTransition = keyof typeof LABEL_TRANSITIONS;

/**
 * One item a label ships. `title` and `sku` are as Shopify named them when the label was drafted
 * (for its packing slip); labels drafted before they were kept have neither.
 */
export type LabelLineItem<Id extends string = FulfillmentOrderLineItemGid> = {
  id: Id;
  quantity: number;
  title?: string;
  sku?: string | null;
};
/** One item a return label brings back: a line of the return's reverse fulfillment order. */
export type ReturnLabelLineItem = LabelLineItem<ReverseFulfillmentOrderLineItemGid>;

/** outbound: to the customer; return: a Shopify return's items back to the merchant (ADR 23). */
export const LABEL_KINDS = ["outbound", "return"] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

export type { LabelAttention };

/**
 * A label: an outbound one ships a fulfillment order to the customer and its tracking becomes a
 * Shopify fulfillment; a return label brings a Shopify return's reverse fulfillment order back,
 * and its file and tracking become the return's reverse delivery (ADR 23).
 */
export type LabelView = OutboundLabelView | ReturnLabelView;

export type OutboundLabelView = LabelViewCommon & {
  kind: "outbound";
  returnGid: null;
  fulfillmentOrderGid: FulfillmentOrderGid;
  /** The fulfillment-order line items this label ships, and how many of each. */
  lineItems: LabelLineItem[];
  fulfillmentGid: FulfillmentGid | null;
};

export type ReturnLabelView = LabelViewCommon & {
  kind: "return";
  returnGid: ReturnGid;
  /** The return's reverse fulfillment order: the label's one active slot is keyed on it. */
  fulfillmentOrderGid: ReverseFulfillmentOrderGid;
  lineItems: ReturnLabelLineItem[];
  /** The reverse delivery that carries the label in Shopify, once attached. */
  fulfillmentGid: ReverseDeliveryGid | null;
};

export const isOutboundLabel = (label: LabelView): label is OutboundLabelView => label.kind === "outbound";
export const isReturnLabel = (label: LabelView): label is ReturnLabelView => label.kind === "return";

type LabelViewCommon = {
  id: string;
  shop: string;
  orderGid: OrderGid;
  orderName: string;
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
  /**
   * The request the draft was created from (addresses, boxes, customs), as sent; null before.
   * Stored sealed (ADR 28): a read that returns it opened writes the access log (viewsOf).
   */
  request: unknown;
  requestIds: string[];
  writeBack: { status: WriteBackStatus; attempts: number; lastError: string | null };
  lastError: string | null;
  /**
   * The Shopify ship-to address the label was drafted for (ship-to-key.ts), as its keyed digest
   * (or, for labels from before ADR 28, as it was): compare with `matchesPersonal`. Null for older labels.
   */
  shipToKey: string | null;
  /** Bought in the shipping service's dashboard or by another tool, not through this app. */
  boughtOutside: boolean;
  /** The shipment's status last added to its Shopify fulfillment, and when it occurred. */
  tracking: { status: string; at: Date } | null;
  /** Set when the order changed after the label was bought (see LABEL_ATTENTIONS), and when. */
  attention: { reason: LabelAttention; at: Date } | null;
  purchasedAt: Date | null;
  /**
   * A void asked of the service for this bought label (ADR 22): `requesting` while the request is
   * in flight, then `pending` until the carrier decides, `refunded` or `rejected`; null if never.
   */
  void: {
    status: "requesting" | "pending" | "refunded" | "rejected";
    refundCents: number | null;
    refusal: string | null;
    requestedAt: Date | null;
    decidedAt: Date | null;
    /**
     * Where the Shopify fulfillment stands: cancelled for a replacement, or restored on refusal;
     * `cancel_failed` when Shopify refused the cancel (the merchant must cancel it there).
     */
    shopify: "cancel_pending" | "cancelled" | "cancel_failed" | "restore_pending" | "restored" | null;
  } | null;
  /** While creating or purchasing: until when the current claim holds (or the quiet period runs). */
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

// ---------- Reading rows ----------

export const StringListSchema = z.array(z.string());
const LineItemListSchema = z.array(
  z.object({
    id: z.string(),
    quantity: z.number().int().positive(),
    title: z.string().optional(),
    sku: z.string().nullable().optional(),
  }),
);

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** A stored id that is not the GID it must be is a broken invariant: rows are written only here. */
function requireGid<T>(parse: (value: string) => T | undefined, value: string, what: string): T {
  const parsed = parse(value);
  if (parsed === undefined) throw new Error(`label row holds an invalid ${what}: ${value}`);
  return parsed;
}

function toLineItems<Id extends string>(json: string, parse: (value: string) => Id | undefined): LabelLineItem<Id>[] {
  return parseStoredJson(json, LineItemListSchema, []).map((line) => ({
    id: requireGid(parse, line.id, "line item id"),
    quantity: line.quantity,
    ...(line.title === undefined ? {} : { title: line.title }),
    ...(line.sku === undefined ? {} : { sku: line.sku }),
  }));
}

const VOID_STATUSES = ["requesting", "pending", "refunded", "rejected"] as const;
const VOID_SHOPIFY_STATUSES = ["cancel_pending", "cancelled", "cancel_failed", "restore_pending", "restored"] as const;

function toTracking(row: Pick<Label, "trackingStatus" | "trackingStatusAt" | "updatedAt">): LabelView["tracking"] {
  return row.trackingStatus ? { status: row.trackingStatus, at: row.trackingStatusAt ?? row.updatedAt } : null;
}

type VoidColumns = Pick<
  Label,
  "refundStatus" | "refundCents" | "voidRefusal" | "voidRequestedAt" | "voidDecidedAt" | "voidShopifyStatus"
>;

function toVoid(row: VoidColumns): LabelView["void"] {
  if (!row.refundStatus || !isOneOf(VOID_STATUSES, row.refundStatus)) return null;
  const shopify = row.voidShopifyStatus;
  return {
    status: row.refundStatus,
    refundCents: row.refundCents,
    refusal: row.voidRefusal,
    requestedAt: row.voidRequestedAt,
    decidedAt: row.voidDecidedAt,
    shopify: shopify && isOneOf(VOID_SHOPIFY_STATUSES, shopify) ? shopify : null,
  };
}

function toLabelView(row: Label): LabelView {
  if (!isOneOf(LABEL_STATUSES, row.status)) throw new Error(`label ${row.id} has unknown status ${row.status}`);
  if (!isOneOf(WRITE_BACK_STATUSES, row.writeBackStatus)) {
    throw new Error(`label ${row.id} has unknown write-back status ${row.writeBackStatus}`);
  }
  if (!isOneOf(LABEL_KINDS, row.kind)) throw new Error(`label ${row.id} has unknown kind ${row.kind}`);
  const common: LabelViewCommon = {
    id: row.id,
    shop: row.shop,
    orderGid: requireGid(parseOrderGid, row.orderGid, "order id"),
    orderName: row.orderName,
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
    request: parseStoredJson(openPersonalOrNull(row.request), z.unknown(), null),
    requestIds: parseStoredJson(row.requestIds, StringListSchema, []),
    writeBack: {
      status: row.writeBackStatus,
      attempts: row.writeBackAttempts,
      lastError: row.writeBackLastError,
    },
    lastError: row.lastError,
    shipToKey: row.shipToKey,
    boughtOutside: row.boughtOutside,
    tracking: toTracking(row),
    attention:
      row.attention && isOneOf(LABEL_ATTENTIONS, row.attention)
        ? { reason: row.attention, at: row.attentionAt ?? row.updatedAt }
        : null,
    purchasedAt: row.purchasedAt,
    void: toVoid(row),
    leaseUntil: row.leaseUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (row.kind === "return") {
    return {
      ...common,
      kind: "return",
      returnGid: requireGid(parseReturnGid, row.returnGid ?? "", "return id"),
      fulfillmentOrderGid: requireGid(
        parseReverseFulfillmentOrderGid,
        row.fulfillmentOrderGid,
        "reverse fulfillment order id",
      ),
      lineItems: toLineItems(row.lineItems, parseReverseFulfillmentOrderLineItemGid),
      fulfillmentGid: row.fulfillmentGid
        ? requireGid(parseReverseDeliveryGid, row.fulfillmentGid, "reverse delivery id")
        : null,
    };
  }
  return {
    ...common,
    kind: "outbound",
    returnGid: null,
    fulfillmentOrderGid: requireGid(parseFulfillmentOrderGid, row.fulfillmentOrderGid, "fulfillment order id"),
    lineItems: toLineItems(row.lineItems, parseFulfillmentOrderLineItemGid),
    fulfillmentGid: row.fulfillmentGid ? requireGid(parseFulfillmentGid, row.fulfillmentGid, "fulfillment id") : null,
  };
}

/**
 * Rows as views, their ship-to details opened, and the access written to the log (ADR 28): one
 * entry naming the orders whose details were opened, by which read, for the current request or job.
 */
async function viewsOf(
  db: PrismaClient | Prisma.TransactionClient,
  shop: string,
  rows: readonly Label[],
  reader: string,
): Promise<LabelView[]> {
  const views = rows.map(toLabelView);
  await recordPersonalDataAccess(db, {
    shop,
    reader,
    orderGids: rows.flatMap((row) => (row.request === null ? [] : [row.orderGid])),
  });
  return views;
}

async function viewOf(
  db: PrismaClient | Prisma.TransactionClient,
  shop: string,
  row: Label | null,
  reader: string,
): Promise<LabelView | null> {
  return row ? ((await viewsOf(db, shop, [row], reader))[0] ?? null) : null;
}

export function activeKeyFor(
  shop: string,
  fulfillmentOrderGid: FulfillmentOrderGid | ReverseFulfillmentOrderGid,
): string {
  return `${shop}:${fulfillmentOrderGid}`;
}

export function withRequestId(list: readonly string[], requestId: string | null | undefined): string {
  return JSON.stringify(requestId && !list.includes(requestId) ? [...list, requestId] : list);
}

// A lone UTF-16 surrogate (from an edited URL or a forged form) cannot be sent to the database
// driver, which fails on it; no label id has one, so such an id finds nothing.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export async function findLabel(db: PrismaClient, shop: string, labelId: string): Promise<LabelView | null> {
  if (LONE_SURROGATE.test(labelId)) return null;
  const row = await db.label.findFirst({ where: { id: labelId, shop } });
  return viewOf(db, shop, row, "findLabel");
}

/** How a failed creation whose draft may exist at the service, unconfirmed, is marked (failCreation). */
export const DRAFT_MAY_EXIST = "draft may exist at the service: ";

/**
 * The creations for this fulfillment order since `since` whose answer was lost (a draft may exist
 * untracked), newest first, counting only those after its last draft the service confirmed.
 */
export async function findUnconfirmedDrafts(
  db: PrismaClient,
  shop: string,
  fulfillmentOrderGid: FulfillmentOrderGid | ReverseFulfillmentOrderGid,
  since: Date,
): Promise<{ count: number; lastAt: Date; labelId: string } | null> {
  const [lost, confirmed] = await Promise.all([
    db.label.findMany({
      where: {
        shop,
        fulfillmentOrderGid,
        status: "failed",
        lastError: { startsWith: DRAFT_MAY_EXIST },
        updatedAt: { gte: since },
      },
      orderBy: { updatedAt: "desc" },
      take: 10,
      select: { id: true, updatedAt: true },
    }),
    db.label.findFirst({
      where: { shop, fulfillmentOrderGid, serviceLabelId: { not: null }, createdAt: { gte: since } },
      orderBy: { createdAt: "desc" },
      select: { createdAt: true },
    }),
  ]);
  const inARow = lost.filter((row) => !confirmed || row.updatedAt > confirmed.createdAt);
  const last = inARow[0];
  return last ? { count: inARow.length, lastAt: last.updatedAt, labelId: last.id } : null;
}

export async function findActiveLabel(
  db: PrismaClient,
  shop: string,
  fulfillmentOrderGid: FulfillmentOrderGid | ReverseFulfillmentOrderGid,
): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { shop, activeKey: activeKeyFor(shop, fulfillmentOrderGid) } });
  return viewOf(db, shop, row, "findActiveLabel");
}

export async function listLabelsForOrder(db: PrismaClient, shop: string, orderGid: OrderGid): Promise<LabelView[]> {
  const rows = await db.label.findMany({ where: { shop, orderGid }, orderBy: { createdAt: "asc" } });
  return viewsOf(db, shop, rows, "listLabelsForOrder");
}

/** The active outbound labels of several orders in one query (a page of the Orders list). */
export async function listActiveLabelsForOrders(
  db: PrismaClient,
  shop: string,
  orderGids: readonly string[],
): Promise<OutboundLabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, orderGid: { in: [...orderGids] }, status: { in: [...ACTIVE_STATUSES] }, kind: "outbound" },
  });
  return (await viewsOf(db, shop, rows, "listActiveLabelsForOrders")).filter(isOutboundLabel);
}

/** The label the service knows by this id, if it is one of this shop's. */
export async function findLabelByServiceId(
  db: PrismaClient,
  shop: string,
  serviceLabelId: string,
): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { shop, serviceLabelId } });
  return viewOf(db, shop, row, "findLabelByServiceId");
}

/** The active labels of these fulfillment orders. */
export async function listActiveLabelsForFulfillmentOrders(
  db: Prisma.TransactionClient,
  shop: string,
  fulfillmentOrderGids: readonly FulfillmentOrderGid[],
): Promise<OutboundLabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, activeKey: { in: fulfillmentOrderGids.map((gid) => activeKeyFor(shop, gid)) } },
  });
  return (await viewsOf(db, shop, rows, "listActiveLabelsForFulfillmentOrders")).filter(isOutboundLabel);
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
    kind?: LabelKind;
    orderName?: string;
    /** Only the labels with this need after purchase (label-needs.server.ts). */
    need?: LabelNeed;
    newestBy?: "createdAt" | "updatedAt";
    take: number;
    skip?: number;
  },
): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: {
      ...(filter.need ? await whereLabelsNeed(db, shop, filter.need) : {}),
      shop,
      ...(filter.statuses ? { status: { in: [...filter.statuses] } } : {}),
      ...(filter.kind ? { kind: filter.kind } : {}),
      ...(filter.orderName ? { orderName: filter.orderName } : {}),
    },
    orderBy: [{ [filter.newestBy ?? "updatedAt"]: "desc" }, { id: "desc" }],
    take: filter.take,
    ...(filter.skip ? { skip: filter.skip } : {}),
  });
  return viewsOf(db, shop, rows, "listLabels");
}

/**
 * The shop's most recently changed label, by id and time only: the Orders list's change token,
 * asked every few seconds, opens no ship-to (and so logs no access, ADR 28).
 */
export function findNewestLabelChange(db: PrismaClient, shop: string): Promise<{ id: string; updatedAt: Date } | null> {
  return db.label.findFirst({
    where: { shop },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    select: { id: true, updatedAt: true },
  });
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

/** The labels made for one Shopify return (ADR 23), oldest first. */
export async function listLabelsForReturn(db: PrismaClient, shop: string, returnGid: ReturnGid): Promise<LabelView[]> {
  const rows = await db.label.findMany({ where: { shop, kind: "return", returnGid }, orderBy: { createdAt: "asc" } });
  return viewsOf(db, shop, rows, "listLabelsForReturn");
}

/** How many return labels the shop has (ADR 23), whatever their state. */
export function countReturnLabels(db: PrismaClient, shop: string): Promise<number> {
  return db.label.count({ where: { shop, kind: "return" } });
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

/** What decides whether a label may be voided (void-label.server.ts, `checkVoidable`). */
export type LabelVoidFacts = Pick<LabelView, "id" | "status" | "serviceLabelId" | "tracking" | "purchasedAt" | "void">;

export type LabelPurchase = LabelVoidFacts & {
  chargedCents: number | null;
  currency: string;
  labelFormat: string | null;
  labelUrl: string | null;
};

/** Each of these labels' state, when it was bought, what it was charged, its file and its void, by id. */
export async function findLabelPurchases(
  db: PrismaClient | Prisma.TransactionClient,
  shop: string,
  labelIds: readonly string[],
): Promise<Map<string, LabelPurchase>> {
  if (labelIds.length === 0) return new Map();
  const rows = await db.label.findMany({
    where: { shop, id: { in: [...labelIds] } },
    select: {
      id: true,
      status: true,
      purchasedAt: true,
      chargedCents: true,
      currency: true,
      labelFormat: true,
      labelUrl: true,
      serviceLabelId: true,
      trackingStatus: true,
      trackingStatusAt: true,
      updatedAt: true,
      refundStatus: true,
      refundCents: true,
      voidRefusal: true,
      voidRequestedAt: true,
      voidDecidedAt: true,
      voidShopifyStatus: true,
    },
  });
  return new Map(
    rows.flatMap((row) => {
      if (!isOneOf(LABEL_STATUSES, row.status)) return [];
      const purchase: LabelPurchase = {
        id: row.id,
        status: row.status,
        serviceLabelId: row.serviceLabelId,
        tracking: toTracking(row),
        purchasedAt: row.purchasedAt,
        void: toVoid(row),
        chargedCents: row.chargedCents,
        currency: row.currency,
        labelFormat: row.labelFormat,
        labelUrl: row.labelUrl,
      };
      return [[row.id, purchase] as const];
    }),
  );
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
  return viewsOf(db, shop, rows, "listPendingWriteBacks");
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
/** How long a pending void waits for its event before the recovery job reads the label back. */
export const VOID_READ_BACK_AFTER_MS = 20 * 60_000;

// A void whose decision is overdue (its event may be lost), whose Shopify fulfillment is still
// to be cancelled (ADR 22), or whose write-back was in flight when it was voided and whose writer
// died (its fulfillment may be in Shopify, unrecorded).
const unsettledVoid = (now: Date): Prisma.LabelWhereInput => ({
  OR: [
    { refundStatus: "pending", voidRequestedAt: { lt: new Date(now.getTime() - VOID_READ_BACK_AFTER_MS) } },
    { voidShopifyStatus: "cancel_pending", status: { in: ["void_pending", "voided"] } },
    {
      status: { in: ["void_pending", "voided"] },
      fulfillmentGid: null,
      writeBackStatus: "writing",
      writeBackLeaseUntil: { lt: now },
    },
  ],
});

/** Labels whose void needs the recovery job (unsettledVoid), oldest first. */
export async function listUnsettledVoids(db: PrismaClient, shop: string, now: Date, take = 50): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, ...unsettledVoid(now) },
    orderBy: [{ voidRequestedAt: "asc" }, { id: "asc" }],
    take,
  });
  return viewsOf(db, shop, rows, "listUnsettledVoids");
}

export async function listShopsWithRecoveryWork(db: PrismaClient, now: Date): Promise<string[]> {
  const rows = await db.label.findMany({
    where: { OR: [{ status: "purchasing", leaseUntil: { lt: now } }, retryableWriteBack(now), unsettledVoid(now)] },
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}
