import type { PrismaClient } from "@prisma/client";

import type { AuditOutcome } from "~/labels/audit.server";
import { findLabelStatuses, findOrderNames } from "~/labels/label-repository.server";
import { getNumericId } from "~/shopify/ids";
import { getMonthBounds } from "~/utils/month-bounds";

// The Activity screen's read model: every billable call to the shipping service (address
// validations and label purchases) from the audit trail, newest first, and what the month cost.
// "fulfill" entries are audited too but cost nothing, so they are not listed here.

// A refund is billable with a negative amount: the month's total is what the shop paid, net.
export const BILLABLE_ACTIONS = ["validate", "purchase", "refund"] as const;
export type BillableAction = (typeof BILLABLE_ACTIONS)[number];
export const ACTIVITY_PAGE_SIZE = 25;
// What the month total counts: charged now, or charged by an earlier attempt and recovered.
const CHARGED_OUTCOMES: AuditOutcome[] = ["ok", "recovered"];

export type ActivityEntry = {
  id: string;
  action: BillableAction;
  outcome: AuditOutcome;
  amountCents: number | null;
  currency: string;
  requestId: string | null;
  staffMemberId: string | null;
  orderNumericId: string | null;
  /** "#1002" when a label of this order is on file; the audit itself keeps only the order id. */
  orderName: string | null;
  labelId: string | null;
  detail: string | null;
  /**
   * For a call whose outcome was unknown, what the service later said of its label: bought (its
   * one charge is the purchase entry recorded when it was found), not bought, or null while
   * the label is still being confirmed.
   */
  settled: "bought" | "not_bought" | null;
  createdAt: string;
};

export type MonthTotal = {
  /** First day of the month (UTC), ISO date: the screen names the month from it. */
  month: string;
  /** One line per currency the shop was charged in (USD in practice). */
  totals: { currency: string; chargedCents: number; calls: number }[];
};

export type ActivityPage = { page: number; hasNextPage: boolean; entries: ActivityEntry[]; monthTotal: MonthTotal };

export async function listActivity(
  db: PrismaClient,
  shop: string,
  options: { page?: number; pageSize?: number; now?: Date } = {},
): Promise<ActivityPage> {
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const pageSize = options.pageSize ?? ACTIVITY_PAGE_SIZE;
  const { start, end } = getMonthBounds(options.now ?? new Date());
  const billable = { shop, action: { in: [...BILLABLE_ACTIONS] } };
  const [rows, groups] = await Promise.all([
    db.auditEntry.findMany({
      where: billable,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize + 1,
    }),
    db.auditEntry.groupBy({
      by: ["currency"],
      where: { ...billable, outcome: { in: CHARGED_OUTCOMES }, createdAt: { gte: start, lt: end } },
      _sum: { amountCents: true },
      _count: { _all: true },
    }),
  ]);
  const shown = rows.slice(0, pageSize);
  const orderGids = [...new Set(shown.flatMap((row) => (row.orderGid ? [row.orderGid] : [])))];
  const unknownLabelIds = shown.flatMap((row) => (row.outcome === "unknown" && row.labelId ? [row.labelId] : []));
  const [orderNames, labelStatuses] = await Promise.all([
    findOrderNames(db, shop, orderGids),
    findLabelStatuses(db, shop, unknownLabelIds),
  ]);
  const settledOf = (row: { outcome: string; labelId: string | null }): ActivityEntry["settled"] => {
    if (row.outcome !== "unknown" || !row.labelId) return null;
    const status = labelStatuses.get(row.labelId);
    if (status === "purchased" || status === "fulfilled") return "bought";
    if (status === "draft" || status === "voided" || status === "failed") return "not_bought";
    return null;
  };
  return {
    page,
    hasNextPage: rows.length > pageSize,
    // recordAudit is the only writer and takes these as typed unions, and the query above keeps
    // only billable actions: the casts restate what the rows already are.
    entries: shown.map((row) => ({
      id: row.id,
      action: row.action as BillableAction,
      outcome: row.outcome as AuditOutcome,
      amountCents: row.amountCents,
      currency: row.currency,
      requestId: row.requestId,
      staffMemberId: row.staffMemberId,
      orderNumericId: row.orderGid ? (getNumericId(row.orderGid) ?? null) : null,
      orderName: row.orderGid ? (orderNames.get(row.orderGid) ?? null) : null,
      labelId: row.labelId,
      detail: row.detail,
      settled: settledOf(row),
      createdAt: row.createdAt.toISOString(),
    })),
    monthTotal: {
      month: start.toISOString().slice(0, 10),
      totals: groups.map((g) => ({
        currency: g.currency,
        chargedCents: g._sum.amountCents ?? 0,
        calls: g._count._all,
      })),
    },
  };
}
