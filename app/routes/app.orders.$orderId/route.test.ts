import { describe, expect, it, vi } from "vitest";

import { listAuditEntries } from "~/labels/audit.server";
import { findLabel } from "~/labels/label-repository.server";
import { flagLabelAttention } from "~/labels/label-transitions.server";
import { setShippingApiKey } from "~/settings/settings.server";
import type { Rate } from "~/shipping/schemas";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import {
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../../test/helpers/msw";
import { routeArgs } from "../../../test/helpers/route-args";
import { createAdminRequest, createSessionToken } from "../../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { action, loader, shouldRevalidate } from "./route";

setupMockServer();

const DEMO_ORG = "org_demo";

function setUp(options: { apiKey?: string | null } = {}) {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  const ready =
    options.apiKey === null ? Promise.resolve() : setShippingApiKey(db, TEST_SHOP, options.apiKey ?? "sk_live_demo");
  return { shopify, shipping, ready };
}

function orderIdOf(shopify: ReturnType<typeof createShopifyAdminEmulator>, name: string): string {
  const id = shopify.findOrderByName(name)?.id.split("/").pop();
  if (!id) throw new Error(`no order ${name}`);
  return id;
}

async function load(orderId: string) {
  const result = await loader(routeArgs(createAdminRequest(`/app/orders/${orderId}`), { orderId }));
  // The quotes the page streams end inside the test that started them.
  await Promise.allSettled(Object.values(result.quotes));
  return result;
}

async function post(orderId: string, fields: Record<string, string>, options: { userId?: string } = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const request = new Request(new URL(`/app/orders/${orderId}`, TEST_ENV.SHOPIFY_APP_URL), {
    method: "POST",
    body,
    headers: { Authorization: `Bearer ${createSessionToken({ userId: options.userId ?? "42" })}` },
  });
  try {
    const result = await action(routeArgs(request, { orderId }));
    if (result instanceof Response)
      return { status: result.status, body: (await result.json()) as Record<string, unknown>, response: result };
    return { status: 200, body: result as Record<string, unknown>, response: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: {}, response: thrown };
    throw thrown;
  }
}

/** Loads the order page, gets rates for its first shipment and creates the draft for the cheapest. */
async function draftFirstShipment(orderId: string) {
  const data = await load(orderId);
  const section = data.page?.fulfillmentOrders[0];
  if (!section) throw new Error("no shipment");
  const request = JSON.stringify(section.prefill.request);
  const rates = await post(orderId, { intent: "get-rates", fulfillmentOrderId: section.id, request });
  expect(rates.status).toBe(200);
  const rate = (rates.body.rates as Rate[])[0];
  if (!rate) throw new Error("no rate");
  const draft = await post(orderId, {
    intent: "create-draft",
    fulfillmentOrderId: section.id,
    request,
    lineItems: JSON.stringify(section.prefill.lineItems),
    rate: JSON.stringify(rate),
  });
  expect(draft.status).toBe(200);
  return { section, rate, labelId: String(draft.body.labelId) };
}

describe("order label page loader", () => {
  it("prefills the shipment of a domestic order with no blocking problems", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const data = await load(orderIdOf(shopify, "#1001"));
    expect(data.page?.order.name).toBe("#1001");
    const [section, ...rest] = data.page?.fulfillmentOrders ?? [];
    expect(rest).toEqual([]);
    expect(section?.prefill.request.to_address?.country).toBe("US");
    expect(section?.prefill.problems.filter((p) => p.severity === "blocking")).toEqual([]);
    expect(section?.label).toBeNull();
    expect(data.page?.setup).toEqual({ apiKeyConfigured: true, mode: "live" });
    expect(data.page?.validationPriceCents).toBe(5);
  });

  it("shows each fulfillment order of a split order as its own shipment", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const data = await load(orderIdOf(shopify, "#1016"));
    expect(data.page?.fulfillmentOrders).toHaveLength(2);
    expect(new Set(data.page?.fulfillmentOrders.map((s) => s.locationName)).size).toBe(2);
    // Each shipment the check finds ready gets its own streamed quote.
    const quotable = (data.page?.fulfillmentOrders ?? [])
      .filter((s) => s.label === null && !s.prefill.problems.some((p) => p.severity === "blocking"))
      .map((s) => s.id);
    expect(quotable).toHaveLength(2);
    expect(Object.keys(data.quotes).sort()).toEqual([...quotable].sort());
  });

  it("puts each prefill problem on its field: Brazil without CPF needs the tax id", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const data = await load(orderIdOf(shopify, "#1007"));
    const section = data.page?.fulfillmentOrders[0];
    expect(section?.international).toBe(true);
    expect(section?.prefill.problems).toContainEqual(
      expect.objectContaining({ path: "customs.tax_id", code: "TAX_ID_REQUIRED", severity: "blocking" }),
    );
  });

  it("streams rates with the page for a ready shipment, sorted out by the service, and charges nothing", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const data = await load(orderIdOf(shopify, "#1001"));
    const section = data.page?.fulfillmentOrders[0];
    expect(data.page?.order).toMatchObject({
      shippingMethod: expect.any(String),
      shippingPaid: { amount: "8.95", currency: "USD" },
    });
    // A promise, not the rates: the page's HTML does not wait for the shipping service.
    const quote = data.quotes[section?.id ?? ""];
    expect(quote).toBeInstanceOf(Promise);
    const answer = await quote;
    expect(answer?.error).toBeUndefined();
    expect(answer?.rates?.length).toBeGreaterThan(1);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("streams the refusal Get rates would show when the quote fails", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    shipping.setFaults({ failures: [{ endpoint: "POST /v1/rates", kind: "unavailable", times: 10 }] });
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const orderId = orderIdOf(shopify, "#1001");
    const data = await load(orderId);
    const section = data.page?.fulfillmentOrders[0];
    const streamed = await data.quotes[section?.id ?? ""];
    const asked = await post(orderId, {
      intent: "get-rates",
      fulfillmentOrderId: section?.id ?? "",
      request: JSON.stringify(section?.prefill.request),
    });
    const message = (asked.body.error as { message: string }).message;
    expect(message).toMatch(/\w/);
    expect(streamed?.rates).toBeUndefined();
    // The same words; only the support reference differs, one per failure.
    expect(streamed?.error?.message.replace(/[A-Z0-9-]{6,}/g, "REF")).toBe(message.replace(/[A-Z0-9-]{6,}/g, "REF"));
  });

  it("ends a slow streamed quote with a message while the page's stream is still open", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    shipping.setFaults({ latency_ms: { "POST /v1/rates": 8_000 } });
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const started = Date.now();
    const data = await load(orderIdOf(shopify, "#1001"));
    const answer = await data.quotes[data.page?.fulfillmentOrders[0]?.id ?? ""];
    // Under entry.server's streamTimeout (5 s) plus its 1 s of grace.
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(answer?.rates).toBeUndefined();
    expect(answer?.error?.message).toMatch(/\w/);
  });

  it("quotes nothing with the page for a blocked shipment or one with a label", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const blocked = await load(orderIdOf(shopify, "#1014"));
    expect(blocked.page?.fulfillmentOrders[0]?.prefill.problems.some((p) => p.severity === "blocking")).toBe(true);
    expect(blocked.quotes).toEqual({});

    const orderId = orderIdOf(shopify, "#1001");
    await draftFirstShipment(orderId);
    expect((await load(orderId)).quotes).toEqual({});
  });

  it("quotes nothing with the page for a shop without a key", async () => {
    const { shopify } = setUp({ apiKey: null });
    const data = await load(orderIdOf(shopify, "#1001"));
    expect(data.page?.setup.apiKeyConfigured).toBe(false);
    expect(data.quotes).toEqual({});
  });

  it("answers 404 for an order that does not exist", async () => {
    setUp();
    await expect(load("999999")).rejects.toMatchObject({ status: 404 });
  });
});

describe("order label page actions", () => {
  it("lists rates, creates a free draft, then buys it once and writes tracking back as the staff member", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { rate, labelId } = await draftFirstShipment(orderId);
    expect(rate).toMatchObject({
      carrier: expect.any(String),
      service: expect.any(String),
      amount: expect.any(String),
    });
    expect(shipping.charges(DEMO_ORG)).toEqual([]);

    const drafted = await load(orderId);
    expect(drafted.page?.fulfillmentOrders[0]?.label).toMatchObject({
      id: labelId,
      status: "draft",
      progress: "draft",
    });

    const bought = await post(orderId, { intent: "buy", labelId, notifyCustomer: "true" });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ intent: "buy", writeBackError: null, label: { status: "fulfilled" } });
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(shopify.fulfillments()).toHaveLength(1);

    const after = await load(orderId);
    const label = after.page?.fulfillmentOrders[0]?.label;
    expect(label).toMatchObject({ progress: "bought", labelUrl: expect.stringMatching(/^http/) });
    expect(label?.trackingNumbers.length).toBeGreaterThan(0);

    const audit = await listAuditEntries(db, TEST_SHOP, { labelId });
    expect(audit.filter((e) => e.action === "purchase" || e.action === "fulfill")).toEqual([
      expect.objectContaining({ action: "purchase", outcome: "ok", staffMemberId: "42" }),
      expect.objectContaining({ action: "fulfill", outcome: "ok", staffMemberId: "42" }),
    ]);

    // A second Buy (a double click, a second tab) charges nothing more.
    const again = await post(orderId, { intent: "buy", labelId, notifyCustomer: "true" });
    expect(again.status).toBe(200);
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(shopify.fulfillments()).toHaveLength(1);
  });

  it("says clearly that nothing was bought when the service answers 503, and a retry charges exactly once", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { labelId } = await draftFirstShipment(orderId);
    shipping.setFaults({ failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "unavailable", times: 10 }] });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});

    const failed = await post(orderId, { intent: "buy", labelId, notifyCustomer: "true" });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(failed.body)).toMatch(/try again/i);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
    expect(shopify.fulfillments()).toEqual([]);
    error.mockRestore();

    // Clicking again at once is answered straight away: the service may still be processing it.
    shipping.setFaults({ failures: [] });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const tooSoon = await post(orderId, { intent: "buy", labelId, notifyCustomer: "false" });
    expect(JSON.stringify(tooSoon.body)).toMatch(/still confirming/i);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);

    // After the quiet period the retry reads the label back (still a draft) and buys it once.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 20_000 });
    try {
      const retried = await post(orderId, { intent: "buy", labelId, notifyCustomer: "false" });
      expect(retried.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
  });

  it("validates an address once and answers the same address again without billing it", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const data = await load(orderId);
    const section = data.page?.fulfillmentOrders[0];
    const fields = {
      intent: "validate-address",
      fulfillmentOrderId: section?.id ?? "",
      address: JSON.stringify(section?.prefill.request.to_address),
    };
    const first = await post(orderId, fields);
    expect(first.status).toBe(200);
    expect(first.body.validation).toMatchObject({
      reused: false,
      billedCents: 5,
      result: { dpv: { deliverable: expect.any(Boolean) } },
    });
    const second = await post(orderId, fields);
    expect(second.body.validation).toMatchObject({ reused: true });
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(1);
    // The page shows the stored answer on the next load, for free.
    expect((await load(orderId)).page?.fulfillmentOrders[0]?.storedValidation).toMatchObject({ reused: true });
  });

  it("refuses a draft for more items than remain to ship, naming the item", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const data = await load(orderId);
    const section = data.page?.fulfillmentOrders[0];
    const rates = await post(orderId, {
      intent: "get-rates",
      fulfillmentOrderId: section?.id ?? "",
      request: JSON.stringify(section?.prefill.request),
    });
    const answer = await post(orderId, {
      intent: "create-draft",
      fulfillmentOrderId: section?.id ?? "",
      request: JSON.stringify(section?.prefill.request),
      lineItems: JSON.stringify(section?.prefill.lineItems.map((l) => ({ ...l, quantity: l.quantity + 5 }))),
      rate: JSON.stringify((rates.body.rates as Rate[])[0]),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.problems).toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/remain to ship/) }),
    );
  });

  it("refuses rates while a blocking problem remains and lists it", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1014");
    const section = (await load(orderId)).page?.fulfillmentOrders[0];
    const answer = await post(orderId, {
      intent: "get-rates",
      fulfillmentOrderId: section?.id ?? "",
      request: JSON.stringify(section?.prefill.request),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.problems).toContainEqual(expect.objectContaining({ path: expect.stringMatching(/^parcel/) }));
  });

  it("discards a draft, freeing the shipment for a new one", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { labelId } = await draftFirstShipment(orderId);
    const answer = await post(orderId, { intent: "discard", labelId });
    expect(answer.body).toMatchObject({ discarded: true });
    expect((await load(orderId)).page?.fulfillmentOrders[0]?.label).toBeNull();
  });

  it("replaces a draft edited on the page with one for the new details: the old discarded, one active, nothing charged", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { section, labelId } = await draftFirstShipment(orderId);
    const drafted = (await load(orderId)).page?.fulfillmentOrders[0];
    const edited = { ...drafted?.prefill.request, parcel: { ...drafted?.prefill.request.parcel, weight: 60 } };
    const rates = await post(orderId, {
      intent: "get-rates",
      fulfillmentOrderId: section.id,
      request: JSON.stringify(edited),
    });
    const rate = (rates.body.rates as Rate[])[0];
    if (!rate) throw new Error("no rate");

    const answer = await post(orderId, {
      intent: "redraft",
      labelId,
      fulfillmentOrderId: section.id,
      request: JSON.stringify(edited),
      lineItems: JSON.stringify(section.prefill.lineItems),
      rate: JSON.stringify(rate),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ intent: "redraft", replaced: labelId });
    expect(answer.body.labelId).not.toBe(labelId);

    expect((await findLabel(db, TEST_SHOP, labelId))?.status).toBe("voided");
    const active = await db.label.findMany({ where: { shop: TEST_SHOP, activeKey: { not: null } } });
    expect(active.map((l) => [l.id, l.status])).toEqual([[answer.body.labelId, "draft"]]);
    const page = (await load(orderId)).page?.fulfillmentOrders[0];
    expect(page?.prefill.request.parcel?.weight).toBe(60);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(2);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("keeps the draft as it was when the edited details are refused", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { section, rate, labelId } = await draftFirstShipment(orderId);
    const drafted = (await load(orderId)).page?.fulfillmentOrders[0]?.prefill.request;
    const answer = await post(orderId, {
      intent: "redraft",
      labelId,
      fulfillmentOrderId: section.id,
      request: JSON.stringify({ ...drafted, to_address: { ...drafted?.to_address, zip: "9404" } }),
      lineItems: JSON.stringify(section.prefill.lineItems),
      rate: JSON.stringify(rate),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "to_address.zip", code: "ZIP_INVALID" })]),
    );
    expect((await findLabel(db, TEST_SHOP, labelId))?.status).toBe("draft");
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
  });

  it("shows a bought label's flag and lets the merchant dismiss it, on this order only", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = orderIdOf(shopify, "#1001");
    const { labelId } = await draftFirstShipment(orderId);
    expect((await post(orderId, { intent: "buy", labelId, notifyCustomer: "false" })).status).toBe(200);
    expect(await flagLabelAttention(db, TEST_SHOP, labelId, "order_cancelled")).toBe(true);
    expect((await load(orderId)).page?.fulfillmentOrders[0]?.label?.attention).toMatch(/order was cancelled/);

    // Another order's page cannot clear it (a crafted request): not found, and not our failure.
    const other = await post(orderIdOf(shopify, "#1002"), { intent: "dismiss-attention", labelId });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ error: { code: "NOT_FOUND", message: "This label no longer exists." } });
    expect((await findLabel(db, TEST_SHOP, labelId))?.attention).not.toBeNull();

    const answer = await post(orderId, { intent: "dismiss-attention", labelId });
    expect(answer.status).toBe(200);
    expect((await findLabel(db, TEST_SHOP, labelId))?.attention).toBeNull();
    expect((await load(orderId)).page?.fulfillmentOrders[0]?.label?.attention).toBeNull();
  });

  it("sends a shop without an API key to Settings instead of calling the service", async () => {
    const { shopify } = setUp({ apiKey: null });
    const orderId = orderIdOf(shopify, "#1001");
    const section = (await load(orderId)).page?.fulfillmentOrders[0];
    const answer = await post(orderId, {
      intent: "get-rates",
      fulfillmentOrderId: section?.id ?? "",
      request: JSON.stringify(section?.prefill.request),
    });
    expect(answer.status).toBe(302);
    expect(answer.response?.headers.get("Location")).toContain("/app/settings");
  });

  it("answers 400 to a request the page would never send", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const answer = await post(orderIdOf(shopify, "#1001"), { intent: "buy" });
    expect(answer.status).toBe(400);
  });
});

describe("Save to product (customs on the order page)", () => {
  /** A new international order, its declaration's product stripped of its HS code in Shopify. */
  async function orderMissingHsCode(shopify: ReturnType<typeof createShopifyAdminEmulator>) {
    const orderId = String(shopify.createOrder({ kind: "international" }).order.id.split("/").pop());
    const product = (await load(orderId)).page?.fulfillmentOrders[0]?.customsProduct;
    if (!product?.inventoryItemId) throw new Error("no customs product");
    const item = [...shopify.state().variants.values()].find((v) => v.inventoryItem.id === product.inventoryItemId);
    if (!item) throw new Error("no inventory item");
    item.inventoryItem.harmonizedSystemCode = null;
    const section = (await load(orderId)).page?.fulfillmentOrders[0];
    if (!section) throw new Error("no shipment");
    expect(section.prefill.request.customs?.hs_code).toBeUndefined();
    expect(section.prefill.problems).toContainEqual(expect.objectContaining({ code: "HS_CODE_MISSING" }));
    return { orderId, section, item: item.inventoryItem, title: product.title };
  }

  /** Drafts the shipment with the HS code the merchant typed, the box checked or not. */
  async function draftWithHsCode(
    orderId: string,
    section: NonNullable<Awaited<ReturnType<typeof orderMissingHsCode>>["section"]>,
    hsCode: string,
    saveToProduct: "true" | "false",
    /** A draft being edited: the new one replaces it ("redraft"). */
    replacing?: string,
  ) {
    const request = JSON.stringify({
      ...section.prefill.request,
      customs: { ...section.prefill.request.customs, hs_code: hsCode },
    });
    const rates = await post(orderId, { intent: "get-rates", fulfillmentOrderId: section.id, request });
    const rate = (rates.body.rates as Rate[] | undefined)?.[0];
    if (!rate) throw new Error(`no rate: ${JSON.stringify(rates.body)}`);
    return post(orderId, {
      ...(replacing ? { intent: "redraft", labelId: replacing } : { intent: "create-draft" }),
      fulfillmentOrderId: section.id,
      request,
      lineItems: JSON.stringify(section.prefill.lineItems),
      rate: JSON.stringify(rate),
      saveToProduct,
    });
  }

  it("saves a fixed HS code to the product when the label is drafted, and the next order of it is prefilled", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const { orderId, section, item, title } = await orderMissingHsCode(shopify);

    const drafted = await draftWithHsCode(orderId, section, "6110.20", "true");
    expect(drafted.status).toBe(200);
    expect(drafted.body).toMatchObject({
      intent: "create-draft",
      labelId: expect.any(String),
      productSave: { productTitle: title, saved: "the HS code", error: null },
    });
    expect(item.harmonizedSystemCode).toBe("611020");

    // The customer's next order of the same product.
    const nextId = String(shopify.createOrder({ kind: "international" }).order.id.split("/").pop());
    const next = (await load(nextId)).page?.fulfillmentOrders[0];
    expect(next?.prefill.request.customs?.hs_code).toBe("611020");
    expect(next?.prefill.problems).not.toContainEqual(expect.objectContaining({ code: "HS_CODE_MISSING" }));
  });

  it("writes nothing to the product when the box is unchecked", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const { orderId, section, item } = await orderMissingHsCode(shopify);

    const drafted = await draftWithHsCode(orderId, section, "6110.20", "false");
    expect(drafted.status).toBe(200);
    expect(drafted.body).toMatchObject({ labelId: expect.any(String), productSave: null });
    expect(item.harmonizedSystemCode).toBeNull();
  });

  it("does not save to the product for a staff member Shopify does not let edit products, and says so", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const { orderId, section, item, title } = await orderMissingHsCode(shopify);
    // A packer: may fulfil orders, not edit products (no write_inventory in their online token).
    const calls = mockTokenExchange(
      TEST_SHOP,
      "read_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_fulfillments",
    );

    const drafted = await draftWithHsCode(orderId, section, "6110.20", "true");
    expect(drafted.status).toBe(200);
    expect(drafted.body).toMatchObject({
      intent: "create-draft",
      labelId: expect.any(String),
      productSave: { productTitle: title, saved: null, error: expect.stringContaining("not allowed to edit products") },
    });
    expect(item.harmonizedSystemCode).toBeNull();
    expect(calls.filter((c) => c.requestedTokenType.endsWith("online-access-token"))).toHaveLength(1);
  });

  it("saves the fix made while editing a draft, when the new draft replaces it", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const { orderId, section, item } = await orderMissingHsCode(shopify);
    const first = await draftWithHsCode(orderId, section, "6110.20", "false");
    expect(item.harmonizedSystemCode).toBeNull();

    const redrafted = await draftWithHsCode(orderId, section, "6110.30", "true", String(first.body.labelId));
    expect(redrafted.status).toBe(200);
    expect(redrafted.body).toMatchObject({ intent: "redraft", productSave: { saved: "the HS code", error: null } });
    expect(item.harmonizedSystemCode).toBe("611030");
  });

  it("refuses an HS code of the wrong shape at its field: nothing drafted, nothing saved to the product", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const { orderId, section, item } = await orderMissingHsCode(shopify);

    const drafted = await draftWithHsCode(orderId, section, "6110", "true");
    expect(drafted.status).toBe(422);
    expect(JSON.stringify(drafted.body)).toContain("6 to 10 digits");
    expect(JSON.stringify(drafted.body)).toContain("customs.hs_code");
    expect(item.harmonizedSystemCode).toBeNull();
    expect((await load(orderId)).page?.fulfillmentOrders[0]?.label ?? null).toBeNull();
  });
});

describe("what the order page reads again after an action", () => {
  const after = (intent: string, formAction = "/app/orders/1001") => {
    const formData = new FormData();
    formData.set("intent", intent);
    const url = new URL("http://app.test/app/orders/1001");
    return shouldRevalidate({
      currentUrl: url,
      currentParams: {},
      nextUrl: url,
      nextParams: {},
      formMethod: "POST",
      formAction,
      formData,
      defaultShouldRevalidate: true,
    });
  };

  it("does not read the order again for a quote or a Returns action, and does for the rest", () => {
    expect(after("get-rates")).toBe(false);
    expect(after("approve", "/app/orders/1001/returns")).toBe(false);
    for (const intent of ["create-draft", "redraft", "buy", "discard", "void", "validate-address"]) {
      expect(after(intent)).toBe(true);
    }
  });
});
