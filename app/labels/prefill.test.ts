import { describe, expect, it } from "vitest";

import { preflightLabelRequest } from "~/shipping/preflight";

import { prefillLabelRequest } from "./prefill";
import { DEFAULT_LABEL_SETTINGS } from "./settings";
import { createEmulators, loadSeededOrder } from "./test-support";

async function prefill(name: string) {
  const { shopify } = createEmulators();
  const { order, shop } = await loadSeededOrder(shopify, name);
  return prefillLabelRequest(order, DEFAULT_LABEL_SETTINGS, { shop: shop.shop, locations: shop.locations });
}

const codes = (problems: { code: string; severity: string }[], severity?: string) =>
  problems.filter((p) => !severity || p.severity === severity).map((p) => p.code);

describe("prefillLabelRequest on the seeded orders", () => {
  it("fills a domestic order completely: ship-from the location, ship-to the order, one box, no customs", async () => {
    const result = await prefill("#1001");
    expect(codes(result.problems, "blocking")).toEqual([]);
    expect(result.request.from_address).toMatchObject({
      name: "Harbor & Pine Goods",
      street1: "250 Kent Ave",
      city: "Brooklyn",
      state: "NY",
      zip: "11249",
      country: "US",
      phone: "+17183872941",
    });
    expect(result.request.to_address).toMatchObject({
      name: "Emily Carter",
      street1: "1427 Maple Ave",
      state: "IL",
      country: "US",
      phone: "+18473281904",
    });
    // 2 × 450 g + 12 oz = 1.24 kg ≈ 2.74 lb, rounded up.
    expect(result.request.parcel).toMatchObject({ weight: 2.74, weight_unit: "lb", length: 12 });
    expect(result.request.customs).toBeUndefined();
    expect(result.request).toMatchObject({
      platform: "shopify",
      platform_order_id: "5829105001",
      reference: "#1001",
      label_format: "pdf",
      label_size: "4x6",
    });
    expect(result.lineItems.map((l) => l.quantity)).toEqual([2, 1]);
  });

  it("keeps the company of a commercial recipient", async () => {
    const result = await prefill("#1002");
    expect(result.request.to_address?.company).toBe("Northwind Design Studio");
    expect(codes(result.problems, "blocking")).toEqual([]);
  });

  it("builds customs for Germany from the line items, in USD from the shop money, with the most valuable line's HS code", async () => {
    const result = await prefill("#1004");
    expect(codes(result.problems, "blocking")).toEqual([]);
    // journal 42.00 (HS 4820.10, IT) + dripper 36.00 (HS 6912.00, JP)
    expect(result.request.customs).toMatchObject({
      value: 78,
      quantity: 2,
      hs_code: "4820.10",
      country_of_origin: "IT",
      contents_type: "merchandise",
    });
    expect(result.request.customs?.description).toContain("Leather Field Journal");
    expect(codes(result.problems, "warning")).toContain("CUSTOMS_LINES_DIFFER");
    expect(
      preflightLabelRequest(result.request).filter((p) => p.path.startsWith("customs") && p.severity === "blocking"),
    ).toEqual([]);
  });

  it("fills Canada and the UK and Australia without blocking problems", async () => {
    for (const name of ["#1003", "#1005", "#1010"]) {
      const result = await prefill(name);
      expect({ name, blocking: codes(result.problems, "blocking") }).toEqual({ name, blocking: [] });
      expect(result.request.customs?.value).toBeGreaterThan(0);
    }
  });

  it("takes the CPF for Brazil from the order's localized fields", async () => {
    const result = await prefill("#1006");
    expect(result.request.customs?.tax_id).toBe("381.447.926-29");
    expect(codes(result.problems, "blocking")).toEqual([]);
  });

  it("makes a missing CPF for Brazil a blocking problem", async () => {
    const result = await prefill("#1007");
    expect(result.request.customs?.tax_id).toBeUndefined();
    expect(codes(result.problems, "blocking")).toContain("TAX_ID_REQUIRED");
  });

  it("takes the codice fiscale for Italy, and blocks without it", async () => {
    const withId = await prefill("#1008");
    expect(withId.request.customs?.tax_id).toBe("RSSGLI90A41F205B");
    expect(codes(withId.problems, "blocking")).toEqual([]);
    const without = await prefill("#1009");
    expect(codes(without.problems, "blocking")).toContain("TAX_ID_REQUIRED");
  });

  it("warns that a shipment over 2,500 USD needs an export declaration", async () => {
    const result = await prefill("#1011");
    expect(result.request.customs?.value).toBe(2900);
    expect(codes(result.problems)).toContain("EXPORT_DECLARATION_NEEDED");
  });

  it("splits a 77.5 lb order into several boxes under the default box's limit", async () => {
    const result = await prefill("#1012");
    expect(result.request.parcel).toBeUndefined();
    expect(result.request.parcels?.length).toBe(2);
    expect(result.request.parcels?.every((p) => (p?.weight ?? 0) <= 50)).toBe(true);
    expect(codes(result.problems, "blocking")).toEqual([]);
  });

  it("makes a missing recipient phone on an international order a blocking problem", async () => {
    const result = await prefill("#1013");
    expect(result.request.to_address?.phone).toBeNull();
    expect(result.problems).toContainEqual(
      expect.objectContaining({ path: "to_address.phone", code: "PHONE_REQUIRED", severity: "blocking" }),
    );
  });

  it("never guesses a missing weight or origin: both become blocking problems", async () => {
    const result = await prefill("#1014");
    expect(result.request.parcel?.weight).toBeNull();
    expect(codes(result.problems, "blocking")).toEqual(expect.arrayContaining(["WEIGHT_MISSING", "ORIGIN_MISSING"]));
    expect(codes(result.problems, "warning")).toContain("HS_CODE_MISSING");
    expect(result.request.customs?.country_of_origin).toBeUndefined();
  });

  it("describes a product with a vague type by its title and asks to review it", async () => {
    const result = await prefill("#1015");
    expect(result.request.customs?.description).toBe("Weekend Host Bundle");
    expect(codes(result.problems, "warning")).toContain("CUSTOMS_DESCRIPTION_REVIEW");
  });

  it("ships a split order's second fulfillment order from its own location, with the shop's phone as fallback", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1016");
    const second = order.fulfillmentOrders[1];
    expect(second).toBeDefined();
    const result = prefillLabelRequest(order, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
      locations: shop.locations,
      fulfillmentOrderId: second?.id,
    });
    expect(result.request.from_address).toMatchObject({ city: "Reno", state: "NV", phone: "+17183872941" });
    expect(result.lineItems).toHaveLength(2);
  });

  it("ships only the remaining items of a partly fulfilled order and skips its closed fulfillment order", async () => {
    const result = await prefill("#1017");
    expect(codes(result.problems, "blocking")).toEqual([]);
    expect(result.lineItems.map((l) => l.quantity)).toEqual([1, 2]);
  });

  it("falls back to the shop address when the fulfillment order's location has none", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1001");
    const [fo] = order.fulfillmentOrders;
    if (!fo) throw new Error("seed changed");
    const blank = {
      ...fo,
      assignedLocation: { ...fo.assignedLocation, address1: null, city: null, zip: null, phone: null },
    };
    const result = prefillLabelRequest({ ...order, fulfillmentOrders: [blank] }, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
    });
    expect(result.request.from_address).toMatchObject({
      street1: "250 Kent Ave",
      city: "Brooklyn",
      zip: "11249",
      phone: "+17183872941",
    });
  });

  it("reports a non-USD order as needing the declared value in USD", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1004");
    const eur = (amount: string) => ({
      shop: { amount, currencyCode: "EUR" },
      presentment: { amount, currencyCode: "EUR" },
    });
    const euroOrder = {
      ...order,
      shopCurrencyCode: "EUR",
      lineItems: order.lineItems.map((l) => ({ ...l, unitPrice: eur("10.00") })),
    };
    const result = prefillLabelRequest(euroOrder, DEFAULT_LABEL_SETTINGS, { shop: shop.shop });
    expect(result.request.customs?.value).toBeUndefined();
    expect(codes(result.problems, "blocking")).toContain("CUSTOMS_VALUE_USD_REQUIRED");
  });
});
