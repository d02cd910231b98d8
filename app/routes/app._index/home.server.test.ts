import { describe, expect, it } from "vitest";

import {
  type BoughtLabel,
  choosePrimaryCurrency,
  computeOrderMargins,
  countLabelsByCarrier,
  getNetCostCents,
  getWeekBounds,
  getWindowStart,
  sumMargins,
  sumMarginsByWeek,
  summarizeSpend,
  sumSpendPerDay,
} from "./home.server";

// A fixed clock: Wednesday 2026-11-18, 15:00 UTC. Its week starts Monday 2026-11-16.
const NOW = new Date("2026-11-18T15:00:00Z");
const WEEK = getWeekBounds(NOW);
const MONTH = { start: new Date("2026-11-01T00:00:00Z"), end: new Date("2026-12-01T00:00:00Z") };

let n = 0;
function label(overrides: Partial<BoughtLabel> = {}): BoughtLabel {
  n += 1;
  return {
    id: `label-${n}`,
    orderGid: `gid://shopify/Order/${1000 + n}`,
    orderName: `#${1000 + n}`,
    carrier: "UPS",
    serviceName: "Ground",
    chargedCents: 1000,
    currency: "USD",
    purchasedAt: new Date("2026-11-17T10:00:00Z"),
    refundStatus: null,
    refundCents: null,
    ...overrides,
  };
}

describe("the week and month of the home's figures", () => {
  it("starts the week on Monday 00:00 UTC, whatever day it is", () => {
    expect(getWeekBounds(NOW)).toEqual({
      start: new Date("2026-11-16T00:00:00Z"),
      end: new Date("2026-11-23T00:00:00Z"),
    });
    // Sunday just before midnight is still the week that began six days earlier.
    expect(getWeekBounds(new Date("2026-11-22T23:59:59Z")).start).toEqual(new Date("2026-11-16T00:00:00Z"));
    expect(getWeekBounds(new Date("2026-11-23T00:00:00Z")).start).toEqual(new Date("2026-11-23T00:00:00Z"));
  });

  it("counts a label bought at the boundary in the period that begins there, not the one that ends", () => {
    const atMonday = label({ purchasedAt: new Date("2026-11-16T00:00:00Z") });
    const justBefore = label({ purchasedAt: new Date("2026-11-15T23:59:59.999Z") });
    expect(summarizeSpend([atMonday, justBefore], WEEK).labels).toBe(1);
    expect(summarizeSpend([atMonday, justBefore], MONTH).labels).toBe(2);
    const lastOfOctober = label({ purchasedAt: new Date("2026-10-31T23:59:59Z") });
    expect(summarizeSpend([lastOfOctober], MONTH).labels).toBe(0);
  });

  it("keeps a week that spans two months whole, while the month stops at its first day", () => {
    const now = new Date("2026-12-02T09:00:00Z"); // Wednesday; the week began Monday 30 November
    const week = getWeekBounds(now);
    const november = label({ purchasedAt: new Date("2026-11-30T08:00:00Z") });
    expect(summarizeSpend([november], week).labels).toBe(1);
    expect(summarizeSpend([november], { start: new Date("2026-12-01T00:00:00Z"), end: week.end }).labels).toBe(0);
  });

  it("reads back far enough for the month, 30 days of spend and 8 weeks of margin", () => {
    // 8 weeks ending with the week of 16 November begin on Monday 28 September.
    expect(getWindowStart(NOW)).toEqual(new Date("2026-09-28T00:00:00Z"));
  });
});

describe("spend, refunds counted once", () => {
  it("takes a refunded void's refund off once, and leaves the label out of the count", () => {
    const kept = label({ chargedCents: 1200 });
    const refunded = label({ chargedCents: 900, refundStatus: "refunded", refundCents: 900 });
    const spend = summarizeSpend([kept, refunded], WEEK);
    expect(spend).toMatchObject({ labels: 1, voided: 1 });
    expect(spend.byCurrency).toEqual([
      {
        currency: "USD",
        spendCents: 1200,
        refundedCents: 900,
        labels: 1,
        averageCents: 1200,
        byService: [{ carrier: "UPS", service: "Ground", labels: 1, spendCents: 1200 }],
      },
    ]);
  });

  it("counts a void still pending or refused at its full charge: no money came back", () => {
    const pending = label({ chargedCents: 800, refundStatus: "pending" });
    const refused = label({ chargedCents: 700, refundStatus: "rejected" });
    expect(summarizeSpend([pending, refused], WEEK).byCurrency[0]).toMatchObject({ spendCents: 1500, labels: 2 });
  });

  it("keeps what a partial refund did not give back", () => {
    expect(getNetCostCents(label({ chargedCents: 1000, refundStatus: "refunded", refundCents: 950 }))).toBe(50);
    // No refund amount named: the whole charge came back.
    expect(getNetCostCents(label({ chargedCents: 1000, refundStatus: "refunded", refundCents: null }))).toBe(0);
  });

  it("keeps each currency apart and averages only the labels kept", () => {
    const labels = [
      label({ chargedCents: 1000 }),
      label({ chargedCents: 2000, carrier: "USPS", serviceName: "Priority Mail" }),
      label({ chargedCents: 4000, currency: "CAD" }),
      label({ chargedCents: 5000, refundStatus: "refunded", refundCents: 5000 }),
    ];
    const spend = summarizeSpend(labels, MONTH);
    expect(spend.byCurrency.map((c) => [c.currency, c.spendCents, c.labels, c.averageCents])).toEqual([
      ["CAD", 4000, 1, 4000],
      ["USD", 3000, 2, 1500],
    ]);
    expect(spend.byCurrency[1]?.byService).toEqual([
      { carrier: "USPS", service: "Priority Mail", labels: 1, spendCents: 2000 },
      { carrier: "UPS", service: "Ground", labels: 1, spendCents: 1000 },
    ]);
    // USD was charged more before refunds (8,000 against 4,000): the charts draw it.
    expect(choosePrimaryCurrency(labels)).toBe("USD");
  });
});

describe("the charts' series", () => {
  it("sums net spend per UTC day, zero on days without labels, in the chosen currency only", () => {
    const labels = [
      label({ chargedCents: 500, purchasedAt: new Date("2026-11-18T01:00:00Z") }),
      label({ chargedCents: 700, purchasedAt: new Date("2026-11-18T23:30:00Z") }),
      label({ chargedCents: 900, purchasedAt: new Date("2026-11-16T12:00:00Z"), refundStatus: "refunded" }),
      label({ chargedCents: 400, purchasedAt: new Date("2026-11-17T12:00:00Z"), currency: "CAD" }),
    ];
    expect(sumSpendPerDay(labels, { now: NOW, days: 3, currency: "USD" })).toEqual([
      { date: "2026-11-16", spendCents: 0 },
      { date: "2026-11-17", spendCents: 0 },
      { date: "2026-11-18", spendCents: 1200 },
    ]);
  });

  it("counts kept labels per carrier in the period", () => {
    const labels = [
      label({ carrier: "USPS" }),
      label({ carrier: "UPS" }),
      label({ carrier: "USPS" }),
      label({ carrier: "FedEx", refundStatus: "refunded" }),
      label({ carrier: "DHL", purchasedAt: new Date("2026-10-30T00:00:00Z") }),
    ];
    expect(countLabelsByCarrier(labels, MONTH)).toEqual([
      { carrier: "USPS", labels: 2 },
      { carrier: "UPS", labels: 1 },
    ]);
  });
});

describe("shipping margin", () => {
  const order = "gid://shopify/Order/5001";

  it("compares what the customer paid with what the order's labels cost, refunds taken off", () => {
    const labels = [
      label({ orderGid: order, orderName: "#5001", chargedCents: 600 }),
      label({ orderGid: order, orderName: "#5001", chargedCents: 650, refundStatus: "refunded", refundCents: 650 }),
    ];
    const [margin] = computeOrderMargins(labels, new Map([[order, { paidCents: 895, currency: "USD" }]]));
    expect(margin).toMatchObject({
      orderId: "5001",
      orderName: "#5001",
      labels: 1,
      costCents: 600,
      paidCents: 895,
      marginCents: 295,
    });
  });

  it("gives no margin to an order whose only label was refunded: it has not shipped", () => {
    const refunded = label({ chargedCents: 600, refundStatus: "refunded", refundCents: 600 });
    const [margin] = computeOrderMargins(
      [refunded],
      new Map([[refunded.orderGid, { paidCents: 895, currency: "USD" }]]),
    );
    expect(margin).toMatchObject({ labels: 0, costCents: 0, paidCents: 895, marginCents: null });
  });

  it("gives no margin while the payment is unknown or in another currency", () => {
    const unknown = label({ chargedCents: 600 });
    const euros = label({ chargedCents: 600 });
    const margins = computeOrderMargins(
      [unknown, euros],
      new Map([[euros.orderGid, { paidCents: 900, currency: "EUR" }]]),
    );
    expect(margins.map((m) => [m.paidCents, m.marginCents])).toEqual([
      [null, null],
      [900, null],
    ]);
  });

  it("adds up the period's and each week's margin over the orders whose payment is known", () => {
    const thisWeek = label({ chargedCents: 500, purchasedAt: new Date("2026-11-17T09:00:00Z") });
    const lastWeek = label({ chargedCents: 1500, purchasedAt: new Date("2026-11-10T09:00:00Z") });
    const unread = label({ chargedCents: 9999, purchasedAt: new Date("2026-11-17T10:00:00Z") });
    const margins = computeOrderMargins(
      [lastWeek, thisWeek, unread],
      new Map([
        [thisWeek.orderGid, { paidCents: 895, currency: "USD" }],
        [lastWeek.orderGid, { paidCents: 1000, currency: "USD" }],
      ]),
    );
    expect(margins.map((m) => m.orderName)).toEqual([unread.orderName, thisWeek.orderName, lastWeek.orderName]);
    expect(sumMargins(margins, WEEK, "USD")).toEqual({ orders: 1, paidCents: 895, costCents: 500, marginCents: 395 });
    expect(sumMargins(margins, MONTH, "USD")).toEqual({
      orders: 2,
      paidCents: 1895,
      costCents: 2000,
      marginCents: -105,
    });
    expect(sumMarginsByWeek(margins, { now: NOW, weeks: 2, currency: "USD" })).toEqual([
      { weekStart: "2026-11-09", orders: 1, paidCents: 1000, costCents: 1500, marginCents: -500 },
      { weekStart: "2026-11-16", orders: 1, paidCents: 895, costCents: 500, marginCents: 395 },
    ]);
  });
});
