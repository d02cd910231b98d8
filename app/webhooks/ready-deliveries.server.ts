import type pg from "pg";

import { isConnectionLost } from "~/db/client.server";
import { enqueueAutoDrafts } from "~/jobs/order-change-jobs.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";
import { ok, type Result } from "~/utils/result";

import { createGroupCommit } from "./group-commit";
import type { OrderWebhookAction, OrderWebhookError } from "./order-webhooks.server";
import {
  type DeliveryOutcome,
  recordFirstOfEachEvent,
  recordFreshOnPostgresql,
  type RunSql,
  type WebhookDelivery,
} from "./webhook-delivery.server";

// A fulfillment order ready to ship, on PostgreSQL (ADR 25). These are most of what a flash sale
// sends, each one a possible automatic draft, and Shopify wants each answered within 5 seconds.
// Through Prisma a batch of them cost a web process ~1.5 ms of CPU a delivery and most of what its
// garbage collector kept; here the same statements (the delivery rows, the shops' switches, one
// pg-boss insert) run on a `pg` connection, in one transaction a batch, for a fifth of that.
// The outcome is the one processDeliveryOnce's effect gives (order-webhooks.server.ts): the webhook
// tests expect the same on SQLite, which takes that path, and on PostgreSQL, which takes this one.

export type ReadyDelivery = {
  readonly delivery: WebhookDelivery;
  readonly fulfillmentOrderGid: FulfillmentOrderGid;
};

export type ReadyOutcome = DeliveryOutcome<Result<OrderWebhookAction, OrderWebhookError>>;

/** A ready fulfillment order of a shop whose automatic drafts are off: recorded, and nothing to do. */
export const AUTO_DRAFTS_OFF: OrderWebhookAction = { action: "ignored", reason: "automatic drafts are off" };

// pg's own client-side timeout (query_timeout) and the server's statement_timeout (57014).
const isTimeout = (error: unknown) =>
  error instanceof Error &&
  (/Query read timeout/.test(error.message) || (error as { code?: unknown }).code === "57014");

async function inTransaction<T>(pool: pg.Pool, work: (runSql: RunSql, client: pg.PoolClient) => Promise<T>) {
  const client = await pool.connect();
  let broken = false;
  // The pool listens for errors of idle connections only: one that drops while checked out (a
  // server restart) would otherwise end the process. Its query fails too, and the batch with it.
  const onError = () => (broken = true);
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const value = await work(async (sql, values) => (await client.query(sql, values)).rows, client);
    await client.query("COMMIT");
    return value;
  } catch (error) {
    // A connection lost or a statement timed out: closing the connection rolls the transaction
    // back on the server, where a ROLLBACK would wait behind the stuck statement (or fail) and
    // take the rest of Shopify's 5 s. A connection that cannot roll back is not given back either.
    if (broken || isConnectionLost(error) || isTimeout(error)) broken = true;
    else await client.query("ROLLBACK").catch(() => (broken = true));
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

async function writeReadyBatch(pool: pg.Pool, batch: readonly ReadyDelivery[]): Promise<ReadyOutcome[]> {
  return inTransaction(pool, async (runSql, client) => {
    const fresh = await recordFirstOfEachEvent(
      batch,
      (ready) => ready.delivery,
      (deliveries) => recordFreshOnPostgresql(runSql, deliveries),
    );
    const shops = [...new Set(fresh.map((ready) => ready.delivery.shop))];
    const drafting = new Set(
      shops.length === 0
        ? []
        : (
            (await runSql(`SELECT "shop" FROM "ShopSettings" WHERE "autoDraft" AND "shop" = ANY($1::text[])`, [
              shops,
            ])) as { shop: string }[]
          ).map((row) => row.shop),
    );
    const toDraft = fresh.filter((ready) => drafting.has(ready.delivery.shop));
    const jobs = await enqueueAutoDrafts(
      { executeSql: (sql, values) => client.query(sql, values) },
      toDraft.map(({ delivery, fulfillmentOrderGid }) => ({
        shop: delivery.shop,
        fulfillmentOrderGid,
        trigger: delivery.topic,
      })),
    );
    const outcomes = new Map<ReadyDelivery, ReadyOutcome>();
    fresh.forEach((ready) =>
      outcomes.set(ready, {
        status: "processed",
        value: ok(AUTO_DRAFTS_OFF),
      }),
    );
    jobs.forEach((job, i) =>
      outcomes.set(toDraft[i] as ReadyDelivery, {
        status: "processed",
        value: ok({ action: "enqueued", jobs: [job.jobId] }),
      }),
    );
    return batch.map((ready) => outcomes.get(ready) ?? { status: "duplicate" });
  });
}

const lanes = new WeakMap<pg.Pool, (ready: ReadyDelivery) => Promise<ReadyOutcome>>();

/**
 * Records a ready fulfillment order's delivery once and enqueues its automatic draft when the
 * shop has them on, in one transaction with the deliveries that arrive with it.
 */
export function recordReadyDelivery(pool: pg.Pool, ready: ReadyDelivery): Promise<ReadyOutcome> {
  let lane = lanes.get(pool);
  if (!lane) {
    lane = createGroupCommit<ReadyDelivery, ReadyOutcome>({ writeBatch: (batch) => writeReadyBatch(pool, batch) });
    lanes.set(pool, lane);
  }
  return lane(ready);
}
