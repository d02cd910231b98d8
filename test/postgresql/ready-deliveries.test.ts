import { randomUUID } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { performance } from "node:perf_hooks";

import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { createPrismaClient, postgresqlPoolOf, READY_LANE_APPLICATION_NAME } from "~/db/client.server";
import { PG_BOSS_SCHEMA } from "~/queue/pg-boss-job-queue.server";
import { pgBossFor } from "~/queue/queue.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";
import { handleFulfillmentOrderWebhook } from "~/webhooks/order-webhooks.server";
import { recordReadyDelivery } from "~/webhooks/ready-deliveries.server";

import { TEST_SHOP } from "../setup/test-env";

// On PostgreSQL the deliveries of fulfillment orders ready to ship are written on a `pg`
// connection, not through Prisma (ADR 25): the same rows, jobs and answers as processDeliveryOnce
// gives the other topics, one transaction for the deliveries that arrive together.

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("postgresql://")) throw new Error("run with `npm run test:postgres`");

const ready = (fulfillmentOrder: number, eventId: string = randomUUID()) =>
  handleFulfillmentOrderWebhook(
    db,
    { shop: TEST_SHOP, topic: "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE", eventId, webhookId: randomUUID() },
    { fulfillment_order: { id: `gid://shopify/FulfillmentOrder/${fulfillmentOrder}`, status: "open" } },
  );

const storedJobs = async () => {
  const boss = await pgBossFor(url, { supervise: false });
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT id::text AS id, data->'payload'->>'fulfillmentOrderGid' AS gid FROM ${PG_BOSS_SCHEMA}.job WHERE name = 'auto-draft'`,
    );
  return new Map((rows as { id: string; gid: string }[]).map((row) => [row.id, row.gid]));
};

afterEach(() => vi.restoreAllMocks());

describe("fulfillment orders ready to ship, on PostgreSQL", () => {
  it("records a batch and enqueues its drafts in one transaction outside Prisma", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: true } });
    const boss = await pgBossFor(url, { supervise: false });
    const insert = vi.spyOn(boss, "insert");
    const transaction = vi.spyOn(db, "$transaction");

    // The first goes alone; the next four share a batch: a repeat of the second's event, and a
    // new event for the third's fulfillment order while its draft is queued.
    const outcomes = await Promise.all([
      ready(101, "e1"),
      ready(102, "e2"),
      ready(103, "e3"),
      ready(102, "e2"),
      ready(103, "e4"),
    ]);

    const jobOf = (i: number) => {
      const outcome = outcomes[i];
      return outcome?.status === "processed" && outcome.value.ok && outcome.value.value.action === "enqueued"
        ? outcome.value.value.jobs[0]
        : undefined;
    };
    expect(outcomes[3]).toEqual({ status: "duplicate" });
    const stored = await storedJobs();
    expect(stored.size).toBe(3);
    expect([0, 1, 2, 4].map((i) => stored.get(jobOf(i) ?? ""))).toEqual(
      [101, 102, 103, 103].map((n) => `gid://shopify/FulfillmentOrder/${n}`),
    );
    expect(jobOf(4)).toBe(jobOf(2));
    expect(insert.mock.calls.map((call) => (call[1] as unknown[]).length)).toEqual([1, 3]);
    expect(transaction).not.toHaveBeenCalled();
    const recorded = await db.webhookDelivery.findMany({ where: { shop: TEST_SHOP }, select: { eventKey: true } });
    expect(recorded.map((row) => row.eventKey).sort()).toEqual(["e1", "e2", "e3", "e4"]);

    // Shopify's retry of an event answered before: nothing again.
    expect(await ready(101, "e1")).toEqual({ status: "duplicate" });
    expect((await storedJobs()).size).toBe(3);
  });

  it("drafts for the shops of a batch that have automatic drafts on, and only those", async () => {
    const OFF_SHOP = "drafts-off.myshopify.com";
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: true } });
    await db.shopSettings.create({ data: { shop: OFF_SHOP, autoDraft: false } });
    const deliver = (shop: string, fulfillmentOrder: number) =>
      handleFulfillmentOrderWebhook(
        db,
        { shop, topic: "FULFILLMENT_ORDERS_SCHEDULED_FULFILLMENT_ORDER_READY", eventId: randomUUID(), webhookId: "w" },
        { fulfillment_order: { id: `gid://shopify/FulfillmentOrder/${fulfillmentOrder}` } },
      );
    const outcomes = await Promise.all([deliver(TEST_SHOP, 301), deliver(OFF_SHOP, 302), deliver(TEST_SHOP, 303)]);
    expect(outcomes.map((o) => o.status === "processed" && o.value.ok && o.value.value.action)).toEqual([
      "enqueued",
      "ignored",
      "enqueued",
    ]);
    expect([...(await storedJobs()).values()].sort()).toEqual([
      "gid://shopify/FulfillmentOrder/301",
      "gid://shopify/FulfillmentOrder/303",
    ]);
    // Every delivery recorded, the shop's off or not.
    expect(await db.webhookDelivery.count()).toBe(3);
  });

  it("records the delivery and enqueues nothing while the shop's automatic drafts are off", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: false } });
    expect(await ready(201, "off")).toEqual({
      status: "processed",
      value: { ok: true, value: { action: "ignored", reason: "automatic drafts are off" } },
    });
    expect(await db.webhookDelivery.count({ where: { shop: TEST_SHOP, eventKey: "off" } })).toBe(1);
    expect((await storedJobs()).size).toBe(0);
  });
});

// Issue 39: while the server restarts, its connections are cut or a statement is stuck, a batch
// fails fast enough for the route to answer Shopify non-2xx within its 5 s (Shopify then retries),
// and the next batch gets a connection again.
describe("the ready lane when the database fails", () => {
  const SHOPIFY_TIMEOUT_MS = 5_000;
  const delivery = (eventId: string) => ({
    delivery: { shop: TEST_SHOP, topic: "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE", eventId, webhookId: randomUUID() },
    fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/901" as FulfillmentOrderGid,
  });
  const timed = async (work: Promise<unknown>) => {
    const started = performance.now();
    const outcome = await work.then(
      () => "answered",
      () => "failed",
    );
    return { outcome, ms: performance.now() - started };
  };

  it("fails a batch within Shopify's 5 s when the server accepts connections and never answers", async () => {
    const silent = new Set<Socket>();
    const server = createServer((socket) => silent.add(socket));
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const port = (server.address() as { port: number }).port;
    const unanswered = createPrismaClient(`postgresql://postgres@127.0.0.1:${port}/none`);
    try {
      const pool = postgresqlPoolOf(unanswered);
      if (!pool) throw new Error("no pool on PostgreSQL");
      const { outcome, ms } = await timed(recordReadyDelivery(pool, delivery("silent")));
      expect(outcome).toBe("failed");
      expect(ms).toBeLessThan(SHOPIFY_TIMEOUT_MS - 1_000);
    } finally {
      for (const socket of silent) socket.destroy();
      server.close();
    }
  });

  it("fails a batch stuck behind another session's lock in time, and writes the next one", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: false } });
    const pool = postgresqlPoolOf(db);
    if (!pool) throw new Error("no pool on PostgreSQL");
    // Another process's transaction holds the row this delivery's insert must wait for.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "eventKey", "receivedAt") VALUES ($1, $2, $3, $4, now())`,
        [randomUUID(), TEST_SHOP, "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE", "locked"],
      );
      const { outcome, ms } = await timed(recordReadyDelivery(pool, delivery("locked")));
      expect(outcome).toBe("failed");
      expect(ms).toBeLessThan(SHOPIFY_TIMEOUT_MS - 1_000);
      await other.query("ROLLBACK");
    } finally {
      await other.end();
    }
    // Shopify's retry is written.
    expect(await recordReadyDelivery(pool, delivery("locked"))).toMatchObject({ status: "processed" });
  });

  it("gets a connection again after its session was terminated", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: false } });
    const pool = postgresqlPoolOf(db);
    if (!pool) throw new Error("no pool on PostgreSQL");
    expect(await recordReadyDelivery(pool, delivery("before"))).toMatchObject({ status: "processed" });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [
        READY_LANE_APPLICATION_NAME,
      ]);
    } finally {
      await admin.end();
    }
    // The ended connection's error reaches the pool, which drops it; the next batch connects anew.
    await new Promise((r) => setTimeout(r, 200));
    expect(await recordReadyDelivery(pool, delivery("after"))).toMatchObject({ status: "processed" });
  });
});
