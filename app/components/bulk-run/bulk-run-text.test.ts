import { describe, expect, it } from "vitest";

import { buyingPercent, describeRunSize, describeRunTitle, describeShipment } from "./bulk-run-text";

const progress = (p: Partial<Parameters<typeof buyingPercent>[0]>) => ({
  bought: 0,
  failed: 0,
  remaining: 0,
  notStarted: 0,
  notFulfillable: 0,
  ...p,
});

describe("a bulk run's words", () => {
  it("says progress in whole percent, never a long fraction", () => {
    expect(buyingPercent(progress({ bought: 1, remaining: 2 }))).toBe(33);
    expect(buyingPercent(progress({ bought: 2, remaining: 1 }))).toBe(66);
  });

  it("never reads 100% for a run cancelled or stopped before every label was bought", () => {
    expect(buyingPercent(progress({ bought: 4, notStarted: 4 }))).toBe(50);
    expect(buyingPercent(progress({ bought: 19, notStarted: 1 }))).toBeLessThan(100);
    expect(buyingPercent(progress({ bought: 4, failed: 1 }))).toBe(100);
  });

  it("does not title a run whose labels mostly failed 'Labels bought'", () => {
    expect(describeRunTitle({ status: "done", progress: progress({ bought: 4 }) })).toBe("Labels bought");
    expect(describeRunTitle({ status: "done", progress: progress({ bought: 0, failed: 16 }) })).toBe(
      "No labels bought",
    );
    expect(describeRunTitle({ status: "done", progress: progress({ bought: 4, failed: 16 }) })).toBe(
      "Some labels not bought",
    );
  });

  it("counts shipments and orders alike when they agree, and says why when they differ", () => {
    const items = (n: number) => Array.from({ length: n }, () => ({}) as never);
    expect(describeRunSize({ items: items(3), orderCount: 3 })).toBe("3 orders");
    expect(describeRunSize({ items: items(10), orderCount: 9 })).toMatch(
      /^10 shipments from 9 orders \(some orders ship from more than one location\)$/,
    );
  });

  it("tells two shipments of one order apart", () => {
    expect(describeShipment({ orderName: "#1016", shipment: { index: 2, of: 2 } })).toBe("#1016 · shipment 2 of 2");
    expect(describeShipment({ orderName: "#1001", shipment: null })).toBe("#1001");
  });
});
