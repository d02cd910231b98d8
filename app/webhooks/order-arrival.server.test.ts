import { describe, expect, it } from "vitest";

import { listAutoDraftOutcomesForOrders } from "~/auto-draft/auto-draft-outcomes.server";
import db from "~/db.server";
import { createAutoDraftJob, createRecheckLabelsJob } from "~/jobs/order-change-jobs.server";
import { findActiveLabel, listLabelsForOrder } from "~/labels/label-repository.server";
import { jobQueueFor } from "~/queue/queue.server";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { loadWebhookSubscriptions } from "../../emulator/shopify/app-config";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { callRoute } from "../../test/helpers/admin-form-requests";
import { countJobs } from "../../test/helpers/jobs";
import { createTestShippingClient, DEMO_ORG } from "../../test/helpers/labels";
import { TEST_ENV } from "../../test/setup/test-env";
import { action as fulfillmentOrdersWebhook } from "../routes/webhooks.fulfillment_orders";
import { action as ordersWebhook } from "../routes/webhooks.orders";

// An order placed in the emulated store reaches the app the way Shopify's would: signed webhook
// deliveries (from shopify.app.toml's subscriptions) to the app's routes, then the worker's jobs.

const ROUTES: Record<string, typeof ordersWebhook> = {
  "/webhooks/fulfillment_orders": fulfillmentOrdersWebhook,
  "/webhooks/orders": ordersWebhook,
};

async function deliverToApp(input: string, init: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const route = ROUTES[new URL(request.url).pathname];
  // Topics this test does not exercise (app/*, compliance) are acknowledged.
  if (!route) return new Response(null, { status: 200 });
  return (await callRoute(route, request)) as Response;
}

async function setUp() {
  const shopify = createShopifyAdminEmulator({
    webhooks: {
      appUrl: TEST_ENV.SHOPIFY_APP_URL,
      apiSecret: TEST_ENV.SHOPIFY_API_SECRET,
      subscriptions: loadWebhookSubscriptions(),
      fetch: deliverToApp,
      retry: { attempts: 2, initialDelayMs: 10 },
    },
  });
  const shipping = createShippingEmulator();
  const client = createTestShippingClient(shipping);
  const shop = shopify.shop;
  await db.shopSettings.create({ data: { shop, autoDraft: true } });
  const deps = { db, adminFor: async () => shopify.graphql, shippingFor: async () => client };
  const worker = jobQueueFor(db).createWorker([createAutoDraftJob(deps), createRecheckLabelsJob(deps)], {
    pollIntervalMs: 10,
    log: { info: () => {}, error: () => {} },
  });
  // Deliveries first, then every job they enqueued (and the jobs those enqueue).
  const settle = async () => {
    await shopify.flushWebhooks();
    await expect.poll(() => countJobs(db, { status: ["queued", "running"] }), { timeout: 10_000 }).toBe(0);
  };
  worker.start();
  return { shopify, shipping, shop, settle, stop: () => worker.stop({ graceMs: 5_000 }) };
}

describe("an order arriving through the emulated store", () => {
  it("ends with exactly one draft at the shipping service, even when Shopify delivers twice", async () => {
    const { shopify, shipping, shop, settle, stop } = await setUp();
    try {
      const { order, fulfillmentOrders } = shopify.createOrder({ kind: "domestic" });
      await settle();
      const sender = shopify.webhooks;
      if (!sender) throw new Error("the emulator was started without webhooks");
      const events = sender.log().filter((d) => d.topic === "fulfillment_orders/order_routing_complete");
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((d) => d.delivered && d.lastStatus === 200)).toBe(true);
      for (const event of events) sender.redeliver(event.eventId);
      await settle();

      expect(shipping.labelsCreated(DEMO_ORG)).toBe(1);
      expect(shipping.charges(DEMO_ORG)).toEqual([]);
      const fo = fulfillmentOrders[0]?.id as FulfillmentOrderGid;
      expect(await findActiveLabel(db, shop, fo)).toMatchObject({ status: "draft", orderName: order.name });
      expect(await countJobs(db, { name: "auto-draft", status: "done" })).toBe(1);
    } finally {
      await stop();
    }
  });

  it("ends with its problems stored and no draft when preflight blocks it", async () => {
    const { shopify, shipping, shop, settle, stop } = await setUp();
    try {
      const { order } = shopify.createOrder({ kind: "problem" });
      await settle();

      expect(shipping.labelsCreated(DEMO_ORG)).toBe(0);
      expect(await listLabelsForOrder(db, shop, order.id as OrderGid)).toEqual([]);
      const outcomes = await listAutoDraftOutcomesForOrders(db, shop, [order.id]);
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]?.status).toBe("blocked");
      expect(outcomes[0]?.problems.length).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });

  it("discards the draft when the order is cancelled, and drafts again after an address change", async () => {
    const { shopify, shipping, shop, settle, stop } = await setUp();
    try {
      const first = shopify.createOrder({ kind: "domestic" });
      const second = shopify.createOrder({ kind: "domestic" });
      await settle();
      const [firstLabel] = await listLabelsForOrder(db, shop, first.order.id as OrderGid);
      const [secondLabel] = await listLabelsForOrder(db, shop, second.order.id as OrderGid);
      expect([firstLabel?.status, secondLabel?.status]).toEqual(["draft", "draft"]);

      shopify.cancelOrder(first.order.id);
      shopify.updateShippingAddress(second.order.id, { address1: "350 Fifth Avenue", zip: "10118", city: "New York" });
      await settle();

      expect((await listLabelsForOrder(db, shop, first.order.id as OrderGid)).map((l) => l.status)).toEqual(["voided"]);
      const redone = await listLabelsForOrder(db, shop, second.order.id as OrderGid);
      expect(redone.map((l) => l.status)).toEqual(["voided", "draft"]);
      expect(redone[1]?.request).toMatchObject({ to_address: { street1: "350 Fifth Avenue", zip: "10118" } });
      expect(shipping.labelsCreated(DEMO_ORG)).toBe(3);
      expect(shipping.charges(DEMO_ORG)).toEqual([]);
    } finally {
      await stop();
    }
  });
});
