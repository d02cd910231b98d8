import type { BulkRunItem, PrismaClient } from "@prisma/client";

import { findLabel, findLabelStatuses, type LabelView } from "~/labels/label-repository.server";
import { parseStoredJson } from "~/utils/stored-json";

import type { BulkChoice } from "./bulk-choice";
import {
  BILLABLE,
  BULK_ITEM_STATUSES,
  type BulkItemStatus,
  type BulkProblem,
  type BulkRunStatus,
  parseChoice,
  ProblemsSchema,
} from "./bulk-runs.server";

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
};

export type BulkRunView = {
  id: string;
  status: BulkRunStatus;
  choice: BulkChoice;
  stopReason: string | null;
  confirmedCents: number | null;
  createdAt: string;
  items: BulkRunItemView[];
  counts: Record<BulkItemStatus, number>;
  /** What buying every ready (or queued, bought) item costs, as quoted. */
  totalCents: number;
  /** Of the items to buy: how many are done (bought, failed, or refused by Shopify) and how many remain. */
  progress: { bought: number; failed: number; remaining: number; notStarted: number; notFulfillable: number };
  /** Seconds left at the pace so far; null before the first purchase. */
  estimateSeconds: number | null;
};

function toItemView(row: BulkRunItem): BulkRunItemView {
  return {
    id: row.id,
    orderGid: row.orderGid,
    orderName: row.orderName,
    fulfillmentOrderGid: row.fulfillmentOrderGid,
    status: (BULK_ITEM_STATUSES as readonly string[]).includes(row.status) ? (row.status as BulkItemStatus) : "failed",
    problems: parseStoredJson(row.problems, ProblemsSchema, []),
    message: row.message,
    labelId: row.labelId,
    service: row.serviceName,
    quotedCents: row.quotedCents,
    boxes: row.boxes,
  };
}

export async function getBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  now = new Date(),
): Promise<BulkRunView | null> {
  const run = await db.bulkRun.findFirst({ where: { id: runId, shop } });
  if (!run) return null;
  const rows = await db.bulkRunItem.findMany({ where: { runId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const items = rows.map(toItemView);
  // A bought item's note that its tracking is not in Shopify yet holds until the label says so.
  const pending = items.filter((i) => i.status === "bought" && i.message && i.labelId);
  const statuses = new Map<string, string>();
  for (let i = 0; i < pending.length; i += 500) {
    const ids = pending.slice(i, i + 500).flatMap((item) => (item.labelId ? [item.labelId] : []));
    for (const [id, status] of await findLabelStatuses(db, shop, ids)) statuses.set(id, status);
  }
  for (const item of pending) if (item.labelId && statuses.get(item.labelId) === "fulfilled") item.message = null;
  const counts = Object.fromEntries(BULK_ITEM_STATUSES.map((s) => [s, 0])) as Record<BulkItemStatus, number>;
  for (const item of items) counts[item.status] += 1;
  const totalCents = items.filter((i) => BILLABLE.includes(i.status)).reduce((sum, i) => sum + (i.quotedCents ?? 0), 0);
  const done = counts.bought + counts.failed + counts.not_fulfillable;
  const remaining = counts.queued + counts.buying;
  const elapsedS = run.confirmedAt ? (now.getTime() - run.confirmedAt.getTime()) / 1000 : 0;
  return {
    id: run.id,
    status: run.status as BulkRunStatus,
    choice: parseChoice(run),
    stopReason: run.stopReason,
    confirmedCents: run.confirmedCents,
    createdAt: run.createdAt.toISOString(),
    items,
    counts,
    totalCents,
    progress: {
      bought: counts.bought,
      failed: counts.failed,
      remaining,
      notStarted: counts.not_started,
      notFulfillable: counts.not_fulfillable,
    },
    estimateSeconds: run.status === "running" && done > 0 ? Math.round((elapsedS / done) * remaining) : null,
  };
}

/** The run's bought labels in list order, for printing. */
export async function listBulkRunLabels(db: PrismaClient, shop: string, runId: string): Promise<LabelView[]> {
  const rows = await db.bulkRunItem.findMany({
    where: { runId, shop, status: "bought", labelId: { not: null } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  const labels = await Promise.all(rows.map((row) => (row.labelId ? findLabel(db, shop, row.labelId) : null)));
  return labels.filter((label): label is LabelView => label !== null);
}
