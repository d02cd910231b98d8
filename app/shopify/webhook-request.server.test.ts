import { createHmac } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  BAD_WEBHOOK_HMAC,
  createWebhookRequest,
  signWebhookBody,
  type WebhookRequestOptions,
} from "../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../test/setup/test-env";
import { createShopifyWebhookVerifier, isSignedByShopify } from "./webhook-request.server";

const verifyShopifyWebhook = createShopifyWebhookVerifier({ apiSecretKey: TEST_ENV.SHOPIFY_API_SECRET });
const payload = { fulfillment_order: { id: "gid://shopify/FulfillmentOrder/1", status: "open" } };
/** An orders/updated delivery, signed with the app's secret unless `hmac` says otherwise. */
const orderDelivery = (options: Partial<WebhookRequestOptions> = {}) =>
  createWebhookRequest({ topic: "orders/updated", path: "/webhooks/orders", payload, ...options });

async function refusal(request: Request): Promise<number> {
  const thrown = await verifyShopifyWebhook(request).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(thrown instanceof Response)) throw new Error(`expected a Response to be thrown, got ${String(thrown)}`);
  return thrown.status;
}

describe("createShopifyWebhookVerifier", () => {
  it("hands back the delivery's shop, topic in storage form, ids and parsed body", async () => {
    const request = createWebhookRequest({
      topic: "fulfillment_orders/order_routing_complete",
      path: "/webhooks/fulfillment_orders",
      payload,
      webhookId: "wh-1",
      eventId: "ev-1",
    });
    const webhook = await verifyShopifyWebhook(request);
    expect(webhook).toMatchObject({
      shop: TEST_SHOP,
      topic: "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE",
      apiVersion: "2026-10",
      webhookId: "wh-1",
      eventId: "ev-1",
      payload,
    });
  });

  it("leaves the event id out when Shopify sent none", async () => {
    const request = orderDelivery({ eventId: null });
    expect((await verifyShopifyWebhook(request)).eventId).toBeUndefined();
  });

  it("refuses a body signed with another secret, or changed after signing, with 401", async () => {
    const forged = orderDelivery({ hmac: BAD_WEBHOOK_HMAC });
    expect(await refusal(forged)).toBe(401);
    const signed = orderDelivery();
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: JSON.stringify({ ...payload, extra: 1 }),
    });
    expect(await refusal(tampered)).toBe(401);
  });

  it("accepts only the canonical base64 of the right MAC", () => {
    const body = Buffer.from(JSON.stringify(payload));
    const right = createHmac("sha256", TEST_ENV.SHOPIFY_API_SECRET).update(body).digest();
    const signed = (header: string) => isSignedByShopify(TEST_ENV.SHOPIFY_API_SECRET, body, header);
    expect(signed(right.toString("base64"))).toBe(true);
    for (const sloppy of [
      right.toString("base64url"),
      right.toString("base64").replace(/=+$/, ""),
      `${right.toString("base64")}junk`,
      `${right.toString("base64")}=`,
      `!${right.toString("base64")}`,
      ` ${right.toString("base64")}`,
      right.toString("base64").replace(/(.{22})/, "$1\n"),
      right.toString("hex"),
      // The last character's unused bits set: decodes to the same bytes, but is not canonical.
      right.toString("base64").replace(/.(?==$)/, (c) => {
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        return alphabet[alphabet.indexOf(c) ^ 1] ?? c;
      }),
    ]) {
      expect(signed(sloppy), sloppy).toBe(false);
    }
  });

  it("reads Shopify's newer lowercase shopify-* headers as it reads X-Shopify-*", async () => {
    const webhook = await verifyShopifyWebhook(
      orderDelivery({ spelling: "shopify", webhookId: "wh-3", eventId: "ev-3" }),
    );
    expect(webhook).toMatchObject({ shop: TEST_SHOP, topic: "ORDERS_UPDATED", webhookId: "wh-3", eventId: "ev-3" });
    expect(await refusal(orderDelivery({ spelling: "shopify", hmac: BAD_WEBHOOK_HMAC }))).toBe(401);
    // One set per delivery, chosen by its HMAC header: the newer HMAC with only the older topic is incomplete.
    const mixed = orderDelivery({ spelling: "shopify" });
    const headers = new Headers(mixed.headers);
    headers.delete("shopify-topic");
    headers.set("X-Shopify-Topic", "orders/updated");
    expect(await refusal(new Request(mixed.url, { method: "POST", headers, body: await mixed.text() }))).toBe(400);
  });

  it("reads Shopify's headers among the many a load balancer adds, and still checks the signature", async () => {
    const withProxyHeaders = (request: Request) => {
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries({
        Accept: "*/*",
        "Accept-Encoding": "gzip",
        "User-Agent": "Shopify-Captain-Hook",
        "X-Forwarded-For": "203.0.113.7",
        "X-Forwarded-Proto": "https",
        "X-Request-Id": "req-1",
        // Not Shopify's, though it says so: never read as the topic.
        "X-Proxy-Shopify-Topic": "orders/create",
      })) {
        headers.set(name, value);
      }
      return new Request(request.url, { method: "POST", headers, body: request.body, duplex: "half" } as RequestInit);
    };
    const webhook = await verifyShopifyWebhook(withProxyHeaders(orderDelivery({ webhookId: "wh-2" })));
    expect(webhook).toMatchObject({ shop: TEST_SHOP, topic: "ORDERS_UPDATED", webhookId: "wh-2", payload });
    expect(await refusal(withProxyHeaders(orderDelivery({ hmac: BAD_WEBHOOK_HMAC })))).toBe(401);
  });

  it("refuses a delivery missing one of Shopify's headers with 400", async () => {
    for (const name of [
      "X-Shopify-Topic",
      "X-Shopify-Shop-Domain",
      "X-Shopify-API-Version",
      "X-Shopify-Webhook-Id",
      "X-Shopify-Hmac-Sha256",
    ]) {
      const request = orderDelivery();
      const headers = new Headers(request.headers);
      headers.delete(name);
      expect(
        await refusal(new Request(request.url, { method: "POST", headers, body: await request.text() })),
        name,
      ).toBe(400);
    }
  });

  it("refuses a correctly signed body that is empty or not JSON with 400, not a 500 Shopify would retry", async () => {
    for (const body of ["", "not json"]) {
      const request = orderDelivery();
      const headers = new Headers(request.headers);
      headers.set("X-Shopify-Hmac-Sha256", signWebhookBody(body));
      expect(await refusal(new Request(request.url, { method: "POST", headers, body })), JSON.stringify(body)).toBe(
        400,
      );
    }
  });

  it("refuses a shop that is not a myshopify.com domain, and anything but a POST", async () => {
    const foreign = orderDelivery({ shop: "evil.example.com" });
    expect(await refusal(foreign)).toBe(400);
    expect(await refusal(new Request(foreign.url, { method: "GET" }))).toBe(405);
  });
});
