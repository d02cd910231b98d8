import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { loadWebhookSubscriptions } from "./app-config";
import { type ShopifyAdminEmulatorServer, startShopifyAdminEmulatorServer } from "./server";

// The loopback server's control endpoints, over real HTTP, delivering to a small local app that
// records every webhook it receives.
const SECRET = "receiver-secret";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    // The next answers, one per request (200 once they run out).
    answerNext: (...next: number[]) => statuses.push(...next),
    topics: () => received.map((r) => r.headers["x-shopify-topic"]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let running: ShopifyAdminEmulatorServer;

beforeAll(async () => {
  receiver = await startReceiver();
  running = await startShopifyAdminEmulatorServer({
    port: 0,
    webhooks: {
      appUrl: receiver.url,
      apiSecret: SECRET,
      subscriptions: loadWebhookSubscriptions(),
      retry: { attempts: 3, initialDelayMs: 10 },
    },
  });
});
afterAll(async () => {
  await running.close();
  await receiver.close();
});
beforeEach(async () => {
  await fetch(`${running.url}/__emulator/reset`, { method: "POST" });
  receiver.received.length = 0;
});

async function post(path: string, body?: unknown) {
  const response = await fetch(`${running.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function graphql(query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${running.url}/admin/api/2026-10/graphql.json`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return ((await response.json()) as { data: Record<string, any> }).data;
}

const numeric = (gid: string) => gid.split("/").pop() ?? "";
const seededOrder = (name: string) => {
  const order = running.emulator.findOrderByName(name);
  if (!order) throw new Error(`no order ${name}`);
  return order;
};

describe("the Shopify emulator's control endpoints", () => {
  it("places an order, answers its id, name and fulfillment orders, and notifies the app with a signed webhook", async () => {
    const created = await post("/__emulator/orders", { kind: "international" });
    expect(created.status).toBe(201);
    const { order } = created.body;
    expect(order).toMatchObject({ name: "#1023", id: expect.stringMatching(/^gid:\/\/shopify\/Order\/\d+$/) });
    expect(order.fulfillmentOrders).toEqual([
      expect.objectContaining({ status: "OPEN", locationName: "Brooklyn Warehouse" }),
    ]);
    expect(created.body.events).toEqual([
      expect.objectContaining({ topic: "orders/create", urls: [] }),
      expect.objectContaining({
        topic: "fulfillment_orders/order_routing_complete",
        urls: [`${receiver.url}/webhooks/fulfillment_orders`],
      }),
    ]);

    const seen = await graphql("query($id: ID!) { order(id: $id) { name shippingAddress { countryCodeV2 } } }", {
      id: order.id,
    });
    expect(seen.order.name).toBe("#1023");
    expect(seen.order.shippingAddress.countryCodeV2).not.toBe("US");

    await running.emulator.flushWebhooks();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.path).toBe("/webhooks/fulfillment_orders");
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "x-shopify-topic": "fulfillment_orders/order_routing_complete",
      "x-shopify-shop-domain": "demo-shop.myshopify.com",
      "x-shopify-api-version": "2026-10",
      "x-shopify-event-id": created.body.events[1].eventId,
    });
    const hmac = createHmac("sha256", SECRET)
      .update(request?.body ?? "")
      .digest("base64");
    expect(request?.headers["x-shopify-hmac-sha256"]).toBe(hmac);
    expect(JSON.parse(request?.body ?? "")).toEqual({
      fulfillment_order: { id: order.fulfillmentOrders[0].id, status: "open" },
    });
  });

  it("cancels an order and delivers orders/cancelled, orders/updated and fulfillment_orders/cancelled", async () => {
    const order = seededOrder("#1003");
    const answer = await post(`/__emulator/orders/${numeric(order.id)}/cancel`, { reason: "FRAUD" });
    expect(answer.status).toBe(200);
    expect(answer.body.order).toMatchObject({ cancelReason: "FRAUD", fulfillmentOrders: [{ status: "CLOSED" }] });
    await running.emulator.flushWebhooks();
    expect(receiver.topics().sort()).toEqual(["fulfillment_orders/cancelled", "orders/cancelled", "orders/updated"]);
    const cancelled = receiver.received.find((r) => r.headers["x-shopify-topic"] === "orders/cancelled");
    expect(cancelled?.path).toBe("/webhooks/orders");
    // The app subscribes with include_fields (shopify.app.toml): the payload names the order and
    // nothing else; the handler reads the rest from the Admin API.
    expect(JSON.parse(cancelled?.body ?? "")).toEqual({
      admin_graphql_api_id: order.id,
      id: Number(numeric(order.id)),
      updated_at: expect.any(String),
    });
  });

  it("changes a shipping address and delivers orders/updated", async () => {
    const order = seededOrder("#1002");
    const answer = await post(`/__emulator/orders/${numeric(order.id)}/shipping-address`, {
      address1: "500 W 2nd St",
      address2: null,
      zip: "78701",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.order.shippingAddress).toMatchObject({ address1: "500 W 2nd St", address2: null });
    await running.emulator.flushWebhooks();
    expect(receiver.topics()).toEqual(["orders/updated"]);
    const payload = JSON.parse(receiver.received[0]?.body ?? "") as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(["admin_graphql_api_id", "id", "updated_at"]);
    expect(payload.admin_graphql_api_id).toBe(order.id);
    // The new address is what the Admin API now answers for the order.
    expect(answer.body.order.shippingAddress).toMatchObject({ company: "Northwind Design Studio", zip: "78701" });
  });

  it("renames an order's shipping method, keeps what the customer paid, and delivers orders/updated", async () => {
    const order = seededOrder("#1001");
    const paid = order.shippingLine?.originalPriceSet;
    const answer = await post(`/__emulator/orders/${numeric(order.id)}/shipping-line`, {
      title: "USPS Ground Advantage",
    });
    expect(answer.status).toBe(200);
    const stored = running.emulator.state().orders.find((o) => o.id === order.id);
    expect(stored?.shippingLine).toMatchObject({ title: "USPS Ground Advantage", originalPriceSet: paid });
    await running.emulator.flushWebhooks();
    expect(receiver.topics()).toEqual(["orders/updated"]);
    const refused = await post(`/__emulator/orders/${numeric(order.id)}/shipping-line`, { title: " " });
    expect([refused.status, refused.body.error?.code]).toEqual([422, "INVALID"]);
    expect(refused.body.error?.message).toMatch(/^title /);
  });

  it("holds, releases and moves fulfillment orders; only the app's topics reach it", async () => {
    const fo = numeric(seededOrder("#1001").fulfillmentOrders[0]?.id ?? "");
    const held = await post(`/__emulator/fulfillment-orders/${fo}/hold`, { reason: "AWAITING_PAYMENT" });
    expect(held.body.fulfillmentOrder).toMatchObject({ status: "ON_HOLD" });
    const released = await post(`/__emulator/fulfillment-orders/${fo}/release-hold`);
    expect(released.body.fulfillmentOrder).toMatchObject({ status: "OPEN" });
    const reno = running.emulator.state().locations[1]?.id ?? "";
    const moved = await post(`/__emulator/fulfillment-orders/${fo}/move`, { locationId: numeric(reno) });
    expect(moved.status).toBe(200);
    expect(moved.body.originalFulfillmentOrder).toMatchObject({ status: "CLOSED" });
    expect(moved.body.movedFulfillmentOrder).toMatchObject({ status: "OPEN", locationId: reno });

    await running.emulator.flushWebhooks();
    // Every one of them is one of the app's topics (shopify.app.toml), so each reaches it.
    expect(moved.body.events.map((e: { topic: string }) => e.topic)).toEqual(["fulfillment_orders/moved"]);
    expect(receiver.topics().sort()).toEqual([
      "fulfillment_orders/hold_released",
      "fulfillment_orders/moved",
      "fulfillment_orders/placed_on_hold",
    ]);
  });

  it("answers 400, 404, 409 and 422 for bodies, ids and states it cannot act on", async () => {
    const fo = numeric(seededOrder("#1001").fulfillmentOrders[0]?.id ?? "");
    expect((await post("/__emulator/orders", "{not json")).status).toBe(400);
    expect(await post("/__emulator/orders", { kind: "express" })).toMatchObject({
      status: 422,
      body: { error: { code: "INVALID", message: expect.stringMatching(/domestic, international, problem/) } },
    });
    expect((await post("/__emulator/orders/42/cancel")).status).toBe(404);
    expect((await post(`/__emulator/fulfillment-orders/${fo}/release-hold`)).status).toBe(409);
    expect((await post(`/__emulator/fulfillment-orders/${fo}/move`, {})).status).toBe(422);
    expect(running.emulator.webhookEvents()).toEqual([]);
  });

  it("keeps a delivery log, retries a failing app, and redelivers an event with the same event id", async () => {
    receiver.answerNext(500);
    await post("/__emulator/orders", {});
    await running.emulator.flushWebhooks();
    const log = (await (await fetch(`${running.url}/__emulator/webhooks`)).json()) as {
      events: { eventId: string; topic: string }[];
      deliveries: { eventId: string; attempts: number; lastStatus: number; delivered: boolean }[];
    };
    expect(log.events.map((e) => e.topic)).toEqual(["orders/create", "fulfillment_orders/order_routing_complete"]);
    expect(log.deliveries).toEqual([
      expect.objectContaining({ eventId: log.events[1]?.eventId, attempts: 2, lastStatus: 200, delivered: true }),
    ]);

    const eventId = log.events[1]?.eventId ?? "";
    const redelivered = await post(`/__emulator/webhooks/${eventId}/redeliver`);
    expect(redelivered.status).toBe(202);
    await running.emulator.flushWebhooks();
    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((r) => [r.headers["x-shopify-event-id"], r.headers["x-shopify-webhook-id"]]);
    expect(new Set(ids.map(([event]) => event))).toEqual(new Set([eventId]));
    expect(new Set(ids.map(([, webhook]) => webhook)).size).toBe(3);
    expect((await post("/__emulator/webhooks/unknown/redeliver")).status).toBe(404);

    await fetch(`${running.url}/__emulator/reset`, { method: "POST" });
    const afterReset = (await (await fetch(`${running.url}/__emulator/webhooks`)).json()) as Record<string, unknown>;
    expect(afterReset).toMatchObject({ events: [], deliveries: [] });
  });
});

describe("a server for an embedded app", () => {
  it("derives delivery from the app (its URL and secret) and the subscriptions it is given", async () => {
    const app = await startReceiver();
    const server = await startShopifyAdminEmulatorServer({
      port: 0,
      app: { apiKey: "key", apiSecret: "app-secret", scopes: ["read_orders"], appUrl: app.url },
      webhookSubscriptions: loadWebhookSubscriptions(),
    });
    try {
      const page = await (await fetch(server.adminUrl ?? "")).text();
      // The admin chrome's control, outside the app's iframe, posting to this server.
      expect(page).toMatch(/<button type="button" id="new-order">New order<\/button>/);
      expect(page).toMatch(/<label for="new-order-kind">/);
      expect(page).toContain('fetch("/__emulator/orders"');

      const created = await fetch(`${server.url}/__emulator/orders`, { method: "POST" });
      expect(created.status).toBe(201);
      await server.emulator.flushWebhooks();
      expect(app.received.map((r) => r.path)).toEqual(["/webhooks/fulfillment_orders"]);
      const [request] = app.received;
      expect(request?.headers["x-shopify-hmac-sha256"]).toBe(
        createHmac("sha256", "app-secret")
          .update(request?.body ?? "")
          .digest("base64"),
      );
    } finally {
      await server.close();
      await app.close();
    }
  });

  it("records events but delivers nothing without subscriptions", async () => {
    const server = await startShopifyAdminEmulatorServer({ port: 0 });
    try {
      const created = (await (await fetch(`${server.url}/__emulator/orders`, { method: "POST" })).json()) as {
        events: { urls: string[] }[];
      };
      expect(created.events.map((e) => e.urls)).toEqual([[], []]);
      const log = (await (await fetch(`${server.url}/__emulator/webhooks`)).json()) as Record<string, unknown>;
      expect(log).toMatchObject({ subscribed: false, deliveries: [] });
    } finally {
      await server.close();
    }
  });
});

describe("returns through the control endpoints", () => {
  const MUG = "gid://shopify/LineItem/14100010170";

  it("makes a customer's return request for shipped items and delivers a signed returns/request", async () => {
    const order = seededOrder("#1017");
    const answer = await post(`/__emulator/orders/${numeric(order.id)}/returns`, {
      lineItems: [{ lineItemId: numeric(MUG), quantity: 2 }],
      reason: "DEFECTIVE",
      customerNote: "Two arrived chipped",
    });
    expect(answer.status).toBe(201);
    expect(answer.body.return).toMatchObject({
      name: "#1017-R1",
      orderName: "#1017",
      status: "REQUESTED",
      lineItems: [{ lineItemId: MUG, quantity: 2, returnReason: "DEFECTIVE", customerNote: "Two arrived chipped" }],
      reverseFulfillmentOrders: [],
    });
    expect(answer.body.events).toEqual([
      expect.objectContaining({ topic: "returns/request", urls: [`${receiver.url}/webhooks/returns`] }),
    ]);

    await running.emulator.flushWebhooks();
    const [request] = receiver.received;
    expect(request?.path).toBe("/webhooks/returns");
    expect(request?.headers).toMatchObject({
      "x-shopify-topic": "returns/request",
      "x-shopify-shop-domain": "demo-shop.myshopify.com",
      "x-shopify-event-id": answer.body.events[0].eventId,
      "x-shopify-webhook-id": expect.any(String),
    });
    expect(request?.headers["x-shopify-hmac-sha256"]).toBe(
      createHmac("sha256", SECRET)
        .update(request?.body ?? "")
        .digest("base64"),
    );
    expect(JSON.parse(request?.body ?? "")).toMatchObject({
      admin_graphql_api_id: answer.body.return.id,
      status: "requested",
      order: { id: Number(numeric(order.id)), admin_graphql_api_id: order.id },
      return_line_items: [
        {
          quantity: 2,
          return_reason: "defective",
          fulfillment_line_item: { line_item: { admin_graphql_api_id: MUG } },
        },
      ],
    });
  });

  it("approves, declines and cancels returns as the merchant, delivering each topic, and lists them", async () => {
    const order = seededOrder("#1017");
    const first = await post(`/__emulator/orders/${numeric(order.id)}/returns`, {
      lineItems: [{ lineItemId: MUG, quantity: 1 }],
    });
    const second = await post(`/__emulator/orders/${numeric(order.id)}/returns`, {
      lineItems: [{ lineItemId: MUG, quantity: 1 }],
    });
    const approved = await post(`/__emulator/returns/${first.body.return.numericId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.return).toMatchObject({
      status: "OPEN",
      reverseFulfillmentOrders: [
        { status: "OPEN", lineItems: [{ lineItemId: MUG, totalQuantity: 1 }], reverseDeliveries: [] },
      ],
    });
    expect((await post(`/__emulator/returns/${first.body.return.numericId}/approve`)).status).toBe(409);
    const declined = await post(`/__emulator/returns/${second.body.return.numericId}/decline`, {
      reason: "FINAL_SALE",
      note: "Sale",
    });
    expect(declined.body.return).toMatchObject({ status: "DECLINED", decline: { reason: "FINAL_SALE", note: "Sale" } });
    expect((await post(`/__emulator/returns/${first.body.return.numericId}/cancel`)).body.return.status).toBe(
      "CANCELED",
    );

    await running.emulator.flushWebhooks();
    expect(receiver.topics()).toEqual([
      "returns/request",
      "returns/request",
      "returns/approve",
      "returns/decline",
      "returns/cancel",
    ]);
    const listed = (await (await fetch(`${running.url}/__emulator/returns`)).json()) as {
      returns: { status: string }[];
    };
    expect(listed.returns.map((r) => r.status)).toEqual(["CANCELED", "DECLINED"]);
  });

  it("answers 404, 409 and 422 for an unknown order, nothing shipped and a bad body", async () => {
    expect((await post("/__emulator/orders/1/returns")).status).toBe(404);
    expect((await post(`/__emulator/orders/${numeric(seededOrder("#1001").id)}/returns`)).status).toBe(409);
    const bad = await post(`/__emulator/orders/${numeric(seededOrder("#1017").id)}/returns`, {
      lineItems: [{ lineItemId: MUG, quantity: 9 }],
    });
    expect(bad).toMatchObject({
      status: 422,
      body: { error: { code: "INVALID", message: expect.stringContaining("1 to 3") } },
    });
    expect(
      (await post(`/__emulator/orders/${numeric(seededOrder("#1017").id)}/returns`, { reason: "BORED" })).status,
    ).toBe(422);
  });
});
