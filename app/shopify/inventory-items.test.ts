import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import type { InventoryItemGid, OrderGid } from "./ids";
import { updateInventoryItemCustoms } from "./inventory-items";
import { getOrderForLabel } from "./orders";

const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

const TOTE = "Organic Cotton Market Tote";
const SOAP = "Olive Oil Castile Soap Bar";

/** The inventory item of a line of #1014 (a tote and soap, neither with an HS code). */
function itemOf(title: string) {
  const item = emulator.findOrderByName("#1014")?.lineItems.find((l) => l.title === title)?.variant?.inventoryItem;
  if (!item) throw new Error(`no ${title} on #1014`);
  return { gid: item.id as InventoryItemGid, record: item };
}

describe("updateInventoryItemCustoms", () => {
  it("saves an HS code (as digits) and a country of origin that the next order read returns", async () => {
    const tote = itemOf(TOTE);
    expect(tote.record.harmonizedSystemCode).toBeNull();
    const result = await updateInventoryItemCustoms(emulator.graphql, {
      inventoryItemId: tote.gid,
      hsCode: "4202.22",
      countryOfOrigin: "pt",
    });
    expect(result).toEqual({ ok: true, value: { id: tote.gid, hsCode: "420222", countryOfOrigin: "PT" } });

    // A customer's next order of the tote.
    const { order } = emulator.createOrder({ kind: "problem" });
    const next = await getOrderForLabel(emulator.graphql, order.id as OrderGid);
    if (!next.ok) throw new Error(next.error.logMessage);
    expect(next.value.order.lineItems.find((l) => l.title === TOTE)).toMatchObject({
      inventoryItemId: tote.gid,
      hsCode: "420222",
      countryOfOrigin: "PT",
    });
  });

  it("changes only the field it is given", async () => {
    const soap = itemOf(SOAP);
    const result = await updateInventoryItemCustoms(emulator.graphql, { inventoryItemId: soap.gid, hsCode: "340111" });
    expect(result).toMatchObject({ ok: true, value: { hsCode: "340111", countryOfOrigin: "US" } });
  });

  it.each(["4202", "abc", "4202.22.1234.56", "42O222"])(
    "refuses the HS code %s before sending it, naming the shape, and leaves the item as it was",
    async (hsCode) => {
      const tote = itemOf(TOTE);
      const before = emulator.queryCostSpent();
      const result = await updateInventoryItemCustoms(emulator.graphql, { inventoryItemId: tote.gid, hsCode });
      if (result.ok) throw new Error("expected a refusal");
      expect(result.error).toMatchObject({
        code: "USER_ERROR",
        message: expect.stringContaining("6 to 10 digits"),
        fields: [{ path: "harmonizedSystemCode", message: expect.any(String) }],
      });
      expect(emulator.queryCostSpent()).toBe(before);
      expect(tote.record.harmonizedSystemCode).toBeNull();
    },
  );

  it("refuses a country code Shopify does not know before sending it, in the merchant's words", async () => {
    const tote = itemOf(TOTE);
    const before = emulator.queryCostSpent();
    const result = await updateInventoryItemCustoms(emulator.graphql, {
      inventoryItemId: tote.gid,
      countryOfOrigin: "XX",
    });
    if (result.ok) throw new Error("expected a refusal");
    expect(result.error).toMatchObject({ code: "USER_ERROR", message: expect.stringContaining('"XX"') });
    expect(emulator.queryCostSpent()).toBe(before);
  });

  it("reports an inventory item that no longer exists as Shopify's userError", async () => {
    const result = await updateInventoryItemCustoms(emulator.graphql, {
      inventoryItemId: "gid://shopify/InventoryItem/1" as InventoryItemGid,
      hsCode: "420222",
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "USER_ERROR", message: expect.stringContaining("does not exist") },
    });
  });
});
