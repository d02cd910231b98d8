import { describe, expect, it } from "vitest";

import type { Rate } from "~/shipping/schemas";

import { createTestRule } from "../../test/helpers/auto-draft-rules";
import {
  type AutoDraftFacts,
  type AutoDraftRule,
  checkAutoDraftRules,
  chooseAutoDraftRate,
  matchAutoDraftRule,
} from "./auto-draft-rules";

const rule = (overrides: Partial<AutoDraftRule> = {}) => createTestRule({ id: "r1", ...overrides });

const facts = (overrides: Partial<AutoDraftFacts> = {}): AutoDraftFacts => ({
  fromCountry: "US",
  toCountry: "US",
  weightGrams: 500,
  orderValue: 40,
  ...overrides,
});

const rate = (service_code: string, amount: string, delivery_days: number | null): Rate => ({
  rate_id: `rate_${service_code}`,
  service_code,
  carrier: "UPS",
  service: service_code,
  amount,
  currency: "USD",
  delivery_days,
  ship_date: "2026-11-23",
  expires_at: "2026-11-24T00:00:00Z",
});

describe("matchAutoDraftRule", () => {
  it("takes the first rule whose destination, weight and value all hold", () => {
    const rules = [
      rule({ id: "intl", destination: "international" }),
      rule({ id: "heavy", destination: "domestic", minWeight: 2, weightUnit: "lb" }),
      rule({ id: "light", destination: "domestic", maxWeight: 2, weightUnit: "lb" }),
      rule({ id: "any" }),
    ];
    expect(matchAutoDraftRule(rules, facts())?.rule.id).toBe("light");
    expect(matchAutoDraftRule(rules, facts({ weightGrams: 2000 }))?.rule.id).toBe("heavy");
    expect(matchAutoDraftRule(rules, facts({ toCountry: "CA" }))).toMatchObject({ index: 0 });
  });

  it("compares weights in the rule's unit, bounds included", () => {
    const oneKilo = [rule({ minWeight: 1, maxWeight: 1, weightUnit: "kg" })];
    expect(matchAutoDraftRule(oneKilo, facts({ weightGrams: 1000 }))).not.toBeNull();
    expect(matchAutoDraftRule(oneKilo, facts({ weightGrams: 1001 }))).toBeNull();
  });

  it("does not apply a weight or value condition to a shipment whose weight or value is unknown", () => {
    expect(matchAutoDraftRule([rule({ maxWeight: 5 })], facts({ weightGrams: null }))).toBeNull();
    expect(matchAutoDraftRule([rule({ minOrderValue: 100 })], facts({ orderValue: null }))).toBeNull();
    expect(matchAutoDraftRule([rule()], facts({ weightGrams: null, orderValue: null }))).not.toBeNull();
  });

  it("matches listed countries only, and no destination rule without a ship-to country", () => {
    const rules = [rule({ destination: "countries", countries: ["GB", "DE"] })];
    expect(matchAutoDraftRule(rules, facts({ toCountry: "DE" }))).not.toBeNull();
    expect(matchAutoDraftRule(rules, facts({ toCountry: "FR" }))).toBeNull();
    expect(matchAutoDraftRule([rule({ destination: "domestic" })], facts({ toCountry: null }))).toBeNull();
  });

  it("filters by order value range", () => {
    const rules = [rule({ minOrderValue: 50, maxOrderValue: 200 })];
    expect(matchAutoDraftRule(rules, facts({ orderValue: 49.99 }))).toBeNull();
    expect(matchAutoDraftRule(rules, facts({ orderValue: 200 }))).not.toBeNull();
  });
});

describe("chooseAutoDraftRate", () => {
  const rates = [
    rate("svc_ups_ground", "9.10", 5),
    rate("svc_ups_next_day_air", "31.00", 1),
    rate("svc_usps_priority", "8.40", 3),
  ];

  it("falls back to the cheapest rate without a rule", () => {
    expect(chooseAutoDraftRate(rates, null)?.rate.service_code).toBe("svc_usps_priority");
  });

  it("takes the fewest delivery days for fastest, the cheaper of a tie, unknown days last", () => {
    expect(chooseAutoDraftRate(rates, rule({ choice: "fastest" }))?.rate.service_code).toBe("svc_ups_next_day_air");
    const tie = [rate("a", "12.00", 2), rate("b", "11.00", 2), rate("c", "1.00", null)];
    expect(chooseAutoDraftRate(tie, rule({ choice: "fastest" }))?.rate.service_code).toBe("b");
  });

  it("takes the named service, or the cheapest with a note when it was not offered", () => {
    const named = chooseAutoDraftRate(rates, rule({ choice: "service", serviceCode: "svc_ups_ground" }));
    expect(named).toEqual({ rate: rates[0], note: null });
    const missing = chooseAutoDraftRate(rates, rule({ choice: "service", serviceCode: "svc_fedex_2day" }));
    expect(missing?.rate.service_code).toBe("svc_usps_priority");
    expect(missing?.note).toMatch(/^FedEx 2Day was not offered/);
  });

  it("says when the shipment's options are why the named service was left out", () => {
    const ground = [rates[0] as Rate];
    const air = rule({ choice: "service", serviceCode: "svc_ups_next_day_air" });
    const lithium = chooseAutoDraftRate(ground, air, { hazmat: "lithium_batteries" });
    expect(lithium?.rate.service_code).toBe("svc_ups_ground");
    expect(lithium?.note).toMatch(
      /^Lithium batteries travel by ground only .*UPS Next Day Air flies, so the cheapest rate that can was drafted\.$/,
    );
    expect(chooseAutoDraftRate(ground, air, null)?.note).toMatch(/^UPS Next Day Air was not offered/);
  });

  it("chooses nothing from no rates", () => {
    expect(chooseAutoDraftRate([], null)).toBeNull();
  });
});

describe("checkAutoDraftRules", () => {
  const context = { fromCountry: "US", boxPresetIds: ["box_1"] };

  it("accepts services that reach the rule's destination", () => {
    expect(
      checkAutoDraftRules(
        [
          rule({ id: "a", destination: "domestic", choice: "service", serviceCode: "svc_ups_ground" }),
          rule({ id: "b", destination: "international", choice: "service", serviceCode: "svc_dhl_express_worldwide" }),
          rule({
            id: "c",
            destination: "countries",
            countries: ["CA", "MX"],
            choice: "service",
            serviceCode: "svc_ups_standard",
          }),
          rule({ id: "d", boxPresetId: "box_1", choice: "fastest" }),
        ],
        context,
      ),
    ).toEqual([]);
  });

  it("refuses a service that cannot ship to the destination, at the rule's service field", () => {
    const problems = checkAutoDraftRules(
      [
        rule({ id: "a", destination: "international", choice: "service", serviceCode: "svc_ups_ground" }),
        rule({ id: "b", destination: "domestic", choice: "service", serviceCode: "svc_dhl_express_worldwide" }),
        rule({
          id: "c",
          destination: "countries",
          countries: ["CA", "GB"],
          choice: "service",
          serviceCode: "svc_ups_standard",
        }),
        rule({ id: "d", destination: "any", choice: "service", serviceCode: "svc_usps_priority" }),
      ],
      context,
    );
    expect(problems.map((p) => p.path)).toEqual([
      "rules[0].serviceCode",
      "rules[1].serviceCode",
      "rules[2].serviceCode",
      "rules[3].serviceCode",
    ]);
    expect(problems[0]?.message).toBe(
      "UPS Ground cannot ship every international order from US. Choose another service or narrow the destination.",
    );
    expect(problems[2]?.message).toMatch(/cannot ship orders to GB from US/);
    expect(problems[3]?.message).toMatch(/cannot ship international orders/);
  });

  it("names empty country lists, inverted ranges, unknown services, deleted boxes and repeated rules", () => {
    const problems = checkAutoDraftRules(
      [
        rule({ id: "a", destination: "countries", countries: [] }),
        rule({ id: "b", minWeight: 5, maxWeight: 1 }),
        rule({ id: "c", minOrderValue: 100, maxOrderValue: 10 }),
        rule({ id: "d", choice: "service", serviceCode: "svc_nope" }),
        rule({ id: "e", boxPresetId: "box_gone" }),
        rule({ id: "a" }),
      ],
      context,
    );
    expect(problems.map((p) => p.path)).toEqual([
      "rules[0].countries",
      "rules[1].maxWeight",
      "rules[2].maxOrderValue",
      "rules[3].serviceCode",
      "rules[4].boxPresetId",
      "rules[5].id",
    ]);
  });
});
