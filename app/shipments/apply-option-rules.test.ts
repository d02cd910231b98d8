import { describe, expect, it } from "vitest";

import { NO_OPTION_RULES, type OptionRules, OptionRulesFormSchema, toOptionRules } from "~/settings/option-rules";

import { applyOptionRules, type OptionRuleLine, valueOfLines } from "./apply-option-rules";

const usd = (amount: string) => ({
  shop: { amount, currencyCode: "USD" },
  presentment: { amount, currencyCode: "USD" },
});

const line = (over: Partial<OptionRuleLine> = {}): OptionRuleLine => ({
  title: "Espresso Grinder Pro 64",
  productType: "Coffee Grinders",
  productTags: ["electric", "lithium-battery"],
  quantity: 1,
  unitPrice: usd("1450.00"),
  ...over,
});

const rules = (over: Partial<OptionRules>): OptionRules => ({ ...NO_OPTION_RULES, ...over });

describe("applyOptionRules", () => {
  it("gives no options and says nothing when the shop has no rules", () => {
    expect(applyOptionRules(NO_OPTION_RULES, [line()])).toEqual({ options: null, problems: [] });
  });

  it("insures for what the customer paid once the items are worth more than the threshold", () => {
    const applied = applyOptionRules(rules({ insureAboveCents: 100_00 }), [line({ quantity: 2 })]);
    expect(applied.options).toEqual({ insurance: { amount: "2900.00", currency: "USD" } });
    expect(applied.problems).toEqual([
      expect.objectContaining({ path: "options.insurance", code: "OPTION_RULE", severity: "info" }),
    ]);
  });

  it("leaves shipments at or under the threshold uninsured", () => {
    // Worth is what was paid: a $150 list price sold at $100 is not over a $100 threshold.
    expect(
      applyOptionRules(rules({ insureAboveCents: 100_00 }), [line({ unitPrice: usd("100.00") })]).options,
    ).toBeNull();
    const cheap = line({ unitPrice: usd("100.00") });
    expect(applyOptionRules(rules({ insureAboveCents: 100_00 }), [cheap]).options).toBeNull();
  });

  it("caps insurance at the carrier's most, and says so", () => {
    const applied = applyOptionRules(rules({ insureAboveCents: 0 }), [line({ quantity: 4 })]);
    expect(applied.options?.insurance).toEqual({ amount: "5000.00", currency: "USD" });
    expect(applied.problems[0]?.message).toContain("the most the carrier covers");
  });

  it("does not insure an order in another currency, and warns on the field", () => {
    const eur = {
      shop: { amount: "900.00", currencyCode: "EUR" },
      presentment: { amount: "900.00", currencyCode: "EUR" },
    };
    const applied = applyOptionRules(rules({ insureAboveCents: 0 }), [line({ unitPrice: eur })]);
    expect(applied.options).toBeNull();
    expect(applied.problems).toEqual([
      expect.objectContaining({ path: "options.insurance", code: "OPTION_RULE_SKIPPED", severity: "warning" }),
    ]);
  });

  it("asks for an adult signature by tag or by product type, in any case", () => {
    const byTag = applyOptionRules(rules({ adultSignatureTags: ["ELECTRIC"] }), [line()]);
    expect(byTag.options).toEqual({ signature: "adult" });
    expect(byTag.problems[0]?.message).toContain('tagged "electric"');
    const byType = applyOptionRules(rules({ adultSignatureProductTypes: ["coffee grinders"] }), [line()]);
    expect(byType.options).toEqual({ signature: "adult" });
    expect(applyOptionRules(rules({ adultSignatureTags: ["wine"] }), [line()]).options).toBeNull();
  });

  it("declares lithium batteries by tag, matching whole tags only", () => {
    expect(applyOptionRules(rules({ lithiumTags: ["lithium-battery"] }), [line()]).options).toEqual({
      hazmat: "lithium_batteries",
    });
    expect(applyOptionRules(rules({ lithiumTags: ["lithium"] }), [line()]).options).toBeNull();
  });
});

describe("valueOfLines", () => {
  it("is unknown when a price is missing or currencies mix", () => {
    expect(valueOfLines([line(), line({ unitPrice: null })])).toBeNull();
    const cad = { shop: { amount: "1.00", currencyCode: "CAD" }, presentment: { amount: "1.00", currencyCode: "CAD" } };
    expect(valueOfLines([line(), line({ unitPrice: cad })])).toBeNull();
    expect(valueOfLines([line({ quantity: 3 })])).toEqual({ cents: 435_000, currency: "USD" });
  });
});

describe("the Settings form", () => {
  it("reads tags as Shopify writes them and an empty amount as no insurance rule", () => {
    const parsed = OptionRulesFormSchema.parse({
      insureAbove: "",
      adultSignatureTags: " wine, 21+ ,, Wine ",
      adultSignatureProductTypes: "",
      lithiumTags: "lithium-battery",
    });
    expect(toOptionRules(parsed)).toEqual({
      insureAboveCents: null,
      adultSignatureTags: ["wine", "21+"],
      adultSignatureProductTypes: [],
      lithiumTags: ["lithium-battery"],
    });
    expect(toOptionRules(OptionRulesFormSchema.parse({ insureAbove: "250.5" })).insureAboveCents).toBe(25_050);
  });

  it("names the field of a bad amount", () => {
    const parsed = OptionRulesFormSchema.safeParse({ insureAbove: "9000" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["insureAbove"]);
    expect(parsed.error?.issues[0]?.message).toContain("5000.00");
    expect(OptionRulesFormSchema.safeParse({ insureAbove: "lots" }).error?.issues[0]?.message).toContain("number");
  });
});
