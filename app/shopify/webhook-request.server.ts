import { createHmac } from "node:crypto";

import { base64SignatureMatches } from "~/utils/signature-match";

// Shopify's webhook authentication for the busy topics (orders, fulfillment orders), without the
// offline session `authenticate.webhook` loads for every delivery: those routes only record the
// delivery and enqueue a job (the worker loads the session), and on a flash sale Shopify sends
// hundreds a second that must each be answered well within its 5 seconds (ADR 10). The check is
// the one `authenticate.webhook` makes before it loads the session: the HMAC-SHA256 of the raw
// body under the app's secret, and Shopify's required headers; the answers are its answers (405
// not a POST, 401 a bad HMAC, 400 anything else missing) and so are the fields handed back (the
// topic as FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE). Two checks are ours on top: the shop must
// be a myshopify.com domain, and a body that is not JSON is a 400 rather than a 500 Shopify
// would retry for two days.
//
// Why not `@shopify/shopify-api`'s `webhooks.validate` (ADR 18 addendum): it imports the secret as
// a WebCrypto key and signs on the thread pool for every delivery, and converts and canonicalises
// the request's headers twice; 0.44 ms of CPU a delivery against 0.03 ms for node:crypto, and about
// a quarter of a web process's CPU at 500 deliveries a second (bench:webhooks), which on two cores
// is the difference between meeting Shopify's timing and not.

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

export type ShopifyWebhookVerifierConfig = {
  /** The app's client secret: Shopify signs every delivery with it. */
  readonly apiSecretKey: string;
};

/** Throws a Response (405, 400 or 401) for a request Shopify did not sign for this app. */
export type VerifyShopifyWebhook = (request: Request) => Promise<ShopifyWebhook>;

// A shop's permanent domain; anything else in the header is not a shop we could act for.
const SHOP_DOMAIN = /^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$/;

const refusal = (status: 400 | 401 | 405) =>
  new Response(undefined, {
    status,
    statusText: { 400: "Bad Request", 401: "Unauthorized", 405: "Method not allowed" }[status],
  });

// Shopify's headers, in the two spellings it delivers: `X-Shopify-*`, and the newer lowercase
// `shopify-*` (shopify-app-js #3028, #3129; `@shopify/shopify-api` 15's ShopifyEventsHeader). As
// the library does, the set is chosen by which HMAC header is present, the newer first, and a
// delivery is read in that one set. Header names are case-insensitive (Headers.get).
const HEADER_SETS = [
  {
    hmac: "shopify-hmac-sha256",
    topic: "shopify-topic",
    domain: "shopify-shop-domain",
    apiVersion: "shopify-api-version",
    webhookId: "shopify-webhook-id",
    eventId: "shopify-event-id",
    triggeredAt: "shopify-triggered-at",
  },
  {
    hmac: "x-shopify-hmac-sha256",
    topic: "x-shopify-topic",
    domain: "x-shopify-shop-domain",
    apiVersion: "x-shopify-api-version",
    webhookId: "x-shopify-webhook-id",
    eventId: "x-shopify-event-id",
    triggeredAt: "x-shopify-triggered-at",
  },
] as const;
type HeaderSet = (typeof HEADER_SETS)[number];

/** The header set this delivery uses, with its HMAC; null when it carries none. */
function findShopifyHeaders(headers: Headers): { names: HeaderSet; hmac: string } | null {
  for (const names of HEADER_SETS) {
    const hmac = headers.get(names.hmac);
    if (hmac) return { names, hmac };
  }
  return null;
}

/** As the library stores a topic: orders/updated → ORDERS_UPDATED. */
const toStoredTopic = (topic: string) => topic.toUpperCase().replace(/[/.]/g, "_");

/**
 * The one check of a Shopify webhook's HMAC, for every webhook route: the canonical base64 of the
 * HMAC-SHA256 of the raw body under the app's secret, and nothing else (no base64url, no missing
 * padding, nothing around it).
 */
export function isSignedByShopify(secret: string, body: Buffer, hmacHeader: string): boolean {
  return base64SignatureMatches(hmacHeader, createHmac("sha256", secret).update(body).digest());
}

export function createShopifyWebhookVerifier(config: ShopifyWebhookVerifierConfig): VerifyShopifyWebhook {
  return async (request) => {
    if (request.method !== "POST") throw refusal(405);
    const found = findShopifyHeaders(request.headers);
    if (!found) throw refusal(400);
    const { names } = found;
    const body = Buffer.from(await request.arrayBuffer());
    if (!isSignedByShopify(config.apiSecretKey, body, found.hmac)) throw refusal(401);
    // The ones a delivery cannot do without (authenticate.webhook's list).
    const topic = request.headers.get(names.topic);
    const domain = request.headers.get(names.domain);
    const apiVersion = request.headers.get(names.apiVersion);
    const webhookId = request.headers.get(names.webhookId);
    if (!topic || !domain || !apiVersion || !webhookId) throw refusal(400);
    if (!SHOP_DOMAIN.test(domain)) throw refusal(400);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      throw refusal(400);
    }
    return {
      shop: domain,
      topic: toStoredTopic(topic),
      apiVersion,
      webhookId,
      eventId: request.headers.get(names.eventId) || undefined,
      triggeredAt: request.headers.get(names.triggeredAt) || undefined,
      payload,
    };
  };
}
