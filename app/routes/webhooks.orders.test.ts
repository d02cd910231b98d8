import { describe, expect, it } from "vitest";

import { recordAutoDraftOutcome } from "~/auto-draft/auto-draft-outcomes.server";
import { createAutoDraftJob, createRecheckLabelsJob } from "~/jobs/order-change-jobs.server";
import { findLabel } from "~/labels/label-repository.server";
import { purchase } from "~/labels/purchase.server";
import { jobQueueFor } from "~/queue/queue.server";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { callRoute } from "../../test/helpers/admin-form-requests";
import { countJobs, listJobs } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { createEmulators, createTestShippingClient, DEMO_ORG } from "../../test/helpers/labels";
import { BAD_WEBHOOK_HMAC, createWebhookRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as fulfillmentOrderAction } from "./webhooks.fulfillment_orders";
import { action } from "./webhooks.orders";

const ORDER = "gid://shopify/Order/7001" as OrderGid;
const FO = "gid://shopify/FulfillmentOrder/7001" as FulfillmentOrderGid;

const call = async (handler: typeof action, request: Request) => (await callRoute(handler, request)) as Response;

const orderPayload = (gid: string = ORDER) => ({
  id: Number(gid.split("/").pop()),
  admin_graphql_api_id: gid,
  name: "#7001",
  cancelled_at: null,
});
const deliver = (topic: string, payload: unknown, options: { eventId?: string; hmac?: string } = {}) =>
  call(action, createWebhookRequest({ topic, path: "/webhooks/orders", payload, ...options }));

const activeLabel = (fields: Parameters<typeof insertLabelRow>[0] = {}) =>
  insertLabelRow({ orderGid: ORDER, fulfillmentOrderGid: FO, activeKey: `${TEST_SHOP}:${FO}`, ...fields });

describe("orders/cancelled and orders/updated webhooks", () => {
  it.each(["orders/cancelled", "orders/updated"])(
    "%s re-checks the labels of an order that has some",
    async (topic) => {
      await activeLabel();
      expect((await deliver(topic, orderPayload())).status).toBe(200);
      const jobs = await listJobs(db, { name: "recheck-labels" });
      expect(jobs.map((j) => j.payload.orderGids)).toEqual([[ORDER]]);
    },
  );

  it("enqueues nothing for an order without labels (orders/updated comes for every change)", async () => {
    expect((await deliver("orders/updated", orderPayload())).status).toBe(200);
    expect((await deliver("orders/cancelled", orderPayload())).status).toBe(200);
    expect(await countJobs(db)).toBe(0);
  });

  it("orders/cancelled clears what auto-draft reported about the order", async () => {
    await recordAutoDraftOutcome(db, TEST_SHOP, {
      orderGid: ORDER,
      orderName: "#7001",
      fulfillmentOrderGid: FO,
      status: "blocked",
      problems: [{ path: "to_address.zip", message: "Enter a ZIP code" }],
    });
    await deliver("orders/cancelled", orderPayload());
    expect(await db.autoDraftOutcome.count()).toBe(0);
  });

  it("orders/updated tries auto-draft again for a shipment it could not draft", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: true } });
    await recordAutoDraftOutcome(db, TEST_SHOP, {
      orderGid: ORDER,
      orderName: "#7001",
      fulfillmentOrderGid: FO,
      status: "blocked",
      problems: [{ path: "to_address.zip", message: "Enter a ZIP code" }],
    });
    await deliver("orders/updated", orderPayload());
    const jobs = await listJobs(db, { name: "auto-draft" });
    expect(jobs.map((j) => j.payload.fulfillmentOrderGid)).toEqual([FO]);
  });

  it("answers 401 to a badly signed delivery and changes nothing", async () => {
    await activeLabel();
    expect((await deliver("orders/cancelled", orderPayload(), { hmac: BAD_WEBHOOK_HMAC })).status).toBe(401);
    expect(await countJobs(db)).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it("does the work once when the same event is delivered twice", async () => {
    await activeLabel();
    await deliver("orders/cancelled", orderPayload(), { eventId: "evt-cancel" });
    await deliver("orders/cancelled", orderPayload(), { eventId: "evt-cancel" });
    expect(await countJobs(db, { name: "recheck-labels" })).toBe(1);
  });

  it("through the worker: a cancelled order's draft is discarded and a bought label flagged, nothing charged", async () => {
    const emulators = createEmulators();
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: true } });
    const record = emulators.shopify.findOrderByName("#1016"); // two fulfillment orders
    const [first, second] = record?.fulfillmentOrders ?? [];
    if (!record || !first || !second) throw new Error("#1016 has two fulfillment orders");
    const client = createTestShippingClient(emulators.shipping);
    const deps = { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client };
    const worker = jobQueueFor(db).createWorker([createAutoDraftJob(deps), createRecheckLabelsJob(deps)], {
      pollIntervalMs: 10,
      log: { info: () => {}, error: () => {} },
    });
    const drain = () =>
      expect.poll(() => countJobs(db, { status: ["queued", "running"] }), { timeout: 10_000 }).toBe(0);
    worker.start();
    try {
      for (const fo of [first, second]) {
        await call(
          fulfillmentOrderAction,
          createWebhookRequest({
            topic: "fulfillment_orders/order_routing_complete",
            path: "/webhooks/fulfillment_orders",
            payload: { fulfillment_order: { id: fo.id, status: "open" } },
          }),
        );
      }
      await drain();
      const labels = await db.label.findMany({ where: { shop: TEST_SHOP, status: "draft" } });
      expect(labels).toHaveLength(2);
      const bought = labels.find((l) => l.fulfillmentOrderGid === second.id);
      if (!bought?.serviceLabelId) throw new Error("no draft for the second fulfillment order");
      expect((await purchase({ db, shop: TEST_SHOP, shipping: client }, bought.id)).ok).toBe(true);

      record.cancelledAt = new Date().toISOString();
      await deliver("orders/cancelled", orderPayload(record.id));
      await drain();

      const draftOfFirst = labels.find((l) => l.fulfillmentOrderGid === first.id);
      expect((await findLabel(db, TEST_SHOP, draftOfFirst?.id ?? ""))?.status).toBe("voided");
      expect(await findLabel(db, TEST_SHOP, bought.id)).toMatchObject({
        status: "purchased",
        attention: { reason: "order_cancelled" },
      });
    } finally {
      await worker.stop({ graceMs: 5_000 });
    }
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  });
});
