import { createHmac, timingSafeEqual } from "node:crypto";

import { afterEach, describe, expect, it } from "vitest";

import { loadWebhookSubscriptions } from "./app-config";
import { createShopifyAdminEmulator } from "./emulator";
import { createWebhookSender, pickFields, signWebhookBody, type WebhookFetch, type WebhookSender } from "./webhooks";

// Delivery through an in-process fetch: each test sees the requests exactly as an app would.
const SECRET = "app-secret";
const APP_URL = "https://app.example.test";
const SUBSCRIPTIONS = [
  { topics: ["orders/cancelled", "orders/updated"], uri: "/webhooks/orders" },
  { topics: ["fulfillment_orders/order_routing_complete"], uri: "/webhooks/fulfillment_orders" },
];

interface Received {
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that records each request and answers with the next status (200 once they run out). */
function createReceiver(statuses: (number | "network-error" | "hang")[] = []) {
  const received: Received[] = [];
  const fetch: WebhookFetch = async (url, init) => {
    received.push({ url, headers: new Headers(init.headers), body: String(init.body) });
    const next = statuses.shift() ?? 200;
    if (next === "network-error") throw new TypeError("fetch failed: ECONNREFUSED");
    if (next === "hang") {
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    }
    return new Response(null, { status: next });
  };
  return { received, fetch };
}

// What an app does with X-Shopify-Hmac-Sha256: HMAC the raw body with its secret, compare safely.
function verifiesWith(secret: string, request: Received): boolean {
  const expected = createHmac("sha256", secret).update(request.body, "utf8").digest();
  const given = Buffer.from(request.headers.get("X-Shopify-Hmac-Sha256") ?? "", "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const senders: WebhookSender[] = [];
function sender(fetch: WebhookFetch, extra: { attempts?: number; initialDelayMs?: number; timeoutMs?: number } = {}) {
  const created = createWebhookSender({
    shop: "demo-shop.myshopify.com",
    appUrl: `${APP_URL}/`,
    apiSecret: SECRET,
    subscriptions: SUBSCRIPTIONS,
    fetch,
    retry: { attempts: extra.attempts ?? 3, initialDelayMs: extra.initialDelayMs ?? 5 },
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
  });
  senders.push(created);
  return created;
}
afterEach(() => {
  for (const s of senders.splice(0)) s.close();
});

const cancelled = { topic: "orders/cancelled", payload: { id: 5829105001, name: "#1001", note: "café ☕" } };

describe("webhook delivery", () => {
  it("POSTs the JSON body to the subscription's URI with Shopify's headers", async () => {
    const receiver = createReceiver();
    const webhooks = sender(receiver.fetch);
    webhooks.send({ ...cancelled, triggeredAt: "2026-11-22T10:00:00.000Z" });
    await webhooks.whenIdle();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.url).toBe("https://app.example.test/webhooks/orders");
    expect(JSON.parse(request?.body ?? "")).toEqual(cancelled.payload);
    expect(Object.fromEntries(request?.headers ?? [])).toMatchObject({
      "content-type": "application/json",
      "x-shopify-topic": "orders/cancelled",
      "x-shopify-shop-domain": "demo-shop.myshopify.com",
      "x-shopify-api-version": "2026-10",
      "x-shopify-triggered-at": "2026-11-22T10:00:00.000Z",
      "x-shopify-webhook-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
      "x-shopify-event-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(webhooks.log()).toEqual([
      expect.objectContaining({
        topic: "orders/cancelled",
        attempts: 1,
        lastStatus: 200,
        delivered: true,
        pending: false,
      }),
    ]);
  });

  it("signs the exact raw body: the HMAC verifies with the app's secret and fails with another", async () => {
    const receiver = createReceiver();
    const webhooks = sender(receiver.fetch);
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    const [request] = receiver.received;
    if (!request) throw new Error("nothing delivered");
    expect(request.headers.get("X-Shopify-Hmac-Sha256")).toBe(signWebhookBody(request.body, SECRET));
    expect(verifiesWith(SECRET, request)).toBe(true);
    expect(verifiesWith("another-secret", request)).toBe(false);
    expect(verifiesWith(SECRET, { ...request, body: request.body.replace("#1001", "#1002") })).toBe(false);
  });

  it("sends only subscribed topics", async () => {
    const receiver = createReceiver();
    const webhooks = sender(receiver.fetch);
    expect(webhooks.send({ topic: "orders/create", payload: {} })).toEqual([]);
    webhooks.send({ topic: "fulfillment_orders/order_routing_complete", payload: {} });
    await webhooks.whenIdle();
    expect(receiver.received.map((r) => r.headers.get("X-Shopify-Topic"))).toEqual([
      "fulfillment_orders/order_routing_complete",
    ]);
    expect(webhooks.log().map((d) => d.topic)).toEqual(["fulfillment_orders/order_routing_complete"]);
  });

  it("returns before delivering: the request goes out on a later tick", async () => {
    const receiver = createReceiver();
    const webhooks = sender(receiver.fetch);
    const [delivery] = webhooks.send(cancelled);
    expect(receiver.received).toHaveLength(0);
    expect(delivery).toMatchObject({ pending: true, attempts: 0 });
    await webhooks.whenIdle();
    expect(receiver.received).toHaveLength(1);
  });

  it("retries after a 500 with the same event id and body, a new webhook id, and then succeeds", async () => {
    const receiver = createReceiver([500, "network-error"]);
    const webhooks = sender(receiver.fetch);
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    expect(receiver.received).toHaveLength(3);
    const eventIds = receiver.received.map((r) => r.headers.get("X-Shopify-Event-Id"));
    const webhookIds = receiver.received.map((r) => r.headers.get("X-Shopify-Webhook-Id"));
    expect(new Set(eventIds).size).toBe(1);
    expect(new Set(webhookIds).size).toBe(3);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const [entry] = webhooks.log();
    expect(entry).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null, delivered: true, pending: false });
    expect(entry?.webhookIds).toEqual(webhookIds);
  });

  it("waits longer before each retry (exponential backoff)", async () => {
    const times: number[] = [];
    const receiver = createReceiver([503, 503, 503]);
    const webhooks = sender(
      (url, init) => {
        times.push(performance.now());
        return receiver.fetch(url, init);
      },
      { attempts: 4, initialDelayMs: 40 },
    );
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // 40, 80, 160 ms apart (timers may fire a little late, never early).
    expect(gaps[0]).toBeGreaterThanOrEqual(38);
    expect(gaps[1]).toBeGreaterThanOrEqual(78);
    expect(gaps[2]).toBeGreaterThanOrEqual(158);
  });

  it("gives up after the last try and says why in the log", async () => {
    const receiver = createReceiver([500, 500, 500, 500]);
    const webhooks = sender(receiver.fetch, { attempts: 3 });
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    expect(receiver.received).toHaveLength(3);
    expect(webhooks.log()).toEqual([
      expect.objectContaining({
        attempts: 3,
        lastStatus: 500,
        lastError: "HTTP 500",
        delivered: false,
        pending: false,
      }),
    ]);
  });

  it("counts an app that does not answer in time as a failure and retries", async () => {
    const receiver = createReceiver(["hang"]);
    const webhooks = sender(receiver.fetch, { timeoutMs: 30 });
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    expect(webhooks.log()[0]).toMatchObject({ attempts: 2, delivered: true });
    expect(receiver.received).toHaveLength(2);
  });

  it("redelivers an event as a duplicate: same event id and body, new webhook id", async () => {
    const receiver = createReceiver();
    const webhooks = sender(receiver.fetch);
    const [first] = webhooks.send(cancelled);
    await webhooks.whenIdle();
    const again = webhooks.redeliver(first?.eventId ?? "");
    expect(again).toEqual([expect.objectContaining({ eventId: first?.eventId, redelivery: 1 })]);
    await webhooks.whenIdle();
    const [original, duplicate] = receiver.received;
    expect(duplicate?.headers.get("X-Shopify-Event-Id")).toBe(original?.headers.get("X-Shopify-Event-Id"));
    expect(duplicate?.headers.get("X-Shopify-Webhook-Id")).not.toBe(original?.headers.get("X-Shopify-Webhook-Id"));
    expect(duplicate?.body).toBe(original?.body);
    expect(duplicate?.headers.get("X-Shopify-Hmac-Sha256")).toBe(original?.headers.get("X-Shopify-Hmac-Sha256"));
    expect(webhooks.log().map((d) => d.redelivery)).toEqual([0, 1]);
    expect(webhooks.redeliver("no-such-event")).toBeUndefined();
  });

  it("sends one event to every subscription to its topic, with one event id", async () => {
    const receiver = createReceiver();
    const webhooks = createWebhookSender({
      shop: "demo-shop.myshopify.com",
      appUrl: APP_URL,
      apiSecret: SECRET,
      subscriptions: [
        { topics: ["orders/updated"], uri: "/webhooks/orders" },
        { topics: ["orders/updated"], uri: "https://audit.example.test/hooks" },
      ],
      fetch: receiver.fetch,
    });
    senders.push(webhooks);
    webhooks.send({ topic: "orders/updated", payload: {} });
    await webhooks.whenIdle();
    expect(receiver.received.map((r) => r.url).sort()).toEqual([
      "https://app.example.test/webhooks/orders",
      "https://audit.example.test/hooks",
    ]);
    expect(new Set(receiver.received.map((r) => r.headers.get("X-Shopify-Event-Id"))).size).toBe(1);
  });

  it("sends a subscription with include_fields only those fields, each list element cut the same, signed as sent", async () => {
    const receiver = createReceiver([500]);
    const webhooks = createWebhookSender({
      shop: "demo-shop.myshopify.com",
      appUrl: APP_URL,
      apiSecret: SECRET,
      subscriptions: [
        { topics: ["orders/updated"], uri: "/webhooks/orders", includeFields: ["id", "line_items.sku", "missing"] },
        { topics: ["orders/updated"], uri: "https://audit.example.test/hooks" },
      ],
      fetch: receiver.fetch,
      retry: { attempts: 2, initialDelayMs: 5 },
    });
    senders.push(webhooks);
    const payload = {
      id: 7,
      note: "gift",
      shipping_address: { address1: "1 Rue de la Paix" },
      line_items: [
        { sku: "A", quantity: 1 },
        { sku: "B", quantity: 2 },
      ],
    };
    webhooks.send({ topic: "orders/updated", payload });
    await webhooks.whenIdle();
    const trimmed = receiver.received.filter((r) => r.url === `${APP_URL}/webhooks/orders`);
    const whole = receiver.received.filter((r) => r.url === "https://audit.example.test/hooks");
    // The trimmed body is retried as first sent, and each body carries its own signature.
    expect(trimmed.map((r) => JSON.parse(r.body))).toEqual([
      { id: 7, line_items: [{ sku: "A" }, { sku: "B" }] },
      { id: 7, line_items: [{ sku: "A" }, { sku: "B" }] },
    ]);
    expect(trimmed.every((r) => verifiesWith(SECRET, r))).toBe(true);
    expect(whole.map((r) => JSON.parse(r.body))).toEqual([payload]);
    expect(whole.every((r) => verifiesWith(SECRET, r))).toBe(true);
  });

  it("keeps a whole value when include_fields names it, and what is not an object as it is", () => {
    const payload = { id: 1, shipping_address: { city: "Lyon", zip: "69001" }, tags: ["a"], note: null };
    expect(pickFields(payload, ["shipping_address", "shipping_address.city", "tags.x", "note.y"])).toEqual({
      shipping_address: { city: "Lyon", zip: "69001" },
      tags: ["a"],
      note: null,
    });
    expect(pickFields(payload, [])).toEqual({});
  });

  it("stops pending retries on reset and close, so whenIdle resolves without waiting them out", async () => {
    const receiver = createReceiver([500, 500, 500]);
    const webhooks = sender(receiver.fetch, { attempts: 3, initialDelayMs: 60_000 });
    webhooks.send(cancelled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiver.received).toHaveLength(1);
    webhooks.reset();
    const started = performance.now();
    await webhooks.whenIdle();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(webhooks.log()).toEqual([]);

    webhooks.close();
    webhooks.send(cancelled);
    await webhooks.whenIdle();
    expect(receiver.received).toHaveLength(1);
    expect(webhooks.log()).toEqual([expect.objectContaining({ delivered: false, lastError: "the sender is closed" })]);
  });
});

describe("the emulator's webhooks", () => {
  it("delivers what the store emits, for the subscriptions in shopify.app.toml, signed with the app's secret", async () => {
    const receiver = createReceiver();
    const emulator = createShopifyAdminEmulator({
      webhooks: {
        appUrl: APP_URL,
        apiSecret: SECRET,
        subscriptions: loadWebhookSubscriptions(),
        fetch: receiver.fetch,
      },
    });
    try {
      const { fulfillmentOrders } = emulator.createOrder();
      expect(receiver.received).toHaveLength(0);
      await emulator.flushWebhooks();
      // orders/create is emitted but the app does not subscribe to it.
      expect(emulator.webhookEvents().map((e) => e.topic)).toEqual([
        "orders/create",
        "fulfillment_orders/order_routing_complete",
      ]);
      expect(receiver.received.map((r) => [r.url, r.headers.get("X-Shopify-Topic")])).toEqual([
        [`${APP_URL}/webhooks/fulfillment_orders`, "fulfillment_orders/order_routing_complete"],
      ]);
      const [request] = receiver.received;
      if (!request) throw new Error("nothing delivered");
      expect(verifiesWith(SECRET, request)).toBe(true);
      expect(JSON.parse(request.body)).toEqual({
        fulfillment_order: { id: fulfillmentOrders[0]?.id, status: "open" },
      });
      expect(request.headers.get("X-Shopify-Event-Id")).toBe(emulator.webhookEvents()[1]?.eventId);

      emulator.reset();
      expect(emulator.webhooks?.log()).toEqual([]);
    } finally {
      emulator.close();
    }
  });

  it("delivers an order change with only the include_fields shopify.app.toml lists for it", async () => {
    const receiver = createReceiver();
    const emulator = createShopifyAdminEmulator({
      webhooks: {
        appUrl: APP_URL,
        apiSecret: SECRET,
        subscriptions: loadWebhookSubscriptions(),
        fetch: receiver.fetch,
      },
    });
    try {
      const { order } = emulator.createOrder();
      await emulator.flushWebhooks();
      receiver.received.length = 0;
      emulator.updateShippingAddress(order.id, { address1: "2 Quai Saint-Antoine" });
      await emulator.flushWebhooks();
      const emitted = emulator.webhookEvents().find((e) => e.topic === "orders/updated");
      // The store emits the whole order; the app is sent only what it asked for.
      expect(emitted?.payload).toMatchObject({ shipping_address: expect.any(Object), line_items: expect.any(Array) });
      const [request] = receiver.received;
      if (!request) throw new Error("nothing delivered");
      expect(request.headers.get("X-Shopify-Topic")).toBe("orders/updated");
      expect(verifiesWith(SECRET, request)).toBe(true);
      const body = JSON.parse(request.body) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["admin_graphql_api_id", "id", "updated_at"]);
      expect(body.admin_graphql_api_id).toBe(order.id);
    } finally {
      emulator.close();
    }
  });
});
