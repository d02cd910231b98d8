// Apart from inventory-items.ts (its GraphQL and schemas): the order page's browser code compares
// HS codes with it too.

/**
 * Shopify stores an HS code as digits only ("a number between 6 and 13 digits"); the label form
 * takes it the way customs forms print it ("6109.10"). Other characters are left for Shopify to
 * refuse with its own message.
 */
export function toShopifyHsCode(code: string): string {
  return code.replace(/[.\s]/g, "");
}
