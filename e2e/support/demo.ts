import { type Browser, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";

import { launchBrowser } from "./browser";

export const demo = () => inject("demo");

/** Puts the store, the shipping service and the app's data back to the demo's seed. */
export async function resetDemo(): Promise<void> {
  const response = await fetch(`${demo().controlUrl}/reset`, { method: "POST" });
  if (response.status !== 204) throw new Error(`demo reset failed: ${response.status} ${await response.text()}`);
}

/** Makes the emulated Shopify fail its next Admin API request. */
export async function failNextShopifyRequest(kind: "THROTTLED" | "SERVICE_UNAVAILABLE"): Promise<void> {
  await fetch(`${demo().controlUrl}/shopify/fail-next/${kind}`, { method: "POST" });
}

/** Sets faults on the emulated shipping service (its own control endpoint). */
export async function setShippingFaults(faults: unknown): Promise<void> {
  const response = await fetch(`${demo().shippingUrl}/__emulator/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`setting shipping faults failed: ${response.status} ${await response.text()}`);
}

/** Opens the emulated admin with the app inside and returns the app's frame once it rendered. */
export async function openApp(page: Page, path = "/app"): Promise<Frame> {
  // The emulated admin opens an app path the way Shopify's does: appended to the app's admin URL
  // (/store/demo-shop/apps/ship-orders/app/labels), not as a query parameter.
  const url = new URL(demo().adminUrl);
  if (path !== "/app" && path !== "/app/") url.pathname = `${url.pathname.replace(/\/$/, "")}${path}`;
  await page.goto(url.toString());
  const handle = await page.waitForSelector("iframe");
  const frame = await handle.contentFrame();
  if (!frame) throw new Error("the admin page has no app frame");
  await frame.waitForLoadState("networkidle");
  // A sidebar click before hydration is lost (App Bridge's listener is not there yet); on a busy
  // machine hydration can end after the network went quiet.
  await frame.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 30_000 });
  return frame;
}

export type ShopifyFulfillment = {
  id: string;
  orderId: string;
  orderName: string | null;
  status: string;
  fulfillmentOrderIds: string[];
  notifyCustomer: boolean;
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
  lineItems: {
    lineItemId: string;
    fulfillmentOrderLineItemId: string;
    title: string;
    sku: string | null;
    quantity: number;
  }[];
  /** What Shopify's admin shows for the shipment: FULFILLED, IN_TRANSIT, DELIVERED… */
  displayStatus: string;
  /** The tracking events (fulfillmentEventCreate), oldest first. */
  events: {
    status: string;
    happenedAt: string;
    message: string | null;
    city: string | null;
    province: string | null;
    zip: string | null;
    country: string | null;
  }[];
};

/** The fulfillments the app created, as the emulated Shopify holds them. */
export async function shopifyFulfillments(orderName?: string): Promise<ShopifyFulfillment[]> {
  const response = await fetch(`${demo().shopifyUrl}/__emulator/fulfillments`);
  if (!response.ok) throw new Error(`reading fulfillments failed: ${response.status}`);
  const { fulfillments } = (await response.json()) as { fulfillments: ShopifyFulfillment[] };
  return orderName ? fulfillments.filter((f) => f.orderName === orderName) : fulfillments;
}

/** A mailing address (order) or assigned location (fulfillment order) as the store holds it. */
type StoreAddress = {
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  countryCode?: string;
  countryCodeV2?: string;
  phone: string | null;
};

export type ShopifyOrder = {
  id: string;
  /** The number in the order's GID: what the app sends the shipping service as `platform_order_id`. */
  numericId: string;
  name: string;
  shippingAddress: StoreAddress | null;
  /** What the customer paid for shipping ("8.95", shop currency). */
  shippingPaid: string;
  fulfillmentOrders: { id: string; status: string; assignedLocation: StoreAddress }[];
};

/** A seeded order as the emulated store holds it (for a test acting outside the app). */
export async function shopifyOrder(name: string): Promise<ShopifyOrder> {
  const response = await fetch(`${demo().controlUrl}/shopify/orders?name=${encodeURIComponent(name)}`);
  if (!response.ok) throw new Error(`reading order ${name} failed: ${response.status}`);
  return (await response.json()) as ShopifyOrder;
}

export type ShopifyWebhookDelivery = {
  eventId: string;
  topic: string;
  url: string;
  attempts: number;
  lastStatus: number | null;
  delivered: boolean;
  pending: boolean;
};

/** The webhooks the emulated Shopify sent the app since the last reset, and how each was answered. */
export async function shopifyWebhookLog(): Promise<{ deliveries: ShopifyWebhookDelivery[] }> {
  const response = await fetch(`${demo().shopifyUrl}/__emulator/webhooks`);
  if (!response.ok) throw new Error(`reading the webhook log failed: ${response.status}`);
  return (await response.json()) as { deliveries: ShopifyWebhookDelivery[] };
}

export type ShippingAccount = {
  balance: string;
  labels_created: number;
  validations_billed: number;
  charges: { label_id: string; amount: string }[];
  refunds: { label_id: string; amount: string }[];
};

/** The demo organization's account at the emulated shipping service: charges, labels created. */
export async function shippingAccount(): Promise<ShippingAccount> {
  const response = await fetch(`${demo().shippingUrl}/__emulator/organizations/org_demo`);
  if (!response.ok) throw new Error(`reading the shipping account failed: ${response.status}`);
  return (await response.json()) as ShippingAccount;
}

/**
 * One Chromium for a test file, started once the demo is back to its seed; closed after the
 * file. Returns a getter, since the browser exists only once beforeAll has run.
 */
export function withDemoBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    await resetDemo();
  });
  afterAll(async () => browser?.close());
  return () => {
    if (!browser) throw new Error("the browser starts in beforeAll");
    return browser;
  };
}
