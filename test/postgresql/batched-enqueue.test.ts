import { randomUUID } from "node:crypto";

import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { PG_BOSS_SCHEMA } from "~/queue/pg-boss-job-queue.server";
import { pgBossFor } from "~/queue/queue.server";
import { handleFulfillmentOrderWebhook } from "~/webhooks/order-webhooks.server";

import { TEST_SHOP } from "../setup/test-env";

// A batch of webhook deliveries (group commit) enqueues its automatic drafts as one pg-boss insert
// inside the batch's transaction, and answers each delivery with its job, or with the job already
// holding its fulfillment order, as one send a job would.

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("postgresql://")) throw new Error("run with `npm run test:postgres`");

const ready = (fulfillmentOrder: number) =>
  handleFulfillmentOrderWebhook(
    db,
    {
      shop: TEST_SHOP,
      // Released holds go through processDeliveryOnce's Prisma transaction (the other ready topics
      // are recorded outside Prisma, test/postgresql/ready-deliveries.test.ts).
      topic: "FULFILLMENT_ORDERS_HOLD_RELEASED",
      eventId: randomUUID(),
      webhookId: randomUUID(),
    },
    { fulfillment_order: { id: `gid://shopify/FulfillmentOrder/${fulfillmentOrder}`, status: "open" } },
  );

const jobsOf = (outcome: Awaited<ReturnType<typeof ready>>) =>
  outcome.status === "processed" && outcome.value.ok && outcome.value.value.action === "enqueued"
    ? outcome.value.value.jobs
    : [];

describe("a batch of deliveries enqueuing jobs", () => {
  it("inserts the batch's jobs together, one per fulfillment order, and names each delivery's job", async () => {
    await db.shopSettings.create({ data: { shop: TEST_SHOP, autoDraft: true } });
    const boss = await pgBossFor(url, { supervise: false });
    const insert = vi.spyOn(boss, "insert");
    const send = vi.spyOn(boss, "send");

    // The first delivery goes alone; the next five arrive while it is written and share a batch,
    // two of them for one fulfillment order (two events Shopify sent for it).
    const outcomes = await Promise.all([101, 102, 103, 104, 105, 103].map(ready));

    const jobIds = outcomes.map(jobsOf);
    expect(jobIds.every((ids) => ids.length === 1)).toBe(true);
    const [first, ...rest] = jobIds.map((ids) => ids[0] as string);
    expect(new Set(rest.slice(0, 4)).size).toBe(4);
    // The second event of fulfillment order 103 gets the job the first one made.
    expect(rest[4]).toBe(rest[1]);
    const { rows } = await boss
      .getDb()
      .executeSql(
        `SELECT id::text AS id, data->'payload'->>'fulfillmentOrderGid' AS gid FROM ${PG_BOSS_SCHEMA}.job WHERE name = 'auto-draft'`,
      );
    const stored = new Map((rows as { id: string; gid: string }[]).map((row) => [row.id, row.gid]));
    expect(stored.size).toBe(5);
    expect([first, ...rest].map((id) => stored.get(id as string))).toEqual(
      [101, 102, 103, 104, 105, 103].map((n) => `gid://shopify/FulfillmentOrder/${n}`),
    );
    // Two batches: the first delivery's, then the five together, as one statement.
    expect(send).not.toHaveBeenCalled();
    expect(insert.mock.calls.map((call) => (call[1] as unknown[]).length)).toEqual([1, 5]);
  });
});
