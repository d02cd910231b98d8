import { describe, expect, it, vi } from "vitest";

import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";

import type { ShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { mockTokenExchange, setupMockServer } from "../../../test/helpers/msw";
import { setUpShop } from "../../../test/helpers/order-page-labels";
import { messageOf, postOrderForm, priceOf, quoteOrderPage } from "../../../test/helpers/order-page-rates";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { shouldRevalidate } from "./route";

// Issue 40, item 7: "Buy" on a rate drafts and buys in one step, at the server's own quote for
// that rate (ADR 27), exactly once (ADR 5). Charges, drafts and fulfillments are counted at the
// emulators.

setupMockServer();
const DEMO_ORG = "org_demo";
const INSURED_ADULT = { insurance: { amount: "250.00", currency: "USD" }, signature: "adult" } as const;

/** #1001's page, its two dearest rates, and the page's Buy and create-draft posts for a rate. */
async function orderPage(shopify: ShopifyAdminEmulator, options?: LabelRequestInput["options"]) {
  const page = await quoteOrderPage(shopify, options);
  const [rate, other] = page.rates;
  if (!rate || !other) throw new Error("fewer than two rates for #1001");
  const buyRate = (posted: { rate: Rate; request?: LabelRequestInput }) =>
    postOrderForm(page.path, { intent: "buy-rate", ...page.fields(posted), notifyCustomer: "true" });
  const draft = (posted: { rate: Rate }) =>
    postOrderForm(page.path, { intent: "create-draft", ...page.fields(posted) });
  return { ...page, rate, other, buyRate, draft };
}

describe("Buy on a rate of the order page", () => {
  it("drafts and buys in one post at the quoted price, to the cent, and writes the tracking to Shopify", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify, INSURED_ADULT);
    const bought = await page.buyRate({ rate: page.rate });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({
      intent: "buy-rate",
      writeBackError: null,
      label: { status: "fulfilled", quotedCents: parseAmountCents(page.rate.amount), chargeMismatch: false },
    });
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG).map((c) => c.amountCents)).toEqual([parseAmountCents(page.rate.amount)]);
    expect(shopify.fulfillments()).toHaveLength(1);
  });

  it("charges once for a double click: two posts at once make one draft and one charge", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const [first, second] = await Promise.all([page.buyRate({ rate: page.rate }), page.buyRate({ rate: page.rate })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((first.body.label as { id: string }).id).toBe((second.body.label as { id: string }).id);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(shopify.fulfillments()).toHaveLength(1);
  });

  it("answers a retried post with the label already bought and charges nothing more", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const bought = await page.buyRate({ rate: page.rate });
    expect(bought.status).toBe(200);
    const retried = await page.buyRate({ rate: page.rate });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      label: { id: (bought.body.label as { id: string }).id, status: "fulfilled" },
    });
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(shopify.fulfillments()).toHaveLength(1);
  });

  it("buys the draft the merchant chose for the same rate, without drafting again", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const drafted = await page.draft({ rate: page.rate });
    expect(drafted.status).toBe(200);
    const bought = await page.buyRate({ rate: page.rate });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ label: { id: drafted.body.labelId, status: "fulfilled" } });
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG).map((c) => c.amountCents)).toEqual([parseAmountCents(page.rate.amount)]);
  });

  it("buys nothing when a draft of another rate holds the shipment, and says so", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    const drafted = await page.draft({ rate: page.other });
    expect(drafted.status).toBe(200);
    // A state the page did not show, answered (and logged) as the app's other label conflicts are.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = await page.buyRate({ rate: page.rate });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(messageOf(refused)).toMatch(/another label meanwhile.*Nothing was bought/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
    expect((await db.label.findFirst({ where: { shop: TEST_SHOP, id: String(drafted.body.labelId) } }))?.status).toBe(
      "draft",
    );
  });

  it("refuses a rate posted at a forged price, names the real price, and drafts and charges nothing", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify, INSURED_ADULT);
    const refused = await page.buyRate({ rate: { ...page.rate, amount: "1.00" } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "QUOTE_MISMATCH" });
    expect(messageOf(refused)).toContain(priceOf(page.rate));
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
    expect(await db.label.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });

  it("refuses options dropped after the rates were quoted, and drafts and charges nothing", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify, INSURED_ADULT);
    const plain: LabelRequestInput = { ...page.request };
    delete plain.options;
    const refused = await page.buyRate({ rate: page.rate, request: plain });
    expect(refused.status).toBe(422);
    expect(messageOf(refused)).toMatch(/options changed/);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("refuses a staff member Shopify does not let fulfil orders before anything is drafted", async () => {
    const { shopify, shipping } = await setUpShop();
    const page = await orderPage(shopify);
    mockTokenExchange(TEST_SHOP, "read_orders");
    const refused = await page.buyRate({ rate: page.rate });
    expect(refused.status).toBe(403);
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("reads the order again after a buy, so the page shows the bought label", () => {
    const formData = new FormData();
    formData.set("intent", "buy-rate");
    const url = new URL("http://app.test/app/orders/1001");
    expect(
      shouldRevalidate({
        currentUrl: url,
        currentParams: {},
        nextUrl: url,
        nextParams: {},
        formMethod: "POST",
        formAction: "/app/orders/1001",
        formData,
        defaultShouldRevalidate: true,
      }),
    ).toBe(true);
  });
});
