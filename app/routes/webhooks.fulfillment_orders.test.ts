import { describe, expect, it, vi } from "vitest";

import { createAutoDraftJob, createRecheckLabelsJob } from "~/jobs/order-change-jobs.server";
import { findActiveLabel } from "~/labels/label-repository.server";
import { jobQueueFor } from "~/queue/queue.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";

import { callRoute } from "../../test/helpers/admin-form-requests";
import { countJobs, listJobs } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { createEmulators, createTestShippingClient, DEMO_ORG } from "../../test/helpers/labels";
import { BAD_WEBHOOK_HMAC, createWebhookRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action } from "./webhooks.fulfillment_orders";

const FO = "gid://shopify/FulfillmentOrder/5001" as FulfillmentOrderGid;

const callAction = async (request: Request) => (await callRoute(action, request)) as Response;

const deliver = (topic: string, payload: unknown, options: { eventId?: string; hmac?: string } = {}) =>
  callAction(createWebhookRequest({ topic, path: "/webhooks/fulfillment_orders", payload, ...options }));

async function setAutoDraft(enabled: boolean) {
  await db.shopSettings.upsert({
    where: { shop: TEST_SHOP },
    create: { shop: TEST_SHOP, autoDraft: enabled },
    update: { autoDraft: enabled },
  });
}

const jobsNamed = (name: string) => listJobs(db, { shop: TEST_SHOP, name });

describe("fulfillment order ready webhooks", () => {
  it.each([
    "fulfillment_orders/order_routing_complete",
    "fulfillment_orders/hold_released",
    "fulfillment_orders/scheduled_fulfillment_order_ready",
  ])("%s enqueues one auto-draft job for the fulfillment order", async (topic) => {
    await setAutoDraft(true);
    const response = await deliver(topic, { fulfillment_order: { id: FO, status: "open" } });
    expect(response.status).toBe(200);
    const jobs = await jobsNamed("auto-draft");
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.payload).toMatchObject({ fulfillmentOrderGid: FO });
  });

  it("acknowledges and enqueues nothing while automatic drafts are off", async () => {
    await setAutoDraft(false);
    const response = await deliver("fulfillment_orders/order_routing_complete", { fulfillment_order: { id: FO } });
    expect(response.status).toBe(200);
    expect(await countJobs(db)).toBe(0);
    expect(await db.webhookDelivery.count({ where: { shop: TEST_SHOP } })).toBe(1);
  });

  it("answers 401 to a badly signed delivery and changes nothing", async () => {
    await setAutoDraft(true);
    const response = await deliver(
      "fulfillment_orders/order_routing_complete",
      { fulfillment_order: { id: FO } },
      { hmac: BAD_WEBHOOK_HMAC },
    );
    expect(response.status).toBe(401);
    expect(await countJobs(db)).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it("does the work once when the same event is delivered twice", async () => {
    await setAutoDraft(true);
    const payload = { fulfillment_order: { id: FO, status: "open" } };
    expect((await deliver("fulfillment_orders/order_routing_complete", payload, { eventId: "evt-1" })).status).toBe(
      200,
    );
    // Ended meanwhile (stopped, which frees its key as finishing does): a repeat must not enqueue it again.
    await jobQueueFor(db).stopShopJobs(TEST_SHOP);
    expect((await deliver("fulfillment_orders/order_routing_complete", payload, { eventId: "evt-1" })).status).toBe(
      200,
    );
    expect(await jobsNamed("auto-draft")).toHaveLength(1);
  });

  it("logs and acknowledges a payload without a fulfillment order id", async () => {
    await setAutoDraft(true);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await deliver("fulfillment_orders/order_routing_complete", { fulfillment_order: { id: 5001 } });
    expect(response.status).toBe(200);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no fulfillment_order.id GID/));
    expect(await countJobs(db)).toBe(0);
  });

  it("through the worker: the seeded order's fulfillment order ends with exactly one draft at the service", async () => {
    await setAutoDraft(true);
    const emulators = createEmulators();
    const fo = emulators.shopify.findOrderByName("#1001")?.fulfillmentOrders[0]?.id;
    if (!fo) throw new Error("no fulfillment order on #1001");
    const payload = { fulfillment_order: { id: fo, status: "open" } };
    await deliver("fulfillment_orders/order_routing_complete", payload, { eventId: "evt-a" });
    await deliver("fulfillment_orders/order_routing_complete", payload, { eventId: "evt-a" });
    // A second event for the same fulfillment order (Shopify sends routing_complete again after a reroute).
    await deliver("fulfillment_orders/order_routing_complete", payload, { eventId: "evt-b" });

    const client = createTestShippingClient(emulators.shipping);
    const deps = { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client };
    const worker = jobQueueFor(db).createWorker([createAutoDraftJob(deps), createRecheckLabelsJob(deps)], {
      pollIntervalMs: 10,
      log: { info: () => {}, error: () => {} },
    });
    worker.start();
    try {
      await expect.poll(() => countJobs(db, { status: ["queued", "running"] }), { timeout: 10_000 }).toBe(0);
    } finally {
      await worker.stop({ graceMs: 5_000 });
    }
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
    expect(await findActiveLabel(db, TEST_SHOP, fo as FulfillmentOrderGid)).toMatchObject({ status: "draft" });
  });
});

describe("fulfillment order change webhooks", () => {
  it.each([
    [
      "fulfillment_orders/cancelled",
      { fulfillment_order: { id: FO, status: "closed" }, replacement_fulfillment_order: null },
    ],
    [
      "fulfillment_orders/moved",
      {
        original_fulfillment_order: { id: FO, status: "closed" },
        moved_fulfillment_order: { id: "gid://shopify/FulfillmentOrder/5002", status: "open" },
        source_location: { id: "gid://shopify/Location/1" },
      },
    ],
    ["fulfillment_orders/merged", { fulfillment_order_merges: [{ fulfillment_order: { id: FO, status: "closed" } }] }],
    ["fulfillment_orders/placed_on_hold", { fulfillment_order: { id: FO, status: "on_hold" } }],
    [
      "fulfillment_orders/split",
      {
        fulfillment_order: { id: FO, status: "open" },
        remaining_fulfillment_order: { id: "gid://shopify/FulfillmentOrder/5003", status: "open" },
      },
    ],
  ])("%s re-checks the labels of the fulfillment orders it names", async (topic, payload) => {
    await insertLabelRow({ fulfillmentOrderGid: FO, activeKey: `${TEST_SHOP}:${FO}`, status: "draft" });
    const response = await deliver(topic, payload);
    expect(response.status).toBe(200);
    const jobs = await jobsNamed("recheck-labels");
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.payload.fulfillmentOrderGids).toContain(FO);
  });

  it("a released hold re-checks the fulfillment order's draft (no longer On hold) and asks for an automatic draft", async () => {
    await setAutoDraft(true);
    await insertLabelRow({ fulfillmentOrderGid: FO, activeKey: `${TEST_SHOP}:${FO}`, status: "draft" });
    const response = await deliver("fulfillment_orders/hold_released", {
      fulfillment_order: { id: FO, status: "open" },
    });
    expect(response.status).toBe(200);
    expect((await jobsNamed("recheck-labels"))[0]?.payload.fulfillmentOrderGids).toEqual([FO]);
    expect(await jobsNamed("auto-draft")).toHaveLength(1);
  });

  it("a hold on a fulfillment order without a label is no work, even with automatic drafts on", async () => {
    await setAutoDraft(true);
    const response = await deliver("fulfillment_orders/placed_on_hold", {
      fulfillment_order: { id: FO, status: "on_hold" },
    });
    expect(response.status).toBe(200);
    expect(await countJobs(db)).toBe(0);
  });

  it("enqueues nothing for fulfillment orders without labels while automatic drafts are off", async () => {
    const response = await deliver("fulfillment_orders/cancelled", { fulfillment_order: { id: FO, status: "closed" } });
    expect(response.status).toBe(200);
    expect(await countJobs(db)).toBe(0);
  });
});
