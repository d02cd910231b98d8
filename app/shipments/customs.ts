import { isVagueCustomsDescription } from "~/shipping/customs-description";
import { EXPORT_DECLARATION_THRESHOLD_USD, type KnownPreflightProblem } from "~/shipping/preflight";
import { type Customs } from "~/shipping/schemas";
import { taxIdRuleFor } from "~/shipping/tax-ids";
import { parseAmountCents } from "~/shipping/vocabulary";
import type { CustomsTaxId, ShopifyMoneyBag, ShopifyOrderLineItem } from "~/shopify/orders";

// The one customs object the service takes, built from the shipment's line items. Anything we
// cannot know (a USD value, a tax id, a specific description) becomes a problem, not a guess.

export type CustomsLine = {
  title: string;
  productType: string | null;
  quantity: number;
  /** What the customer paid per unit, after discounts: the declared value (ADR 0006). */
  unitPrice: ShopifyMoneyBag;
  hsCode: string | null;
  countryOfOrigin: string | null;
  /** Where the HS code and origin live in Shopify: the variant's inventory item, and its product. */
  productId: string | null;
  inventoryItemId: string | null;
};

/** An order line as customs declare it: what the customer paid, after discounts (ADR 0006). */
export function customsLineOf(line: ShopifyOrderLineItem, quantity: number): CustomsLine {
  return {
    title: line.title,
    productType: line.productType,
    quantity,
    unitPrice: line.paidUnitPrice,
    hsCode: line.hsCode,
    countryOfOrigin: line.countryOfOrigin,
    productId: line.productId,
    inventoryItemId: line.inventoryItemId,
  };
}

export type CustomsInput = {
  lines: readonly CustomsLine[];
  destinationCountry: string;
  taxId: CustomsTaxId | null;
};

/** A customs object that may lack what could not be filled (value, description). */
export type CustomsDraft = Partial<Customs> & { quantity: number; contents_type: "merchandise" };

const EXPORT_DECLARATION_THRESHOLD_CENTS = EXPORT_DECLARATION_THRESHOLD_USD * 100;

function usdCents(price: ShopifyMoneyBag): number | null {
  // Shop money first (the merchant's books), presentment money when only that one is in USD.
  const usd = [price.shop, price.presentment].find((money) => money.currencyCode === "USD");
  return usd ? parseAmountCents(usd.amount) : null;
}

/** A specific description: product titles, with the product type where it adds something. */
export function describeCustomsContents(lines: readonly Pick<CustomsLine, "title" | "productType">[]): string {
  const parts: string[] = [];
  for (const line of lines) {
    const title = line.title.trim();
    if (title === "") continue;
    const type = line.productType?.trim() ?? "";
    // A vague type ("Gift") says nothing to customs; the title carries the description alone.
    const useType =
      type !== "" && !isVagueCustomsDescription(type) && !title.toLowerCase().includes(type.toLowerCase());
    const part = useType ? `${title} (${type})` : title;
    if (!parts.includes(part)) parts.push(part);
  }
  const joined = parts.slice(0, 3).join(", ");
  return parts.length > 3 ? `${joined} and ${parts.length - 3} more` : joined;
}

export function buildCustoms(input: CustomsInput): {
  customs: CustomsDraft;
  problems: KnownPreflightProblem[];
  /** The line whose HS code and origin the declaration carries (the most valuable one). */
  main: CustomsLine | null;
} {
  const problems: KnownPreflightProblem[] = [];
  const lines = input.lines.filter((line) => line.quantity > 0);
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  const customs: CustomsDraft = { contents_type: "merchandise", quantity };

  const description = describeCustomsContents(lines);
  if (description === "" || isVagueCustomsDescription(description)) {
    problems.push({
      path: "customs.description",
      code: "CUSTOMS_DESCRIPTION_REQUIRED",
      severity: "blocking",
      message:
        'Describe what is in the box specifically (for example "Ceramic coffee mugs"): the products\' titles are too vague for customs.',
    });
  } else {
    customs.description = description;
    const vagueTypes = lines.filter((l) => l.productType && isVagueCustomsDescription(l.productType));
    if (vagueTypes.length > 0) {
      problems.push({
        path: "customs.description",
        code: "CUSTOMS_DESCRIPTION_REVIEW",
        severity: "warning",
        message: `The product type of ${vagueTypes.map((l) => `"${l.title}"`).join(", ")} is too vague for customs; check that the description says what the item is.`,
        suggestion: description,
      });
    }
  }

  const values = lines.map((line) => {
    const unit = usdCents(line.unitPrice);
    return unit === null ? null : unit * line.quantity;
  });
  if (values.some((v) => v === null)) {
    problems.push({
      path: "customs.value",
      code: "CUSTOMS_VALUE_USD_REQUIRED",
      severity: "blocking",
      message: "The order is priced in neither US dollars nor a USD shop currency: enter the declared value in USD.",
    });
  } else {
    const totalCents = values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
    if (totalCents > 0) customs.value = totalCents / 100;
    else {
      problems.push({
        path: "customs.value",
        code: "CUSTOMS_VALUE_REQUIRED",
        severity: "blocking",
        message: "The items are free of charge: enter their declared value in USD (it must be greater than 0).",
      });
    }
    if (totalCents > EXPORT_DECLARATION_THRESHOLD_CENTS) {
      problems.push({
        path: "customs.eel_pfc",
        code: "EXPORT_DECLARATION_NEEDED",
        severity: "warning",
        message: `Declared value is above ${EXPORT_DECLARATION_THRESHOLD_USD.toLocaleString("en-US")} USD: file an export declaration and enter its AES ITN (USPS refuses the purchase without it).`,
      });
    }
  }

  // HS code and origin of the most valuable line; the service takes one per shipment.
  const ranked = lines
    .map((line, index) => ({ line, value: values[index] ?? parseAmountCents(line.unitPrice.shop.amount) ?? 0 }))
    .sort((a, b) => b.value - a.value);
  const main = ranked[0]?.line;
  if (main) {
    if (main.hsCode) customs.hs_code = main.hsCode;
    else {
      problems.push({
        path: "customs.hs_code",
        code: "HS_CODE_MISSING",
        severity: "warning",
        message: `"${main.title}" has no HS code in Shopify; add one to the product to avoid customs delays.`,
      });
    }
    if (main.countryOfOrigin) customs.country_of_origin = main.countryOfOrigin;
    else {
      problems.push({
        path: "customs.country_of_origin",
        code: "ORIGIN_MISSING",
        severity: "blocking",
        message: `"${main.title}" has no country of origin in Shopify: enter where it was made.`,
      });
    }
    const hsCodes = new Set(lines.map((l) => l.hsCode ?? ""));
    const origins = new Set(lines.map((l) => l.countryOfOrigin ?? ""));
    if (hsCodes.size > 1 || origins.size > 1) {
      problems.push({
        path: "customs.hs_code",
        code: "CUSTOMS_LINES_DIFFER",
        severity: "warning",
        message: `The items have different HS codes or origins; the declaration uses those of the most valuable one, "${main.title}".`,
      });
    }
  }

  const taxIdRule = taxIdRuleFor(input.destinationCountry);
  if (input.taxId) customs.tax_id = input.taxId.value;
  else if (taxIdRule) {
    problems.push({
      path: "customs.tax_id",
      code: "TAX_ID_REQUIRED",
      severity: "blocking",
      message: `${taxIdRule.countryName} requires the recipient's ${taxIdRule.idNames}; the customer did not give one at checkout. Ask them and enter it.`,
    });
  }
  return { customs, problems, main: main ?? null };
}
