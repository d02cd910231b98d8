// Customs descriptions must say what the goods are. Words that only name a category or say
// "things" are refused by the service, and if they got through they would cause customs holds.

// prettier-ignore
const VAGUE_WORDS = new Set([
  "goods", "good", "gift", "gifts", "present", "presents", "merchandise", "merch", "item", "items",
  "stuff", "sample", "samples", "product", "products", "thing", "things", "misc", "miscellaneous",
  "various", "assorted", "general", "other", "others", "order", "package", "parcel", "box",
  "personal", "effects", "commercial", "retail", "wholesale", "article", "articles",
  // Bare categories: a customs officer needs the item, not the aisle.
  "apparel", "clothing", "clothes", "garments", "accessories", "accessory", "electronics",
  "cosmetics", "beauty", "jewelry", "jewellery", "toys", "toy", "parts", "spare", "supplies",
  "equipment", "household", "homeware", "textiles", "food", "foods", "media", "tools",
  "hardware", "software", "materials", "material", "collectibles", "crafts", "decor", "bags",
  "health", "sports", "outdoor", "kitchen", "part", "souvenir", "souvenirs", "contents", "content",
  "shopify", "mixed",
]);

// Words that add nothing either way ("gift for a friend", "goods and items").
// prettier-ignore
const FILLER_WORDS = new Set([
  "a", "an", "the", "of", "and", "or", "for", "with", "to", "my", "your", "our", "some", "new",
  "used", "x", "pcs", "pc", "piece", "pieces", "set", "sets", "lot", "lots", "mixed", "small",
  "large", "birthday", "christmas", "friend", "family", "non", "free", "no", "value", "s",
]);

/** True when the description names no specific item (only vague or filler words, or nothing). */
export function isVagueCustomsDescription(description: string): boolean {
  const words = description
    .toLowerCase()
    // Digits separate words and say nothing about the item ("gifts x2" is still "gifts").
    .split(/[^a-z]+/)
    .filter((w) => w !== "");
  const meaningful = words.filter((w) => !FILLER_WORDS.has(w));
  if (meaningful.length === 0) return true;
  return meaningful.every((w) => VAGUE_WORDS.has(w));
}

export type ProductForCustoms = { title: string; productType?: string | null };

/** A specific description built from the order's products, or null when there are none. */
export function suggestCustomsDescription(products: readonly ProductForCustoms[]): string | null {
  const parts: string[] = [];
  for (const product of products) {
    const title = product.title.trim();
    if (title === "") continue;
    const type = product.productType?.trim();
    const part = type && !title.toLowerCase().includes(type.toLowerCase()) ? `${title} (${type})` : title;
    if (!parts.includes(part)) parts.push(part);
  }
  if (parts.length === 0) return null;
  const joined = parts.slice(0, 3).join(", ");
  return parts.length > 3 ? `${joined} and ${parts.length - 3} more` : joined;
}
