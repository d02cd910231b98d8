import { logFor } from "~/logger.server";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { parseInventoryItemGid } from "~/shopify/ids";
import { updateInventoryItemCustoms } from "~/shopify/inventory-items";

import { describeCustomsToSave, findCustomsToSave } from "./customs-to-product";
import type { CustomsProduct } from "./prefill";

// "Save to product" after a draft: the HS code or origin the merchant fixed goes to the product's
// inventory item in Shopify, so its next order is prefilled. Never part of the label's outcome: a
// refusal is a message naming the product, and the draft stands.

/**
 * The merchant asked to save to the product; `mayEdit` asks Shopify whether the signed-in staff
 * member may edit products (null: yes; else the refusal, in their words). Asked only when there is
 * something to save.
 */
export type SaveToProduct = { readonly mayEdit: () => Promise<string | null> };

export type ProductCustomsSave = {
  productTitle: string;
  /** What Shopify now holds, in the merchant's words ("the HS code"); null when it was refused. */
  saved: string | null;
  /** Why it was not saved, naming the product; null when saved. */
  error: string | null;
};

/**
 * Saves what the drafted request changed on the declaration's product (as the server read it, never
 * an id the page sent); null when there was nothing to save.
 */
export async function saveCustomsToProduct(
  deps: { admin: AdminGraphqlClient; shop: string },
  product: CustomsProduct | null,
  customs: LabelRequestInput["customs"],
  save: SaveToProduct,
): Promise<ProductCustomsSave | null> {
  const changes = findCustomsToSave(product, customs);
  const inventoryItemId = product?.inventoryItemId ? parseInventoryItemGid(product.inventoryItemId) : undefined;
  if (!product || !changes || !inventoryItemId) return null;
  const what = describeCustomsToSave(changes);
  // The app writes with its own token: only for someone Shopify lets edit products themselves.
  const refused = await save.mayEdit();
  if (refused) return { productTitle: product.title, saved: null, error: refused };
  const result = await updateInventoryItemCustoms(deps.admin, { inventoryItemId, ...changes });
  if (result.ok) return { productTitle: product.title, saved: what, error: null };
  // Shopify refusing the value is the merchant's to fix (info); anything else is ours to look at.
  const log = logFor({ shop: deps.shop });
  const context = { inventoryItemId, code: result.error.code };
  if (result.error.fixable) log.info(context, `save customs to product: ${result.error.logMessage}`);
  else log.warn(context, `save customs to product: ${result.error.logMessage}`);
  return {
    productTitle: product.title,
    saved: null,
    error: `Couldn't save ${what} to ${product.title}: ${result.error.message}`,
  };
}
