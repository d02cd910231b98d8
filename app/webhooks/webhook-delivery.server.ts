import { randomUUID } from "node:crypto";

import type { Prisma, PrismaClient } from "@prisma/client";

import { batchEnqueues, endBatchedEnqueues } from "~/jobs/pg-boss-batched-enqueue.server";
import { providerOf } from "~/jobs/prisma-job-queue.server";
import { isUniqueViolation } from "~/utils/prisma-errors";

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
const keyOf = (delivery: WebhookDelivery) => keyOfRow(rowOf(delivery));

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

// Group commit. SQLite takes one writer at a time and a transaction costs far more than the few
// rows a delivery writes, so a burst (Shopify sends hundreds a second on a flash sale) acknowledged
// one transaction each queues up behind the write lock until Shopify's 5-second timeout. Deliveries
// that arrive while a transaction is being written wait for the next one, which takes all of them:
// no timer and no added wait when they come one by one, bigger batches when they pile up.
// A batch is all or nothing; when it fails, each of its deliveries is tried alone, so one
// failing effect fails only itself. (An event another process recorded meanwhile is no failure:
// recordFresh skips it.)
const MAX_BATCH = 100;

type Pending = {
  readonly delivery: WebhookDelivery;
  readonly effect: (tx: Prisma.TransactionClient) => Promise<unknown>;
  readonly settle: (outcome: Promise<DeliveryOutcome<unknown>>) => void;
};

// Records the batch's deliveries not recorded before and returns their keys.
async function recordFresh(tx: Prisma.TransactionClient, candidates: readonly WebhookDelivery[]): Promise<Set<string>> {
  if (providerOf(tx) === "postgresql") {
    // Several web processes write at once: a plain insert of an event another process recorded
    // first would fail and abort the batch's whole transaction. One statement skips those and
    // names what it recorded (and costs one query, where Prisma's read and write cost two).
    // Placeholders only (the generated PostgreSQL client has its own copy of Prisma.sql's class).
    const values = candidates
      .map(rowOf)
      .flatMap((row) => [randomUUID(), row.shop, row.topic, row.eventKey, new Date()]);
    const rows = candidates.map(
      (_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`,
    );
    const recorded = await tx.$queryRawUnsafe<DeliveryRow[]>(
      `INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "eventKey", "receivedAt") VALUES ${rows.join(", ")}
       ON CONFLICT ("shop", "topic", "eventKey") DO NOTHING RETURNING "shop", "topic", "eventKey"`,
      ...values,
    );
    return new Set(recorded.map(keyOfRow));
  }
  // SQLite has one process (ADR 19) and one writer: what is not there now is not written meanwhile.
  const rows = candidates.map(rowOf);
  const existing = await tx.webhookDelivery.findMany({
    where: { OR: rows },
    select: { shop: true, topic: true, eventKey: true },
  });
  const taken = new Set(existing.map(keyOfRow));
  const fresh = rows.filter((row) => !taken.has(keyOfRow(row)));
  await tx.webhookDelivery.createMany({ data: fresh });
  return new Set(fresh.map(keyOfRow));
}

async function processBatch(db: PrismaClient, batch: readonly Pending[]): Promise<DeliveryOutcome<unknown>[]> {
  return db.$transaction(async (tx) => {
    // A repeat inside the batch is the later of two deliveries of one event: the first one counts.
    const firstOfEvent = new Map<string, Pending>();
    for (const pending of batch) {
      const key = keyOf(pending.delivery);
      if (!firstOfEvent.has(key)) firstOfEvent.set(key, pending);
    }
    const recorded = await recordFresh(
      tx,
      [...firstOfEvent.values()].map((pending) => pending.delivery),
    );
    const fresh = [...firstOfEvent].filter(([key]) => recorded.has(key)).map(([, pending]) => pending);
    const outcomes = new Map<Pending, DeliveryOutcome<unknown>>();
    if (providerOf(tx) === "postgresql") {
      // Side by side, so the jobs they enqueue go out as one insert (pg-boss-batched-enqueue.server.ts).
      // Their order within a batch carries no meaning: Shopify promises none, and two web
      // processes already run deliveries of one shop at once.
      batchEnqueues(tx);
      try {
        const settled = await Promise.allSettled(fresh.map((pending) => pending.effect(tx)));
        settled.forEach((result, i) => {
          if (result.status === "rejected") throw result.reason;
          outcomes.set(fresh[i] as Pending, { status: "processed", value: result.value });
        });
      } finally {
        endBatchedEnqueues(tx);
      }
    } else {
      for (const pending of fresh) outcomes.set(pending, { status: "processed", value: await pending.effect(tx) });
    }
    return batch.map((pending) => outcomes.get(pending) ?? { status: "duplicate" });
  });
}

function createBatcher(db: PrismaClient) {
  let waiting: Pending[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MAX_BATCH);
        waiting = waiting.slice(MAX_BATCH);
        // On PostgreSQL one delivery goes the batch's way too: one statement records it or finds
        // it recorded, where the single insert's conflict fails its transaction.
        if (batch.length > 1 || providerOf(db) === "postgresql") {
          const attempt = processBatch(db, batch);
          const outcomes = await attempt.catch(() => undefined);
          if (outcomes) {
            batch.forEach((pending, i) => pending.settle(Promise.resolve(outcomes[i] as DeliveryOutcome<unknown>)));
            continue;
          }
          // A delivery that was alone in its batch failed on its own: trying it alone again would
          // only run its effect twice.
          const [only] = batch;
          if (only && batch.length === 1) {
            only.settle(attempt.then((alone) => alone[0] as DeliveryOutcome<unknown>));
            continue;
          }
        }
        for (const pending of batch) {
          const outcome = processAlone(db, pending.delivery, pending.effect);
          pending.settle(outcome);
          await outcome.catch(() => {}); // its caller sees the failure; the next one is written after it
        }
      }
    } finally {
      writing = false;
    }
  };
  return <T>(delivery: WebhookDelivery, effect: (tx: Prisma.TransactionClient) => Promise<T>) =>
    new Promise<DeliveryOutcome<T>>((resolve, reject) => {
      waiting.push({
        delivery,
        effect,
        settle: (outcome) => (outcome as Promise<DeliveryOutcome<T>>).then(resolve, reject),
      });
      if (!writing) void drain();
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
 * Deliveries arriving together share a transaction (group commit, above); `effect` may run again
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
  return batcher(delivery, effect);
}
