import { describe, expect, it } from "vitest";

import { setShippingApiKey } from "~/settings/settings.server";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "~/shopify/ids";
import { formatMinorUnits } from "~/utils/money";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { callRoute, createAdminFormRequest } from "../../test/helpers/admin-form-requests";
import {
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../test/helpers/msw";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as orderAction, loader as orderLoader } from "./app.orders.$orderId";
import { action as returnsAction } from "./app.orders.$orderId.returns";

// Issue 40: the price a merchant confirms is the service's own answer as the server received it.
// A post whose rate was edited (amount, ship date) or whose options differ from the quote is
// refused with the real price, and nothing is drafted or charged: counted at the emulator.

setupMockServer();
const DEMO_ORG = "org_demo";
const INSURED_ADULT = { insurance: { amount: "250.00", currency: "USD" }, signature: "adult" } as const;

async function setUp() {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
  return { shopify, shipping };
}

type Post = { status: number; body: Record<string, unknown> };

type Action = (args: never) => Promise<unknown>;

async function post(path: string, handler: Action, fields: Record<string, string>): Promise<Post> {
  const orderId = path.split("/")[3] ?? "";
  const result = await callRoute(handler, createAdminFormRequest(path, fields), { orderId });
  if (result instanceof Response) return { status: result.status, body: (await result.json()) as Post["body"] };
  return { status: 200, body: result as Post["body"] };
}

const messageOf = (answer: Post) => String((answer.body.error as { message?: string } | undefined)?.message);
const priceOf = (rate: Rate) => formatMinorUnits(parseAmountCents(rate.amount), rate.currency);

/** #1001's page, its first shipment, and rates for it as the page asks (with `options`, if any). */
async function orderPage(shopify: Awaited<ReturnType<typeof setUp>>["shopify"], options?: LabelRequestInput["options"]) {
  const orderId = shopify.findOrderByName("#1001")?.id.split("/").pop() ?? "";
  const path = `/app/orders/${orderId}`;
  const loaded = await orderLoader({ request: createAdminRequest(path), params: { orderId }, context: {} });
  await Promise.allSettled(Object.values(loaded.quotes));
  const section = loaded.page?.fulfillmentOrders[0];
  if (!section) throw new Error("no shipment on #1001");
  const request: LabelRequestInput = options ? { ...section.prefill.request, options } : section.prefill.request;
  const quoted = await post(path, orderAction, {
    intent: "get-rates",
    fulfillmentOrderId: section.id,
    request: JSON.stringify(request),
  });
  expect(quoted.status).toBe(200);
  const rates = [...(quoted.body.rates as Rate[])].sort((a, b) => Number(b.amount) - Number(a.amount));
  const rate = rates[0];
  if (!rate) throw new Error("no rate for #1001");
  const draft = (fields: { request?: LabelRequestInput; rate: Rate }) =>
    post(path, orderAction, {
      intent: "create-draft",
      fulfillmentOrderId: section.id,
      request: JSON.stringify(fields.request ?? request),
      lineItems: JSON.stringify(section.prefill.lineItems),
      rate: JSON.stringify(fields.rate),
    });
  return { orderId, path, section, request, rate, draft };
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("the order page's create-draft confirms the server's own quote", () => {
  it("refuses an insured, adult-signature rate posted at 1.00, names the real price, and drafts nothing", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify, INSURED_ADULT);
    const refused = await page.draft({ rate: { ...page.rate, amount: "1.00" } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "QUOTE_MISMATCH" });
    expect(messageOf(refused)).toContain(priceOf(page.rate));
    expect(messageOf(refused)).toMatch(/Nothing was drafted/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
    expect(await db.label.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });

  it("refuses a rate whose ship date was changed in the post, names the real price, and drafts nothing", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify);
    const later = nextDay(page.rate.ship_date);
    // The date changed on the rate and on the request alike, so the two agree with each other.
    const refused = await page.draft({
      request: { ...page.request, ship_date: later },
      rate: { ...page.rate, ship_date: later },
    });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toContain(priceOf(page.rate));
    expect(messageOf(refused)).toContain(page.rate.ship_date);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("refuses options added after the rates were quoted, saying the options changed, and drafts nothing", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify);
    const refused = await page.draft({ request: { ...page.request, options: INSURED_ADULT }, rate: page.rate });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/options changed/);
    expect(messageOf(refused)).toMatch(/get rates again/);
    expect(messageOf(refused)).not.toMatch(/expired/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("refuses options dropped after the rates were quoted, saying the options changed, and drafts nothing", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify, INSURED_ADULT);
    const plain: LabelRequestInput = { ...page.request };
    delete plain.options;
    const refused = await page.draft({ request: plain, rate: page.rate });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/options changed/);
    expect(messageOf(refused)).toContain(priceOf(page.rate));
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("refuses a rate id the server never quoted for this shop, and drafts nothing", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify);
    const refused = await page.draft({ rate: { ...page.rate, rate_id: "rate_forged" } });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/get rates again/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("confirms an insured, adult-signature label at the price it is then charged, to the cent", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify, INSURED_ADULT);
    const drafted = await page.draft({ rate: page.rate });
    expect(drafted.status).toBe(200);
    const labelId = String(drafted.body.labelId);
    const confirmed = (await db.label.findFirst({ where: { shop: TEST_SHOP, id: labelId } }))?.quotedCents;
    expect(confirmed).toBe(parseAmountCents(page.rate.amount));
    const bought = await post(page.path, orderAction, { intent: "buy", labelId, notifyCustomer: "false" });
    expect(bought.status).toBe(200);
    expect(shipping.charges(DEMO_ORG).map((c) => c.amountCents)).toEqual([confirmed]);
    expect(bought.body.label).toMatchObject({ chargeMismatch: false });
  });

  it("refuses a redraft posted at a forged price, keeps the draft as it was, and drafts nothing more", async () => {
    const { shopify, shipping } = await setUp();
    const page = await orderPage(shopify, INSURED_ADULT);
    const drafted = await page.draft({ rate: page.rate });
    const labelId = String(drafted.body.labelId);
    const refused = await post(page.path, orderAction, {
      intent: "redraft",
      labelId,
      fulfillmentOrderId: page.section.id,
      request: JSON.stringify(page.request),
      lineItems: JSON.stringify(page.section.prefill.lineItems),
      rate: JSON.stringify({ ...page.rate, amount: "1.00" }),
    });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toContain(priceOf(page.rate));
    expect((await db.label.findFirst({ where: { shop: TEST_SHOP, id: labelId } }))?.status).toBe("draft");
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });
});

describe("the return label's buy confirms the server's own quote", () => {
  async function approvedReturn() {
    const emulators = await setUp();
    // #1003 (Montréal) shipped in full, then the customer sends it back.
    const order = emulators.shopify.findOrderByName("#1003");
    const fo = order?.fulfillmentOrders[0];
    if (!order || !fo) throw new Error("no #1003");
    const shipped = await createFulfillmentWithTracking(emulators.shopify.graphql, {
      fulfillmentOrderId: fo.id as FulfillmentOrderGid,
      lineItems: fo.lineItems.map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.totalQuantity })),
      tracking: { company: "UPS", numbers: ["1Z999AA10123456784"], urls: [] },
      notifyCustomer: false,
    });
    if (!shipped.ok) throw new Error(shipped.error.logMessage);
    const returnId = emulators.shopify.requestReturn(order.id, { reason: "SIZE_TOO_SMALL" }).id;
    const path = `/app/orders/${order.id.split("/").pop() ?? ""}/returns`;
    await post(path, returnsAction, { intent: "approve", returnId });
    const rates = await post(path, returnsAction, { intent: "get-rates", returnId, weight: "" });
    const [rate] = [...(rates.body.rates as Rate[])].sort((a, b) => Number(a.amount) - Number(b.amount));
    if (!rate) throw new Error("no rate for the return");
    const buy = (posted: Rate) =>
      post(path, returnsAction, { intent: "buy", returnId, weight: "", rate: JSON.stringify(posted), notifyCustomer: "false" });
    return { ...emulators, rate, buy };
  }

  it("refuses a return label posted at a forged price, names the real price, and charges nothing", async () => {
    const { shipping, rate, buy } = await approvedReturn();
    const refused = await buy({ ...rate, amount: "1.00" });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toContain(priceOf(rate));
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("refuses a return label whose ship date was changed in the post, and charges nothing", async () => {
    const { shipping, rate, buy } = await approvedReturn();
    const refused = await buy({ ...rate, ship_date: nextDay(rate.ship_date) });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toContain(priceOf(rate));
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("charges a return label exactly the price the merchant confirmed", async () => {
    const { shipping, rate, buy } = await approvedReturn();
    const bought = await buy(rate);
    expect(bought.status).toBe(200);
    expect(shipping.charges(DEMO_ORG).map((c) => c.amountCents)).toEqual([parseAmountCents(rate.amount)]);
    expect(bought.body.label).toMatchObject({ quotedCents: parseAmountCents(rate.amount), chargeMismatch: false });
  });
});
