import { z } from "zod";

import { BOX_WEIGHT_UNITS } from "~/settings/settings";
import { unitToGrams } from "~/shipments/parcels";
import { checkOptionsForService } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { describeService, findServiceByCode, isServiceOfferedOnRoute, SERVICES } from "~/shipping/services";

// Auto-draft rules: which rate (and box) a draft made without a merchant gets. Pure, shared by
// the Settings screen (editing, validation) and the auto-draft job (matching, choosing a rate).
// Rules are tried in order; the first whose condition holds applies, and with none the cheapest
// rate in the default box is drafted.

export const AUTO_DRAFT_DESTINATIONS = ["any", "domestic", "international", "countries"] as const;
export const AUTO_DRAFT_CHOICES = ["cheapest", "fastest", "service"] as const;
export type AutoDraftDestination = (typeof AUTO_DRAFT_DESTINATIONS)[number];
export type AutoDraftChoice = (typeof AUTO_DRAFT_CHOICES)[number];

// A long list is a sign the merchant wants something rules cannot say; it also bounds the form.
export const MAX_AUTO_DRAFT_RULES = 20;

const CountryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "Use two-letter country codes, like CA or GB");

export const AutoDraftRuleSchema = z.object({
  id: z.string().min(1).max(64),
  destination: z.enum(AUTO_DRAFT_DESTINATIONS),
  /** Only with destination "countries": where the order ships to. */
  countries: z.array(CountryCodeSchema).max(250),
  /** The shipment's weight (items, without the box), inclusive bounds in `weightUnit`. */
  minWeight: z.number().min(0).nullable(),
  maxWeight: z.number().min(0).nullable(),
  weightUnit: z.enum(BOX_WEIGHT_UNITS),
  /** The order's total in the shop's currency, inclusive bounds. */
  minOrderValue: z.number().min(0).nullable(),
  maxOrderValue: z.number().min(0).nullable(),
  choice: z.enum(AUTO_DRAFT_CHOICES),
  /** Only with choice "service": the service's code (services.ts). */
  serviceCode: z.string().nullable(),
  /** A box preset's id; null packs into the default box. */
  boxPresetId: z.string().nullable(),
});
export type AutoDraftRule = z.infer<typeof AutoDraftRuleSchema>;

export const AutoDraftRulesSchema = z.array(AutoDraftRuleSchema).max(MAX_AUTO_DRAFT_RULES);

/** What a rule's condition is judged on, read from the order and its fulfillment order. */
export type AutoDraftFacts = {
  fromCountry: string;
  toCountry: string | null;
  /** The items' weight; null when some item has none (a weight condition then does not hold). */
  weightGrams: number | null;
  /** The order's total in the shop's currency; null when unknown. */
  orderValue: number | null;
};

export type RuleProblem = { path: string; message: string };

const inRange = (value: number | null, min: number | null, max: number | null) => {
  if (min === null && max === null) return true;
  if (value === null) return false;
  return (min === null || value >= min) && (max === null || value <= max);
};

function destinationHolds(rule: AutoDraftRule, facts: AutoDraftFacts): boolean {
  if (rule.destination === "any") return true;
  if (!facts.toCountry) return false;
  const domestic = facts.toCountry === facts.fromCountry;
  if (rule.destination === "domestic") return domestic;
  if (rule.destination === "international") return !domestic;
  return rule.countries.includes(facts.toCountry);
}

function weightHolds(rule: AutoDraftRule, facts: AutoDraftFacts): boolean {
  const toGrams = (value: number | null) => (value === null ? null : unitToGrams(value, rule.weightUnit));
  return inRange(facts.weightGrams, toGrams(rule.minWeight), toGrams(rule.maxWeight));
}

/** The first rule whose condition holds, with its position (0-based); null: the fallback applies. */
export function matchAutoDraftRule(
  rules: readonly AutoDraftRule[],
  facts: AutoDraftFacts,
): { rule: AutoDraftRule; index: number } | null {
  const index = rules.findIndex(
    (rule) =>
      destinationHolds(rule, facts) &&
      weightHolds(rule, facts) &&
      inRange(facts.orderValue, rule.minOrderValue, rule.maxOrderValue),
  );
  const rule = rules[index];
  return rule ? { rule, index } : null;
}

const amountOf = (rate: Rate) => Number(rate.amount);
const byPrice = (a: Rate, b: Rate) => amountOf(a) - amountOf(b);
const byDays = (a: Rate, b: Rate) => (a.delivery_days ?? Infinity) - (b.delivery_days ?? Infinity) || byPrice(a, b);

export type ChosenRate = {
  rate: Rate;
  /** Set when the rule's choice could not be honoured and the cheapest rate was taken instead. */
  note: string | null;
};

/**
 * The rate a rule picks from a quote; cheapest when no rule applies or its service was not offered.
 * `options` are the shipment's (a shop rule's insurance, signature or batteries): when they are why
 * the named service was left out, the note says so.
 */
export function chooseAutoDraftRate(
  rates: readonly Rate[],
  rule: AutoDraftRule | null,
  options: { signature?: string | null; hazmat?: string | null } | null = null,
): ChosenRate | null {
  const cheapest = [...rates].sort(byPrice)[0];
  if (!cheapest) return null;
  if (!rule || rule.choice === "cheapest") return { rate: cheapest, note: null };
  if (rule.choice === "fastest") return { rate: [...rates].sort(byDays)[0] ?? cheapest, note: null };
  const named = [...rates].filter((r) => r.service_code === rule.serviceCode).sort(byPrice)[0];
  if (named) return { rate: named, note: null };
  const service = rule.serviceCode ? findServiceByCode(rule.serviceCode) : undefined;
  const name = service ? describeService(service) : (rule.serviceCode ?? "The chosen service");
  const why = checkOptionsForService(options, service ?? null)[0];
  if (why) return { rate: cheapest, note: `${why.message.split(". ")[0]}, so the cheapest rate that can was drafted.` };
  return { rate: cheapest, note: `${name} was not offered for this shipment, so the cheapest rate was drafted.` };
}

// The countries a rule's destination stands for, as far as a service's reach is concerned: one
// domestic and one foreign country are enough to tell the scopes apart (services.ts).
function destinationsOf(rule: AutoDraftRule, fromCountry: string): { country: string; label: string }[] {
  const abroad = fromCountry === "GB" ? "DE" : "GB";
  switch (rule.destination) {
    case "domestic":
      return [{ country: fromCountry, label: "domestic orders" }];
    case "international":
      return [{ country: abroad, label: "every international order" }];
    case "any":
      return [
        { country: fromCountry, label: "domestic orders" },
        { country: abroad, label: "international orders" },
      ];
    case "countries":
      return rule.countries.map((country) => ({ country, label: `orders to ${country}` }));
  }
}

/** Service codes the Settings screen offers, grouped by what they can reach. */
export const AUTO_DRAFT_SERVICE_OPTIONS = SERVICES.map((s) => ({
  serviceCode: s.serviceCode,
  label: describeService(s),
  scope: s.scope,
}));

/**
 * Problems with a rule list, each at the field to fix (`rules[i].field`). A rule naming a service
 * that cannot ship to its destination from the shop's ship-from country is refused: it would
 * never draft what the merchant asked for.
 */
export function checkAutoDraftRules(
  rules: readonly AutoDraftRule[],
  context: { fromCountry: string; boxPresetIds: readonly string[] },
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (rules.length > MAX_AUTO_DRAFT_RULES) {
    problems.push({ path: "rules", message: `Use at most ${MAX_AUTO_DRAFT_RULES} rules.` });
  }
  const ids = new Set<string>();
  rules.forEach((rule, i) => {
    const at = (field: string, message: string) => problems.push({ path: `rules[${i}].${field}`, message });
    if (ids.has(rule.id)) at("id", "This rule is listed twice.");
    ids.add(rule.id);
    if (rule.destination === "countries" && rule.countries.length === 0) {
      at("countries", "List at least one country, or choose another destination.");
    }
    if (rule.minWeight !== null && rule.maxWeight !== null && rule.minWeight > rule.maxWeight) {
      at("maxWeight", "The highest weight must not be below the lowest.");
    }
    if (rule.minOrderValue !== null && rule.maxOrderValue !== null && rule.minOrderValue > rule.maxOrderValue) {
      at("maxOrderValue", "The highest order value must not be below the lowest.");
    }
    if (rule.boxPresetId !== null && !context.boxPresetIds.includes(rule.boxPresetId)) {
      at("boxPresetId", "This box was deleted. Choose another box.");
    }
    if (rule.choice !== "service") return;
    const service = rule.serviceCode ? findServiceByCode(rule.serviceCode) : undefined;
    if (!service) {
      at("serviceCode", "Choose a service.");
      return;
    }
    const unreachable = destinationsOf(rule, context.fromCountry).filter(
      (d) => !isServiceOfferedOnRoute(service, context.fromCountry, d.country),
    );
    if (unreachable.length > 0) {
      at(
        "serviceCode",
        `${describeService(service)} cannot ship ${unreachable.map((d) => d.label).join(" or ")} from ${context.fromCountry}. Choose another service or narrow the destination.`,
      );
    }
  });
  return problems;
}
