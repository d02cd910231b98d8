// The library's runtime adapter for web Requests: `webhooks.validate` reads headers through it.
import "@shopify/shopify-api/adapters/web-api";

import { type ApiVersion, type LogSeverity, shopifyApi, WebhookValidationErrorReason } from "@shopify/shopify-api";

// Shopify's webhook authentication for the busy topics (orders, fulfillment orders), without the
// offline session `authenticate.webhook` loads for every delivery: those routes only record the
// delivery and enqueue a job (the worker loads the session), and on a flash sale Shopify sends
// hundreds a second that must each be answered well within its 5 seconds (ADR 10). The check is
// the library's own `webhooks.validate`, the one `authenticate.webhook` calls before it loads the
// session (ADR 18): the HMAC of the raw body and Shopify's required headers. The answers are
// authenticate.webhook's (405 not a POST, 401 a bad HMAC, 400 anything else missing), and so are
// the fields handed back (the topic as FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE). Two checks are
// ours on top: the shop must be a myshopify.com domain, and a body that is not JSON is a 400
// rather than the SyntaxError (a 500 Shopify retries for two days) the library would throw.

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
  readonly apiKey: string;
  readonly apiSecretKey: string;
  readonly apiVersion: ApiVersion;
  readonly appUrl: string;
  readonly logLevel: LogSeverity;
  /** Where the library's lines go, as shopifyApp()'s (`logShopifyLibraryLine`); its console when absent. */
  readonly log?: (severity: LogSeverity, message: string) => void;
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

// The library files every header of the request under a canonical name once per header it adds,
// and again for each one it looks up: time quadratic in the header count, about 1 ms a delivery
// with the 17 headers a delivery arrives with behind a load balancer (a fifth of a webhook's
// CPU in bench:webhooks). It reads only Shopify's own headers, so it is handed those alone.
function withShopifyHeadersOnly(request: Request): Request {
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (name.startsWith("x-shopify-") || name.startsWith("shopify-")) headers.append(name, value);
  });
  return new Request(request.url, { method: request.method, headers });
}

export function createShopifyWebhookVerifier(config: ShopifyWebhookVerifierConfig): VerifyShopifyWebhook {
  // shopifyApp() keeps its own shopifyApi instance private, so the app's secret and version get a
  // second, session-less one here; nothing but `webhooks.validate` is used from it.
  const api = shopifyApi({
    apiKey: config.apiKey,
    apiSecretKey: config.apiSecretKey,
    apiVersion: config.apiVersion,
    hostName: new URL(config.appUrl).host,
    isEmbeddedApp: true,
    logger: { level: config.logLevel, ...(config.log ? { log: config.log } : {}) },
    // As shopifyApp() builds its own: the future flags are the Remix package's to report.
    _logDisabledFutureFlags: false,
  });
  return async (request) => {
    if (request.method !== "POST") throw refusal(405);
    const rawBody = await request.text();
    const check = await api.webhooks.validate({ rawBody, rawRequest: withShopifyHeadersOnly(request) });
    if (!check.valid) throw refusal(check.reason === WebhookValidationErrorReason.InvalidHmac ? 401 : 400);
    if (!SHOP_DOMAIN.test(check.domain)) throw refusal(400);
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody);
    } catch {
      throw refusal(400);
    }
    return {
      shop: check.domain,
      topic: check.topic,
      apiVersion: check.apiVersion,
      webhookId: check.webhookId,
      eventId: ("eventId" in check ? check.eventId : undefined) || undefined,
      triggeredAt: check.triggeredAt || undefined,
      payload,
    };
  };
}
