import type { FulfillmentOrderGid } from "./ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "./orders";

// Which of an order's fulfillment orders a label is for, when the caller did not name one (a
// label bought at the service names only the order).

export const hasItemsToShip = (fo: ShopifyFulfillmentOrder) =>
  fo.lineItems.some((l) => l.requiresShipping && l.remainingQuantity > 0);
export const isShipped = (fo: ShopifyFulfillmentOrder) => fo.deliveryMethod?.methodType === "SHIPPING";
/** Open to a label now: not held, scheduled, closed or cancelled (the status Shopify reports). */
export const isOpenToShip = (status: string | null) => status === "OPEN" || status === "IN_PROGRESS";

/**
 * The fulfillment order to label: the one asked for, else the first that is shipped by a carrier
 * (delivery method SHIPPING), can still be fulfilled and has items left to ship.
 */
export function selectFulfillmentOrder(
  order: Pick<ShopifyOrderForLabel, "fulfillmentOrders">,
  id?: FulfillmentOrderGid,
): ShopifyFulfillmentOrder | null {
  if (id) return order.fulfillmentOrders.find((fo) => fo.id === id) ?? null;
  return order.fulfillmentOrders.find((fo) => isShipped(fo) && fo.canCreateFulfillment && hasItemsToShip(fo)) ?? null;
}
