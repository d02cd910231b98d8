import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { type OrderGid, toOrderGid } from "./ids";
import { getOrderForLabel, selectCustomsTaxId, type ShopifyOrderForLabel } from "./orders";

const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

function gidOf(name: string): OrderGid {
  const id = emulator.findOrderByName(name)?.id;
  if (!id) throw new Error(`seed has no order ${name}`);
  return id as OrderGid;
}

async function loadOrder(name: string): Promise<ShopifyOrderForLabel> {
  const result = await getOrderForLabel(emulator.graphql, gidOf(name));
  if (!result.ok) throw new Error(`${name}: ${result.error.logMessage}`);
  expect(result.value.problems).toEqual([]);
  return result.value.order;
}

describe("getOrderForLabel", () => {
  it("reads a domestic residential order with contact, prices, weights and customs data", async () => {
    const order = await loadOrder("#1001");
    expect(order).toMatchObject({
      id: gidOf("#1001"),
      legacyId: "5829105001",
      name: "#1001",
      email: "emily.carter@fastmail.com",
      phone: "+18473281904",
      shopCurrencyCode: "USD",
      presentmentCurrencyCode: "USD",
      customsTaxId: null,
      shippingAddress: {
        name: "Emily Carter",
        company: null,
        address1: "1427 Maple Ave",
        city: "Evanston",
        provinceCode: "IL",
        zip: "60201",
        countryCode: "US",
        phone: "+18473281904",
      },
    });
    expect(order.lineItems[0]).toMatchObject({
      title: "Hand-thrown Stoneware Mug",
      productType: "Mugs",
      sku: "HP-MUG-SLATE",
      quantity: 2,
      unitPrice: {
        shop: { amount: "28.00", currencyCode: "USD" },
        presentment: { amount: "28.00", currencyCode: "USD" },
      },
      weight: { value: 450, unit: "GRAMS" },
      hsCode: "6912.00",
      countryOfOrigin: "US",
    });
    expect(order.lineItems[1]?.weight).toEqual({ value: 12, unit: "OUNCES" });
    const [fo] = order.fulfillmentOrders;
    expect(fo).toMatchObject({
      status: "OPEN",
      canCreateFulfillment: true,
      assignedLocation: {
        name: "Brooklyn Warehouse",
        city: "Brooklyn",
        zip: "11249",
        countryCode: "US",
        phone: "+17183872941",
        locationId: "gid://shopify/Location/71234560001",
      },
      destination: {
        firstName: "Emily",
        lastName: "Carter",
        phone: "+18473281904",
        email: "emily.carter@fastmail.com",
      },
      lineItemsComplete: true,
    });
    expect(fo?.lineItems.map((l) => [l.lineItemId, l.remainingQuantity, l.totalQuantity])).toEqual(
      order.lineItems.map((l) => [l.id, l.quantity, l.quantity]),
    );
  });

  it("keeps the company of a commercial address", async () => {
    const order = await loadOrder("#1002");
    expect(order.shippingAddress).toMatchObject({ company: "Northwind Design Studio", address2: "Suite 1400" });
    expect(order.fulfillmentOrders[0]?.destination?.company).toBe("Northwind Design Studio");
    expect(order.phone).toBeNull();
  });

  it.each([
    ["#1003", "CA", "QC", "CAD"],
    ["#1004", "DE", null, "EUR"],
    ["#1005", "GB", null, "GBP"],
    ["#1010", "AU", "VIC", "AUD"],
  ])(
    "reads international order %s with its presentment currency and origins",
    async (name, country, province, currency) => {
      const order = await loadOrder(name);
      expect(order.shippingAddress).toMatchObject({ countryCode: country, provinceCode: province });
      expect(order.presentmentCurrencyCode).toBe(currency);
      expect(
        order.lineItems.every(
          (l) => l.unitPrice.presentment.currencyCode === currency && l.unitPrice.shop.currencyCode === "USD",
        ),
      ).toBe(true);
      expect(order.lineItems.every((l) => l.hsCode && l.countryOfOrigin && l.weight)).toBe(true);
    },
  );

  it("finds the Brazilian CPF from checkout, and reports none when the buyer gave none", async () => {
    expect((await loadOrder("#1006")).customsTaxId).toEqual({
      value: "381.447.926-29",
      kind: "CPF",
      countryCode: "BR",
      sourceKey: "SHIPPING_CREDENTIAL_BR",
    });
    expect((await loadOrder("#1007")).customsTaxId).toBeNull();
  });

  it("finds the Italian codice fiscale from checkout, and reports none when the buyer gave none", async () => {
    expect((await loadOrder("#1008")).customsTaxId).toEqual({
      value: "RSSGLI90A41F205B",
      kind: "CODICE_FISCALE",
      countryCode: "IT",
      sourceKey: "TAX_CREDENTIAL_IT",
    });
    expect((await loadOrder("#1009")).customsTaxId).toBeNull();
  });

  it("reads an order worth more than 2,500 USD in shop money", async () => {
    const order = await loadOrder("#1011");
    expect(Number(order.totalPrice.shop.amount)).toBeGreaterThan(2500);
    expect(order.shippingAddress?.company).toBe("Kaffeerösterei Wagner GmbH");
  });

  it("reads a heavy order with weights in pounds", async () => {
    const order = await loadOrder("#1012");
    expect(order.lineItems.map((l) => [l.weight, l.quantity])).toEqual([
      [{ value: 35, unit: "POUNDS" }, 2],
      [{ value: 7.5, unit: "POUNDS" }, 1],
    ]);
    expect(order.totalWeightGrams).toBeGreaterThan(35_000);
  });

  it("returns null phones for a customer without one instead of inventing a value", async () => {
    const order = await loadOrder("#1013");
    expect([order.phone, order.shippingAddress?.phone, order.fulfillmentOrders[0]?.destination?.phone]).toEqual([
      null,
      null,
      null,
    ]);
    expect(order.email).toBe("liam.chen@shaw.ca");
  });

  it("returns null HS code and weight for products that have none", async () => {
    const order = await loadOrder("#1014");
    expect(order.lineItems.map((l) => [l.title, l.hsCode, l.weight, l.sku])).toEqual([
      ["Organic Cotton Market Tote", null, null, "HP-TOTE-NAT"],
      ["Olive Oil Castile Soap Bar", null, { value: 4.5, unit: "OUNCES" }, null],
    ]);
  });

  it("passes a vague product type through unchanged for the customs rules to catch", async () => {
    expect((await loadOrder("#1015")).lineItems[0]?.productType).toBe("Gift");
  });

  it("returns both fulfillment orders of a split order with their own ship-from locations", async () => {
    const order = await loadOrder("#1016");
    expect(
      order.fulfillmentOrders.map((fo) => [fo.assignedLocation.name, fo.assignedLocation.phone, fo.lineItems.length]),
    ).toEqual([
      ["Brooklyn Warehouse", "+17183872941", 1],
      ["Reno Fulfillment Center", null, 2],
    ]);
  });

  it("shows what remains on a partly fulfilled order and which fulfillment orders can still ship", async () => {
    const order = await loadOrder("#1017");
    expect(order.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    const [open, closed] = order.fulfillmentOrders;
    expect(open).toMatchObject({ status: "IN_PROGRESS", canCreateFulfillment: true });
    expect(open?.lineItems.map((l) => [l.totalQuantity, l.remainingQuantity])).toEqual([
      [4, 1],
      [2, 2],
    ]);
    expect(closed).toMatchObject({ status: "CLOSED", canCreateFulfillment: false, supportedActions: [] });
    expect(order.lineItems.map((l) => l.unfulfilledQuantity)).toEqual([1, 2, 0]);
  });

  it("fetches further pages of line items for long orders", async () => {
    const long = createShopifyAdminEmulator({
      seed: (state) => {
        const order = state.orders[0];
        const template = order?.lineItems[0];
        if (!order || !template) return state;
        order.lineItems = Array.from({ length: 120 }, (_, i) => ({
          ...template,
          id: `gid://shopify/LineItem/${90000 + i}`,
        }));
        return state;
      },
    });
    const result = await getOrderForLabel(long.graphql, toOrderGid(5829105001));
    expect(result.ok && result.value.order.lineItems.length).toBe(120);
  });

  it("answers NOT_FOUND for an order Shopify doesn't have", async () => {
    const result = await getOrderForLabel(emulator.graphql, toOrderGid(1));
    expect(result).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("returns partial data with a typed problem when protected customer data is not approved", async () => {
    emulator.setProtectedCustomerDataApproved(false);
    const result = await getOrderForLabel(emulator.graphql, gidOf("#1004"));
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.order.email).toBeNull();
    expect(result.value.order.shippingAddress).toMatchObject({ address1: null, city: "Berlin", countryCode: "DE" });
    expect(result.value.order.lineItems).toHaveLength(2);
    expect(result.value.problems.length).toBeGreaterThan(0);
    expect(result.value.problems.every((p) => p.code === "PROTECTED_CUSTOMER_DATA")).toBe(true);
  });

  it("reports THROTTLED when Shopify throttles the query", async () => {
    emulator.failNextRequest("THROTTLED");
    expect(await getOrderForLabel(emulator.graphql, gidOf("#1001"))).toMatchObject({
      ok: false,
      error: { code: "THROTTLED" },
    });
  });
});

describe("selectCustomsTaxId", () => {
  const field = (key: string, value: string, countryCode = "BR") => ({
    key,
    value,
    countryCode,
    purpose: "TAX" as const,
    title: "",
  });

  it("classifies CNPJ and partita IVA and ignores other countries' fields", () => {
    expect(selectCustomsTaxId([field("TAX_CREDENTIAL_BR", "11.222.333/0001-81")], "BR")?.kind).toBe("CNPJ");
    expect(selectCustomsTaxId([field("TAX_CREDENTIAL_BR", "12.ABC.345/01DE-35")], "BR")?.kind).toBe("CNPJ");
    expect(selectCustomsTaxId([field("TAX_CREDENTIAL_IT", "12345670017", "IT")], "IT")?.kind).toBe("PARTITA_IVA");
    expect(selectCustomsTaxId([field("TAX_CREDENTIAL_BR", "11.222.333/0001-81")], "IT")).toBeNull();
    expect(selectCustomsTaxId([field("TAX_EMAIL_IT", "pec@example.it", "IT")], "IT")).toBeNull();
  });
});

describe("getOrderForLabel reads everything, in small queries", () => {
  const foLineTemplate = (fo: { lineItems: { id: string }[] }) => {
    const template = fo.lineItems[0];
    if (!template) throw new Error("seed changed");
    return template;
  };

  it("reads every line item of a long fulfillment order and fulfillment orders past the first page", async () => {
    const long = createShopifyAdminEmulator({
      seed: (state) => {
        const order = state.orders.find((o) => o.name === "#1001");
        const fo = order?.fulfillmentOrders[0];
        if (!order || !fo) return state;
        const template = foLineTemplate(fo) as (typeof fo.lineItems)[number];
        order.fulfillmentOrders = [
          {
            ...fo,
            lineItems: Array.from({ length: 75 }, (_, i) => ({
              ...template,
              id: `gid://shopify/FulfillmentOrderLineItem/${80000 + i}`,
            })),
          },
          ...Array.from({ length: 11 }, (_, i) => ({ ...fo, id: `gid://shopify/FulfillmentOrder/${70000 + i}` })),
        ];
        return state;
      },
    });
    const result = await getOrderForLabel(long.graphql, toOrderGid(5829105001));
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.problems).toEqual([]);
    expect(result.value.order.fulfillmentOrders).toHaveLength(12);
    expect(result.value.order.fulfillmentOrders[0]?.lineItems).toHaveLength(75);
    expect(result.value.order.fulfillmentOrders[0]?.lineItemsComplete).toBe(true);
  });

  it("reports a fulfillment order longer than the hard cap as truncated instead of cutting it silently", async () => {
    const huge = createShopifyAdminEmulator({
      seed: (state) => {
        const fo = state.orders.find((o) => o.name === "#1001")?.fulfillmentOrders[0];
        if (!fo) return state;
        const template = foLineTemplate(fo) as (typeof fo.lineItems)[number];
        fo.lineItems = Array.from({ length: 600 }, (_, i) => ({
          ...template,
          id: `gid://shopify/FulfillmentOrderLineItem/${80000 + i}`,
        }));
        return state;
      },
    });
    const result = await getOrderForLabel(huge.graphql, toOrderGid(5829105001));
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.order.fulfillmentOrders[0]?.lineItemsComplete).toBe(false);
    expect(result.value.problems).toEqual([expect.objectContaining({ code: "TRUNCATED" })]);
  });

  it("leaves out a fulfillment order Shopify hides from the merchant (closed after a move)", async () => {
    const order = await loadOrder("#1022");
    expect(order.fulfillmentOrders.map((fo) => [fo.status, fo.assignedLocation.name])).toEqual([
      ["OPEN", "Brooklyn Warehouse"],
    ]);
  });

  it("reads the delivery method and the duties terms of each fulfillment order", async () => {
    expect((await loadOrder("#1018")).fulfillmentOrders[0]?.deliveryMethod?.methodType).toBe("PICK_UP");
    expect((await loadOrder("#1019")).fulfillmentOrders[0]?.deliveryMethod?.methodType).toBe("LOCAL");
    expect((await loadOrder("#1020")).fulfillmentOrders[0]?.internationalDuties).toEqual({ incoterm: "DDP" });
    expect((await loadOrder("#1001")).fulfillmentOrders[0]?.internationalDuties).toBeNull();
  });

  it("reads the price paid after discounts next to the list price", async () => {
    const [sweater] = (await loadOrder("#1021")).lineItems;
    expect(sweater?.unitPrice.shop).toEqual({ amount: "128.00", currencyCode: "USD" });
    expect(sweater?.paidUnitPrice.shop).toEqual({ amount: "102.40", currencyCode: "USD" });
  });

  it("turns enum values Shopify may add later into problems on those fields, not a failed order", async () => {
    // graphql-js refuses to serialize an unknown enum value, so the response is rewritten on its way back.
    const future: typeof emulator.graphql = async (query, options) => {
      const response = await emulator.graphql(query, options);
      const text = (await response.text())
        .replace(/"status":"OPEN"/g, '"status":"AWAITING_CARRIER"')
        .replace(/"methodType":"SHIPPING"/g, '"methodType":"DRONE"')
        .replace(/"unit":"OUNCES"/g, '"unit":"STONES"')
        .replace(/"purpose":"TAX"/g, '"purpose":"CUSTOMS"');
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const result = await getOrderForLabel(future, gidOf("#1008"));
    if (!result.ok) throw new Error(result.error.logMessage);
    const { order, problems } = result.value;
    const [fo] = order.fulfillmentOrders;
    expect(fo?.status).toBeNull();
    expect(fo?.deliveryMethod).toMatchObject({ methodType: null, rawMethodType: "DRONE" });
    expect(order.localizedFields[0]).toMatchObject({ key: "TAX_CREDENTIAL_IT", purpose: null });
    expect(order.customsTaxId?.value).toBe("RSSGLI90A41F205B");
    expect(problems.map((p) => [p.code, p.path])).toEqual(
      expect.arrayContaining([
        ["UNRECOGNIZED_VALUE", `fulfillmentOrders.${fo?.id}.status`],
        ["UNRECOGNIZED_VALUE", `fulfillmentOrders.${fo?.id}.deliveryMethod.methodType`],
        ["UNRECOGNIZED_VALUE", "localizedFields.TAX_CREDENTIAL_IT.purpose"],
      ]),
    );
  });

  it("keeps each of its documents cheap enough that loading an order barely dents Shopify's bucket", async () => {
    const small = createShopifyAdminEmulator({ throttle: { maximumAvailable: 1000, restoreRate: 50 }, now: () => 0 });
    for (let i = 0; i < 5; i++) expect((await getOrderForLabel(small.graphql, toOrderGid(5829105016))).ok).toBe(true);
    expect(small.throttleStatus().currentlyAvailable).toBeGreaterThan(500);
  });
});
