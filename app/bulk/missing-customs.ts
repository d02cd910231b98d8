import { z } from "zod";

import type { PrefilledLabel } from "~/shipments/prefill";
import { getNumericId } from "~/shopify/ids";

// Bulk review's "fix once" list: the products of a run's international shipments that have no HS
// code or no country of origin in Shopify. Each is named once with a link to fix it for good: the
// order page of a shipment whose declaration it carries ("Save to product" there writes it back),
// else the product in the Shopify admin.

export const CUSTOMS_FIELDS = ["hs_code", "country_of_origin"] as const;
export type CustomsField = (typeof CUSTOMS_FIELDS)[number];

/** What a checked shipment stores (BulkRunItem.missingCustoms). */
export const StoredMissingCustomsSchema = z.array(
  z.object({
    productId: z.string().nullable(),
    title: z.string(),
    missing: z.array(z.enum(CUSTOMS_FIELDS)),
    /** The declaration carries this product's HS code and origin: its order page can fix it. */
    declared: z.boolean(),
  }),
);
export type StoredMissingCustoms = z.infer<typeof StoredMissingCustomsSchema>;

export type ProductMissingCustoms = {
  title: string;
  missing: CustomsField[];
  /** The run's orders that ship it, in list order. */
  orderNames: string[];
  fix: { kind: "order"; url: string; orderName: string } | { kind: "product"; url: string };
};

const sameProduct = (a: { productId: string | null; title: string }, b: { productId: string | null; title: string }) =>
  (a.productId ?? a.title) === (b.productId ?? b.title);

/** The shipment's products missing customs data, as a checked item stores them. */
export function findMissingCustoms(
  prefilled: Pick<PrefilledLabel, "customsProduct" | "productsMissingCustoms">,
): StoredMissingCustoms {
  return prefilled.productsMissingCustoms.map((product) => ({
    productId: product.productId,
    title: product.title,
    missing: [
      ...(product.hsCode ? [] : (["hs_code"] as const)),
      ...(product.countryOfOrigin ? [] : (["country_of_origin"] as const)),
    ],
    declared: prefilled.customsProduct !== null && sameProduct(product, prefilled.customsProduct),
  }));
}

/** One entry per product over the run's shipments (in list order), each with where to fix it. */
export function listProductsMissingCustoms(
  items: readonly { orderGid: string; orderName: string; missingCustoms: StoredMissingCustoms }[],
): ProductMissingCustoms[] {
  const byProduct = new Map<string, ProductMissingCustoms & { productId: string | null }>();
  for (const item of items) {
    const orderId = getNumericId(item.orderGid);
    for (const product of item.missingCustoms) {
      const key = product.productId ?? product.title;
      let entry = byProduct.get(key);
      if (!entry) {
        const productId = product.productId ? getNumericId(product.productId) : undefined;
        // A product without an id in Shopify (deleted since the order) is fixed on an order page or nowhere.
        entry = {
          productId: product.productId,
          title: product.title,
          missing: [],
          orderNames: [],
          fix: productId
            ? { kind: "product", url: `shopify:admin/products/${productId}` }
            : { kind: "order", url: `/app/orders/${orderId ?? ""}`, orderName: item.orderName },
        };
        byProduct.set(key, entry);
      }
      for (const field of product.missing) if (!entry.missing.includes(field)) entry.missing.push(field);
      if (!entry.orderNames.includes(item.orderName)) entry.orderNames.push(item.orderName);
      // An order page where the fix is saved to the product beats a trip to the admin.
      if (product.declared && entry.fix.kind === "product" && orderId) {
        entry.fix = { kind: "order", url: `/app/orders/${orderId}`, orderName: item.orderName };
      }
    }
  }
  return [...byProduct.values()].map(({ productId: _productId, ...entry }) => ({
    ...entry,
    missing: CUSTOMS_FIELDS.filter((f) => entry.missing.includes(f)),
  }));
}
