import type { BulkRunItem, PrismaClient } from "@prisma/client";

import { findLabel, findLabelPurchases, type LabelPurchase, type LabelView } from "~/labels/label-repository.server";
import { describeVoidBlocker } from "~/labels/void-label.server";
import { openPersonalOrNull } from "~/settings/personal-data-box.server";
import { LabelOptionsSchema } from "~/shipments/drafted-options.server";
import { type LabelOptions, summarizeOptions } from "~/shipments/label-options";
import { parseStoredJson } from "~/utils/stored-json";

import type { BulkChoice } from "../../bulk/bulk-choice";
import { BULK_SHIPPING_CONCURRENCY, estimateRunSeconds, type RunEstimate } from "../../bulk/bulk-run-eta";
import {
  BILLABLE,
  BULK_ITEM_STATUSES,
  type BulkItemStatus,
  type BulkProblem,
  type BulkRunStatus,
  parseChoice,
  ProblemsSchema,
  RETRYING_PREFIX,
} from "../../bulk/bulk-runs.server";
import {
  listProductsMissingCustoms,
  type ProductMissingCustoms,
  StoredMissingCustomsSchema,
} from "../../bulk/missing-customs";
import {
  FORMATS_IN_FILE,
  type LabelFileFormat,
  PRINT_FORMATS,
  type PrintFormat,
  resolveLabelFormat,
} from "../../bulk/print-files";

// A bulk run as its page shows it: its items in list order, counts per status, the total, the
// progress and an estimate; and its bought labels for printing.

export type BulkRunItemView = {
  id: string;
  orderGid: string;
  orderName: string;
  fulfillmentOrderGid: string | null;
  status: BulkItemStatus;
  problems: BulkProblem[];
  message: string | null;
  labelId: string | null;
  service: string | null;
  quotedCents: number | null;
  boxes: number | null;
  /** The options it was quoted with (insurance, signature, batteries); priced into quotedCents. */
  options: LabelOptions;
  /** When the run holds more than one shipment of this order: which one ("2 of 3"), in list order. */
  shipment: { index: number; of: number } | null;
  /** A bought label's file format; null before it is bought or when the service named none. */
  labelFormat: LabelFileFormat | null;
  /** Waiting for its job to try again after a passing failure: the cause, in the merchant's words. */
  retryingBecause: string | null;
  /** A bought label's charge, for "Void labels" (the refund). */
  chargedCents: number | null;
  currency: string;
  /** A void asked for its label (ADR 22): where the refund stands; null if never. */
  refund: { status: NonNullable<LabelView["void"]>["status"]; cents: number | null } | null;
  /** Why its label cannot be voided now; null when it can (only bought items can). */
  voidBlocker: string | null;
};

export type BulkRunView = {
  id: string;
  status: BulkRunStatus;
  choice: BulkChoice;
  stopReason: string | null;
  confirmedCents: number | null;
  createdAt: string;
  items: BulkRunItemView[];
  /** How many orders the run's shipments come from (an order shipped from two places is two shipments). */
  orderCount: number;
  /** Per file, the bought labels it takes and those it leaves to another file (with their orders). */
  printable: Record<PrintFormat, { count: number; elsewhere: { orderName: string; format: LabelFileFormat | null }[] }>;
  /** Items waiting to try again after a passing failure (an outage), and the latest cause. */
  retrying: { count: number; cause: string } | null;
  counts: Record<BulkItemStatus, number>;
  /** What buying every ready (or queued, bought) item costs, as quoted. */
  totalCents: number;
  /** What the total pays for beyond postage ("Includes insurance on 3 shipments…"); null: nothing. */
  optionsInTotal: string | null;
  /** Of the items to buy: how many are done (bought, failed, or refused by Shopify) and how many remain. */
  progress: { bought: number; failed: number; remaining: number; notStarted: number; notFulfillable: number };
  /** Time left while it runs, from the shop's restore rate, the shipping floor and the pace so far. */
  estimate: RunEstimate | null;
  /**
   * For a cancelled run: the labels whose purchase was already on its way when the cancel came
   * and that were bought after it, and what they were charged. Null for any other run.
   */
  boughtAfterCancel: { count: number; chargedCents: number; currency: string } | null;
  /**
   * What the run charged: the labels it bought, and the sum of their charges as the shipping service
   * confirmed them (refunds of voided ones apart).
   */
  charged: { count: number; chargedCents: number; refundedCents: number; currency: string };
  /**
   * For a run that ended (cancelled, stopped, done): the labels it did not start whose drafts are
   * still there, and what buying them costs as quoted ("Buy the N labels not bought"). Null while
   * the run is checked, reviewed or going, or when there are none.
   */
  notBought: { count: number; totalCents: number; currency: string } | null;
  /** The products of its international shipments without an HS code or origin in Shopify, each once. */
  productsMissingCustoms: ProductMissingCustoms[];
};

function toItemView(row: BulkRunItem): BulkRunItemView {
  const waiting = row.status === "queued" || row.status === "buying" || row.status === "checking";
  const retryingBecause =
    waiting && row.message?.startsWith(RETRYING_PREFIX) ? row.message.slice(RETRYING_PREFIX.length) : null;
  return {
    shipment: null,
    labelFormat: null,
    retryingBecause,
    chargedCents: null,
    currency: "USD",
    refund: null,
    voidBlocker: "Only a bought label can be voided.",
    id: row.id,
    orderGid: row.orderGid,
    orderName: row.orderName,
    fulfillmentOrderGid: row.fulfillmentOrderGid,
    status: (BULK_ITEM_STATUSES as readonly string[]).includes(row.status) ? (row.status as BulkItemStatus) : "failed",
    problems: parseStoredJson(openPersonalOrNull(row.problems), ProblemsSchema, []),
    message: row.message,
    labelId: row.labelId,
    service: row.serviceName,
    quotedCents: row.quotedCents,
    boxes: row.boxes,
    options: parseStoredJson(row.options, LabelOptionsSchema, {}),
  };
}

export async function getBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  now = new Date(),
  /** The shop's restore rate (points a second) as Shopify last reported it; null when unknown. */
  restoreRate: number | null = null,
): Promise<BulkRunView | null> {
  const run = await db.bulkRun.findFirst({ where: { id: runId, shop } });
  if (!run) return null;
  const rows = await db.bulkRunItem.findMany({ where: { runId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const items = rows.map(toItemView);
  const productsMissingCustoms = listProductsMissingCustoms(
    rows.map((row) => ({
      orderGid: row.orderGid,
      orderName: row.orderName,
      missingCustoms: parseStoredJson(row.missingCustoms, StoredMissingCustomsSchema, []),
    })),
  );
  // A bought item's note that its tracking is not in Shopify yet holds until the label says so.
  const labels = await findLabelsOf(db, shop, items);
  for (const item of items) {
    const label = item.labelId ? labels.get(item.labelId) : undefined;
    if (!label) continue;
    const isBought = label.status === "purchased" || label.status === "fulfilled";
    // A bought item's note that its tracking is not in Shopify yet holds until the label says so.
    if (item.status === "bought" && label.status === "fulfilled") item.message = null;
    // The label is the truth about money: an item whose purchase was confirmed after it was left
    // (an answer read back by the recovery job after a cancel, say) is shown as bought.
    if (isBought && item.status !== "bought") {
      item.status = "bought";
      item.message = "Bought: the shipping service confirmed this purchase after a delay.";
      item.retryingBecause = null;
    }
    if (item.status === "bought") item.labelFormat = resolveLabelFormat(label);
    item.chargedCents = label.chargedCents;
    item.currency = label.currency;
    item.refund = label.void
      ? { status: label.void.status, cents: label.void.refundCents ?? label.chargedCents }
      : null;
    if (item.status === "bought") item.voidBlocker = describeVoidBlocker(label, now);
    // A voided label must not ship: it leaves the print files.
    if (label.status === "void_pending" || label.status === "voided") item.labelFormat = null;
  }
  numberShipments(items);
  const counts = Object.fromEntries(BULK_ITEM_STATUSES.map((s) => [s, 0])) as Record<BulkItemStatus, number>;
  for (const item of items) counts[item.status] += 1;
  const totalCents = items.filter((i) => BILLABLE.includes(i.status)).reduce((sum, i) => sum + (i.quotedCents ?? 0), 0);
  const done = counts.bought + counts.failed + counts.not_fulfillable;
  const remaining = counts.queued + counts.buying;
  const elapsedS = run.confirmedAt ? (now.getTime() - run.confirmedAt.getTime()) / 1000 : 0;
  const boughtAfterCancel =
    run.status === "cancelled" && run.finishedAt ? chargesSince(items, labels, run.finishedAt) : null;
  const retryingItems = items.filter((i) => i.retryingBecause !== null);
  const ended = run.status === "cancelled" || run.status === "stopped" || run.status === "done";
  const notStartedDrafts = ended
    ? items.filter((i) => i.status === "not_started" && i.labelId && labels.get(i.labelId)?.status === "draft")
    : [];
  return {
    id: run.id,
    status: run.status as BulkRunStatus,
    choice: parseChoice(run),
    stopReason: run.stopReason,
    confirmedCents: run.confirmedCents,
    createdAt: run.createdAt.toISOString(),
    items,
    orderCount: new Set(items.map((i) => i.orderGid)).size,
    printable: describePrintable(items),
    retrying: retryingItems.length
      ? { count: retryingItems.length, cause: retryingItems.at(-1)?.retryingBecause ?? "" }
      : null,
    counts,
    totalCents,
    optionsInTotal: summarizeOptions(items.filter((i) => BILLABLE.includes(i.status)).map((i) => i.options)),
    progress: {
      bought: counts.bought,
      failed: counts.failed,
      remaining,
      notStarted: counts.not_started,
      notFulfillable: counts.not_fulfillable,
    },
    estimate:
      run.status === "running"
        ? estimateRunSeconds({
            remaining,
            done,
            elapsedSeconds: elapsedS,
            restoreRate,
            shippingConcurrency: BULK_SHIPPING_CONCURRENCY,
          })
        : null,
    boughtAfterCancel,
    charged: sumCharges(items),
    notBought:
      notStartedDrafts.length > 0
        ? {
            count: notStartedDrafts.length,
            totalCents: notStartedDrafts.reduce((sum, i) => sum + (i.quotedCents ?? 0), 0),
            currency: notStartedDrafts[0]?.currency ?? "USD",
          }
        : null,
    productsMissingCustoms,
  };
}

/** The run's bought labels and what the service charged for them; refunds of voided ones beside. */
function sumCharges(items: readonly BulkRunItemView[]): BulkRunView["charged"] {
  const bought = items.filter((i) => i.status === "bought");
  return {
    count: bought.length,
    chargedCents: bought.reduce((sum, i) => sum + (i.chargedCents ?? 0), 0),
    refundedCents: bought.reduce((sum, i) => sum + (i.refund?.status === "refunded" ? (i.refund.cents ?? 0) : 0), 0),
    currency: bought[0]?.currency ?? "USD",
  };
}

async function findLabelsOf(db: PrismaClient, shop: string, items: readonly BulkRunItemView[]) {
  const ids = items.flatMap((i) => (i.labelId ? [i.labelId] : []));
  const found = new Map<string, LabelPurchase>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const [id, purchase] of await findLabelPurchases(db, shop, ids.slice(i, i + 500))) found.set(id, purchase);
  }
  return found;
}

/** "Shipment 2 of 3" for an order the run holds more than one shipment of, in list order. */
function numberShipments(items: BulkRunItemView[]): void {
  const byOrder = new Map<string, BulkRunItemView[]>();
  for (const item of items) byOrder.set(item.orderGid, [...(byOrder.get(item.orderGid) ?? []), item]);
  for (const shipments of byOrder.values()) {
    if (shipments.length < 2) continue;
    shipments.forEach((item, index) => (item.shipment = { index: index + 1, of: shipments.length }));
  }
}

const isVoided = (item: BulkRunItemView) =>
  item.refund !== null && item.refund.status !== "rejected" && item.refund.status !== "requesting";

function describePrintable(items: readonly BulkRunItemView[]): BulkRunView["printable"] {
  const bought = items.filter((i) => i.status === "bought" && !isVoided(i));
  const entries = PRINT_FORMATS.map((format) => {
    const takes = (item: BulkRunItemView) =>
      item.labelFormat !== null && FORMATS_IN_FILE[format].includes(item.labelFormat);
    return [
      format,
      {
        count: bought.filter(takes).length,
        elsewhere: bought
          .filter((item) => !takes(item))
          .map((item) => ({ orderName: item.orderName, format: item.labelFormat })),
      },
    ] as const;
  });
  return Object.fromEntries(entries) as BulkRunView["printable"];
}

/** The run's labels bought at or after `since` (the cancel), and their charges. */
function chargesSince(items: readonly BulkRunItemView[], purchases: ReadonlyMap<string, LabelPurchase>, since: Date) {
  let count = 0;
  let chargedCents = 0;
  let currency = "USD";
  for (const item of items) {
    const charge = item.labelId ? purchases.get(item.labelId) : undefined;
    if (item.status !== "bought" || !charge?.purchasedAt || charge.purchasedAt < since) continue;
    count += 1;
    chargedCents += charge.chargedCents ?? 0;
    currency = charge.currency;
  }
  return { count, chargedCents, currency };
}

/** The run's bought labels in list order, for printing. */
export async function listBulkRunLabels(db: PrismaClient, shop: string, runId: string): Promise<LabelView[]> {
  const rows = await db.bulkRunItem.findMany({
    where: { runId, shop, status: "bought", labelId: { not: null } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  const labels = await Promise.all(rows.map((row) => (row.labelId ? findLabel(db, shop, row.labelId) : null)));
  // A voided label must not ship: never printed.
  return labels.filter(
    (label): label is LabelView => label !== null && label.status !== "void_pending" && label.status !== "voided",
  );
}

/** The ids of the run's labels (bought or not); null when the shop has no such run. */
export async function listBulkRunLabelIds(db: PrismaClient, shop: string, runId: string): Promise<Set<string> | null> {
  if (!(await db.bulkRun.findFirst({ where: { id: runId, shop }, select: { id: true } }))) return null;
  const rows = await db.bulkRunItem.findMany({
    where: { runId, shop, labelId: { not: null } },
    select: { labelId: true },
  });
  return new Set(rows.flatMap((row) => (row.labelId ? [row.labelId] : [])));
}
