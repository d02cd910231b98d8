import { describe, expect, it } from "vitest";

import { estimateRunSeconds, SHIPPING_CALL_SECONDS, SHOPIFY_POINTS_PER_LABEL } from "./bulk-run-eta";

const run = (over: Partial<Parameters<typeof estimateRunSeconds>[0]>) =>
  estimateRunSeconds({
    remaining: 1_000,
    done: 0,
    elapsedSeconds: 0,
    restoreRate: 100,
    shippingConcurrency: 4,
    ...over,
  });

describe("a running bulk run's estimate", () => {
  it("is Shopify's floor on Standard before anything is bought: the labels' points at the shop's restore rate", () => {
    expect(run({})).toEqual({
      seconds: (1_000 * SHOPIFY_POINTS_PER_LABEL) / 100,
      limitedBy: "shopify",
      slowShippingSecondsPerLabel: null,
    });
  });

  it("is the shipping floor on Plus, where the restore rate outruns the purchases", () => {
    expect(run({ restoreRate: 1_000 })).toEqual({
      seconds: Math.round((1_000 * SHIPPING_CALL_SECONDS) / 4),
      limitedBy: "shipping",
      slowShippingSecondsPerLabel: null,
    });
  });

  it("follows the pace so far once labels are bought, never below the floors", () => {
    // 100 bought in 21 s, Shopify's own pace on Standard: 900 left is Standard's floor of 189 s.
    expect(run({ remaining: 900, done: 100, elapsedSeconds: 21 })).toEqual({
      seconds: 189,
      limitedBy: "shopify",
      slowShippingSecondsPerLabel: null,
    });
    // A fast start on a full bucket does not promise what the restore rate cannot give.
    expect(run({ remaining: 900, done: 100, elapsedSeconds: 5 })?.seconds).toBe((900 * SHOPIFY_POINTS_PER_LABEL) / 100);
  });

  it("names the shipping service, with the pace measured, when labels come slower than Shopify allows", () => {
    // 100 bought in 60 s on Standard: 0.6 s a label where Shopify allows 0.21 s. Shopify is not
    // what holds the run back: the shipping service is (4 calls of 2.4 s in flight).
    expect(run({ remaining: 900, done: 100, elapsedSeconds: 60 })).toEqual({
      seconds: 540,
      limitedBy: "shipping",
      slowShippingSecondsPerLabel: 0.6,
    });
    // The shipping service at its usual pace on Plus: it sets the pace, and nothing is slow.
    expect(run({ restoreRate: 1_000, remaining: 900, done: 100, elapsedSeconds: 7.5 })).toMatchObject({
      limitedBy: "shipping",
      slowShippingSecondsPerLabel: null,
    });
  });

  it("without the restore rate, falls back on the shipping floor and the pace", () => {
    expect(run({ restoreRate: null })?.limitedBy).toBe("shipping");
  });

  it("has nothing to say once nothing remains", () => {
    expect(run({ remaining: 0, done: 10, elapsedSeconds: 10 })).toBeNull();
  });
});
