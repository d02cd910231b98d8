import type { ShopifyStreetAddress } from "~/shopify/orders";

// Where Shopify says a shipment goes, reduced to what a label's address depends on. Stored with a
// draft, it tells a later change of the order's address (the draft is stale) from the merchant's
// own edits to the draft (which are not compared at all).

const normalize = (value: string | null | undefined) => (value ?? "").trim().replace(/\s+/g, " ").toLowerCase();

type Address = Omit<ShopifyStreetAddress, "phone">;

export function shipToKeyOf(
  order: { readonly shippingAddress: Address | null },
  fo: { readonly destination: Address | null } | null,
): string | null {
  const address: Address | null = fo?.destination ?? order.shippingAddress;
  if (!address) return null;
  return JSON.stringify(
    [address.address1, address.address2, address.city, address.province, address.zip, address.countryCode].map(
      normalize,
    ),
  );
}
