// Isolation: shop B, signed in with a valid session token of its own, aims every route of the app
// at shop A's orders, labels, runs, settings and background work. Each attempt must find nothing
// (a not-found, answered exactly as for an id that never existed), change none of A's rows, and
// cost nothing at the shipping service. Genuine webhooks for shop B that name A's ids must leave
// A's rows alone too, after the worker ran what they enqueued.
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { openPersonalOrNull } from "~/settings/personal-data-box.server";

import { setupMockServer } from "../helpers/msw";
import { createWebhookRequest } from "../helpers/shopify-requests";
import { type Checks, createChecks, recordChecksOfThisFile } from "./support/checks";
import { routeModule } from "./support/requests";
import { coverageGaps } from "./support/routes";
import {
  type Answer,
  asA,
  asB,
  createWorld,
  deliverShippingEvent,
  expectUnchanged,
  extensionAs,
  getAs,
  identifiersOfA,
  invoke,
  KEY_A,
  leakedIn,
  ORG_B,
  postFormAs,
  saveKey,
  type SeededA,
  seedShopA,
  SHOP_A,
  SHOP_B,
  type Snapshot,
  snapshotDb,
  withoutShop,
  type World,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

const MADE_UP_CUID = "cm0000000000000000000000";
const MADE_UP_ORDER_ID = "4242424242";

type Context = {
  world: World;
  a: SeededA;
  checks: Checks;
  /** A rate for A's own order, as A's page got it (the JSON the page posts back to draft). */
  ownRate: string;
};

/**
 * One route handler's isolation case. `attempt` acts as B and returns what B was answered; it
 * checks the not-found itself. `writesOwnRows` marks a route that legitimately stores B's own
 * rows (a run B starts, a delivery B's webhook records): then only rows of other shops must stay.
 */
type Case = {
  writesOwnRows?: boolean;
  /** Run the worker after the attempt (what a webhook or a run enqueued), then compare. */
  drain?: boolean;
  attempt: (ctx: Context) => Promise<Answer[]>;
};

const route = (name: string) => routeModule(name);

/** The part of an answer another id could change: references and the ids themselves aside. */
const normalized = (answer: Answer, ids: readonly string[]) => {
  let text = answer.text.replace(/ERR-[0-9A-Z]{6}/g, "ERR-?");
  for (const id of ids) text = text.split(id).join("<id>");
  return { status: answer.status, text };
};

/** B's answer for A's id must be a 4xx, and the very answer B gets for an id nobody has. */
function expectSameAsMadeUp(theirs: Answer, madeUp: Answer, ids: readonly string[], status?: number) {
  expect(theirs.status, theirs.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(theirs.status).toBeLessThan(500);
  if (status !== undefined) expect(theirs.status).toBe(status);
  expect(normalized(theirs, ids)).toEqual(normalized(madeUp, ids));
}

const cases: Record<string, Case> = {
  "app._index#loader": {
    attempt: async () => {
      const { loader } = await route("app._index");
      const home = await invoke(loader, getAs("/app", asB()));
      expect(home.status).toBe(200);
      const { attention, month, margin } = (
        home.json as {
          home: {
            attention: Record<string, unknown>;
            month: { labels: number; byCurrency: unknown[] };
            margin: { recentOrders: unknown[] };
          };
        }
      ).home;
      // A's draft, bought label and its spend are none of B's figures.
      expect({ ...attention, needsLabel: null }).toEqual({
        needsLabel: null,
        drafts: 0,
        problems: 0,
        onHold: 0,
        trackingExceptions: 0,
        failedWriteBacks: 0,
      });
      expect(month).toMatchObject({ labels: 0, byCurrency: [] });
      expect(margin.recentOrders).toEqual([]);
      return [home];
    },
  },
  "app._index#action": {
    attempt: async ({ a }) => {
      // Scanning the name of an order only A's store has, which A has a label for: B learns nothing.
      const { action } = await route("app._index");
      const theirs = (await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } })).orderName.replace("#", "");
      const scan = (orderNumber: string) => invoke(action, postFormAs("/app?index", { orderNumber }, asB()));
      const answer = await scan(theirs);
      expectSameAsMadeUp(answer, await scan(MADE_UP_ORDER_ID), [theirs, MADE_UP_ORDER_ID], 422);
      return [answer];
    },
  },
  "app.orders._index#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.orders._index");
      const list = await invoke(loader, getAs("/app/orders", asB()));
      expect(list.status).toBe(200);
      const rows = (list.json as { list: { rows: { orderId: string; label: { count: number } }[] } }).list.rows;
      // #1001 has the same id in both stores: B's row for it shows none of A's labels.
      expect(rows.find((r) => r.orderId === a.sharedOrderId)?.label.count).toBe(0);
      const drafts = await invoke(loader, getAs("/app/orders?tab=drafts", asB()));
      expect((drafts.json as { list: { rows: unknown[] } }).list.rows).toEqual([]);
      return [list, drafts];
    },
  },
  "app.orders-version#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.orders-version");
      const page = await invoke(loader, getAs("/app/orders-version", asB()));
      expect(page.status).toBe(200);
      // B's change token is made of B's rows only: none of A's labels shows in it.
      const version = (page.json as { version: string }).version;
      for (const id of [a.draftLabelId, a.boughtLabelId]) expect(version).not.toContain(id);
      return [page];
    },
  },
  "app.activity#loader": {
    attempt: async () => {
      const { loader } = await route("app.activity");
      const page = await invoke(loader, getAs("/app/activity", asB()));
      expect(page.json).toMatchObject({ entries: [], deadJobs: [], dataRequests: [], foreignEvents: [] });
      return [page];
    },
  },
  "app.activity#action": {
    attempt: async ({ a }) => {
      const { action } = await route("app.activity");
      const post = (jobId: string) =>
        invoke(action, postFormAs("/app/activity", { intent: "retry-job", jobId }, asB()));
      const theirs = await post(a.deadJobId);
      expectSameAsMadeUp(theirs, await post(MADE_UP_CUID), [a.deadJobId, MADE_UP_CUID], 404);
      return [theirs];
    },
  },
  "app.bulk#action": {
    writesOwnRows: true,
    drain: true,
    attempt: async ({ a }) => {
      // B may start a run over any ids it likes: it is B's run, and A's order is not in B's store.
      const { action } = await route("app.bulk");
      const orders = JSON.stringify([{ orderGid: a.ownOrderGid, orderName: "#A" }]);
      const started = await invoke(action, postFormAs("/app/bulk", { orders }, asB()));
      expect(started.status).toBe(302);
      return [started];
    },
  },
  "app.bulk.$runId#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.bulk.$runId");
      const get = (runId: string) => invoke(loader, getAs(`/app/bulk/${runId}`, asB()), { runId });
      const answers = [await get(a.reviewRunId), await get(a.doneRunId)];
      const madeUp = await get(MADE_UP_CUID);
      for (const answer of answers) {
        expectSameAsMadeUp(answer, madeUp, [a.reviewRunId, a.doneRunId, MADE_UP_CUID], 404);
      }
      return answers;
    },
  },
  "app.bulk.$runId#action": {
    attempt: async ({ a, world }) => {
      const { action } = await route("app.bulk.$runId");
      const review = await db.bulkRunItem.findMany({ where: { runId: a.reviewRunId, status: "ready" } });
      const confirm = {
        intent: "confirm",
        count: String(review.length),
        totalCents: String(review.reduce((sum, i) => sum + (i.quotedCents ?? 0), 0)),
      };
      const post = (runId: string, fields: Record<string, string>) =>
        invoke(action, postFormAs(`/app/bulk/${runId}`, fields, asB()), { runId });
      const ids = [a.reviewRunId, a.doneRunId, MADE_UP_CUID];
      const answers: Answer[] = [];
      const bought = await db.bulkRunItem.findFirstOrThrow({ where: { runId: a.doneRunId, labelId: { not: null } } });
      const voidSelected = { intent: "void", labelIds: JSON.stringify([bought.labelId]) };
      for (const [runId, fields] of [
        [a.reviewRunId, confirm],
        [a.reviewRunId, { intent: "cancel" }],
        [a.doneRunId, { intent: "retry-failed" }],
        [a.doneRunId, voidSelected],
      ] as const) {
        const theirs = await post(runId, fields);
        expectSameAsMadeUp(theirs, await post(MADE_UP_CUID, fields), ids, 404);
        answers.push(theirs);
      }
      // Not even Shopify was asked whether B may spend on A's run.
      expect(world.exchangesB.filter((e) => e.requestedTokenType.includes("online"))).toEqual([]);
      return answers;
    },
  },
  "app.bulk.$runId.print#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.bulk.$runId.print");
      const answers: Answer[] = [];
      for (const format of ["pdf", "zpl", "png"]) {
        const get = (runId: string) =>
          invoke(loader, getAs(`/app/bulk/${runId}/print?format=${format}`, asB()), { runId });
        const theirs = await get(a.doneRunId);
        expectSameAsMadeUp(theirs, await get(MADE_UP_CUID), [a.doneRunId, MADE_UP_CUID]);
        answers.push(theirs);
      }
      return answers;
    },
  },
  "app.labels.$labelId.print#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.labels.$labelId.print");
      const get = (labelId: string) => invoke(loader, getAs(`/app/labels/${labelId}/print`, asB()), { labelId });
      const theirs = await get(a.boughtLabelId);
      expectSameAsMadeUp(theirs, await get(MADE_UP_CUID), [a.boughtLabelId, MADE_UP_CUID], 404);
      return [theirs];
    },
  },
  "app.labels#loader": {
    attempt: async () => {
      const { loader } = await route("app.labels");
      const list = await invoke(loader, getAs("/app/labels", asB()));
      expect(list.json).toMatchObject({ items: [], counts: { all: 0 } });
      return [list];
    },
  },
  "app.labels#action": {
    attempt: async ({ a }) => {
      const { action } = await route("app.labels");
      const post = (labelId: string) =>
        invoke(action, postFormAs("/app/labels", { intent: "void", labelIds: JSON.stringify([labelId]) }, asB()));
      const theirs = await post(a.boughtLabelId);
      // A selection is answered per label: A's label is, for B, a label that does not exist.
      expect(theirs.status).toBe(200);
      expect(theirs.json).toEqual({ intent: "void", results: [], notFound: 1 });
      expect(normalized(theirs, [a.boughtLabelId])).toEqual(normalized(await post(MADE_UP_CUID), [MADE_UP_CUID]));
      return [theirs];
    },
  },
  "app.orders.$orderId#loader": {
    // B's page of the order both stores have quotes it: the rates B was shown are kept as B's.
    writesOwnRows: true,
    attempt: async ({ a }) => {
      const { loader } = await route("app.orders.$orderId");
      const get = (orderId: string) => invoke(loader, getAs(`/app/orders/${orderId}`, asB()), { orderId });
      const theirs = await get(a.ownOrderId);
      expectSameAsMadeUp(theirs, await get(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
      // The order both stores have: B's page shows none of A's labels on it.
      const shared = await get(a.sharedOrderId);
      const page = (shared.json as { page: { fulfillmentOrders: { label: unknown }[]; pastLabels: unknown[] } }).page;
      expect(page.fulfillmentOrders.map((fo) => fo.label)).toEqual(page.fulfillmentOrders.map(() => null));
      expect(page.pastLabels).toEqual([]);
      return [theirs, shared];
    },
  },
  "app.orders.$orderId.returns#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("app.orders.$orderId.returns");
      const get = (orderId: string) => invoke(loader, getAs(`/app/orders/${orderId}/returns`, asB()), { orderId });
      const theirs = await get(a.ownOrderId);
      expectSameAsMadeUp(theirs, await get(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
      return [theirs];
    },
  },
  "app.orders.$orderId.returns#action": {
    attempt: async ({ a }) => {
      const { action } = await route("app.orders.$orderId.returns");
      const post = (orderId: string, fields: Record<string, string>) =>
        invoke(action, postFormAs(`/app/orders/${orderId}/returns`, fields, asB()), { orderId });
      const answers: Answer[] = [];
      // A's order, aimed at from B's session: each intent answers as for an order nobody has.
      const attempts: Record<string, string>[] = [
        { intent: "approve", returnId: "gid://shopify/Return/4242" },
        { intent: "get-rates", returnId: "gid://shopify/Return/4242", weight: "2" },
      ];
      for (const fields of attempts) {
        const theirs = await post(a.ownOrderId, fields);
        expectSameAsMadeUp(theirs, await post(MADE_UP_ORDER_ID, fields), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
        answers.push(theirs);
      }
      return answers;
    },
  },
  "app.orders.$orderId#action": {
    attempt: async ({ a, ownRate }) => {
      const { action } = await route("app.orders.$orderId");
      const post = (orderId: string, fields: Record<string, string>) =>
        invoke(action, postFormAs(`/app/orders/${orderId}`, fields, asB()), { orderId });
      const answers: Answer[] = [];
      const address = JSON.stringify({
        street1: "1 Main St",
        city: "Austin",
        state: "TX",
        zip: "78701",
        country: "US",
      });
      const attempts: [string, string, Record<string, string>][] = [
        [a.sharedOrderId, a.draftLabelId, { intent: "buy", labelId: a.draftLabelId, notifyCustomer: "false" }],
        [
          a.ownOrderId,
          a.boughtLabelId,
          { intent: "retry-write-back", labelId: a.boughtLabelId, notifyCustomer: "false" },
        ],
        [a.sharedOrderId, a.draftLabelId, { intent: "discard", labelId: a.draftLabelId }],
        [a.ownOrderId, a.boughtLabelId, { intent: "dismiss-attention", labelId: a.boughtLabelId }],
        [
          a.ownOrderId,
          a.ownFulfillmentOrderGid,
          { intent: "validate-address", fulfillmentOrderId: a.ownFulfillmentOrderGid, address },
        ],
      ];
      // A quote and a draft for A's own order, with a request and a rate as A's page sends them.
      const label = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
      const request = openPersonalOrNull(label.request) ?? "{}";
      const rate = ownRate;
      attempts.push(
        [a.ownOrderId, "", { intent: "get-rates", fulfillmentOrderId: label.fulfillmentOrderGid, request }],
        [
          a.ownOrderId,
          "",
          {
            intent: "create-draft",
            fulfillmentOrderId: label.fulfillmentOrderGid,
            request,
            lineItems: label.lineItems,
            rate,
          },
        ],
      );
      for (const [orderId, id, fields] of attempts) {
        const theirs = await post(orderId, fields);
        const madeUpFields = Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [k, id && v === id ? v.replace(/[0-9a-z]{6}$/, "000000") : v]),
        );
        const madeUp = await post(MADE_UP_ORDER_ID, madeUpFields);
        const madeUpId = madeUpFields.labelId ?? madeUpFields.fulfillmentOrderId ?? "";
        expectSameAsMadeUp(theirs, madeUp, [orderId, MADE_UP_ORDER_ID, id, madeUpId].filter(Boolean), 404);
        answers.push(theirs);
      }
      return answers;
    },
  },
  "app.settings#loader": {
    attempt: async () => {
      const { loader } = await route("app.settings");
      const settings = await invoke(loader, getAs("/app/settings", asB()));
      expect(settings.json).toMatchObject({ presets: [], settings: { apiKey: { hint: "••••ther" } } });
      return [settings];
    },
  },
  "app.settings#action": {
    attempt: async ({ a }) => {
      const { action } = await route("app.settings");
      const box = {
        name: "B",
        length: "1",
        width: "1",
        height: "1",
        dimensionUnit: "in",
        maxWeight: "1",
        weightUnit: "lb",
        tareWeight: "0",
      };
      const answers: Answer[] = [];
      for (const fields of [{ intent: "updateBox", ...box }, { intent: "deleteBox" }, { intent: "makeDefaultBox" }]) {
        const post = (id: string) => invoke(action, postFormAs("/app/settings", { ...fields, id }, asB()));
        const theirs = await post(a.boxPresetId);
        const madeUp = await post(MADE_UP_CUID);
        expectSameAsMadeUp(theirs, madeUp, [a.boxPresetId, MADE_UP_CUID]);
        expect((theirs.json as { error: { code: string } }).error.code).toBe("BOX_PRESET_NOT_FOUND");
        answers.push(theirs);
      }
      return answers;
    },
  },
  "app#loader": {
    attempt: async () => {
      const { loader } = await route("app");
      const app = await invoke(loader, getAs("/app", asB()));
      expect(app.status).toBe(200);
      return [app];
    },
  },
  "healthz#loader": {
    attempt: async () => {
      // Public: whoever asks learns only that the database answers.
      const { loader } = await route("healthz");
      const health = await invoke(loader, getAs("/healthz", asB()));
      expect(health.json).toEqual({ status: "ok" });
      return [health];
    },
  },
  "auth.$#loader": {
    attempt: async () => {
      const { loader } = await route("auth.$");
      return [await invoke(loader, getAs("/auth/session-token", asB()))];
    },
  },
  "api.extensions.orders.$orderId.label#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("api.extensions.orders.$orderId.label");
      const get = (orderId: string) =>
        invoke(loader, extensionAs(`/api/extensions/orders/${orderId}/label`, asB()), { orderId });
      const theirs = await get(a.ownOrderId);
      expectSameAsMadeUp(theirs, await get(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
      const shared = await get(a.sharedOrderId);
      expect((shared.json as { shipment: { label: unknown } }).shipment.label).toBeNull();
      return [theirs, shared];
    },
  },
  "api.extensions.orders.$orderId.label#action": {
    attempt: async ({ a }) => {
      const { action } = await route("api.extensions.orders.$orderId.label");
      const label = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
      const body = {
        fulfillmentOrderId: a.ownFulfillmentOrderGid,
        serviceCode: label.serviceCode,
        expectedCents: label.quotedCents,
        currency: label.currency,
      };
      const post = (orderId: string) =>
        invoke(action, extensionAs(`/api/extensions/orders/${orderId}/label`, asB(), { body }), { orderId });
      const theirs = await post(a.ownOrderId);
      expectSameAsMadeUp(theirs, await post(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
      return [theirs];
    },
  },
  "api.extensions.labels.$labelId.void#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("api.extensions.labels.$labelId.void");
      const theirs = await invoke(loader, extensionAs(`/api/extensions/labels/${a.boughtLabelId}/void`, asB()), {
        labelId: a.boughtLabelId,
      });
      expect(theirs.status).toBe(405);
      return [theirs];
    },
  },
  "api.extensions.labels.$labelId.void#action": {
    attempt: async ({ a }) => {
      const { action } = await route("api.extensions.labels.$labelId.void");
      const post = (labelId: string) =>
        invoke(action, extensionAs(`/api/extensions/labels/${labelId}/void`, asB(), { method: "POST" }), { labelId });
      const theirs = await post(a.boughtLabelId);
      expectSameAsMadeUp(theirs, await post(MADE_UP_CUID), [a.boughtLabelId, MADE_UP_CUID], 404);
      return [theirs];
    },
  },
  "api.extensions.orders.$orderId.rates#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("api.extensions.orders.$orderId.rates");
      const theirs = await invoke(loader, extensionAs(`/api/extensions/orders/${a.ownOrderId}/rates`, asB()), {
        orderId: a.ownOrderId,
      });
      expect(theirs.status).toBe(405);
      return [theirs];
    },
  },
  "api.extensions.orders.$orderId.rates#action": {
    attempt: async ({ a }) => {
      const { action } = await route("api.extensions.orders.$orderId.rates");
      const post = (orderId: string) =>
        invoke(
          action,
          extensionAs(`/api/extensions/orders/${orderId}/rates`, asB(), {
            body: { fulfillmentOrderId: a.ownFulfillmentOrderGid },
          }),
          { orderId },
        );
      const theirs = await post(a.ownOrderId);
      expectSameAsMadeUp(theirs, await post(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID], 404);
      return [theirs];
    },
  },
  "api.extensions.bulk.preflight#loader": {
    attempt: async () => {
      const { loader } = await route("api.extensions.bulk.preflight");
      const answer = await invoke(loader, extensionAs("/api/extensions/bulk/preflight", asB()));
      expect(answer.status).toBe(405);
      return [answer];
    },
  },
  "api.extensions.bulk.preflight#action": {
    attempt: async ({ a }) => {
      const { action } = await route("api.extensions.bulk.preflight");
      const post = (gid: string) =>
        invoke(action, extensionAs("/api/extensions/bulk/preflight", asB(), { body: { orderIds: [gid] } }));
      const theirs = await post(a.ownOrderGid);
      const madeUp = await post(`gid://shopify/Order/${MADE_UP_ORDER_ID}`);
      expect(theirs.status).toBe(200);
      expect(normalized(theirs, [a.ownOrderId, MADE_UP_ORDER_ID])).toEqual(
        normalized(madeUp, [a.ownOrderId, MADE_UP_ORDER_ID]),
      );
      expect(theirs.json).toMatchObject({ ready: 0, needsFixing: [] });
      return [theirs];
    },
  },
  "api.extensions.bulk.runs#loader": {
    attempt: async () => {
      const { loader } = await route("api.extensions.bulk.runs");
      const answer = await invoke(loader, extensionAs("/api/extensions/bulk/runs", asB()));
      expect(answer.status).toBe(405);
      return [answer];
    },
  },
  "api.extensions.bulk.runs#action": {
    writesOwnRows: true,
    drain: true,
    attempt: async ({ a }) => {
      const { action } = await route("api.extensions.bulk.runs");
      const started = await invoke(
        action,
        extensionAs("/api/extensions/bulk/runs", asB(), { body: { orderIds: [a.ownOrderGid] } }),
      );
      expect(started.status).toBe(200);
      return [started];
    },
  },
  "api.extensions.print.summary#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("api.extensions.print.summary");
      const get = (ids: string) => invoke(loader, extensionAs(`/api/extensions/print/summary?orderIds=${ids}`, asB()));
      const theirs = await get(a.ownOrderId);
      expect(normalized(theirs, [a.ownOrderId, MADE_UP_ORDER_ID])).toEqual(
        normalized(await get(MADE_UP_ORDER_ID), [a.ownOrderId, MADE_UP_ORDER_ID]),
      );
      // The order both stores have, with A's bought label: nothing of B's to print.
      const shared = await get(a.sharedOrderId);
      expect(shared.json).toMatchObject({ printable: [], zplOnly: [], pdfPath: null });
      return [theirs, shared];
    },
  },
  "api.extensions.print.pdf#loader": {
    attempt: async ({ a }) => {
      const { loader } = await route("api.extensions.print.pdf");
      const get = (ids: string) => invoke(loader, extensionAs(`/api/extensions/print/pdf?orders=${ids}`, asB()));
      const answers: Answer[] = [];
      for (const orderId of [a.ownOrderId, a.sharedOrderId]) {
        const theirs = await get(orderId);
        expectSameAsMadeUp(theirs, await get(MADE_UP_ORDER_ID), [orderId, MADE_UP_ORDER_ID]);
        answers.push(theirs);
      }
      return answers;
    },
  },

  // ---------- Webhooks: genuine deliveries for shop B that name A's ids ----------
  "webhooks.shipping.$endpoint#action": {
    writesOwnRows: true,
    drain: true,
    attempt: async ({ a, world }) => {
      const endpointB = await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: SHOP_B } });
      const { findEventEndpoint } = await import("../../app/settings/shipping-event-endpoint.server");
      const secretB = (await findEventEndpoint(db, endpointB.endpointKey))?.secret ?? "";
      const record = a.boughtLabelRecord;
      const now = new Date().toISOString();
      // Two shops may share one organization: then the service sends B's endpoint the events of
      // A's labels too (contract.md). They must stay events of no label of B's.
      const purchased = {
        id: "evt_b_1",
        type: "label.purchased",
        created_at: now,
        organization: ORG_B,
        data: { label: record },
      };
      const trackingNumber = a.trackingNumbers[0] ?? "";
      const tracking = {
        id: "evt_b_2",
        type: "label.tracking_updated",
        created_at: now,
        organization: ORG_B,
        data: { label_id: record.id, tracking_number: trackingNumber, status: "delivered", occurred_at: now },
      };
      // B's secret on A's endpoint: refused before anything is stored.
      const forged = await deliverShippingEvent(a.endpointKey, secretB, tracking);
      expect(forged.status).toBe(401);
      const answers = [forged];
      for (const event of [purchased, tracking]) {
        const answer = await deliverShippingEvent(endpointB.endpointKey, secretB, event);
        expect(answer.status).toBe(200);
        answers.push(answer);
        // The tracking update is judged once the purchase it follows was.
        await world.drainJobs();
      }
      const outcomes = await db.shippingEvent.findMany({ where: { shop: SHOP_B }, select: { outcome: true } });
      expect(outcomes.map((o) => o.outcome)).toEqual(["not_ours", "not_ours"]);
      return answers;
    },
  },
  "webhooks.orders#action": {
    writesOwnRows: true,
    drain: true,
    attempt: async ({ a, world }) => {
      const { action } = await route("webhooks.orders");
      const answers: Answer[] = [];
      for (const orderGid of [a.ownOrderGid, world.shopifyA.findOrderByName("#1001")?.id ?? ""]) {
        for (const topic of ["orders/cancelled", "orders/updated"]) {
          const payload = { id: Number(orderGid.split("/").pop()), admin_graphql_api_id: orderGid, cancelled_at: null };
          answers.push(
            await invoke(action, createWebhookRequest({ topic, path: "/webhooks/orders", shop: SHOP_B, payload })),
          );
        }
      }
      for (const answer of answers) expect(answer.status).toBe(200);
      return answers;
    },
  },
  "webhooks.fulfillment_orders#action": {
    writesOwnRows: true,
    drain: true,
    attempt: async ({ a }) => {
      const { action } = await route("webhooks.fulfillment_orders");
      const answers: Answer[] = [];
      for (const topic of ["fulfillment_orders/order_routing_complete", "fulfillment_orders/cancelled"]) {
        const payload = { fulfillment_order: { id: a.ownFulfillmentOrderGid, status: "open" } };
        answers.push(
          await invoke(
            action,
            createWebhookRequest({ topic, path: "/webhooks/fulfillment_orders", shop: SHOP_B, payload }),
          ),
        );
      }
      for (const answer of answers) expect(answer.status).toBe(200);
      return answers;
    },
  },
  "webhooks.compliance#action": {
    writesOwnRows: true,
    attempt: async ({ a }) => {
      const { action } = await route("webhooks.compliance");
      const orders = [Number(a.ownOrderId), Number(a.sharedOrderId)];
      const customer = { id: 1, email: "a@example.com", phone: null };
      const deliveries: [string, unknown][] = [
        [
          "customers/data_request",
          { shop_domain: SHOP_B, customer, orders_requested: orders, data_request: { id: 9 } },
        ],
        ["customers/redact", { shop_domain: SHOP_B, customer, orders_to_redact: orders }],
        ["shop/redact", { shop_id: 2, shop_domain: SHOP_B }],
      ];
      const answers: Answer[] = [];
      for (const [topic, payload] of deliveries) {
        const request = createWebhookRequest({ topic, path: "/webhooks/compliance", shop: SHOP_B, payload });
        const answer = await invoke(action, request);
        expect(answer.status, topic).toBe(200);
        answers.push(answer);
      }
      return answers;
    },
  },
  "webhooks.app.uninstalled#action": {
    writesOwnRows: true,
    attempt: async () => {
      const { action } = await route("webhooks.app.uninstalled");
      const request = createWebhookRequest({
        topic: "app/uninstalled",
        path: "/webhooks/app/uninstalled",
        shop: SHOP_B,
        payload: { id: 2, domain: SHOP_B },
      });
      const answer = await invoke(action, request);
      expect(answer.status).toBe(200);
      return [answer];
    },
  },
  "webhooks.returns#action": {
    writesOwnRows: true,
    attempt: async ({ a }) => {
      const { action } = await route("webhooks.returns");
      const answers: Answer[] = [];
      for (const topic of ["returns/request", "returns/approve"]) {
        const payload = {
          id: 1,
          admin_graphql_api_id: "gid://shopify/Return/1",
          status: topic === "returns/request" ? "requested" : "open",
          order: { id: Number(a.ownOrderId), admin_graphql_api_id: a.ownOrderGid },
          return_line_items: [],
        };
        answers.push(
          await invoke(action, createWebhookRequest({ topic, path: "/webhooks/returns", shop: SHOP_B, payload })),
        );
      }
      for (const answer of answers) expect(answer.status).toBe(200);
      return answers;
    },
  },
  "webhooks.app.scopes_update#action": {
    writesOwnRows: true,
    attempt: async () => {
      const { action } = await route("webhooks.app.scopes_update");
      const request = createWebhookRequest({
        topic: "app/scopes_update",
        path: "/webhooks/app/scopes_update",
        shop: SHOP_B,
        payload: { id: 2, previous: ["read_orders"], current: ["read_orders"] },
      });
      const answer = await invoke(action, request);
      expect(answer.status).toBe(200);
      return [answer];
    },
  },
};

async function runCase(key: string, testCase: Case, ctx: Context, secretsOfA: readonly string[]): Promise<void> {
  const { world, checks } = ctx;
  const before = await snapshotDb();
  const books = world.books();
  const callsBefore = world.shippingCalls.length;
  let answers: Answer[] = [];
  await checks.run("isolation", `${key}: shop B gets a not-found for shop A's ids`, async () => {
    answers = await testCase.attempt(ctx);
  });
  if (testCase.drain) await world.drainJobs();
  const after = await snapshotDb();
  await checks.run("isolation", `${key}: changes nothing`, () => {
    if (testCase.writesOwnRows) expectUnchanged(withoutShop(before, SHOP_B), withoutShop(after, SHOP_B), key);
    else expectUnchanged(before, after, key);
  });
  // Every opening of a ship-to is logged under its shop (ADR 28): B's attempt opened none of A's.
  // (A case that runs the worker may run A's own recovery work, which reads A's labels.)
  if (!testCase.drain) {
    await checks.run("isolation", `${key}: opens none of shop A's customers' details`, () => {
      const openedOfA = (snapshot: Snapshot) =>
        (snapshot.PersonalDataAccess ?? []).filter((row) => row.shop === SHOP_A).length;
      expect(openedOfA(after)).toBe(openedOfA(before));
    });
  }
  await checks.run("isolation", `${key}: costs nothing`, () => {
    expect(world.books()).toEqual(books);
    const withKeyA = world.shippingCalls.slice(callsBefore).filter((c) => c.key === KEY_A);
    expect(withKeyA, "calls made with shop A's key").toEqual([]);
  });
  await checks.run("isolation", `${key}: answers hold nothing of shop A's`, () => {
    for (const answer of answers) expect(leakedIn(answer.text, secretsOfA)).toEqual([]);
  });
}

async function seed(): Promise<Context & { secretsOfA: string[] }> {
  const world = createWorld();
  const a = await seedShopA(world);
  await saveKey("B");
  // B's sessions exist from here on: the snapshots before each attempt include them.
  const secretsOfA = await identifiersOfA(a);
  const { action } = await route("app.orders.$orderId");
  const label = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
  const fields = {
    intent: "get-rates",
    fulfillmentOrderId: label.fulfillmentOrderGid,
    request: openPersonalOrNull(label.request) ?? "{}",
  };
  const quoted = await invoke(action, postFormAs(`/app/orders/${a.ownOrderId}`, fields, asA()), {
    orderId: a.ownOrderId,
  });
  const ownRate = JSON.stringify((quoted.json as { rates: unknown[] }).rates[0]);
  return { world, a, checks: createChecks(), secretsOfA, ownRate };
}

describe("isolation between shops", () => {
  it("covers every route handler, or says why it does not apply", async () => {
    const checks = createChecks();
    await checks.run("isolation", "every route handler has an isolation case", async () => {
      expect(await coverageGaps("isolation", Object.keys(cases))).toEqual({ missing: [], stale: [], both: [] });
    });
    checks.assertAllPassed();
  });

  it("shop B's valid session finds none of shop A's orders, labels, runs or settings, changes nothing and costs nothing", async () => {
    const ctx = await seed();
    for (const [key, testCase] of Object.entries(cases)) {
      if (key.startsWith("webhooks.")) continue;
      await runCase(key, testCase, ctx, ctx.secretsOfA);
    }
    // What B's own run over A's order came to: skipped, nothing of A's in it.
    const runsOfB = await db.bulkRunItem.findMany({ where: { shop: SHOP_B } });
    expect(runsOfB.map((i) => i.status)).toEqual(runsOfB.map(() => "skipped"));
    ctx.checks.assertAllPassed();
  }, 60_000);

  it("shop B's genuine webhooks naming shop A's orders, fulfillment orders and labels leave shop A's rows alone", async () => {
    const ctx = await seed();
    for (const [key, testCase] of Object.entries(cases)) {
      if (!key.startsWith("webhooks.")) continue;
      await runCase(key, testCase, ctx, ctx.secretsOfA);
    }
    // The reports are sealed (ADR 28): what they say is read opened.
    const report = (await db.customerDataRequest.findMany({ where: { shop: SHOP_B } })).map((row) =>
      openPersonalOrNull(row.report),
    );
    expect(leakedIn(JSON.stringify(report), ctx.secretsOfA)).toEqual([]);
    expect(await db.label.count({ where: { shop: SHOP_A } })).toBeGreaterThan(0);
    ctx.checks.assertAllPassed();
  }, 60_000);
});
