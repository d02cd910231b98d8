import type { PrismaClient } from "@prisma/client";

import { hasSpendingRun } from "~/bulk/bulk-runs.server";
import { type LabelSpend, listLabelsOnTheWay, listLabelSpend } from "~/labels/label-figures.server";
import { countLabelsNeeding } from "~/labels/label-needs.server";
import { listLabels } from "~/labels/label-repository.server";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import { getNumericId } from "~/shopify/ids";
import {
  countOrdersAwaitingShipment,
  getShippingPaid,
  type OrderCount,
  SHIPPING_PAID_BATCH,
} from "~/shopify/order-summaries";
import { reportError } from "~/utils/error-report.server";
import { getMonthBounds } from "~/utils/month-bounds";
import type { Result } from "~/utils/result";

import { countOrderTabs } from "../../labels/order-tabs.server";

// The home page's read model: what needs the merchant now (counts, each a link to the list that
// shows them) and what happened (labels, spend and shipping margin this week and month, and the
// weeks before for the charts). Spend comes from the app's Label rows (label-figures.server.ts); what customers paid for
// shipping from Shopify, read once per order and kept (OrderShippingPaid), so a load of the home
// costs Shopify one count and at most one batch of SHIPPING_PAID_BATCH orders never read before.
// The aggregation functions are pure and take the clock, so they are tested on fixed dates.
//
// Periods are UTC, like the shipping service's bill and the Activity screen's month: a week starts
// on Monday 00:00 UTC.

const DAY_MS = 86_400_000;
/** Days the spend chart shows, ending today. */
export const SPEND_CHART_DAYS = 30;
/** Weeks the margin chart shows, ending with this one. */
export const MARGIN_CHART_WEEKS = 8;
/** Orders listed with their margin, newest first. */
export const MARGIN_ORDERS_SHOWN = 8;

export type Period = { start: Date; end: Date };

/** The week around `now`: Monday 00:00 UTC to the next Monday. */
export function getWeekBounds(now: Date): Period {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (new Date(today).getUTCDay() + 6) % 7;
  const start = new Date(today - sinceMonday * DAY_MS);
  return { start, end: new Date(start.getTime() + 7 * DAY_MS) };
}

/** A bought label, as the figures read it (a Label row's money columns). */
export type BoughtLabel = LabelSpend;

const isRefunded = (label: BoughtLabel) => label.refundStatus === "refunded";

/**
 * What a label cost the shop in the end: its charge, less its refund once the void was refunded
 * (the refund's own amount when the service named one, else the whole charge). Counted on the
 * day it was bought, so a refund is taken off once, from the label it refunds.
 */
export function getNetCostCents(label: BoughtLabel): number {
  const charged = label.chargedCents ?? 0;
  if (!isRefunded(label)) return charged;
  return charged - (label.refundCents ?? charged);
}

const within = (period: Period, at: Date) => at >= period.start && at < period.end;

export type ServiceSpend = { carrier: string; service: string; labels: number; spendCents: number };

export type CurrencySpend = {
  currency: string;
  /** What the labels bought in the period cost, refunds taken off. */
  spendCents: number;
  /** What voids of those labels refunded. */
  refundedCents: number;
  /** Labels bought and kept (a refunded label shipped nothing). */
  labels: number;
  /** What a kept label cost on average; null with none. */
  averageCents: number | null;
  /** Kept labels and their cost by carrier and service, costliest first. */
  byService: ServiceSpend[];
};

export type PeriodSpend = {
  /** Labels bought and kept, over every currency. */
  labels: number;
  /** Labels bought in the period whose void was refunded. */
  voided: number;
  /** One entry per currency the labels were charged in (USD in practice), most spent first. */
  byCurrency: CurrencySpend[];
};

/** The labels bought in a period, what they cost net of refunds, by currency, carrier and service. */
export function summarizeSpend(labels: readonly BoughtLabel[], period: Period): PeriodSpend {
  const byCurrency = new Map<string, CurrencySpend & { services: Map<string, ServiceSpend> }>();
  let kept = 0;
  let voided = 0;
  for (const label of labels) {
    if (!within(period, label.purchasedAt)) continue;
    const entry = byCurrency.get(label.currency) ?? {
      currency: label.currency,
      spendCents: 0,
      refundedCents: 0,
      labels: 0,
      averageCents: null,
      byService: [],
      services: new Map<string, ServiceSpend>(),
    };
    byCurrency.set(label.currency, entry);
    const net = getNetCostCents(label);
    entry.spendCents += net;
    if (isRefunded(label)) {
      voided += 1;
      entry.refundedCents += (label.chargedCents ?? 0) - net;
      continue;
    }
    kept += 1;
    entry.labels += 1;
    const carrier = label.carrier ?? "Unknown carrier";
    const service = label.serviceName ?? "Unknown service";
    const key = `${carrier}\u0000${service}`;
    const line = entry.services.get(key) ?? { carrier, service, labels: 0, spendCents: 0 };
    line.labels += 1;
    line.spendCents += net;
    entry.services.set(key, line);
  }
  return {
    labels: kept,
    voided,
    byCurrency: [...byCurrency.values()]
      .map(({ services, ...entry }) => {
        const keptCents = [...services.values()].reduce((sum, s) => sum + s.spendCents, 0);
        return {
          ...entry,
          averageCents: entry.labels > 0 ? Math.round(keptCents / entry.labels) : null,
          byService: [...services.values()].sort((a, b) => b.spendCents - a.spendCents || b.labels - a.labels),
        };
      })
      .sort((a, b) => b.spendCents - a.spendCents),
  };
}

/** The currency most of the spend is in: the one the charts draw. */
export function choosePrimaryCurrency(labels: readonly BoughtLabel[]): string | null {
  const totals = new Map<string, number>();
  for (const label of labels) totals.set(label.currency, (totals.get(label.currency) ?? 0) + (label.chargedCents ?? 0));
  return [...totals.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

const isoDate = (at: Date) => at.toISOString().slice(0, 10);

/** Net spend per day for the `days` days ending today (UTC), in one currency; days without labels are 0. */
export function sumSpendPerDay(
  labels: readonly BoughtLabel[],
  options: { now: Date; days: number; currency: string },
): { date: string; spendCents: number }[] {
  const today = Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate());
  const days = Array.from({ length: options.days }, (_, i) =>
    isoDate(new Date(today - (options.days - 1 - i) * DAY_MS)),
  );
  const totals = new Map(days.map((day) => [day, 0]));
  for (const label of labels) {
    if (label.currency !== options.currency) continue;
    const day = isoDate(label.purchasedAt);
    const total = totals.get(day);
    if (total !== undefined) totals.set(day, total + getNetCostCents(label));
  }
  return days.map((date) => ({ date, spendCents: totals.get(date) ?? 0 }));
}

/** Kept labels per carrier in a period, most first. */
export function countLabelsByCarrier(
  labels: readonly BoughtLabel[],
  period: Period,
): { carrier: string; labels: number }[] {
  const counts = new Map<string, number>();
  for (const label of labels) {
    if (!within(period, label.purchasedAt) || isRefunded(label)) continue;
    const carrier = label.carrier ?? "Unknown carrier";
    counts.set(carrier, (counts.get(carrier) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([carrier, n]) => ({ carrier, labels: n }))
    .sort((a, b) => b.labels - a.labels || a.carrier.localeCompare(b.carrier));
}

export type PaidForShipping = { paidCents: number; currency: string };

export type OrderMargin = {
  orderGid: string;
  orderId: string | null;
  orderName: string;
  /** When its first label in the window was bought (ISO). */
  boughtAt: string;
  labels: number;
  costCents: number;
  /** What the customer paid for shipping; null while not read from Shopify yet. */
  paidCents: number | null;
  /**
   * Paid less cost; null when either is unknown, they are in different currencies, or every label
   * of the order was refunded (it has not shipped on them).
   */
  marginCents: number | null;
  currency: string;
};

/**
 * Each order's shipping margin: what its customer paid for shipping against what its labels bought
 * in the window cost, net of refunds. An order whose labels were all refunded cost nothing.
 */
export function computeOrderMargins(
  labels: readonly BoughtLabel[],
  paid: ReadonlyMap<string, PaidForShipping>,
): OrderMargin[] {
  const byOrder = new Map<string, BoughtLabel[]>();
  for (const label of labels) byOrder.set(label.orderGid, [...(byOrder.get(label.orderGid) ?? []), label]);
  return [...byOrder.entries()]
    .map(([orderGid, own]): OrderMargin => {
      const first = own.reduce((a, b) => (b.purchasedAt < a.purchasedAt ? b : a));
      const currency = first.currency;
      const costCents = own.reduce((sum, l) => sum + getNetCostCents(l), 0);
      const customer = paid.get(orderGid) ?? null;
      const kept = own.filter((l) => !isRefunded(l)).length;
      // An order whose every label was refunded has not shipped on them: no margin to speak of yet.
      const comparable =
        kept > 0 && customer !== null && customer.currency === currency && own.every((l) => l.currency === currency);
      return {
        orderGid,
        orderId: getNumericId(orderGid) ?? null,
        orderName: first.orderName,
        boughtAt: first.purchasedAt.toISOString(),
        labels: kept,
        costCents,
        paidCents: customer?.paidCents ?? null,
        marginCents: comparable ? customer.paidCents - costCents : null,
        currency,
      };
    })
    .sort((a, b) => (a.boughtAt < b.boughtAt ? 1 : a.boughtAt > b.boughtAt ? -1 : 0));
}

export type MarginTotals = { orders: number; paidCents: number; costCents: number; marginCents: number };

/** The margin over the orders whose first label was bought in the period and whose payment is known. */
export function sumMargins(orders: readonly OrderMargin[], period: Period, currency: string): MarginTotals {
  const totals: MarginTotals = { orders: 0, paidCents: 0, costCents: 0, marginCents: 0 };
  for (const order of orders) {
    if (order.marginCents === null || order.paidCents === null || order.currency !== currency) continue;
    if (!within(period, new Date(order.boughtAt))) continue;
    totals.orders += 1;
    totals.paidCents += order.paidCents;
    totals.costCents += order.costCents;
    totals.marginCents += order.marginCents;
  }
  return totals;
}

/** The margin of each of the `weeks` weeks ending with this one, oldest first. */
export function sumMarginsByWeek(
  orders: readonly OrderMargin[],
  options: { now: Date; weeks: number; currency: string },
): ({ weekStart: string } & MarginTotals)[] {
  const thisWeek = getWeekBounds(options.now).start.getTime();
  return Array.from({ length: options.weeks }, (_, i) => {
    const start = new Date(thisWeek - (options.weeks - 1 - i) * 7 * DAY_MS);
    const period = { start, end: new Date(start.getTime() + 7 * DAY_MS) };
    return { weekStart: isoDate(start), ...sumMargins(orders, period, options.currency) };
  });
}

/** The first day the home's figures reach back to: the earliest of the month, the spend chart and the margin chart. */
export function getWindowStart(now: Date): Date {
  const month = getMonthBounds(now).start.getTime();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const spendChart = today - (SPEND_CHART_DAYS - 1) * DAY_MS;
  const marginChart = getWeekBounds(now).start.getTime() - (MARGIN_CHART_WEEKS - 1) * 7 * DAY_MS;
  return new Date(Math.min(month, spendChart, marginChart));
}

// ---------- Reading ----------

export type AttentionCounts = {
  /** Orders awaiting shipment with no label yet; null when Shopify could not be asked. */
  needsLabel: { count: number; atLeast: boolean } | null;
  /** Orders with a draft to buy (not held): the Orders list's Drafts tab. */
  drafts: number;
  /** Orders with a label flagged after purchase, or a shipment automatic drafting could not draft: the Flagged tab. */
  problems: number;
  /** Orders whose draft waits for Shopify to release a hold: the On hold tab. */
  onHold: number;
  /** Bought labels with a parcel the carrier reports delayed. */
  trackingExceptions: number;
  /** Bought labels whose tracking did not reach Shopify. */
  failedWriteBacks: number;
};

async function countAttention(
  db: PrismaClient,
  shop: string,
  awaiting: Result<OrderCount, ShopifyError>,
): Promise<AttentionCounts> {
  const [unshipped, tabs, trackingExceptions, failedWriteBacks] = await Promise.all([
    listLabelsOnTheWay(db, shop),
    // The Orders list's own tabs (order-tabs.server.ts): each tile counts the orders its tab lists.
    countOrderTabs(db, shop),
    // The Labels list's own definitions (label-needs.server.ts): each tile counts the rows its link shows.
    countLabelsNeeding(db, shop, "tracking_exception"),
    countLabelsNeeding(db, shop, "write_back_failed"),
  ]);
  const ordersOf = (rows: readonly { orderGid: string }[]) => new Set(rows.map((r) => r.orderGid)).size;
  return {
    // Shopify's count of orders awaiting shipment less those with a label on the way (a draft, or
    // bought with the tracking not in Shopify yet): an order split into several shipments with
    // one labelled counts as labelled, as the Orders list's "Needs label" tab reads it.
    needsLabel: awaiting.ok
      ? { count: Math.max(0, awaiting.value.count - ordersOf(unshipped)), atLeast: awaiting.value.atLeast }
      : null,
    drafts: tabs.drafts,
    problems: tabs.problems,
    onHold: tabs.onHold,
    trackingExceptions,
    failedWriteBacks,
  };
}

/**
 * What the customers paid for shipping on these orders: kept rows, and one batch of orders never
 * read before from Shopify (stored for next time). Returns how many are still unknown. While a
 * bulk run spends the shop's rate limit, no batch is read: a run of 1,000 new orders would have
 * each home load read another batch from the run's allowance (on Standard, every 10 s a load
 * cost the run about a second), and the margins can wait for the run to end.
 */
async function readShippingPaid(
  deps: HomeDeps,
  orderGids: readonly string[],
): Promise<{ paid: Map<string, PaidForShipping>; unknown: number; paused: boolean; problem: string | null }> {
  const kept = await deps.db.orderShippingPaid.findMany({
    where: { shop: deps.shop, orderGid: { in: [...orderGids] } },
    select: { orderGid: true, paidCents: true, currency: true },
  });
  const paid = new Map(kept.map((row) => [row.orderGid, { paidCents: row.paidCents, currency: row.currency }]));
  // Newest first: the orders the page lists are read before older ones.
  const missing = [...orderGids].reverse().filter((gid) => !paid.has(gid));
  let problem: string | null = null;
  const paused = missing.length > 0 && (await hasSpendingRun(deps.db, deps.shop));
  if (missing.length > 0 && !paused) {
    const batch = missing.slice(0, SHIPPING_PAID_BATCH);
    const read = await getShippingPaid(deps.admin, batch);
    if (read.ok) {
      for (const found of read.value) {
        paid.set(found.orderGid, { paidCents: found.paidCents, currency: found.currency });
        await deps.db.orderShippingPaid.upsert({
          where: { shop_orderGid: { shop: deps.shop, orderGid: found.orderGid } },
          create: { shop: deps.shop, orderGid: found.orderGid, paidCents: found.paidCents, currency: found.currency },
          update: {},
        });
      }
    } else {
      problem = reportError(read.error, { level: "warn" }).message;
    }
  }
  return { paid, unknown: orderGids.filter((gid) => !paid.has(gid)).length, paused, problem };
}

/** Labels of "Needs attention" listed one by one (with their void), most recent first. */
export const HELD_PURCHASES_SHOWN = 10;

/** A label bought for a shipment Shopify held or cancelled in the instant of the purchase. */
export type HeldPurchase = {
  labelId: string;
  orderName: string;
  /** For the link to the order's label page; null when the order id is not Shopify's. */
  orderId: string | null;
  /** What the void gives back (the charge: contract.md, the void refunds what was charged). */
  refundCents: number | null;
  currency: string;
  purchasedAt: string | null;
};

/** The home's list of labels bought for a held order (the Labels list's own filter), and how many. */
async function listHeldPurchases(db: PrismaClient, shop: string): Promise<{ count: number; labels: HeldPurchase[] }> {
  const [labels, count] = await Promise.all([
    listLabels(db, shop, { need: "bought_while_held", take: HELD_PURCHASES_SHOWN }),
    countLabelsNeeding(db, shop, "bought_while_held"),
  ]);
  return {
    count,
    labels: labels.map((label) => ({
      labelId: label.id,
      orderName: label.orderName,
      orderId: getNumericId(label.orderGid) ?? null,
      refundCents: label.chargedCents,
      currency: label.currency,
      purchasedAt: label.purchasedAt ? label.purchasedAt.toISOString() : null,
    })),
  };
}

export type HomeDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

export type HomeScreen = {
  attention: AttentionCounts;
  /** "Needs attention": labels bought for a held order, each with its one-click void. */
  heldPurchases: { count: number; labels: HeldPurchase[] };
  week: PeriodSpend & { start: string };
  month: PeriodSpend & { start: string };
  /** The currency the charts and margins are drawn in; null before the first label. */
  currency: string | null;
  spendPerDay: { date: string; spendCents: number }[];
  labelsByCarrier: { carrier: string; labels: number }[];
  margin: {
    week: MarginTotals;
    month: MarginTotals;
    byWeek: ({ weekStart: string } & MarginTotals)[];
    recentOrders: OrderMargin[];
    /** Orders in the window whose shipping payment is not read from Shopify yet. */
    unknownOrders: number;
    /** Whether they wait for a bulk run to end (no reads while it spends the rate limit). */
    unknownWaitForRun: boolean;
  };
  /** Why a part of the page could not be read from Shopify, for a banner; null when all was. */
  shopifyProblem: string | null;
};

export async function loadHomeScreen(deps: HomeDeps, options: { now: Date }): Promise<HomeScreen> {
  const { now } = options;
  const week = getWeekBounds(now);
  const month = getMonthBounds(now);
  const [labels, awaiting] = await Promise.all([
    listLabelSpend(deps.db, deps.shop, getWindowStart(now)),
    countOrdersAwaitingShipment(deps.admin),
  ]);
  const orderGids = [...new Set(labels.map((l) => l.orderGid))];
  const [attention, shipping, heldPurchases] = await Promise.all([
    countAttention(deps.db, deps.shop, awaiting),
    readShippingPaid(deps, orderGids),
    listHeldPurchases(deps.db, deps.shop),
  ]);
  const awaitingProblem = awaiting.ok ? null : reportError(awaiting.error, { level: "warn" }).message;
  const currency = choosePrimaryCurrency(labels);
  const margins = computeOrderMargins(labels, shipping.paid);
  const none: MarginTotals = { orders: 0, paidCents: 0, costCents: 0, marginCents: 0 };
  return {
    attention,
    heldPurchases,
    week: { ...summarizeSpend(labels, week), start: isoDate(week.start) },
    month: { ...summarizeSpend(labels, month), start: isoDate(month.start) },
    currency,
    spendPerDay: currency ? sumSpendPerDay(labels, { now, days: SPEND_CHART_DAYS, currency }) : [],
    labelsByCarrier: countLabelsByCarrier(labels, month),
    margin: {
      week: currency ? sumMargins(margins, week, currency) : none,
      month: currency ? sumMargins(margins, month, currency) : none,
      byWeek: currency ? sumMarginsByWeek(margins, { now, weeks: MARGIN_CHART_WEEKS, currency }) : [],
      recentOrders: margins.slice(0, MARGIN_ORDERS_SHOWN),
      unknownOrders: shipping.unknown,
      unknownWaitForRun: shipping.paused,
    },
    shopifyProblem: awaitingProblem ?? shipping.problem,
  };
}
