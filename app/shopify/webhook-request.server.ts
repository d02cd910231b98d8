import { createHmac, timingSafeEqual } from "node:crypto";

// Shopify's webhook authentication for the busy topics (orders, fulfillment orders), without the
// offline session `authenticate.webhook` loads for every delivery: those routes only record the
// delivery and enqueue a job (the worker loads the session), and on a flash sale Shopify sends
// hundreds a second that must each be answered well within its 5 seconds. The check is Shopify's:
// the base64 HMAC-SHA256 of the raw body, keyed with the app's secret, in X-Shopify-Hmac-Sha256;
// the answers are authenticate.webhook's (405 not a POST, 400 a header missing, 401 a bad HMAC),
// and so are the fields handed back (the topic as FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE).

export type ShopifyWebhook = {
  readonly shop: string;
  readonly topic: string;
  readonly apiVersion: string;
  readonly webhookId: string;
  /** The same on every delivery of one event; older deliveries may not carry it. */
  readonly eventId: string | undefined;
  readonly triggeredAt: string | undefined;
  readonly payload: unknown;
};

const REQUIRED = {
  hmac: "X-Shopify-Hmac-Sha256",
  topic: "X-Shopify-Topic",
  shop: "X-Shopify-Shop-Domain",
  apiVersion: "X-Shopify-API-Version",
  webhookId: "X-Shopify-Webhook-Id",
} as const;

// A shop's permanent domain; anything else in the header is not a shop we could act for.
const SHOP_DOMAIN = /^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$/;

export function signShopifyWebhook(rawBody: string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

/** Throws a Response (405, 400 or 401) for a request Shopify did not sign for this app. */
export async function verifyShopifyWebhook(request: Request, apiSecret: string): Promise<ShopifyWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405, statusText: "Method not allowed" });
  const rawBody = await request.text();
  const header = (name: string) => request.headers.get(name) ?? "";
  const [hmac, topic, shop, apiVersion, webhookId] = [
    header(REQUIRED.hmac),
    header(REQUIRED.topic),
    header(REQUIRED.shop),
    header(REQUIRED.apiVersion),
    header(REQUIRED.webhookId),
  ];
  if (!hmac || !topic || !shop || !apiVersion || !webhookId) {
    throw new Response(undefined, { status: 400, statusText: "Bad Request" });
  }
  const expected = Buffer.from(signShopifyWebhook(rawBody, apiSecret), "base64");
  const given = Buffer.from(hmac, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Response(undefined, { status: 401, statusText: "Unauthorized" });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new Response(undefined, { status: 400, statusText: "Bad Request" });
  }
  if (!SHOP_DOMAIN.test(shop)) throw new Response(undefined, { status: 400, statusText: "Bad Request" });
  return {
    shop,
    topic: topic.toUpperCase().replace(/[/.]/g, "_"),
    apiVersion,
    webhookId,
    eventId: request.headers.get("X-Shopify-Event-Id") || undefined,
    triggeredAt: request.headers.get("X-Shopify-Triggered-At") || undefined,
    payload,
  };
}
