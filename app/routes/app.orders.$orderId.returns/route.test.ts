import { describe, expect, it } from "vitest";

import { setShippingApiKey } from "~/settings/settings.server";
import type { Rate } from "~/shipping/schemas";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "~/shopify/ids";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import {
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../../test/helpers/msw";
import { routeArgs } from "../../../test/helpers/route-args";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { action, loader, shouldRevalidate } from "./route";

// The order page's Returns section, through signed requests against both emulators: what it
// lists, approving a request, and a return label bought once and attached to the return.

setupMockServer();
const DEMO_ORG = "org_demo";

async function setUp() {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
  // #1003 (Montréal) shipped in full, then the customer asks to send it back.
  const order = shopify.findOrderByName("#1003");
  const fo = order?.fulfillmentOrders[0];
  if (!order || !fo) throw new Error("no #1003");
  const shipped = await createFulfillmentWithTracking(shopify.graphql, {
    fulfillmentOrderId: fo.id as FulfillmentOrderGid,
    lineItems: fo.lineItems.map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.totalQuantity })),
    tracking: { company: "UPS", numbers: ["1Z999AA10123456784"], urls: [] },
    notifyCustomer: false,
  });
  if (!shipped.ok) throw new Error(shipped.error.logMessage);
  const ret = shopify.requestReturn(order.id, { reason: "SIZE_TOO_SMALL" });
  const orderId = order.id.split("/").pop() ?? "";
  return { shopify, shipping, orderId, returnId: ret.id };
}

async function load(orderId: string) {
  return loader(routeArgs(createAdminRequest(`/app/orders/${orderId}/returns`), { orderId }));
}

async function post(orderId: string, fields: Record<string, string>) {
  const path = `/app/orders/${orderId}/returns`;
  const result = await callRoute(action, createAdminFormRequest(path, fields), { orderId });
  if (result instanceof Response)
    return { status: result.status, body: (await result.json()) as Record<string, unknown> };
  return { status: 200, body: result as Record<string, unknown> };
}

describe("/app/orders/:orderId/returns", () => {
  it("lists a requested return to approve, then offers its label turned around, with customs as returned goods", async () => {
    const { orderId, returnId } = await setUp();
    const before = await load(orderId);
    expect(before.view?.returns).toEqual([
      expect.objectContaining({ id: returnId, status: "REQUESTED", canApprove: true, canCreateLabel: false }),
    ]);

    const approved = await post(orderId, { intent: "approve", returnId });
    expect(approved).toEqual({ status: 200, body: { intent: "approve", status: "OPEN" } });

    const after = await load(orderId);
    const [section] = after.view?.returns ?? [];
    expect(section).toMatchObject({ status: "OPEN", canApprove: false, canCreateLabel: true, label: null });
    expect(section?.prefill).toMatchObject({ international: true, weight: expect.any(Number) });
    expect(section?.prefill?.from).toContain("CA");
    expect(section?.prefill?.to).toContain("US");
  });

  it("costs an order without returns only the returns' own read, not the order's again", async () => {
    const { shopify } = await setUp();
    const order = shopify.findOrderByName("#1001");
    const orderId = order?.id.split("/").pop() ?? "";
    const before = shopify.queryCostSpent();
    const loaded = await load(orderId);
    expect(loaded).toEqual({ view: expect.objectContaining({ returns: [] }), problem: null });
    // The order with its line items and fulfillment orders, and the shop, come to 60 points and
    // more; the returns alone to a few.
    expect(shopify.queryCostSpent() - before).toBeLessThan(10);
  });

  it("is read again after its own actions only, not after the label page's or its polling", () => {
    const args = (formAction?: string) =>
      ({ formAction, defaultShouldRevalidate: true }) as Parameters<typeof shouldRevalidate>[0];
    expect(shouldRevalidate(args("/app/orders/1001/returns"))).toBe(true);
    expect(shouldRevalidate(args("/app/orders/1001"))).toBe(false);
    expect(shouldRevalidate(args(undefined))).toBe(false);
  });

  it("answers 404 for an order Shopify does not have", async () => {
    await setUp();
    await expect(load("999999")).rejects.toMatchObject({ status: 404 });
  });

  it("buys the return label once and Shopify holds it on the return; a second click buys nothing more", async () => {
    const { shopify, shipping, orderId, returnId } = await setUp();
    await post(orderId, { intent: "approve", returnId });
    const rates = await post(orderId, { intent: "get-rates", returnId, weight: "" });
    expect(rates.status).toBe(200);
    const [rate] = [...(rates.body.rates as Rate[])].sort((a, b) => Number(a.amount) - Number(b.amount));
    if (!rate) throw new Error("no rate");
    const buy = { intent: "buy", returnId, weight: "", rate: JSON.stringify(rate), notifyCustomer: "true" };
    const bought = await post(orderId, buy);
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ intent: "buy", writeBackError: null, label: { status: "fulfilled" } });
    const again = await post(orderId, buy);
    expect(again.status).toBe(200);

    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
    const deliveries = shopify
      .returns()
      .filter(({ ret }) => ret.id === returnId)
      .flatMap(({ ret }) => ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.reverseDeliveries));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.tracking?.number).toBeTruthy();
    const listed = await load(orderId);
    expect(listed.view?.returns[0]).toMatchObject({ canCreateLabel: false, label: { status: "fulfilled" } });
  });

  it("refuses a weight that is not a number above 0, naming the field, and buys nothing", async () => {
    const { shipping, orderId, returnId } = await setUp();
    await post(orderId, { intent: "approve", returnId });
    const refused = await post(orderId, { intent: "get-rates", returnId, weight: "-3" });
    expect(refused).toMatchObject({ status: 400, body: { error: { fields: ["weight"] } } });
    expect(String((refused.body.error as { message: string }).message)).toMatch(/weight/);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("refuses to buy for a staff member Shopify does not let fulfil orders, and charges nothing", async () => {
    const { shipping, orderId, returnId } = await setUp();
    await post(orderId, { intent: "approve", returnId });
    const rates = await post(orderId, { intent: "get-rates", returnId, weight: "" });
    const [rate] = rates.body.rates as Rate[];
    mockTokenExchange(TEST_SHOP, "read_orders");
    const refused = await post(orderId, {
      intent: "buy",
      returnId,
      weight: "",
      rate: JSON.stringify(rate),
      notifyCustomer: "false",
    });
    expect(refused.status).toBe(403);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });
});
