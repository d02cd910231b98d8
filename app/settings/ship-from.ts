import type { ShopifyLocation } from "~/shopify/shop";

/** The shop's ship-from location: the one chosen in Settings, else the first active location. */
export function chooseShipFrom(
  locations: readonly ShopifyLocation[],
  shipFromLocationGid: string | null | undefined,
): ShopifyLocation | null {
  return locations.find((l) => l.id === shipFromLocationGid) ?? locations[0] ?? null;
}
