// Labels bought as a merchant buys them, through the order page's loader and action with signed
// requests against both emulators, for the tests of the screens that act on bought labels.
import { expect, onTestFinished } from "vitest";

import db from "~/db.server";
import { action as orderAction, loader as orderLoader } from "~/routes/app.orders.$orderId/route";
import { setShippingApiKey } from "~/settings/settings.server";

import { createShippingEmulator, type ShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { TEST_ENV, TEST_SHOP } from "../setup/test-env";
import { callRoute, createAdminFormRequest } from "./admin-form-requests";
import { mockTokenExchange, routeAdminToEmulator, routeShippingToEmulator, server } from "./msw";
import { createAdminRequest } from "./shopify-requests";

export const DEMO_KEY = "sk_live_demo";

/** Both emulators for TEST_SHOP, its shipping key saved, Shopify's token exchange answered. */
export async function setUpShop(): Promise<{ shopify: ShopifyAdminEmulator; shipping: ShippingEmulator }> {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  await setShippingApiKey(db, TEST_SHOP, DEMO_KEY);
  return { shopify, shipping };
}

export function orderIdOf(shopify: ShopifyAdminEmulator, name: string): string {
  const id = shopify.findOrderByName(name)?.id.split("/").pop();
  if (!id) throw new Error(`no order ${name}`);
  return id;
}

async function post(orderId: string, fields: Record<string, string>) {
  const answer = await callRoute(orderAction, createAdminFormRequest(`/app/orders/${orderId}`, fields), { orderId });
  const body = (answer instanceof Response ? await answer.json() : answer) as Record<string, unknown>;
  expect(answer instanceof Response ? answer.status : 200, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
}

/** The order's first shipment drafted at its cheapest rate on the order page; its label id. */
export async function draftOnOrderPage(shopify: ShopifyAdminEmulator, name: string): Promise<string> {
  const orderId = orderIdOf(shopify, name);
  const page = (await callRoute(orderLoader, createAdminRequest(`/app/orders/${orderId}`), { orderId })) as Awaited<
    ReturnType<typeof orderLoader>
  >;
  // The quote the page streams ends inside this test, not against the next one's handlers.
  await Promise.allSettled(Object.values(page.quotes));
  const section = page.page?.fulfillmentOrders[0];
  if (!section) throw new Error(`${name} has no shipment`);
  const request = JSON.stringify(section.prefill.request);
  const quoted = await post(orderId, { intent: "get-rates", fulfillmentOrderId: section.id, request });
  const rate = (quoted.rates as unknown[])[0];
  const draft = await post(orderId, {
    intent: "create-draft",
    fulfillmentOrderId: section.id,
    request,
    lineItems: JSON.stringify(section.prefill.lineItems),
    rate: JSON.stringify(rate),
  });
  return String(draft.labelId);
}

/** Drafts and buys the order's first shipment on the order page; its label id. */
export async function buyOnOrderPage(shopify: ShopifyAdminEmulator, name: string): Promise<string> {
  const labelId = await draftOnOrderPage(shopify, name);
  await post(orderIdOf(shopify, name), { intent: "buy", labelId, notifyCustomer: "false" });
  return labelId;
}

/** The service's label ids the app asked to void while the test ran (`POST /v1/labels/{id}/void`). */
export function recordVoidRequests(): string[] {
  const voids: string[] = [];
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const match = /^\/v1\/labels\/([^/]+)\/void$/.exec(url.pathname);
    if (request.method === "POST" && url.origin === new URL(TEST_ENV.SHIPPING_API_BASE_URL).origin && match?.[1]) {
      voids.push(match[1]);
    }
  };
  server.events.on("request:start", listener);
  onTestFinished(() => {
    server.events.removeListener("request:start", listener);
  });
  return voids;
}

/** The label as the shipping service holds it: its status (`void_pending`, …) and refund. */
export async function readServiceLabel(shipping: ShippingEmulator, serviceLabelId: string) {
  const response = await shipping.fetch(`${TEST_ENV.SHIPPING_API_BASE_URL}/v1/labels/${serviceLabelId}`, {
    headers: { Authorization: `Bearer ${DEMO_KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; refund: { status: string; amount: string } | null };
}
