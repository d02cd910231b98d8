import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";

const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

const UPDATE = `mutation Update($id: ID!, $input: InventoryItemInput!) {
  inventoryItemUpdate(id: $id, input: $input) {
    inventoryItem { id harmonizedSystemCode countryCodeOfOrigin }
    userErrors { field message }
  }
}`;

function toteItem() {
  const item = emulator.findOrderByName("#1014")?.lineItems.find((l) => l.title === "Organic Cotton Market Tote")
    ?.variant?.inventoryItem;
  if (!item) throw new Error("no tote on #1014");
  return item;
}

async function update(id: string, input: Record<string, unknown>) {
  const response = await emulator.graphql(UPDATE, { variables: { id, input } });
  return (await response.json()) as {
    data?: { inventoryItemUpdate: { inventoryItem: unknown; userErrors: { field: string[]; message: string }[] } };
    errors?: { message: string }[];
  };
}

describe("inventoryItemUpdate", () => {
  it("writes the HS code and origin to every order's line of that variant", async () => {
    const body = await update(toteItem().id, { harmonizedSystemCode: "420222", countryCodeOfOrigin: "PT" });
    expect(body.data?.inventoryItemUpdate).toEqual({
      inventoryItem: { id: toteItem().id, harmonizedSystemCode: "420222", countryCodeOfOrigin: "PT" },
      userErrors: [],
    });
    const sameProduct = emulator
      .state()
      .orders.flatMap((o) => o.lineItems)
      .filter((l) => l.variant?.inventoryItem.id === toteItem().id);
    expect(sameProduct.length).toBeGreaterThan(0);
    for (const line of sameProduct) expect(line.variant?.inventoryItem.harmonizedSystemCode).toBe("420222");
  });

  it.each([
    ["an HS code with a dot", { harmonizedSystemCode: "4202.22" }, "harmonizedSystemCode"],
    ["an HS code of 5 digits", { harmonizedSystemCode: "42022" }, "harmonizedSystemCode"],
    ["the unknown region ZZ as origin", { countryCodeOfOrigin: "ZZ" }, "countryCodeOfOrigin"],
  ])("refuses %s with a userError and changes nothing", async (_name, input, field) => {
    const body = await update(toteItem().id, input);
    expect(body.data?.inventoryItemUpdate).toMatchObject({
      inventoryItem: null,
      userErrors: [{ field: ["input", field], message: expect.any(String) }],
    });
    expect(toteItem()).toMatchObject({ harmonizedSystemCode: null, countryCodeOfOrigin: null });
  });

  it("refuses a country code outside Shopify's enum as a GraphQL error, before the mutation runs", async () => {
    const body = await update(toteItem().id, { countryCodeOfOrigin: "XX" });
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/countryCodeOfOrigin/);
  });

  it("answers an unknown item with a userError on its id", async () => {
    const body = await update("gid://shopify/InventoryItem/1", { harmonizedSystemCode: "420222" });
    expect(body.data?.inventoryItemUpdate.userErrors).toEqual([
      { field: ["id"], message: "Inventory item does not exist" },
    ]);
  });
});
