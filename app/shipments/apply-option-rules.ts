import { formatUsdCents, type OptionRules } from "~/settings/option-rules";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";
import { INSURANCE_MAX_CENTS } from "~/shipping/vocabulary";
import type { ShopifyMoneyBag } from "~/shopify/orders";

// The shop's option rules applied to one shipment's lines, by prefill: the options every door
// starts from. Pure.

/** One shipped line as the rules see it. */
export type OptionRuleLine = {
  readonly title: string;
  readonly productType: string | null;
  readonly productTags: readonly string[];
  readonly quantity: number;
  /** What the customer paid per unit, after discounts (what a claim pays back). */
  readonly unitPrice: ShopifyMoneyBag | null;
};

/** What the customer paid for a shipment's items, in the shop's currency; null when a price is unknown or currencies mix. */
export function valueOfLines(
  lines: readonly Pick<OptionRuleLine, "quantity" | "unitPrice">[],
): { cents: number; currency: string } | null {
  let cents = 0;
  let currency: string | null = null;
  for (const line of lines) {
    const price = line.unitPrice?.shop;
    if (!price) return null;
    if (currency !== null && currency !== price.currencyCode) return null;
    currency = price.currencyCode;
    cents += Math.round(Number(price.amount) * 100) * line.quantity;
  }
  return currency && cents > 0 ? { cents, currency } : null;
}

// Tags match as Shopify's search does: whole tag, any case.
const hasAny = (values: readonly string[], wanted: readonly string[]): string | null => {
  const lower = new Set(wanted.map((w) => w.toLowerCase()));
  return values.find((v) => lower.has(v.toLowerCase())) ?? null;
};

export type AppliedOptionRules = {
  readonly options: NonNullable<LabelRequestInput["options"]> | null;
  /** What each rule did, as info lines on the form (or why it could not). */
  readonly problems: KnownPreflightProblem[];
};

/** The options the shop's rules give a shipment of these lines. */
export function applyOptionRules(rules: OptionRules, lines: readonly OptionRuleLine[]): AppliedOptionRules {
  const options: NonNullable<LabelRequestInput["options"]> = {};
  const problems: KnownPreflightProblem[] = [];
  const info = (path: string, message: string) =>
    problems.push({ path, code: "OPTION_RULE", severity: "info", message });

  if (rules.insureAboveCents !== null) {
    const value = valueOfLines(lines);
    if (value && value.currency !== "USD" && value.cents > 0) {
      problems.push({
        path: "options.insurance",
        code: "OPTION_RULE_SKIPPED",
        severity: "warning",
        message: `Your insurance rule was not applied: insurance is bought in USD and this order is in ${value.currency}. Enter an amount in USD to insure it.`,
      });
    } else if (value && value.cents > rules.insureAboveCents) {
      const cents = Math.min(value.cents, INSURANCE_MAX_CENTS);
      options.insurance = { amount: formatUsdCents(cents), currency: "USD" };
      info(
        "options.insurance",
        cents < value.cents
          ? `Insured for the most the carrier covers, $${formatUsdCents(cents)}: the customer paid $${formatUsdCents(value.cents)} for the items (your rule insures shipments worth more than $${formatUsdCents(rules.insureAboveCents)}).`
          : `Insured for $${formatUsdCents(cents)}, what the customer paid for the items (your rule insures shipments worth more than $${formatUsdCents(rules.insureAboveCents)}).`,
      );
    }
  }

  for (const line of lines) {
    const tag = hasAny(line.productTags, rules.adultSignatureTags);
    const type = line.productType ? hasAny([line.productType], rules.adultSignatureProductTypes) : null;
    if (tag || type) {
      options.signature = "adult";
      info(
        "options.signature",
        `Adult signature: "${line.title}" ${tag ? `is tagged "${tag}"` : `is a ${type}`} (your rule).`,
      );
      break;
    }
  }

  for (const line of lines) {
    const tag = hasAny(line.productTags, rules.lithiumTags);
    if (tag) {
      options.hazmat = "lithium_batteries";
      info(
        "options.hazmat",
        `Lithium batteries, ground services only: "${line.title}" is tagged "${tag}" (your rule).`,
      );
      break;
    }
  }

  return { options: Object.keys(options).length > 0 ? options : null, problems };
}
