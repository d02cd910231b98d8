// The shipping service's words (shipping-api.md, contract.md): carriers, units, kinds of
// contents, payers, label formats and options, and its money amounts. Plain values, apart from
// the wire schemas (schemas.ts), because the browser checks a label with them too (preflight)
// and should not load a validator to do it.

export const CARRIERS = ["USPS", "FEDEX", "UPS", "DHL"] as const;

export const WEIGHT_UNITS = ["oz", "lb", "g", "kg"] as const;
export const DIMENSION_UNITS = ["in", "cm"] as const;
export const CONTENTS_TYPES = ["merchandise", "documents", "gift", "returned_goods", "sample"] as const;
export const PAYERS = ["shipper", "recipient", "third_party"] as const;
export const LABEL_FORMATS = ["pdf", "png", "zpl"] as const;
export const LABEL_SIZES = ["4x6", "4x8"] as const;

// ---- label options (contract.md, "Label options") ----

export const SIGNATURE_OPTIONS = ["standard", "adult"] as const;
export const HAZMAT_OPTIONS = ["lithium_batteries", "none"] as const;
/** Insurance is offered for more than 0 and at most 5,000.00 USD. */
export const INSURANCE_MAX_CENTS = 500_000;

/** Decimal string from the wire ("18.40") to integer cents; null when it is not a money amount. */
export function parseAmountCents(amount: string): number | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return null;
  const [, sign, whole = "0", fraction = ""] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return sign === "-" ? -cents : cents;
}
