import { describe, expect, it } from "vitest";

import {
  AutoDraftFormSchema,
  type AutoDraftRuleDraft,
  createRuleDraft,
  describeRule,
  describeRulesToFix,
  encodeAutoDraftForm,
  findServiceProblem,
  groupServiceOptions,
  toRuleDraft,
} from "./auto-draft-form";
import { AUTO_DRAFT_SERVICE_OPTIONS } from "./auto-draft-rules";

const draft = (overrides: Partial<AutoDraftRuleDraft> = {}): AutoDraftRuleDraft => ({
  ...createRuleDraft(),
  ...overrides,
});

function parse(rules: unknown, enabled = "true") {
  return AutoDraftFormSchema.safeParse({
    intent: "saveAutoDraft",
    autoDraftEnabled: enabled,
    rules: typeof rules === "string" ? rules : JSON.stringify(rules),
  });
}

function issuesOf(result: ReturnType<typeof parse>) {
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe("the auto-draft form", () => {
  it("reads blank limits as none, numbers as numbers, and gives a new rule an id", () => {
    const result = parse([
      draft({ destination: "domestic", maxWeight: " 2 ", minOrderValue: "", maxOrderValue: "49.5", weightUnit: "lb" }),
      draft({ id: "rule_kept", choice: "service", serviceCode: "svc_ups_ground", boxPresetId: "box_1" }),
    ]);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.enabled).toBe(true);
    const [first, second] = result.data.rules;
    expect(first).toMatchObject({
      destination: "domestic",
      countries: [],
      minWeight: null,
      maxWeight: 2,
      weightUnit: "lb",
      minOrderValue: null,
      maxOrderValue: 49.5,
      choice: "cheapest",
      serviceCode: null,
      boxPresetId: null,
    });
    expect(first?.id).toMatch(/^rule_[0-9a-f-]{36}$/);
    expect(second).toMatchObject({ id: "rule_kept", serviceCode: "svc_ups_ground", boxPresetId: "box_1" });
  });

  it("splits and upper-cases a country list, dropping repeats, and keeps it only for specific countries", () => {
    const result = parse([
      draft({ destination: "countries", countries: " ca, gb;de  CA " }),
      draft({ destination: "domestic", countries: "CA" }),
    ]);
    expect(result.success && result.data.rules.map((r) => r.countries)).toEqual([["CA", "GB", "DE"], []]);
  });

  it("drops a service left over from an earlier choice", () => {
    const result = parse([draft({ choice: "fastest", serviceCode: "svc_dhl_express_worldwide" })]);
    expect(result.success && result.data.rules[0]?.serviceCode).toBeNull();
  });

  it("reads the switch as a checkbox: off unless ticked", () => {
    expect(parse([], "on").data?.enabled).toBe(true);
    expect(parse([], "false").data?.enabled).toBe(false);
    expect(AutoDraftFormSchema.safeParse({ rules: "[]" }).data).toEqual({ enabled: false, rules: [] });
  });

  it("names the field of the rule that holds a bad value", () => {
    const result = parse([
      draft(),
      draft({ minWeight: "two", maxOrderValue: "-5", destination: "countries", countries: "Canada" }),
    ]);
    expect(issuesOf(result)).toEqual([
      {
        path: ["rules", 1, "countries"],
        message: '"CANADA" is not a country code. Use two-letter codes, like CA or GB',
      },
      { path: ["rules", 1, "minWeight"], message: "Enter the lowest weight as a number, or leave it blank" },
      { path: ["rules", 1, "maxOrderValue"], message: "The highest order value cannot be negative" },
    ]);
  });

  it("refuses a crafted or stale post with the field it cannot read", () => {
    expect(issuesOf(parse([{ ...draft(), destination: "moon" }]))).toEqual([
      { path: ["rules", 0, "destination"], message: "Choose where the order ships" },
    ]);
    expect(issuesOf(parse([{ ...draft(), weightUnit: undefined }]))).toEqual([
      { path: ["rules", 0, "weightUnit"], message: "Choose a weight unit" },
    ]);
    const unreadable = "The rules could not be read. Reload the page and try again.";
    expect(issuesOf(parse("[{"))).toEqual([{ path: ["rules"], message: unreadable }]);
    expect(issuesOf(parse({ rules: [] }))).toEqual([{ path: ["rules"], message: unreadable }]);
    expect(issuesOf(parse(Array.from({ length: 21 }, () => draft())))).toEqual([
      { path: ["rules"], message: "Use at most 20 rules" },
    ]);
  });

  it("does not send what the merchant cannot see: countries of another destination, a service of another choice", () => {
    const hidden = draft({ destination: "domestic", countries: "Canada", choice: "cheapest", serviceCode: "svc_x" });
    const result = AutoDraftFormSchema.safeParse(encodeAutoDraftForm(false, [hidden]));
    expect(result.success && result.data.rules[0]).toMatchObject({ countries: [], serviceCode: null });
  });

  it("encodes the rules as one JSON field that parses back to the same rules", () => {
    const saved = { ...createRuleDraft("kg"), id: "rule_a", destination: "countries" as const, countries: "CA, MX" };
    const fields = encodeAutoDraftForm(true, [saved]);
    expect(fields).toMatchObject({ intent: "saveAutoDraft", autoDraftEnabled: "true" });
    const result = AutoDraftFormSchema.safeParse(fields);
    expect(result.success && result.data.rules.map(toRuleDraft)).toEqual([saved]);
  });
});

describe("reading a rule", () => {
  const context = {
    services: AUTO_DRAFT_SERVICE_OPTIONS,
    presets: [{ id: "box_small", name: "Small box" }],
    currencyCode: "USD",
  };

  it("sums a rule up in one line", () => {
    expect(describeRule(draft({ destination: "domestic", maxWeight: "2", boxPresetId: "box_small" }), context)).toBe(
      "Domestic, up to 2 lb → cheapest rate, in Small box",
    );
    expect(
      describeRule(
        draft({
          destination: "countries",
          countries: "ca, gb",
          minWeight: "1",
          maxWeight: "5",
          weightUnit: "kg",
          minOrderValue: "100",
          choice: "service",
          serviceCode: "svc_dhl_express_worldwide",
        }),
        context,
      ),
    ).toBe("To CA, GB, 1 kg–5 kg, order value at least $100.00 → DHL Express Worldwide, in the default box");
    expect(describeRule(draft({ choice: "service", boxPresetId: "gone" }), context)).toBe(
      "Any destination → a service (choose one), in a deleted box",
    );
  });

  it("groups services by what they reach", () => {
    expect(groupServiceOptions(AUTO_DRAFT_SERVICE_OPTIONS).map((g) => [g.title, g.options.length])).toEqual([
      ["Within the US", 8],
      ["Between the US, Canada and Mexico", 1],
      ["International", 4],
    ]);
  });

  it("warns before saving when the chosen service cannot reach the destination", () => {
    const international = draft({ destination: "international", choice: "service", serviceCode: "svc_ups_ground" });
    expect(findServiceProblem(international, "US")).toMatch(/^UPS Ground cannot ship every international order/);
    expect(findServiceProblem({ ...international, destination: "domestic" }, "US")).toBeUndefined();
    expect(findServiceProblem(international, null)).toBeUndefined();
  });

  it("names the rules a refused save points at", () => {
    expect(describeRulesToFix([{ path: "rules[1].serviceCode" }, { path: "rules[1].maxWeight" }])).toBe(
      "Fix rule 2 below, then save again.",
    );
    expect(describeRulesToFix([{ path: "rules[3].id" }, { path: "rules[0].countries" }, { path: "rules[1].x" }])).toBe(
      "Fix rules 1, 2 and 4 below, then save again.",
    );
    expect(describeRulesToFix([{ path: "rules" }])).toBeNull();
  });
});
