import { z } from "zod";

import { BOX_WEIGHT_UNITS, type BoxWeightUnit } from "~/settings/settings";
import type { ServiceScope } from "~/shipping/services";
import { formatAmount } from "~/utils/money";

import {
  AUTO_DRAFT_CHOICES,
  AUTO_DRAFT_DESTINATIONS,
  type AutoDraftChoice,
  type AutoDraftDestination,
  type AutoDraftRule,
  checkAutoDraftRules,
  MAX_AUTO_DRAFT_RULES,
} from "./auto-draft-rules";

// The Settings screen's "Automatic draft labels" form. The card keeps each rule as the strings
// the merchant typed (AutoDraftRuleDraft) and posts the whole ordered list as one JSON field,
// `rules`, beside the switch `autoDraftEnabled`: the order of the list is the order rules are
// tried in, which separate fields per rule would make fragile. AutoDraftFormSchema turns that
// post into typed rules, naming each problem at its field (`rules[2].maxWeight`), the same paths
// saveAutoDraftSettings uses for the problems only the server can see.

/** One rule as the form holds it: every value a string, as typed or selected. */
export type AutoDraftRuleDraft = {
  /** "" until the rule is saved: the parser gives a new rule its id. */
  id: string;
  destination: AutoDraftDestination;
  /** Two-letter codes as typed, e.g. "CA, GB"; read only with destination "countries". */
  countries: string;
  minWeight: string;
  maxWeight: string;
  weightUnit: BoxWeightUnit;
  minOrderValue: string;
  maxOrderValue: string;
  choice: AutoDraftChoice;
  /** "" when no service is chosen; read only with choice "service". */
  serviceCode: string;
  /** "" for the default box. */
  boxPresetId: string;
};

export type AutoDraftServiceOption = { serviceCode: string; label: string; scope: ServiceScope };

export const RULE_FIELDS = [
  "destination",
  "countries",
  "minWeight",
  "maxWeight",
  "weightUnit",
  "minOrderValue",
  "maxOrderValue",
  "choice",
  "serviceCode",
  "boxPresetId",
] as const satisfies readonly (keyof AutoDraftRuleDraft)[];
export type RuleField = (typeof RULE_FIELDS)[number];

/** The path an error about one field of one rule carries: `rules[2].serviceCode`. */
export const rulePath = (index: number, field: RuleField | "id") => `rules[${index}].${field}`;

export function createRuleDraft(weightUnit: BoxWeightUnit = "lb"): AutoDraftRuleDraft {
  return {
    id: "",
    destination: "any",
    countries: "",
    minWeight: "",
    maxWeight: "",
    weightUnit,
    minOrderValue: "",
    maxOrderValue: "",
    choice: "cheapest",
    serviceCode: "",
    boxPresetId: "",
  };
}

export function toRuleDraft(rule: AutoDraftRule): AutoDraftRuleDraft {
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    id: rule.id,
    destination: rule.destination,
    countries: rule.countries.join(", "),
    minWeight: text(rule.minWeight),
    maxWeight: text(rule.maxWeight),
    weightUnit: rule.weightUnit,
    minOrderValue: text(rule.minOrderValue),
    maxOrderValue: text(rule.maxOrderValue),
    choice: rule.choice,
    serviceCode: rule.serviceCode ?? "",
    boxPresetId: rule.boxPresetId ?? "",
  };
}

/**
 * The fields the card posts for the "saveAutoDraft" intent. A field the rule's other choices hide
 * is sent blank: the merchant cannot see it, so it must not be judged (the card keeps its text in
 * case they switch back).
 */
export function encodeAutoDraftForm(enabled: boolean, rules: readonly AutoDraftRuleDraft[]): Record<string, string> {
  const shown = rules.map((rule) => ({
    ...rule,
    countries: rule.destination === "countries" ? rule.countries : "",
    serviceCode: rule.choice === "service" ? rule.serviceCode : "",
  }));
  return { intent: "saveAutoDraft", autoDraftEnabled: String(enabled), rules: JSON.stringify(shown) };
}

// ---------- Parsing ----------

const checkbox = z.preprocess((value) => value === "on" || value === "true", z.boolean());

// A limit typed by the merchant: blank means none. Numbers are accepted too (a JSON post).
const optionalLimit = (what: string) =>
  z.unknown().transform((value, ctx): number | null => {
    if (value === undefined || value === null) return null;
    const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : null;
    if (text === "") return null;
    const number = text === null ? NaN : Number(text);
    if (!Number.isFinite(number)) {
      ctx.addIssue({ code: "custom", message: `Enter the ${what} as a number, or leave it blank` });
      return z.NEVER;
    }
    if (number < 0) {
      ctx.addIssue({ code: "custom", message: `The ${what} cannot be negative` });
      return z.NEVER;
    }
    if (number > 1_000_000) {
      ctx.addIssue({ code: "custom", message: `The ${what} is too large` });
      return z.NEVER;
    }
    return number;
  });

const optionalText = z
  .union([z.string(), z.null(), z.undefined()], { error: "Choose an option" })
  .transform((value) => (value ? value.trim() : "") || null);

/** "ca, gb;de" → ["CA", "GB", "DE"]; a message when a code is not two letters. */
export function readCountryCodes(value: unknown): { codes: string[] } | { message: string } {
  if (value !== undefined && value !== null && typeof value !== "string") {
    return { message: "Enter country codes separated by commas, like CA, GB" };
  }
  const codes = [
    ...new Set(
      (value ?? "")
        .split(/[\s,;]+/)
        .map((c) => c.toUpperCase())
        .filter(Boolean),
    ),
  ];
  const bad = codes.find((c) => !/^[A-Z]{2}$/.test(c));
  if (bad) return { message: `"${bad}" is not a country code. Use two-letter codes, like CA or GB` };
  if (codes.length > 250) return { message: "List at most 250 countries" };
  return { codes };
}

function createRuleId(): string {
  return `rule_${globalThis.crypto.randomUUID()}`;
}

const RuleFormSchema = z
  .object(
    {
      id: optionalText.pipe(z.string().max(64, "Reload the page and try again").nullable()),
      destination: z.enum(AUTO_DRAFT_DESTINATIONS, { error: "Choose where the order ships" }),
      countries: z.unknown().transform((value, ctx) => {
        const read = readCountryCodes(value);
        if ("codes" in read) return read.codes;
        ctx.addIssue({ code: "custom", message: read.message });
        return z.NEVER;
      }),
      minWeight: optionalLimit("lowest weight"),
      maxWeight: optionalLimit("highest weight"),
      weightUnit: z.enum(BOX_WEIGHT_UNITS, { error: "Choose a weight unit" }),
      minOrderValue: optionalLimit("lowest order value"),
      maxOrderValue: optionalLimit("highest order value"),
      choice: z.enum(AUTO_DRAFT_CHOICES, { error: "Choose which rate to draft" }),
      serviceCode: optionalText,
      boxPresetId: optionalText,
    },
    { error: "Reload the page and try again" },
  )
  .transform((rule): AutoDraftRule => ({
    ...rule,
    id: rule.id ?? createRuleId(),
    // Kept only where they apply, so a stored rule never carries a choice it does not use.
    countries: rule.destination === "countries" ? rule.countries : [],
    serviceCode: rule.choice === "service" ? rule.serviceCode : null,
  }));

const RULES_UNREADABLE = "The rules could not be read. Reload the page and try again.";

/** The "saveAutoDraft" post: the switch, and the rules as one JSON field in the order they are tried. */
export const AutoDraftFormSchema = z
  .object({
    autoDraftEnabled: checkbox,
    rules: z
      .unknown()
      .transform((value, ctx): unknown => {
        try {
          if (typeof value !== "string") throw new Error("not a string");
          return JSON.parse(value);
        } catch {
          ctx.addIssue({ code: "custom", message: RULES_UNREADABLE });
          return z.NEVER;
        }
      })
      .pipe(
        z
          .array(RuleFormSchema, { error: RULES_UNREADABLE })
          .max(MAX_AUTO_DRAFT_RULES, `Use at most ${MAX_AUTO_DRAFT_RULES} rules`),
      ),
  })
  .transform(({ autoDraftEnabled, rules }) => ({ enabled: autoDraftEnabled, rules }));
export type AutoDraftForm = z.infer<typeof AutoDraftFormSchema>;

/**
 * What the server would say about a draft's service before it is saved, so the card can warn as
 * the merchant picks: undefined when the service fits, or when the rule cannot be judged yet.
 */
export function findServiceProblem(draft: AutoDraftRuleDraft, fromCountry: string | null): string | undefined {
  if (!fromCountry || draft.choice !== "service" || draft.serviceCode === "") return undefined;
  const parsed = RuleFormSchema.safeParse({ ...draft, id: "draft" });
  if (!parsed.success) return undefined;
  const problems = checkAutoDraftRules([parsed.data], { fromCountry, boxPresetIds: [] });
  return problems.find((p) => p.path === rulePath(0, "serviceCode"))?.message;
}

// ---------- Reading ----------

const SCOPES: Record<ServiceScope, { title: string; reach: string }> = {
  domestic: { title: "Within the US", reach: "Ships only between two US addresses." },
  ca_mx: { title: "Between the US, Canada and Mexico", reach: "Ships only between the US and Canada or Mexico." },
  international: { title: "International", reach: "Ships only from one country to another." },
};

/** The service choices in groups, by what each can reach. */
export function groupServiceOptions(services: readonly AutoDraftServiceOption[]) {
  return (["domestic", "ca_mx", "international"] as const)
    .map((scope) => ({
      title: SCOPES[scope].title,
      options: services.filter((s) => s.scope === scope).map((s) => ({ label: s.label, value: s.serviceCode })),
    }))
    .filter((group) => group.options.length > 0);
}

export function describeServiceReach(scope: ServiceScope): string {
  return SCOPES[scope].reach;
}

export type RuleSummaryContext = {
  services: readonly AutoDraftServiceOption[];
  presets: readonly { id: string; name: string }[];
  currencyCode: string | null;
};

function describeRange(min: string, max: string, show: (value: string) => string): string | null {
  const [low, high] = [min.trim(), max.trim()];
  if (low && high) return `${show(low)}–${show(high)}`;
  if (high) return `up to ${show(high)}`;
  if (low) return `at least ${show(low)}`;
  return null;
}

/** One line a merchant reads at a glance: "Domestic, up to 2 lb → cheapest rate, in Small box". */
export function describeRule(draft: AutoDraftRuleDraft, context: RuleSummaryContext): string {
  const countries = readCountryCodes(draft.countries);
  const where = {
    any: "Any destination",
    domestic: "Domestic",
    international: "International",
    countries:
      "codes" in countries && countries.codes.length > 0 ? `To ${countries.codes.join(", ")}` : "Specific countries",
  }[draft.destination];
  const weight = describeRange(draft.minWeight, draft.maxWeight, (w) => `${w} ${draft.weightUnit}`);
  const money = (value: string) => (context.currencyCode ? formatAmount(value, context.currencyCode) : value);
  const range = describeRange(draft.minOrderValue, draft.maxOrderValue, money);
  const value = range ? `order value ${range}` : null;
  const service = context.services.find((s) => s.serviceCode === draft.serviceCode);
  const rate = {
    cheapest: "cheapest rate",
    fastest: "fastest rate",
    service: service?.label ?? "a service (choose one)",
  }[draft.choice];
  const preset = context.presets.find((p) => p.id === draft.boxPresetId);
  const box = draft.boxPresetId === "" ? "the default box" : (preset?.name ?? "a deleted box");
  return `${[where, weight, value].filter(Boolean).join(", ")} → ${rate}, in ${box}`;
}

/** The rules a refused save names, for the banner: "Fix rule 2 below, then save again." */
export function describeRulesToFix(fields: readonly { path: string }[]): string | null {
  const numbers = [
    ...new Set(
      fields.flatMap((f) => {
        const match = /^rules\[(\d+)\]/.exec(f.path);
        return match?.[1] ? [Number(match[1]) + 1] : [];
      }),
    ),
  ].sort((a, b) => a - b);
  if (numbers.length === 0) return null;
  const last = numbers.pop();
  const list = numbers.length === 0 ? `rule ${last}` : `rules ${numbers.join(", ")} and ${last}`;
  return `Fix ${list} below, then save again.`;
}
