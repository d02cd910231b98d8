import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel, ShopifyStreetAddress } from "~/shopify/orders";

// Where Shopify says a shipment goes, reduced to what a label's address depends on. Stored with a
// draft, it tells a later change of the order's address (the draft is stale) from the merchant's
// own edits to the draft (which are not compared at all).

const normalize = (value: string | null | undefined) => (value ?? "").trim().replace(/\s+/g, " ").toLowerCase();

export function shipToKeyOf(
  order: Pick<ShopifyOrderForLabel, "shippingAddress">,
  fo: Pick<ShopifyFulfillmentOrder, "destination"> | null,
): string | null {
  const address: ShopifyStreetAddress | null = fo?.destination ?? order.shippingAddress;
  if (!address) return null;
  return JSON.stringify(
    [address.address1, address.address2, address.city, address.province, address.zip, address.countryCode].map(
      normalize,
    ),
  );
}
