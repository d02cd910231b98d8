import { createHmac, randomUUID } from "node:crypto";

import { TEST_ENV, TEST_SHOP } from "../setup/test-env";

function base64Url(input: Buffer | string): string {
  return Buffer.from(input).toString("base64url");
}

export type SessionTokenOptions = {
  shop?: string;
  /** The staff member (`sub`); null leaves the claim out. */
  userId?: string | null;
  secret?: string;
  apiKey?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
};

/** A Shopify session token (App Bridge id token): an HS256 JWT signed with the app's secret. */
export function createSessionToken(options: SessionTokenOptions = {}): string {
  const shop = options.shop ?? TEST_SHOP;
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: "HS256", typ: "JWT" };
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: options.apiKey ?? TEST_ENV.SHOPIFY_API_KEY,
    ...(options.userId === null ? {} : { sub: options.userId ?? "42" }),
    exp: now + (options.expiresIn ?? 60),
    nbf: now - 5,
    iat: now - 5,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const unsigned = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(payload))}`;
  const signature = createHmac("sha256", options.secret ?? TEST_ENV.SHOPIFY_API_SECRET)
    .update(unsigned)
    .digest();
  return `${unsigned}.${base64Url(signature)}`;
}

/** A request as App Bridge sends it from the embedded admin: the session token as a Bearer header. */
export function createAdminRequest(path: string, options: SessionTokenOptions & { token?: string | null } = {}) {
  const url = new URL(path, TEST_ENV.SHOPIFY_APP_URL);
  const headers = new Headers();
  const token = options.token === undefined ? createSessionToken(options) : options.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  return new Request(url, { headers });
}

/** The `host` query parameter the admin adds to embedded URLs: base64 of the shop's admin address. */
export function createHostParam(shop: string = TEST_SHOP): string {
  return Buffer.from(`admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`).toString("base64");
}

export type DocumentRequestOptions = { shop?: string; idToken?: string | null };

/**
 * A page load inside the admin iframe: no Authorization header; shop, host and embedded=1 in the
 * query, plus the session token as `id_token` unless `idToken` is null.
 */
export function createDocumentRequest(path: string, options: DocumentRequestOptions = {}): Request {
  const shop = options.shop ?? TEST_SHOP;
  const url = new URL(path, TEST_ENV.SHOPIFY_APP_URL);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", createHostParam(shop));
  const idToken = options.idToken === undefined ? createSessionToken({ shop }) : options.idToken;
  if (idToken) url.searchParams.set("id_token", idToken);
  return new Request(url);
}

/** A signature no secret produced: a delivery carrying it must be refused with 401. */
export const BAD_WEBHOOK_HMAC = "bm90LXRoZS1zaWduYXR1cmU=";

export function signWebhookBody(body: string, secret: string = TEST_ENV.SHOPIFY_API_SECRET): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

export type WebhookRequestOptions = {
  topic: string;
  path: string;
  payload: unknown;
  shop?: string;
  /** X-Shopify-Webhook-Id; a fresh one per request unless given. */
  webhookId?: string;
  /** X-Shopify-Event-Id, the same on every delivery of one event; defaults to the webhook id, null omits it. */
  eventId?: string | null;
  /** X-Shopify-Triggered-At; now unless given. */
  triggeredAt?: Date;
  /** Override the signature, e.g. to send a badly signed request. */
  hmac?: string;
  /** The header names: `X-Shopify-*` (default), or the newer lowercase `shopify-*`. */
  spelling?: "x-shopify" | "shopify";
};

/** A webhook delivery as Shopify sends it: raw JSON body, HMAC-SHA256 of it, the X-Shopify-* headers. */
export function createWebhookRequest(options: WebhookRequestOptions): Request {
  const body = JSON.stringify(options.payload);
  const webhookId = options.webhookId ?? randomUUID();
  const eventId = options.eventId === undefined ? webhookId : options.eventId;
  const name = (suffix: string) =>
    options.spelling === "shopify" ? `shopify-${suffix.toLowerCase()}` : `X-Shopify-${suffix}`;
  const headers = new Headers({
    "Content-Type": "application/json",
    [name("Hmac-Sha256")]: options.hmac ?? signWebhookBody(body),
    [name("Topic")]: options.topic,
    [name("Shop-Domain")]: options.shop ?? TEST_SHOP,
    [name("API-Version")]: "2026-10",
    [name("Webhook-Id")]: webhookId,
    [name("Triggered-At")]: (options.triggeredAt ?? new Date()).toISOString(),
  });
  if (eventId !== null) headers.set(name("Event-Id"), eventId);
  return new Request(new URL(options.path, TEST_ENV.SHOPIFY_APP_URL), { method: "POST", body, headers });
}
