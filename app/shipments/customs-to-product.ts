import type { LabelRequestInput } from "~/shipping/preflight";
import { toShopifyHsCode } from "~/shopify/hs-code";

import type { CustomsProduct } from "./prefill";

// "Save to product": what the merchant changed on the declaration that belongs on the product in
// Shopify. Pure and browser-safe: the order page shows the checkbox only when there is something
// to save, and the draft action saves what this finds on the request it drafted.

export type CustomsToSave = { hsCode?: string; countryOfOrigin?: string };

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/**
 * The HS code and origin on the request that differ from the product's in Shopify; null when
 * nothing differs, or the product has no inventory item to write to. Emptying a field is not a
 * fix: it is never saved as a clearing of the product's value.
 */
export function findCustomsToSave(
  product: CustomsProduct | null,
  customs: LabelRequestInput["customs"],
): CustomsToSave | null {
  if (!product?.inventoryItemId || !customs) return null;
  const changes: CustomsToSave = {};
  const hsCode = text(customs.hs_code);
  if (hsCode !== "" && toShopifyHsCode(hsCode) !== toShopifyHsCode(product.hsCode ?? "")) changes.hsCode = hsCode;
  const origin = text(customs.country_of_origin).toUpperCase();
  if (origin !== "" && origin !== (product.countryOfOrigin ?? "")) changes.countryOfOrigin = origin;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** "the HS code", "the country of origin", or both, as the merchant's messages name them. */
export function describeCustomsToSave(changes: CustomsToSave): string {
  const names = [
    ...(changes.hsCode !== undefined ? ["HS code"] : []),
    ...(changes.countryOfOrigin !== undefined ? ["country of origin"] : []),
  ];
  return `the ${names.join(" and ")}`;
}
