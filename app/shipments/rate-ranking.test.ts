import { describe, expect, it } from "vitest";

import { describeDelivery, estimateArrival, rankRates } from "./rate-ranking";

const rate = (id: string, carrier: string, service: string, amount: string, days: number | null) => ({
  rate_id: id,
  carrier,
  service,
  amount,
  delivery_days: days,
  ship_date: "2026-11-27", // a Friday
});

describe("rankRates", () => {
  it("lists the cheapest first, writes the carrier once, and marks the cheapest and the fastest", () => {
    const ranked = rankRates([
      rate("a", "FEDEX", "FedEx 2Day", "24.10", 2),
      rate("b", "UPS", "UPS Ground", "12.40", 5),
      rate("c", "USPS", "Priority Mail", "9.85", 3),
      rate("d", "UPS", "Next Day Air", "48.00", 1),
    ]);
    expect(ranked.map((r) => [r.name, r.cheapest, r.fastest])).toEqual([
      ["USPS Priority Mail", true, false],
      ["UPS Ground", false, false],
      ["FedEx 2Day", false, false],
      ["UPS Next Day Air", false, true],
    ]);
  });

  it("gives no fastest mark to the cheapest rate, nor to a lone rate, nor without estimates", () => {
    expect(
      rankRates([rate("a", "UPS", "UPS Ground", "9.00", 1), rate("b", "UPS", "2nd Day Air", "20.00", 2)]).map(
        (r) => r.fastest,
      ),
    ).toEqual([false, false]);
    expect(rankRates([rate("a", "UPS", "UPS Ground", "9.00", 3)])[0]).toMatchObject({ cheapest: true, fastest: false });
    expect(
      rankRates([rate("a", "X", "One", "9.00", null), rate("b", "X", "Two", "10.00", null)]).some((r) => r.fastest),
    ).toBe(false);
  });

  it("breaks a price tie by speed", () => {
    expect(
      rankRates([rate("slow", "X", "Slow", "9.00", 5), rate("quick", "X", "Quick", "9.00", 2)])[0]?.rate.rate_id,
    ).toBe("quick");
  });
});

describe("describeDelivery", () => {
  it("says 1 day, not 1 days, and counts business days from the ship date", () => {
    expect(describeDelivery(1, "2026-11-27")).toBe("1 day · by Mon, Nov 30");
    expect(describeDelivery(3, "2026-11-27")).toBe("3 days · by Wed, Dec 2");
    expect(describeDelivery(null, "2026-11-27")).toBeNull();
    expect(estimateArrival("not a date", 2)).toBeNull();
  });
});
