import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { createShippingEventJob } from "~/jobs/shipping-event-jobs.server";
import { jobQueueFor } from "~/queue/queue.server";
import { connectShippingEvents } from "~/settings/shipping-event-endpoint.server";
import { buyLabel } from "~/shipments/buy-label.server";
import { draftShipment } from "~/shipments/draft-shipment.server";

import { createShippingEmulator, type ShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { countJobs } from "../../test/helpers/jobs";
import {
  createTestShippingClient,
  DEMO_ORG,
  quoteSeededOrder,
  SHIPPING_BASE_URL,
  TEST_LABEL_SHOP,
} from "../../test/helpers/labels";
import { routeArgs } from "../../test/helpers/route-args";
import { TEST_ENV } from "../../test/setup/test-env";
import { action as shippingWebhook } from "../routes/webhooks.shipping.$endpoint";
import { listAuditEntries } from "./audit.server";
import { findLabelByServiceId, listLabelsForOrder } from "./label-repository.server";
import { listParcelStatuses } from "./parcel-tracking.server";
import { purchase } from "./purchase.server";
import { applyTrackingUpdate, summarizeShipment } from "./shipping-events.server";
import { requestLabelVoid } from "./void-label.server";

const SHOP = TEST_LABEL_SHOP;

// The service delivers its events to the app's route in-process, signed, with a short retry
// schedule on a running clock; the worker applies them against the emulated Shopify store.
async function setUp() {
  let shipping: ShippingEmulator | null = null;
  const deliverToApp = async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    const endpoint = new URL(request.url).pathname.split("/").pop() ?? "";
    return shippingWebhook(routeArgs(request, { endpoint }));
  };
  shipping = createShippingEmulator({ delivery: { fetch: deliverToApp, retryDelaysMs: [20, 20, 20, 20, 20, 20] } });
  const shopify = createShopifyAdminEmulator();
  const client = createTestShippingClient(shipping);
  const connected = await connectShippingEvents(
    { db, shop: SHOP, shipping: client },
    { appUrl: TEST_ENV.SHOPIFY_APP_URL, encryptionKey: TEST_ENV.APP_ENCRYPTION_KEY },
  );
  if (!connected.ok) throw new Error(connected.error.logMessage);
  const deps = { db, adminFor: async () => shopify.graphql, shippingFor: async () => client };
  // Retries a few milliseconds apart: an update waiting for its purchase is applied within the test.
  const worker = jobQueueFor(db).createWorker(
    [createShippingEventJob({ ...deps, backoff: { baseMs: 20, maxMs: 50 } })],
    {
      pollIntervalMs: 10,
      log: { info: () => {}, error: () => {} },
    },
  );
  worker.start();
  const emulator = shipping;
  const settle = async () => {
    await expect
      .poll(
        async () => {
          await emulator.flushDeliveries();
          const pendingDeliveries = emulator.deliveries().filter((d) => d.status === "pending").length;
          const jobs = await countJobs(db, { status: ["queued", "running"] });
          return pendingDeliveries + jobs;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(0);
  };
  return { shipping: emulator, shopify, client, settle, stop: () => worker.stop({ graceMs: 5_000 }) };
}

/** A draft at the service for a seeded order, linked to it, that the app never saw (made in the dashboard). */
async function draftOutsideTheApp(env: Awaited<ReturnType<typeof setUp>>, name: string) {
  const quoted = await quoteSeededOrder(env, name, { client: env.client });
  const response = await env.shipping.fetch(`${SHIPPING_BASE_URL}/v1/labels`, {
    method: "POST",
    headers: { Authorization: "Bearer sk_live_demo", "Content-Type": "application/json" },
    body: JSON.stringify({ ...quoted.input.request, rate_id: quoted.rate.rate_id }),
  });
  const draft = (await response.json()) as { id: string };
  if (response.status !== 201 && response.status !== 200) throw new Error(`draft: ${JSON.stringify(draft)}`);
  return { draftId: draft.id, order: quoted.order, quoted };
}

describe("the shipping service's events", () => {
  it("a label bought in the dashboard for a seeded order ends with its tracking on that order's fulfillment, once, though delivered four times", async () => {
    const env = await setUp();
    try {
      const { draftId, order } = await draftOutsideTheApp(env, "#1001");
      // The app's answers are lost three times: the service delivers the event four times.
      env.shipping.setFaults({ failures: [{ endpoint: "DELIVERY", kind: "answer_lost", times: 3 }] });
      const bought = await env.shipping.purchaseAsDashboard(draftId);
      await env.settle();

      const [delivery] = env.shipping.deliveries();
      expect(delivery?.attempts.length).toBe(4);
      expect(await db.shippingEvent.count({ where: { shop: SHOP } })).toBe(1);
      const labels = await listLabelsForOrder(db, SHOP, order.id);
      expect(labels).toHaveLength(1);
      expect(labels[0]).toMatchObject({ status: "fulfilled", boughtOutside: true, serviceLabelId: draftId });
      const fulfillments = env.shopify.fulfillments().filter((f) => f.orderId === order.id);
      expect(fulfillments).toHaveLength(1);
      expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual(bought.tracking_numbers);
      expect(env.shipping.charges(DEMO_ORG)).toHaveLength(1);
    } finally {
      await env.stop();
    }
  });

  it("settles the app's own purchase whose answer was lost, without buying again", async () => {
    const env = await setUp();
    try {
      const quoted = await quoteSeededOrder(env, "#1003", { client: env.client });
      const draft = await draftShipment({ db, shop: SHOP, shipping: env.client }, quoted.input);
      if (!draft.ok) throw new Error(draft.error.logMessage);
      // Charged, the answer lost, and the label cannot be read back: the outcome stays unknown.
      env.shipping.setFaults({
        failures: [
          { endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 },
          { endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 20 },
        ],
      });
      const lost = await purchase({ db, shop: SHOP, shipping: env.client }, draft.value.label.id, {});
      expect(lost.ok).toBe(false);
      expect((await findLabelByServiceId(db, SHOP, draft.value.label.serviceLabelId ?? ""))?.status).toBe("purchasing");
      env.shipping.setFaults({ failures: [] });
      await env.settle();

      const label = await findLabelByServiceId(db, SHOP, draft.value.label.serviceLabelId ?? "");
      expect(label?.status).toBe("fulfilled");
      expect(label?.boughtOutside).toBe(false);
      expect(env.shipping.charges(DEMO_ORG)).toHaveLength(1);
    } finally {
      await env.stop();
    }
  });

  it("a void's refund arrives as an event, delivered twice, and is counted once", async () => {
    const env = await setUp();
    try {
      const quoted = await quoteSeededOrder(env, "#1004", { client: env.client });
      const draft = await draftShipment({ db, shop: SHOP, shipping: env.client }, quoted.input);
      if (!draft.ok) throw new Error(draft.error.logMessage);
      const deps = { db, shop: SHOP, admin: env.shopify.graphql, shipping: env.client };
      const bought = await buyLabel(deps, draft.value.label.id, { notifyCustomer: false });
      if (!bought.ok) throw new Error(bought.error.logMessage);
      await env.settle();
      expect((await requestLabelVoid(deps, draft.value.label.id)).ok).toBe(true);

      // The app's first answer is lost: the service delivers label.voided again.
      env.shipping.setFaults({ failures: [{ endpoint: "DELIVERY", kind: "answer_lost", times: 1 }] });
      await env.shipping.decideVoid(draft.value.label.serviceLabelId ?? "", "refunded");
      await env.settle();

      const label = await findLabelByServiceId(db, SHOP, draft.value.label.serviceLabelId ?? "");
      expect(label?.status).toBe("voided");
      expect(label?.void?.status).toBe("refunded");
      const refunds = (await listAuditEntries(db, SHOP, { labelId: draft.value.label.id })).filter(
        (e) => e.action === "refund",
      );
      expect(refunds).toHaveLength(1);
      expect(env.shipping.refunds(DEMO_ORG)).toHaveLength(1);
      const voided = env.shipping.deliveries().filter((d) => d.event_type === "label.voided");
      expect(voided).toHaveLength(1);
      expect(voided[0]?.attempts.length).toBe(2);
    } finally {
      await env.stop();
    }
  });

  it("adds each step to the Shopify fulfillment, and never moves the parcel back", async () => {
    const env = await setUp();
    try {
      const { draftId, order } = await draftOutsideTheApp(env, "#1001");
      const bought = await env.shipping.purchaseAsDashboard(draftId);
      await env.settle();
      const number = (bought.tracking_numbers as string[])[0] ?? "";
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 8, minutes)).toISOString();

      await env.shipping.emitTracking(draftId, {
        status: "in_transit",
        occurred_at: at(0),
        status_detail: "Departed facility",
      });
      await env.settle();
      await env.shipping.emitTracking(draftId, { status: "delivered", occurred_at: at(30) });
      await env.settle();
      // Late news of an earlier scan: kept as an event, not sent.
      await env.shipping.emitTracking(draftId, { status: "in_transit", occurred_at: at(10) });
      await env.settle();

      const fulfillment = env.shopify.fulfillments().find((f) => f.orderId === order.id);
      const events = env.shopify.fulfillmentEvents(fulfillment?.id ?? "");
      expect(events.map((e) => e.status)).toEqual(["IN_TRANSIT", "DELIVERED"]);
      const label = await findLabelByServiceId(db, SHOP, draftId);
      const parcels = await listParcelStatuses(db, SHOP, [label?.id ?? ""]);
      expect(parcels.get(label?.id ?? "")).toMatchObject([{ trackingNumber: number, status: "delivered" }]);
      expect(label?.tracking).toMatchObject({ status: "delivered" });
      const late = await db.shippingEvent.findMany({ where: { shop: SHOP, outcome: "recorded" } });
      expect(late).toHaveLength(1);
    } finally {
      await env.stop();
    }
  });

  it.each(["at once", "newest first"] as const)(
    "keeps the parcel delivered and sends DELIVERED once when an older in-transit arrives %s",
    async (arrival) => {
      const env = await setUp();
      try {
        const { draftId, order } = await draftOutsideTheApp(env, "#1001");
        const bought = await env.shipping.purchaseAsDashboard(draftId);
        await env.settle();
        const number = (bought.tracking_numbers as string[])[0] ?? "";
        const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 8, minutes)).toISOString();
        const event = (id: string, status: "in_transit" | "delivered", minutes: number) => ({
          id,
          created_at: at(minutes),
          type: "label.tracking_updated" as const,
          data: { label_id: draftId, tracking_number: number, status, occurred_at: at(minutes) },
        });
        const deps = { db, shop: SHOP, admin: env.shopify.graphql, shipping: null };
        const delivered = event("evt_delivered", "delivered", 30);
        const older = event("evt_in_transit", "in_transit", 10);
        // Two tracking jobs side by side, or the newest news first.
        if (arrival === "at once") {
          await Promise.all([applyTrackingUpdate(deps, older), applyTrackingUpdate(deps, delivered)]);
        } else {
          await applyTrackingUpdate(deps, delivered);
          await applyTrackingUpdate(deps, older);
        }

        const fulfillment = env.shopify.fulfillments().find((f) => f.orderId === order.id);
        const sent = env.shopify.fulfillmentEvents(fulfillment?.id ?? "").map((e) => e.status);
        expect(sent.filter((s) => s === "DELIVERED")).toHaveLength(1);
        expect(sent.at(-1)).toBe("DELIVERED");
        expect(sent.filter((s) => s === "IN_TRANSIT").length).toBeLessThanOrEqual(1);
        const label = await findLabelByServiceId(db, SHOP, draftId);
        const parcels = await listParcelStatuses(db, SHOP, [label?.id ?? ""]);
        expect(parcels.get(label?.id ?? "")).toMatchObject([{ trackingNumber: number, status: "delivered" }]);
        expect(label?.tracking).toMatchObject({ status: "delivered" });
      } finally {
        await env.stop();
      }
    },
  );

  it("keeps one status per box of a multi-piece label, and calls the shipment delivered only with every box", async () => {
    const env = await setUp();
    try {
      const { draftId, order } = await draftOutsideTheApp(env, "#1012"); // 77.5 lb: several boxes
      const bought = await env.shipping.purchaseAsDashboard(draftId);
      await env.settle();
      const [first, ...rest] = bought.tracking_numbers as string[];
      expect(rest.length).toBeGreaterThan(0);
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 8, minutes)).toISOString();

      // One box delivered, the others not heard of: nothing to tell Shopify yet.
      await env.shipping.emitTracking(draftId, { status: "delivered", tracking_number: first, occurred_at: at(5) });
      await env.settle();
      for (const number of rest) {
        await env.shipping.emitTracking(draftId, { status: "in_transit", tracking_number: number, occurred_at: at(6) });
      }
      await env.settle();
      for (const number of rest) {
        await env.shipping.emitTracking(draftId, { status: "delivered", tracking_number: number, occurred_at: at(30) });
      }
      await env.settle();

      const fulfillment = env.shopify.fulfillments().find((f) => f.orderId === order.id);
      expect(env.shopify.fulfillmentEvents(fulfillment?.id ?? "").map((e) => e.status)).toEqual([
        "IN_TRANSIT",
        "DELIVERED",
      ]);
      const label = await findLabelByServiceId(db, SHOP, draftId);
      const parcels = (await listParcelStatuses(db, SHOP, [label?.id ?? ""])).get(label?.id ?? "") ?? [];
      expect(parcels.map((p) => p.trackingNumber).sort()).toEqual([first, ...rest].sort());
      expect(parcels.every((p) => p.status === "delivered")).toBe(true);
    } finally {
      await env.stop();
    }
  });

  it("holds a tracking update that arrives before its purchase until the label exists", async () => {
    const env = await setUp();
    try {
      const { draftId, order } = await draftOutsideTheApp(env, "#1001");
      // The purchase event is not answered at first; the tracking event goes through.
      env.shipping.setFaults({ failures: [{ endpoint: "DELIVERY", kind: "server_error", times: 1 }] });
      await env.shipping.purchaseAsDashboard(draftId);
      await env.shipping.emitTracking(draftId, { status: "in_transit" });
      await env.settle();

      const fulfillment = env.shopify.fulfillments().find((f) => f.orderId === order.id);
      expect(env.shopify.fulfillmentEvents(fulfillment?.id ?? "").map((e) => e.status)).toEqual(["IN_TRANSIT"]);
    } finally {
      await env.stop();
    }
  });

  it("records a label of no order of this shop, and changes nothing else", async () => {
    const env = await setUp();
    try {
      const { draftId } = await draftOutsideTheApp(env, "#1001");
      // The order is not this store's (another shop of the same organization).
      const record = env.shopify.findOrderByName("#1001");
      if (!record) throw new Error("no #1001");
      env.shopify.state().orders.splice(env.shopify.state().orders.indexOf(record), 1);
      await env.shipping.purchaseAsDashboard(draftId);
      await env.shipping.emitTracking(draftId, { status: "in_transit" });
      await env.settle();

      expect(await db.label.count()).toBe(0);
      const events = await db.shippingEvent.findMany({ where: { shop: SHOP }, orderBy: { receivedAt: "asc" } });
      expect(events.map((e) => e.outcome).sort()).toEqual(["not_ours", "not_ours"]);
      expect(env.shopify.fulfillments().filter((f) => f.createdThroughApi)).toEqual([]);
    } finally {
      await env.stop();
    }
  });
});

describe("a multi-piece shipment's status", () => {
  const parcel = (trackingNumber: string, status: "in_transit" | "delivered" | "returned", minute: number) => ({
    trackingNumber,
    status,
    statusDetail: null,
    occurredAt: new Date(Date.UTC(2026, 10, 23, 8, minute)),
    estimatedDeliveryAt: null,
    location: null,
  });

  it("is delivered only when every box is, and in transit while one still travels", () => {
    expect(summarizeShipment(["A", "B"], [parcel("A", "delivered", 5), parcel("B", "in_transit", 1)])?.status).toBe(
      "in_transit",
    );
    expect(summarizeShipment(["A", "B"], [parcel("A", "delivered", 5)])).toBeNull();
    expect(summarizeShipment(["A", "B"], [parcel("A", "delivered", 5), parcel("B", "delivered", 9)])).toMatchObject({
      status: "delivered",
      trackingNumber: "B",
    });
    expect(summarizeShipment(["A", "B"], [parcel("A", "returned", 5), parcel("B", "delivered", 9)])?.status).toBe(
      "returned",
    );
  });
});
