// Apart from inventory-items.ts (its GraphQL and schemas): the order page's browser code compares
// HS codes with it too.

import { hsCodeDigits } from "~/shipping/hs-code";

/**
 * Shopify stores an HS code as digits only ("a number between 6 and 13 digits"); the label form
 * takes it the way customs forms print it ("6109.10"). Its shape is checked before it is saved
 * (inventory-items.ts), as before it is sent (shipping/hs-code.ts).
 */
export function toShopifyHsCode(code: string): string {
  return hsCodeDigits(code);
}
