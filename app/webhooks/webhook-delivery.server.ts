import { randomUUID } from "node:crypto";

import type { Prisma, PrismaClient } from "@prisma/client";

import { byDatabase, runByDatabase } from "~/db/database-kind.server";
import { batchEnqueues, endBatchedEnqueues } from "~/queue/pg-boss-batched-enqueue.server";
import { isUniqueViolation } from "~/utils/prisma-errors";

import { createGroupCommit } from "./group-commit";

/** What `authenticate.webhook` tells us about one delivery. */
export type WebhookDelivery = {
  readonly shop: string;
  readonly topic: string;
  /** X-Shopify-Event-Id: the same on every delivery of one event. */
  readonly eventId?: string | undefined;
  /** X-Shopify-Webhook-Id: the fallback key when no event id is sent. */
  readonly webhookId: string;
};

export type DeliveryOutcome<T> = { readonly status: "processed"; readonly value: T } | { readonly status: "duplicate" };

/** Shopify marks a redelivery with the event id of the first delivery; older senders only with the webhook id. */
export function toEventKey(delivery: WebhookDelivery): string {
  return delivery.eventId || delivery.webhookId;
}

/** The delivery's row: one per event of a shop and topic. */
type DeliveryRow = { shop: string; topic: string; eventKey: string };
const rowOf = (delivery: WebhookDelivery): DeliveryRow => ({
  shop: delivery.shop,
  topic: delivery.topic,
  eventKey: toEventKey(delivery),
});
const keyOfRow = (row: DeliveryRow) => JSON.stringify([row.shop, row.topic, row.eventKey]);
const deliveryKeyOf = (delivery: WebhookDelivery) => keyOfRow(rowOf(delivery));

// Prisma rolls an interactive transaction back only when its callback throws. Only the delivery
// row's conflict becomes this, so a unique violation inside the effect still fails the webhook
// (and Shopify retries it) instead of passing for a duplicate.
class DuplicateDelivery extends Error {}

/** The delivery and its effect alone in one transaction. */
async function processAlone<T>(
  db: PrismaClient,
  delivery: WebhookDelivery,
  effect: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<DeliveryOutcome<T>> {
  try {
    return await db.$transaction(async (tx) => {
      await tx.webhookDelivery.create({ data: rowOf(delivery) }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new DuplicateDelivery() : error;
      });
      return { status: "processed" as const, value: await effect(tx) };
    });
  } catch (error) {
    if (error instanceof DuplicateDelivery) return { status: "duplicate" };
    throw error;
  }
}

// Deliveries arriving together share a transaction (group-commit.ts). On SQLite a lone delivery
// is written alone; on PostgreSQL it goes the batch's way too: one statement records it or finds it
// recorded, where the single insert's conflict fails its transaction. (An event another process
// recorded meanwhile is no failure: recordFresh skips it.)
type Pending = {
  readonly delivery: WebhookDelivery;
  readonly effect: (tx: Prisma.TransactionClient) => Promise<unknown>;
};

/** Runs one SQL statement with its placeholders' values in the caller's transaction. */
export type RunSql = (sql: string, values: unknown[]) => Promise<unknown[]>;

/**
 * On PostgreSQL: records the deliveries not recorded before, in the caller's transaction, and
 * returns their keys (as `recordFirstOfEachEvent` keys them). Several web processes write at once: a plain insert of an
 * event another process recorded first would fail and abort the batch's whole transaction. One
 * statement skips those and names what it recorded (and costs one query, where Prisma's read and
 * write cost two).
 */
export async function recordFreshOnPostgresql(
  runSql: RunSql,
  candidates: readonly WebhookDelivery[],
): Promise<Set<string>> {
  const values = candidates.map(rowOf).flatMap((row) => [randomUUID(), row.shop, row.topic, row.eventKey]);
  // The column holds UTC without a zone, as Prisma writes every date: the database's clock, read
  // in UTC, is the same value through Prisma's driver and through `pg` (which would send a Date in
  // the process's own zone).
  const rows = candidates.map(
    (_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, now() AT TIME ZONE 'UTC')`,
  );
  const recorded = (await runSql(
    `INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "eventKey", "receivedAt") VALUES ${rows.join(", ")}
     ON CONFLICT ("shop", "topic", "eventKey") DO NOTHING RETURNING "shop", "topic", "eventKey"`,
    values,
  )) as DeliveryRow[];
  return new Set(recorded.map(keyOfRow));
}

/**
 * Records a batch's deliveries through `record` (it returns the keys of those not recorded before)
 * and answers the items whose delivery it recorded. A repeat inside a batch is the later of two
 * deliveries of one event: the first one counts.
 */
export async function recordFirstOfEachEvent<T>(
  batch: readonly T[],
  deliveryOf: (item: T) => WebhookDelivery,
  record: (deliveries: WebhookDelivery[]) => Promise<Set<string>>,
): Promise<T[]> {
  const first = new Map<string, T>();
  for (const item of batch) {
    const key = deliveryKeyOf(deliveryOf(item));
    if (!first.has(key)) first.set(key, item);
  }
  const recorded = await record([...first.values()].map(deliveryOf));
  return [...first].filter(([key]) => recorded.has(key)).map(([, item]) => item);
}

// Records the batch's deliveries not recorded before and returns their keys.
function recordFresh(tx: Prisma.TransactionClient, candidates: readonly WebhookDelivery[]): Promise<Set<string>> {
  return runByDatabase(tx, {
    // Placeholders only (the generated PostgreSQL client has its own copy of Prisma.sql's class).
    postgresql: () => recordFreshOnPostgresql((sql, values) => tx.$queryRawUnsafe(sql, ...values), candidates),
    // SQLite has one process (ADR 19) and one writer: what is not there now is not written meanwhile.
    sqlite: async () => {
      const rows = candidates.map(rowOf);
      const existing = await tx.webhookDelivery.findMany({
        where: { OR: rows },
        select: { shop: true, topic: true, eventKey: true },
      });
      const taken = new Set(existing.map(keyOfRow));
      const fresh = rows.filter((row) => !taken.has(keyOfRow(row)));
      await tx.webhookDelivery.createMany({ data: fresh });
      return new Set(fresh.map(keyOfRow));
    },
  });
}

// The batch's effects: side by side on PostgreSQL, so the jobs they enqueue go out as one insert
// (pg-boss-batched-enqueue.server.ts); their order within a batch carries no meaning (Shopify
// promises none, and two web processes already run deliveries of one shop at once). SQLite's one
// connection runs them one after another.
async function runEffects(tx: Prisma.TransactionClient, fresh: readonly Pending[]): Promise<unknown[]> {
  return runByDatabase(tx, {
    sqlite: async () => {
      const values: unknown[] = [];
      for (const pending of fresh) values.push(await pending.effect(tx));
      return values;
    },
    postgresql: async () => {
      batchEnqueues(tx);
      try {
        const settled = await Promise.allSettled(fresh.map((pending) => pending.effect(tx)));
        return settled.map((result) => {
          if (result.status === "rejected") throw result.reason;
          return result.value;
        });
      } finally {
        endBatchedEnqueues(tx);
      }
    },
  });
}

async function processBatch(db: PrismaClient, batch: readonly Pending[]): Promise<DeliveryOutcome<unknown>[]> {
  return db.$transaction(async (tx) => {
    const fresh = await recordFirstOfEachEvent(
      batch,
      (pending) => pending.delivery,
      (deliveries) => recordFresh(tx, deliveries),
    );
    const values = await runEffects(tx, fresh);
    const outcomes = new Map<Pending, DeliveryOutcome<unknown>>(
      fresh.map((pending, i) => [pending, { status: "processed", value: values[i] }]),
    );
    return batch.map((pending) => outcomes.get(pending) ?? { status: "duplicate" });
  });
}

function createBatcher(db: PrismaClient) {
  return createGroupCommit<Pending, DeliveryOutcome<unknown>>({
    writeBatch: (batch) => processBatch(db, batch),
    writeAlone: (pending) => processAlone(db, pending.delivery, pending.effect),
    batchOne: byDatabase(db, { sqlite: false, postgresql: true }),
  });
}

const batchers = new WeakMap<PrismaClient, ReturnType<typeof createBatcher>>();

/**
 * Runs `effect` for the first delivery of a webhook event and skips every redelivery.
 *
 * Shopify delivers at least once, so a redelivery can arrive after the shop has moved on (an
 * uninstall redelivered after a reinstall). The delivery row and the effect commit in one
 * transaction: a crash in between rolls both back and the redelivery runs the effect, and a
 * redelivery racing the first one fails on the unique (shop, topic, eventKey) before its effect runs.
 * Deliveries arriving together share a transaction (group-commit.ts); `effect` may run again
 * alone after its batch failed, so it must only write through `tx`.
 */
export function processDeliveryOnce<T>(
  db: PrismaClient,
  delivery: WebhookDelivery,
  effect: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<DeliveryOutcome<T>> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = createBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher({ delivery, effect }) as Promise<DeliveryOutcome<T>>;
}
