import { describe, expect, it } from "vitest";

import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "~/shopify/ids";

import type { ShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { setupMockServer } from "../../../test/helpers/msw";
import { setUpShop } from "../../../test/helpers/order-page-labels";
import { messageOf, postOrderForm, priceOf, quoteOrderPage } from "../../../test/helpers/order-page-rates";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { action as returnsAction } from "../app.orders.$orderId.returns/route";

// Issue 40: the price a merchant confirms is the service's own answer as the server received it.
// A post whose rate was edited (amount, ship date) or whose options differ from the quote is
// refused with the real price, and nothing is drafted or charged: counted at the emulator.

setupMockServer();
const DEMO_ORG = "org_demo";
const INSURED_ADULT = { insurance: { amount: "250.00", currency: "USD" }, signature: "adult" } as const;

/** #1001's page, its dearest rate, and the page's create-draft post for a rate. */
async function orderPage(shopify: ShopifyAdminEmulator, options?: LabelRequestInput["options"]) {
  const page = await quoteOrderPage(shopify, options);
  const rate = page.rates[0];
  if (!rate) throw new Error("no rate for #1001");
  const draft = (posted: { request?: LabelRequestInput; rate: Rate }) =>
    postOrderForm(page.path, { intent: "create-draft", ...page.fields(posted) });
  return { ...page, rate, draft };
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("the order page's create-draft confirms the server's own quote", () => {
  it("refuses an insured, adult-signature rate posted at 1.00, names the real price, and drafts nothing", async () => {
    const { shopify, shipping } = await setUpShop();
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
    const { shopify, shipping } = await setUpShop();
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
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const refused = await page.draft({ request: { ...page.request, options: INSURED_ADULT }, rate: page.rate });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/options changed/);
    expect(messageOf(refused)).toMatch(/get rates again/);
    expect(messageOf(refused)).not.toMatch(/expired/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("refuses options dropped after the rates were quoted, saying the options changed, and drafts nothing", async () => {
    const { shopify, shipping } = await setUpShop();
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
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const refused = await page.draft({ rate: { ...page.rate, rate_id: "rate_forged" } });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/get rates again/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("confirms an insured, adult-signature label at the price it is then charged, to the cent", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify, INSURED_ADULT);
    const drafted = await page.draft({ rate: page.rate });
    expect(drafted.status).toBe(200);
    const labelId = String(drafted.body.labelId);
    const confirmed = (await db.label.findFirst({ where: { shop: TEST_SHOP, id: labelId } }))?.quotedCents;
    expect(confirmed).toBe(parseAmountCents(page.rate.amount));
    const bought = await postOrderForm(page.path, { intent: "buy", labelId, notifyCustomer: "false" });
    expect(bought.status).toBe(200);
    expect(shipping.charges(DEMO_ORG).map((c) => c.amountCents)).toEqual([confirmed]);
    expect(bought.body.label).toMatchObject({ chargeMismatch: false });
  });

  it("refuses a redraft posted at a forged price, keeps the draft as it was, and drafts nothing more", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify, INSURED_ADULT);
    const drafted = await page.draft({ rate: page.rate });
    const labelId = String(drafted.body.labelId);
    const refused = await postOrderForm(page.path, {
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
    const emulators = await setUpShop();
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
    await postOrderForm(path, { intent: "approve", returnId }, returnsAction);
    const rates = await postOrderForm(path, { intent: "get-rates", returnId, weight: "" }, returnsAction);
    const [rate] = [...(rates.body.rates as Rate[])].sort((a, b) => Number(a.amount) - Number(b.amount));
    if (!rate) throw new Error("no rate for the return");
    const buy = (posted: Rate) =>
      postOrderForm(
        path,
        {
          intent: "buy",
          returnId,
          weight: "",
          rate: JSON.stringify(posted),
          notifyCustomer: "false",
        },
        returnsAction,
      );
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
