import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it, vi } from "vitest";

import type {
  ExtensionBulkPreflightResponse,
  ExtensionBulkStartResponse,
  ExtensionBuyResponse,
  ExtensionErrorBody,
  ExtensionOrderState,
  ExtensionPrintSummary,
  ExtensionRatesResponse,
  ExtensionVoidResponse,
} from "~/extension-api/contract";
import { handleExtensionRequest } from "~/http/extension-request.server";
import { setShippingApiKey } from "~/settings/settings.server";

import { createShippingEmulator, type ShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { countJobs } from "../../test/helpers/jobs";
import {
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../test/helpers/msw";
import { draftOnOrderPage, recordVoidRequests } from "../../test/helpers/order-page-labels";
import { routeArgs } from "../../test/helpers/route-args";
import { createSessionToken } from "../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as preflightAction, loader as preflightLoader } from "./api.extensions.bulk.preflight";
import { action as runsAction } from "./api.extensions.bulk.runs";
import { action as voidAction, loader as voidLoader } from "./api.extensions.labels.$labelId.void";
import { action as labelAction, loader as labelLoader } from "./api.extensions.orders.$orderId.label";
import { action as ratesAction, loader as ratesLoader } from "./api.extensions.orders.$orderId.rates";
import { loader as pdfLoader } from "./api.extensions.print.pdf";
import { loader as summaryLoader } from "./api.extensions.print.summary";

// The admin extensions' API, called as an extension calls it: cross-origin from Shopify's
// extensions origin, with the admin's session token as a bearer, against both emulators.

setupMockServer();

const ORIGIN = "https://extensions.shopifycdn.com";
const OTHER_SHOP = "other-shop.myshopify.com";
const DEMO_ORG = "org_demo";

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response>;

function setUp(options: { apiKey?: string | null } = {}) {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  const ready =
    options.apiKey === null ? Promise.resolve() : setShippingApiKey(db, TEST_SHOP, options.apiKey ?? "sk_live_demo");
  return { shopify, shipping, ready };
}

function extensionRequest(
  path: string,
  options: { method?: string; body?: unknown; shop?: string; token?: string | null; secret?: string } = {},
): Request {
  const headers = new Headers({ Origin: ORIGIN });
  const token =
    options.token === undefined
      ? createSessionToken({ shop: options.shop ?? TEST_SHOP, ...(options.secret ? { secret: options.secret } : {}) })
      : options.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  return new Request(new URL(path, TEST_ENV.SHOPIFY_APP_URL), {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

async function call<T>(handler: Handler, request: Request, params: Record<string, string> = {}) {
  const response = await handler(routeArgs(request, params));
  const type = response.headers.get("Content-Type") ?? "";
  const body = type.includes("json") ? ((await response.json()) as T & ExtensionErrorBody) : null;
  return { status: response.status, headers: response.headers, body, response };
}

const legacyIdOf = (shopify: ShopifyAdminEmulator, name: string) => {
  const id = shopify.findOrderByName(name)?.id.split("/").pop();
  if (!id) throw new Error(`no order ${name}`);
  return id;
};

const loadOrder = (orderId: string, shop = TEST_SHOP) =>
  call<ExtensionOrderState>(labelLoader, extensionRequest(`/api/extensions/orders/${orderId}/label`, { shop }), {
    orderId,
  });

const quote = (orderId: string, fulfillmentOrderId: string) =>
  call<ExtensionRatesResponse>(
    ratesAction,
    extensionRequest(`/api/extensions/orders/${orderId}/rates`, { body: { fulfillmentOrderId } }),
    { orderId },
  );

const buy = (orderId: string, body: unknown, shop = TEST_SHOP) =>
  call<ExtensionBuyResponse>(labelAction, extensionRequest(`/api/extensions/orders/${orderId}/label`, { body, shop }), {
    orderId,
  });

const charges = (shipping: ShippingEmulator) => shipping.charges(DEMO_ORG).length;

/** Loads the order and quotes its shipment: the buy request for the cheapest rate. */
async function cheapestBuy(orderId: string) {
  const state = await loadOrder(orderId);
  const fulfillmentOrderId = state.body?.shipment?.fulfillmentOrderId ?? "";
  const rates = await quote(orderId, fulfillmentOrderId);
  const rate = rates.body?.rates[0];
  if (!rate) throw new Error(`no rate: ${JSON.stringify(rates.body)}`);
  return {
    fulfillmentOrderId,
    serviceCode: rate.serviceCode,
    expectedCents: rate.price.cents,
    currency: rate.price.currency,
  };
}

function expectCors(headers: Headers) {
  expect(headers.get("Access-Control-Allow-Origin")).toBe("*");
  expect(headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
}

describe("the extensions' API: authentication and CORS", () => {
  it("answers the browser's preflight OPTIONS with 204 and CORS headers, before any token", async () => {
    setUp();
    for (const [handler, path] of [
      [labelLoader, "/api/extensions/orders/1/label"],
      [ratesLoader, "/api/extensions/orders/1/rates"],
      [preflightLoader, "/api/extensions/bulk/preflight"],
      [summaryLoader, "/api/extensions/print/summary"],
    ] as const) {
      const response = await (handler as Handler)(
        routeArgs(extensionRequest(path, { method: "OPTIONS", token: null }), { orderId: "1" }),
      );
      expect(response.status, path).toBe(204);
      expectCors(response.headers);
    }
  });

  it("refuses a request without a token, or with one another app signed, with 401 and CORS, changing nothing", async () => {
    const { shipping, ready } = setUp();
    await ready;
    const missing = await call(
      labelAction,
      extensionRequest("/api/extensions/orders/1/label", { body: {}, token: null }),
      {
        orderId: "1",
      },
    );
    expect(missing.status).toBe(401);
    expect(missing.body?.error.code).toBe("NOT_AUTHENTICATED");
    expectCors(missing.headers);
    const forged = await call(
      labelLoader,
      extensionRequest("/api/extensions/orders/1/label", { secret: "not-our-secret" }),
      {
        orderId: "1",
      },
    );
    expect(forged.status).toBe(401);
    expectCors(forged.headers);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });
});

describe("Create label (order page action)", () => {
  it("shows a ready domestic order's shipment prefilled, with no problems and no label", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const state = await loadOrder(orderId);
    expect(state.status).toBe(200);
    expectCors(state.headers);
    expect(state.body).toMatchObject({
      order: { name: "#1001", legacyId: orderId },
      appUrl: `app:app/orders/${orderId}`,
      nothingToShip: null,
      setupProblem: null,
      shipment: { problems: [], label: null, customs: null },
    });
    expect(state.body?.shipment?.shipTo.lines.length).toBeGreaterThan(1);
    expect(state.body?.shipment?.boxes).toHaveLength(1);
  });

  it("lists an international order's blocking problems with the field and shows its customs", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const state = await loadOrder(legacyIdOf(shopify, "#1007"));
    expect(state.body?.shipment?.problems).toContainEqual(expect.objectContaining({ path: "customs.tax_id" }));
    expect(state.body?.shipment?.customs).toMatchObject({ contentsType: expect.any(String) });
  });

  it("quotes cheapest first, buys at the confirmed amount once, and shows the bought label instead of a second", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const request = await cheapestBuy(orderId);
    const rates = (await quote(orderId, request.fulfillmentOrderId)).body?.rates ?? [];
    expect(rates.map((r) => r.price.cents)).toEqual([...rates.map((r) => r.price.cents)].sort((a, b) => a - b));

    const bought = await buy(orderId, request);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expectCors(bought.headers);
    expect(bought.body?.label).toMatchObject({
      state: "bought",
      price: { cents: request.expectedCents },
      printable: true,
    });
    expect(bought.body?.label.trackingNumbers.length).toBeGreaterThan(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([expect.objectContaining({ amountCents: request.expectedCents })]);

    const again = await buy(orderId, request);
    expect(again.status).toBe(409);
    expect(again.body?.error.code).toBe("ALREADY_LABELLED");
    expect(again.body?.label?.id).toBe(bought.body?.label.id);
    expect((await loadOrder(orderId)).body?.shipment?.label).toMatchObject({
      id: bought.body?.label.id,
      state: "bought",
    });
    expect(charges(shipping)).toBe(1);
  });

  it("charges once when the merchant clicks buy twice at the same moment", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1002");
    const request = await cheapestBuy(orderId);
    const answers = await Promise.all([buy(orderId, request), buy(orderId, request)]);
    // Which click wins is a race: the other learns the label is bought before its purchase
    // (409 ALREADY_LABELLED) or from the purchase itself, which hands back the label the first
    // click bought (200, on PostgreSQL's real concurrency). Either way: one label, one charge.
    const statuses = answers.map((a) => a.status).sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const labelIds = answers.map((a) => (a.status === 200 ? a.body?.label.id : a.body?.label?.id));
    expect(new Set(labelIds).size, JSON.stringify(answers.map((a) => a.body))).toBe(1);
    expect(labelIds[0]).toBeTruthy();
    expect(charges(shipping)).toBe(1);
  });

  it("buys nothing when the price differs from the confirmed amount, and says the new price", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const request = await cheapestBuy(orderId);
    const refused = await buy(orderId, { ...request, expectedCents: request.expectedCents - 1 });
    expect(refused.status).toBe(409);
    expect(refused.body?.error.code).toBe("PRICE_CHANGED");
    expect(refused.body?.rate).toMatchObject({
      serviceCode: request.serviceCode,
      price: { cents: request.expectedCents },
    });
    expect(charges(shipping)).toBe(0);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("refuses a shipment with blocking problems with 422 and its problems, and a body missing a field with 400 naming it", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1007");
    const fulfillmentOrderId = (await loadOrder(orderId)).body?.shipment?.fulfillmentOrderId ?? "";
    const blocked = await buy(orderId, {
      fulfillmentOrderId,
      serviceCode: "svc_x",
      expectedCents: 100,
      currency: "USD",
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body?.error.code).toBe("PREFLIGHT_BLOCKED");
    expect(blocked.body?.problems).toContainEqual(expect.objectContaining({ path: "customs.tax_id" }));
    const incomplete = await buy(orderId, { fulfillmentOrderId, serviceCode: "svc_x", currency: "USD" });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body?.error.fields).toEqual([expect.objectContaining({ path: "expectedCents" })]);
    const notJson = await call(
      labelAction,
      new Request(new URL(`/api/extensions/orders/${orderId}/label`, TEST_ENV.SHOPIFY_APP_URL), {
        method: "POST",
        headers: { Authorization: `Bearer ${createSessionToken()}`, Origin: ORIGIN },
        body: "{",
      }),
      { orderId },
    );
    expect(notJson.status).toBe(400);
    expect(notJson.body?.error.fields).toEqual([expect.objectContaining({ path: "body" })]);
    expect(charges(shipping)).toBe(0);
  });

  it("says what to do when the shop has no API key, and quotes nothing", async () => {
    const { shopify, ready } = setUp({ apiKey: null });
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const state = await loadOrder(orderId);
    expect(state.body?.setupProblem).toMatch(/API key/);
    const rates = await quote(orderId, state.body?.shipment?.fulfillmentOrderId ?? "");
    expect(rates.status).toBe(422);
    expect(rates.body?.error.code).toBe("SETUP_REQUIRED");
  });
});

describe("another shop's token", () => {
  it("finds nothing of this shop's orders or labels, and buys nothing", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    // An order only this shop's store has, with a bought label.
    const { order } = shopify.createOrder({ kind: "domestic" });
    const orderId = order.id.split("/").pop() ?? "";
    const request = await cheapestBuy(orderId);
    expect((await buy(orderId, request)).status).toBe(200);

    mockTokenExchange(OTHER_SHOP);
    routeAdminToEmulator(createShopifyAdminEmulator({ shop: OTHER_SHOP }), OTHER_SHOP);
    await setShippingApiKey(db, OTHER_SHOP, "sk_live_demo");
    expect((await loadOrder(orderId, OTHER_SHOP)).status).toBe(404);
    const theirs = await buy(orderId, request, OTHER_SHOP);
    expect(theirs.status).toBe(404);
    const summary = await call<ExtensionPrintSummary>(
      summaryLoader,
      extensionRequest(`/api/extensions/print/summary?orderIds=${order.id}`, { shop: OTHER_SHOP }),
    );
    expect(summary.body).toMatchObject({ printable: [], pdfPath: null });
    const pdf = await call(
      pdfLoader,
      extensionRequest(`/api/extensions/print/pdf?orders=${orderId}`, { shop: OTHER_SHOP }),
    );
    expect(pdf.status).toBe(422);
    expect(charges(shipping)).toBe(1);
  });
});

describe("Create labels (order list selection action)", () => {
  it("counts the selection's ready shipments and lists those to fix, without calling the shipping service", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const ids = ["#1001", "#1002", "#1007"].map((name) => shopify.findOrderByName(name)?.id ?? "");
    const summary = await call<ExtensionBulkPreflightResponse>(
      preflightAction,
      extensionRequest("/api/extensions/bulk/preflight", { body: { orderIds: ids } }),
    );
    expect(summary.status).toBe(200);
    expectCors(summary.headers);
    expect(summary.body?.ready).toBe(2);
    expect(summary.body?.needsFixing).toEqual([
      expect.objectContaining({ orderName: "#1007", appUrl: `app:app/orders/${legacyIdOf(shopify, "#1007")}` }),
    ]);
    expect(summary.body?.needsFixing[0]?.problems.length).toBeGreaterThan(0);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("says the shop must add its API key before counting anything ready", async () => {
    const { shopify, ready } = setUp({ apiKey: null });
    await ready;
    const summary = await call(
      preflightAction,
      extensionRequest("/api/extensions/bulk/preflight", {
        body: { orderIds: [shopify.findOrderByName("#1001")?.id] },
      }),
    );
    expect(summary.status).toBe(422);
    expect(summary.body?.error.code).toBe("SETUP_REQUIRED");
  });

  it("starts a bulk run with the shop's rules and answers where its review opens; a bad id is 400 naming orderIds", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const ids = ["#1001", "#1002"].map((name) => shopify.findOrderByName(name)?.id ?? "");
    const started = await call<ExtensionBulkStartResponse>(
      runsAction,
      extensionRequest("/api/extensions/bulk/runs", { body: { orderIds: ids } }),
    );
    expect(started.status).toBe(200);
    const runId = started.body?.runId ?? "";
    expect(started.body?.reviewUrl).toBe(`app:app/bulk/${runId}`);
    const run = await db.bulkRun.findFirst({ where: { id: runId, shop: TEST_SHOP } });
    expect(run).toMatchObject({ status: "checking", createdBy: "42" });
    expect(JSON.parse(run?.choice ?? "{}")).toEqual({ mode: "rules" });
    expect(await countJobs(db, { shop: TEST_SHOP, name: "bulk-check" })).toBe(2);

    const bad = await call(runsAction, extensionRequest("/api/extensions/bulk/runs", { body: { orderIds: ["nope"] } }));
    expect(bad.status).toBe(400);
    expect(bad.body?.error.fields).toEqual([expect.objectContaining({ path: "orderIds" })]);
  });
});

describe("Shipping label (print menu)", () => {
  it("prints the orders' bought PDF labels as one PDF, a page per box, and says which are ZPL", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const pdfOrder = legacyIdOf(shopify, "#1001");
    expect((await buy(pdfOrder, await cheapestBuy(pdfOrder))).status).toBe(200);
    await db.shopSettings.update({ where: { shop: TEST_SHOP }, data: { labelFormat: "zpl" } });
    const zplOrder = legacyIdOf(shopify, "#1002");
    expect((await buy(zplOrder, await cheapestBuy(zplOrder))).status).toBe(200);
    const none = legacyIdOf(shopify, "#1003");

    const summary = await call<ExtensionPrintSummary>(
      summaryLoader,
      extensionRequest(`/api/extensions/print/summary?orderIds=${[pdfOrder, zplOrder, none].join(",")}`),
    );
    expect(summary.status).toBe(200);
    expectCors(summary.headers);
    expect(summary.body?.printable.map((p) => p.orderName)).toEqual(["#1001"]);
    expect(summary.body?.zplOnly).toEqual([
      expect.objectContaining({ orderName: "#1002", howTo: expect.stringMatching(/ZPL/) }),
    ]);
    expect(summary.body?.withoutLabel).toHaveLength(1);
    // A gap in the list is a malformed request (found by the fuzz suite), not fewer orders.
    for (const ids of [`,${pdfOrder}`, `${pdfOrder},,${zplOrder}`, `${pdfOrder},`]) {
      const gap = await call(summaryLoader, extensionRequest(`/api/extensions/print/summary?orderIds=${ids}`));
      expect(gap.status, ids).toBe(400);
    }
    const pdfPath = summary.body?.pdfPath ?? "";
    expect(pdfPath).toMatch(/^\/api\/extensions\/print\/pdf\?orders=/);

    const pdf = await pdfLoader(routeArgs(extensionRequest(pdfPath)));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expectCors(pdf.headers);
    const document = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(document.getPageCount()).toBe(1);
    // The ZPL label is not sent to the PDF at all: the summary already told the merchant where it is.
    expect(pdf.headers.get("X-Labels-Skipped")).toBe("0");
  });
});

describe("an unexpected failure", () => {
  it("still answers with CORS headers and a message with a reference, so the extension can say what happened", async () => {
    setUp();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await handleExtensionRequest(extensionRequest("/api/extensions/orders/1/label"), async () => {
      throw new Error("database is on fire");
    });
    expect(answer.status).toBe(500);
    expectCors(answer.headers);
    const body = (await answer.json()) as ExtensionErrorBody;
    expect(body.error.message).toMatch(/Reference: ERR-/);
    expect(body.error.message).not.toMatch(/on fire/);
    expect(errors).toHaveBeenCalled();
  });
});

describe("Create label on a shipment that changed or is one of several", () => {
  it("does not buy a draft whose order's address changed after it was made, and says so", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    // A draft made the way the order page makes one: quote, then draft (free).
    const request = await cheapestBuy(orderId);
    await db.shopSettings.update({ where: { shop: TEST_SHOP }, data: { labelFormat: "pdf" } });
    const { createDraftForOrderPage, loadOrderLabelPage, quoteForOrderPage } =
      await import("~/routes/app.orders.$orderId/order-label-page.server");
    const { createTestShippingClient } = await import("../../test/helpers/labels");
    const page = await loadOrderLabelPage(
      { db, shop: TEST_SHOP, admin: shopify.graphql },
      `gid://shopify/Order/${orderId}` as never,
    );
    if (!page.ok) throw new Error("no page");
    const section = page.value.fulfillmentOrders[0];
    if (!section) throw new Error("no shipment");
    const client = createTestShippingClient(shipping);
    const deps = { db, shop: TEST_SHOP, admin: shopify.graphql, shipping: client, staffMemberId: "42" };
    // Quoted as the page quotes (kept server-side), so the draft is made at that quote.
    const quote = await quoteForOrderPage(deps, { orderGid: page.value.order.id, request: section.prefill.request });
    const rate = quote.ok ? quote.value.rates.find((r) => r.service_code === request.serviceCode) : undefined;
    if (!rate) throw new Error("no rate");
    const drafted = await createDraftForOrderPage(deps, {
      orderGid: page.value.order.id,
      fulfillmentOrderId: section.id,
      request: section.prefill.request,
      lineItems: section.prefill.lineItems,
      rate,
    });
    expect(drafted.ok).toBe(true);

    shopify.updateShippingAddress(orderId, { address1: "350 Fifth Avenue", zip: "10118", city: "New York" });
    const refused = await buy(orderId, request);
    expect(refused.status).toBe(422);
    expect(refused.body?.error.message).toMatch(/address changed after this draft was made\. Nothing was bought/);
    expect(charges(shipping)).toBe(0);
  });

  it("offers a split order's second shipment once its first has a label, and its selection says it once", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1016");
    const first = await cheapestBuy(orderId);
    expect((await buy(orderId, first)).status).toBe(200);
    const state = await loadOrder(orderId);
    expect(state.body?.shipment?.fulfillmentOrderId).not.toBe(first.fulfillmentOrderId);
    expect(state.body?.shipment?.label).toBeNull();

    expect((await buy(orderId, await cheapestBuy(orderId))).status).toBe(200);
    const summary = await call<ExtensionBulkPreflightResponse>(
      preflightAction,
      extensionRequest("/api/extensions/bulk/preflight", { body: { orderIds: [`gid://shopify/Order/${orderId}`] } }),
    );
    expect(summary.body).toEqual({
      ready: 0,
      needsFixing: [],
      leftOut: [{ orderName: "#1016", reason: "Nothing left to ship by carrier on this order." }],
    });
  });
});

describe("Void label (order page action)", () => {
  const voidLabel = (labelId: string, shop = TEST_SHOP) =>
    call<ExtensionVoidResponse>(
      voidAction,
      extensionRequest(`/api/extensions/labels/${labelId}/void`, { method: "POST", shop }),
      { labelId },
    );

  it("voids the shown bought label once: its refund pending, the shipment open for a replacement", async () => {
    const { shopify, shipping, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const request = await cheapestBuy(orderId);
    const bought = (await buy(orderId, request)).body?.label;
    expect(bought).toMatchObject({ state: "bought", canVoid: true, refund: null });
    const voids = recordVoidRequests();

    const voided = await voidLabel(bought?.id ?? "");
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expectCors(voided.headers);
    expect(voided.body?.label).toMatchObject({
      id: bought?.id,
      state: "voided",
      canVoid: false,
      refund: { status: "pending", amount: { cents: request.expectedCents, currency: request.currency } },
    });
    // Asked again (a second click): the same answer, one void at the service.
    expect((await voidLabel(bought?.id ?? "")).body?.label.refund?.status).toBe("pending");
    const serviceLabelId = (await db.label.findUniqueOrThrow({ where: { id: bought?.id ?? "" } })).serviceLabelId;
    expect(voids).toEqual([serviceLabelId]);
    // The shipment has no label now: the extension offers a replacement.
    expect((await loadOrder(orderId)).body?.shipment?.label).toBeNull();
    expect(shopify.fulfillments().filter((f) => f.status === "SUCCESS")).toEqual([]);
    expect(shipping.refunds(DEMO_ORG)).toEqual([]);
  });

  it("refuses a draft with 409 NOT_VOIDABLE and another shop's label as not found, sending nothing", async () => {
    const { shopify, ready } = setUp();
    await ready;
    const orderId = legacyIdOf(shopify, "#1001");
    const bought = (await buy(orderId, await cheapestBuy(orderId))).body?.label;
    const draftId = await draftOnOrderPage(shopify, "#1002");
    const voids = recordVoidRequests();

    const draft = await voidLabel(draftId);
    expect(draft.status).toBe(409);
    expect(draft.body?.error).toMatchObject({ code: "NOT_VOIDABLE", message: expect.stringMatching(/discard/i) });

    mockTokenExchange(OTHER_SHOP);
    routeAdminToEmulator(createShopifyAdminEmulator({ shop: OTHER_SHOP }), OTHER_SHOP);
    await setShippingApiKey(db, OTHER_SHOP, "sk_live_demo");
    const theirs = await voidLabel(bought?.id ?? "", OTHER_SHOP);
    const madeUp = await voidLabel("cm0000000000000000000000", OTHER_SHOP);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(madeUp.body);
    expect(voids).toEqual([]);
    expect((await db.label.findUniqueOrThrow({ where: { id: bought?.id ?? "" } })).status).toBe("fulfilled");
  });

  it("answers GET (the browser's preflight route) 405 and a malformed id 400, sending nothing", async () => {
    const { ready } = setUp();
    await ready;
    const voids = recordVoidRequests();
    expect((await call(voidLoader, extensionRequest("/api/extensions/labels/x/void"))).status).toBe(405);
    expect((await voidLabel("not a label!")).status).toBe(400);
    expect(voids).toEqual([]);
  });
});
