import { z } from "zod";

import { INSURANCE_MAX_CENTS } from "~/shipping/vocabulary";

// The shop's option rules (Settings): insure valuable shipments, ask for an adult signature for
// some products, declare lithium batteries for others. Prefill applies them
// (shipments/apply-option-rules.ts), so every door (order page, extension, bulk, automatic drafts)
// starts from the same options; the merchant may still change them on the order page. Pure.

export const OPTION_RULE_LIST_MAX = 20;

const tagList = z.array(z.string().trim().min(1).max(255)).max(OPTION_RULE_LIST_MAX);

export const OptionRulesSchema = z.object({
  // Insure shipments whose items the customer paid more than this for, in USD cents; null: never by rule.
  insureAboveCents: z.number().int().min(0).max(INSURANCE_MAX_CENTS).nullable(),
  // An adult signature for products with one of these tags, or of one of these product types.
  adultSignatureTags: tagList,
  adultSignatureProductTypes: tagList,
  // Lithium batteries (ground services only) for products with one of these tags.
  lithiumTags: tagList,
});
export type OptionRules = z.infer<typeof OptionRulesSchema>;

export const NO_OPTION_RULES: OptionRules = {
  insureAboveCents: null,
  adultSignatureTags: [],
  adultSignatureProductTypes: [],
  lithiumTags: [],
};

/** "wine, 21+ ,Spirits" → ["wine", "21+", "Spirits"]: Shopify's own comma-separated tag notation. */
export function splitTagList(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(",")) {
    const tag = raw.trim();
    if (tag === "" || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/** Stored as Shopify writes tags: comma-separated. */
export const joinTagList = (tags: readonly string[]): string => tags.join(", ");

export const formatUsdCents = (cents: number): string => (cents / 100).toFixed(2);

// ---------- The Settings form ----------

const tagListField = (what: string) =>
  z.preprocess(
    (value) => splitTagList(typeof value === "string" ? value : ""),
    z
      .array(z.string().max(255, `Keep each ${what} to 255 characters`))
      .max(OPTION_RULE_LIST_MAX, `List at most ${OPTION_RULE_LIST_MAX} ${what}s`),
  );

/** The Settings card's form: an empty amount turns the insurance rule off. */
export const OptionRulesFormSchema = z.object({
  insureAbove: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : null),
    z
      .number({ error: "Enter the amount as a number, in USD" })
      .min(0, "The amount cannot be negative")
      .max(INSURANCE_MAX_CENTS / 100, `Carriers insure at most $${formatUsdCents(INSURANCE_MAX_CENTS)}`)
      .nullable(),
  ),
  adultSignatureTags: tagListField("tag"),
  adultSignatureProductTypes: tagListField("product type"),
  lithiumTags: tagListField("tag"),
});

export function toOptionRules(form: z.infer<typeof OptionRulesFormSchema>): OptionRules {
  return {
    insureAboveCents: form.insureAbove === null ? null : Math.round(form.insureAbove * 100),
    adultSignatureTags: form.adultSignatureTags,
    adultSignatureProductTypes: form.adultSignatureProductTypes,
    lithiumTags: form.lithiumTags,
  };
}
