import { describe, expect, it } from "vitest";

import { DEFAULT_LABEL_SETTINGS } from "~/settings/settings";
import { preflightLabelRequest } from "~/shipping/preflight";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { createEmulators, loadSeededOrder } from "../../test/helpers/labels";
import { prefillLabelRequest } from "./prefill";

async function prefill(name: string) {
  const { shopify } = createEmulators();
  const { order, shop } = await loadSeededOrder(shopify, name);
  return prefillLabelRequest(order, DEFAULT_LABEL_SETTINGS, { shop: shop.shop, locations: shop.locations });
}

const codes = (problems: { code: string; severity: string }[], severity?: string) =>
  problems.filter((p) => !severity || p.severity === severity).map((p) => p.code);

describe("prefillLabelRequest on the seeded orders", () => {
  it("names the declaration's product and every product lacking customs data, for Save to product and bulk review", async () => {
    const result = await prefill("#1014");
    expect(result.customsProduct).toEqual({
      title: "Organic Cotton Market Tote",
      productId: expect.stringMatching(/^gid:\/\/shopify\/Product\//),
      inventoryItemId: expect.stringMatching(/^gid:\/\/shopify\/InventoryItem\//),
      hsCode: null,
      countryOfOrigin: null,
    });
    expect(result.productsMissingCustoms.map((p) => [p.title, p.hsCode, p.countryOfOrigin])).toEqual([
      ["Organic Cotton Market Tote", null, null],
      ["Olive Oil Castile Soap Bar", null, "US"],
    ]);
  });

  it("names no customs product on a domestic order", async () => {
    const result = await prefill("#1001");
    expect(result.customsProduct).toBeNull();
    expect(result.productsMissingCustoms).toEqual([]);
  });

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

  it("does not warn a US domestic order without a phone about international phone rules", async () => {
    const { shopify } = createEmulators();
    const record = shopify.findOrderByName("#1001");
    if (!record?.shippingAddress) throw new Error("no seeded #1001");
    record.phone = null;
    record.shippingAddress.phone = null;
    for (const fo of record.fulfillmentOrders) if (fo.destination) fo.destination.phone = null;
    const { order, shop } = await loadSeededOrder(shopify, "#1001");
    const result = prefillLabelRequest(order, DEFAULT_LABEL_SETTINGS, { shop: shop.shop, locations: shop.locations });
    expect(result.request.to_address?.phone).toBeNull();
    expect(result.problems.filter((p) => p.path.endsWith("phone") || /phone/i.test(p.message))).toEqual([]);
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
      lineItems: order.lineItems.map((l) => ({ ...l, unitPrice: eur("10.00"), paidUnitPrice: eur("10.00") })),
    };
    const result = prefillLabelRequest(euroOrder, DEFAULT_LABEL_SETTINGS, { shop: shop.shop });
    expect(result.request.customs?.value).toBeUndefined();
    expect(codes(result.problems, "blocking")).toContain("CUSTOMS_VALUE_USD_REQUIRED");
  });
});

describe("prefillLabelRequest: only what Shopify says ships, the way Shopify says it ships", () => {
  it("gives a local pickup no label and says why", async () => {
    const result = await prefill("#1018");
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: "DELIVERY_NOT_SHIPPING",
        severity: "blocking",
        message: expect.stringMatching(/local pickup/),
      }),
    ]);
  });

  it("gives a local delivery no label and says why", async () => {
    const result = await prefill("#1019");
    expect(result.problems).toEqual([
      expect.objectContaining({ code: "DELIVERY_NOT_SHIPPING", message: expect.stringMatching(/local delivery/) }),
    ]);
  });

  it("blocks an order whose duties were collected at checkout (DDP): the service ships duties unpaid only", async () => {
    const result = await prefill("#1020");
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        code: "DUTIES_PAID_AT_CHECKOUT",
        severity: "blocking",
        message: expect.stringMatching(/DDP.*DAP/),
      }),
    );
    expect(codes((await prefill("#1005")).problems)).not.toContain("DUTIES_PAID_AT_CHECKOUT");
  });

  it("declares the price the customer paid after discounts, not the list price", async () => {
    const result = await prefill("#1021");
    // Merino sweater listed at 128.00, sold at 20% off.
    expect(result.request.customs?.value).toBe(102.4);
  });

  it("sends the store's contact e-mail as the sender's, never the owner's login e-mail", async () => {
    const result = await prefill("#1001");
    expect(result.request.from_address?.email).toBe("hello@harborandpine.com");
  });

  it("ships to the fulfillment order's destination as a whole when it differs from the order's address", async () => {
    const result = await prefill("#1022");
    expect(result.request.to_address).toEqual({
      name: "Maya Patel",
      company: "Lakeview Pediatrics",
      street1: "3000 N Halsted St",
      street2: "Suite 200",
      city: "Chicago",
      state: "IL",
      zip: "60657",
      country: "US",
      phone: "+13125589921",
      email: "maya.patel@fastmail.com",
    });
  });

  it("turns a destination's province name into the code carriers print", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1003");
    const [fo] = order.fulfillmentOrders;
    if (!fo?.destination) throw new Error("seed changed");
    const moved = { ...fo, destination: { ...fo.destination, province: "British Columbia", city: "Victoria" } };
    const result = prefillLabelRequest({ ...order, fulfillmentOrders: [moved] }, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
    });
    expect(result.request.to_address?.state).toBe("BC");
  });

  it("ships every remaining item of a fulfillment order longer than one page", async () => {
    const shopify = createShopifyAdminEmulator({
      seed: (state) => {
        const fo = state.orders.find((o) => o.name === "#1001")?.fulfillmentOrders[0];
        const template = fo?.lineItems[0];
        if (!fo || !template) return state;
        fo.lineItems = Array.from({ length: 45 }, (_, i) => ({
          ...template,
          id: `gid://shopify/FulfillmentOrderLineItem/${80000 + i}`,
        }));
        return state;
      },
    });
    const { order, shop } = await loadSeededOrder(shopify, "#1001");
    const result = prefillLabelRequest(order, DEFAULT_LABEL_SETTINGS, { shop: shop.shop });
    expect(result.lineItems).toHaveLength(45);
    expect(new Set(result.lineItems.map((l) => l.id)).size).toBe(45);
  });

  it("blocks a label that could not read all of its fulfillment order's items", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1001");
    const [fo] = order.fulfillmentOrders;
    if (!fo) throw new Error("seed changed");
    const cut = { ...fo, lineItemsComplete: false };
    const result = prefillLabelRequest({ ...order, fulfillmentOrders: [cut] }, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
    });
    expect(codes(result.problems, "blocking")).toContain("ITEMS_TRUNCATED");
  });

  it("says why a fulfillment order with a delivery method this app doesn't know gets no label", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1001");
    const [fo] = order.fulfillmentOrders;
    if (!fo?.deliveryMethod) throw new Error("seed changed");
    const drone = { ...fo, deliveryMethod: { ...fo.deliveryMethod, methodType: null, rawMethodType: "DRONE" } };
    const result = prefillLabelRequest({ ...order, fulfillmentOrders: [drone] }, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
    });
    expect(result.problems).toEqual([
      expect.objectContaining({ code: "DELIVERY_NOT_SHIPPING", message: expect.stringContaining("DRONE") }),
    ]);
  });

  it("applies preflight's phone rule to an international order, so both report the same problem", async () => {
    const { shopify } = createEmulators();
    const { order, shop } = await loadSeededOrder(shopify, "#1003");
    const [fo] = order.fulfillmentOrders;
    if (!fo?.destination) throw new Error("seed changed");
    const placeholder = { ...fo, destination: { ...fo.destination, phone: "+1 123-456-7890" } };
    const result = prefillLabelRequest({ ...order, fulfillmentOrders: [placeholder] }, DEFAULT_LABEL_SETTINGS, {
      shop: shop.shop,
    });
    const fromPrefill = result.problems.filter((p) => p.path === "to_address.phone");
    const fromPreflight = preflightLabelRequest(result.request).filter((p) => p.path === "to_address.phone");
    expect(fromPrefill).toEqual([expect.objectContaining({ code: "PHONE_PLACEHOLDER", severity: "blocking" })]);
    expect(fromPrefill).toEqual(fromPreflight);
  });
});
