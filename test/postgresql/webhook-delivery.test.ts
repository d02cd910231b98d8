import { randomUUID } from "node:crypto";

import type { Prisma } from "@prisma/client";
import pg from "pg";
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { processDeliveryOnce, type WebhookDelivery } from "~/webhooks/webhook-delivery.server";

import { TEST_SHOP } from "../setup/test-env";

// On PostgreSQL several web processes record deliveries at once: Shopify sends an event again
// when an answer is late, and the repeat may reach another process while the first is still
// being written there. Deliveries that arrive together share a transaction (group commit); one
// event of the batch recorded by the other process meanwhile must not fail the batch.

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("postgresql://")) throw new Error("run with `npm run test:postgres`");

const delivery = (eventId: string): WebhookDelivery => ({
  shop: TEST_SHOP,
  topic: "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE",
  eventId,
  webhookId: randomUUID(),
});

async function waitForLockWaiter(admin: pg.Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await admin.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (Number(rows[0]?.n) > 0) return;
    if (Date.now() > deadline) throw new Error("no transaction came to wait on the other process's insert");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("recording deliveries beside another web process", () => {
  it("keeps a batch whole when another process records one of its events meanwhile", async () => {
    const other = new pg.Client({ connectionString: url });
    const admin = new pg.Client({ connectionString: url });
    await Promise.all([other.connect(), admin.connect()]);
    try {
      // The other process is recording event "e" and has not committed yet.
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "eventKey", "receivedAt") VALUES ($1, $2, $3, $4, now())`,
        [randomUUID(), TEST_SHOP, "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE", "e"],
      );

      const effects: { eventKey: string; tx: Prisma.TransactionClient }[] = [];
      const effectOf = (eventKey: string) => async (tx: Prisma.TransactionClient) => {
        effects.push({ eventKey, tx });
        return eventKey;
      };
      // "a" goes first and alone; "e", "g" and "h" arrive meanwhile and share the next batch,
      // whose insert waits for the other process's row.
      const outcomes = Promise.all(
        ["a", "e", "g", "h"].map((key) => processDeliveryOnce(db, delivery(key), effectOf(key))),
      );
      await waitForLockWaiter(admin);
      await other.query("COMMIT");

      expect(await outcomes).toEqual([
        { status: "processed", value: "a" },
        { status: "duplicate" },
        { status: "processed", value: "g" },
        { status: "processed", value: "h" },
      ]);
      const g = effects.find((e) => e.eventKey === "g");
      const h = effects.find((e) => e.eventKey === "h");
      // One transaction for both: the batch was not failed and written one delivery at a time.
      expect(g?.tx).toBe(h?.tx);
      expect(effects.map((e) => e.eventKey).sort()).toEqual(["a", "g", "h"]);
      const recorded = await db.webhookDelivery.findMany({ where: { shop: TEST_SHOP }, select: { eventKey: true } });
      expect(recorded.map((r) => r.eventKey).sort()).toEqual(["a", "e", "g", "h"]);
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await Promise.all([other.end(), admin.end()]);
    }
  });

  it("runs a lone delivery's failing effect once, and fails it", async () => {
    let runs = 0;
    const crash = new Error("effect failed");
    const outcome = processDeliveryOnce(db, delivery("lone"), async () => {
      runs += 1;
      throw crash;
    });
    await expect(outcome).rejects.toBe(crash);
    expect(runs).toBe(1);
    expect(await db.webhookDelivery.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });
});
