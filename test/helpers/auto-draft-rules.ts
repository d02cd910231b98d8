import type { AutoDraftRule } from "../../app/auto-draft/auto-draft-rules";

/** An auto-draft rule that matches everything and picks the cheapest rate, with the fields given. */
export function createTestRule(overrides: Partial<AutoDraftRule> = {}): AutoDraftRule {
  return {
    id: `rule_${Math.random().toString(36).slice(2)}`,
    destination: "any",
    countries: [],
    minWeight: null,
    maxWeight: null,
    weightUnit: "lb",
    minOrderValue: null,
    maxOrderValue: null,
    choice: "cheapest",
    serviceCode: null,
    boxPresetId: null,
    ...overrides,
  };
}
