import { describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { getShopAndLocations } from "./shop";

describe("getShopAndLocations", () => {
  it("reads the shop's currency, weight unit, address and active locations", async () => {
    const emulator = createShopifyAdminEmulator();
    const result = await getShopAndLocations(emulator.graphql);
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.shop).toMatchObject({
      name: "Harbor & Pine Goods",
      email: "owner@harborandpine.com",
      myshopifyDomain: "demo-shop.myshopify.com",
      currencyCode: "USD",
      weightUnit: "POUNDS",
      address: {
        company: "Harbor & Pine Goods LLC",
        city: "Brooklyn",
        provinceCode: "NY",
        countryCode: "US",
        phone: "+17183872941",
      },
    });
    expect(result.value.locations.map((l) => [l.name, l.legacyId, l.address.zip, l.address.phone])).toEqual([
      ["Brooklyn Warehouse", "71234560001", "11249", "+17183872941"],
      ["Reno Fulfillment Center", "71234560002", "89502", null],
    ]);
    expect(result.value.problems).toEqual([]);
  });
});
