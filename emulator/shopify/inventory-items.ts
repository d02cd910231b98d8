import type { InventoryItemRecord, ShopifyEmulatorState } from "./model";

// inventoryItemUpdate for the customs fields an app may write back (harmonizedSystemCode,
// countryCodeOfOrigin), as Shopify answers it: a refused value is a userError with a null item,
// the item unchanged. A country code outside the CountryCode enum never gets here: graphql-js
// refuses the variables first, as Shopify does. Other input fields (cost, tracked, measurement…)
// are refused loudly rather than pretended: the emulator does not model them.

interface UserError {
  field: string[] | null;
  message: string;
}

type Rec = Record<string, unknown>;
const isRecord = (value: unknown): value is Rec => typeof value === "object" && value !== null;

const EMULATED_FIELDS = new Set(["harmonizedSystemCode", "countryCodeOfOrigin"]);

// The docs: "This must be a number between 6 and 13 digits."
const HS_CODE_PATTERN = /^\d{6,13}$/;

/**
 * Every record of the item: the catalog's variant (new orders are built from it) and the orders'
 * line items, which may hold copies (a test's seed may clone orders).
 */
function recordsOf(state: ShopifyEmulatorState, id: string): InventoryItemRecord[] {
  const found = new Set<InventoryItemRecord>();
  for (const variant of state.variants.values()) if (variant.inventoryItem.id === id) found.add(variant.inventoryItem);
  for (const order of state.orders) {
    for (const line of order.lineItems) {
      const item = line.variant?.inventoryItem;
      if (item?.id === id) found.add(item);
    }
  }
  return [...found];
}

export function handleInventoryItemUpdate(
  state: ShopifyEmulatorState,
  args: Rec,
): { inventoryItem: InventoryItemRecord | null; userErrors: UserError[] } {
  const fail = (...userErrors: UserError[]) => ({ inventoryItem: null, userErrors });
  const id = typeof args.id === "string" ? args.id : "";
  const input = isRecord(args.input) ? args.input : {};
  const unsupported = Object.keys(input).filter((key) => !EMULATED_FIELDS.has(key));
  if (unsupported.length > 0) {
    throw new Error(`inventoryItemUpdate: the emulator does not model ${unsupported.join(", ")}`);
  }
  const records = recordsOf(state, id);
  if (records.length === 0) return fail({ field: ["id"], message: "Inventory item does not exist" });

  const errors: UserError[] = [];
  const update: Partial<Pick<InventoryItemRecord, "harmonizedSystemCode" | "countryCodeOfOrigin">> = {};
  if ("harmonizedSystemCode" in input) {
    const code = input.harmonizedSystemCode;
    if (code === null || code === "") update.harmonizedSystemCode = null;
    else if (typeof code === "string" && HS_CODE_PATTERN.test(code)) update.harmonizedSystemCode = code;
    else {
      errors.push({
        field: ["input", "harmonizedSystemCode"],
        message: "Harmonized system code must be a number between 6 and 13 digits",
      });
    }
  }
  if ("countryCodeOfOrigin" in input) {
    const country = input.countryCodeOfOrigin;
    // "ZZ" is in the enum (an unknown region) but names no country anything was made in.
    if (country === "ZZ") {
      errors.push({
        field: ["input", "countryCodeOfOrigin"],
        message: "Country code of origin is not a valid country",
      });
    } else update.countryCodeOfOrigin = typeof country === "string" ? country : null;
  }
  if (errors.length > 0) return fail(...errors);
  for (const record of records) Object.assign(record, update);
  return { inventoryItem: records[0] ?? null, userErrors: [] };
}
