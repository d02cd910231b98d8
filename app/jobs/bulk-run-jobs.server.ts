import type { Prisma } from "@prisma/client";
import { z } from "zod";

import { buyBulkRunItem } from "~/bulk/bulk-buying.server";
import { BULK_SHIPPING_CONCURRENCY } from "~/bulk/bulk-run-eta";
import { canReadAlone, readRunOrders } from "~/bulk/bulk-run-reads.server";
import { checkBulkRunItem, giveUpBulkCheck } from "~/bulk/bulk-runs.server";
import { createCallLimiter } from "~/shipping/call-limiter";
import type { ShippingClient } from "~/shipping/client.server";

import { type JobDefinition, type JobKind, PermanentJobError } from "../queue/job-queue";
import { enqueueJob } from "../queue/queue.server";
import { defineShopJob, type ShopJobDeps } from "./define-shop-job.server";
import { JobFailedError, jobOutcomeOf } from "./job-outcome";

// A bulk run's items go through the queue: `bulk-check` reads, prefills and drafts one selected
// order (free), `bulk-buy` buys one confirmed item and writes its tracking back. Concurrency is
// per worker process; the shipping client honours 429 Retry-After and the Admin client Shopify's
// cost throttle, and a job that still fails is retried with backoff. A worker killed mid-item
// leaves the job to another after its lease: both steps are safe to run twice.

const ItemPayloadSchema = z.object({ itemId: z.string().min(1) });
export type BulkItemPayload = z.infer<typeof ItemPayloadSchema>;

export const BULK_CHECK_JOB: JobKind<BulkItemPayload> = {
  name: "bulk-check",
  payloadSchema: ItemPayloadSchema,
  maxAttempts: 8,
};
export const BULK_BUY_JOB: JobKind<BulkItemPayload> = {
  name: "bulk-buy",
  payloadSchema: ItemPayloadSchema,
  maxAttempts: 6,
};

export { BULK_SHIPPING_CONCURRENCY };
// More jobs than slots: while one job reads Shopify or writes the database, another's request
// to the shipping service uses the slot (call-limiter.ts).
export const BULK_JOB_CONCURRENCY = 48;
/**
 * A shop's bulk jobs of one kind running at once over every worker (pg-boss counts them): one
 * shop's big run leaves the rest of the workers' slots, their database connections and their CPU
 * to other shops' runs and automatic drafts (ADR 21).
 */
export const BULK_JOBS_PER_SHOP = 16;
/**
 * Of those, what one worker runs: twice its shipping slots, enough to keep them busy while some of
 * its jobs read Shopify or write the database. Without a share the first worker kept a run's 16
 * and its 4 slots served them while the other worker's stood idle: the check phase ran at half
 * speed in about half the runs of bench:bulk.
 */
export const BULK_JOBS_PER_SHOP_PER_WORKER = 2 * BULK_SHIPPING_CONCURRENCY;
const shippingCalls = createCallLimiter(BULK_SHIPPING_CONCURRENCY);

export function enqueueBulkCheck(tx: Prisma.TransactionClient, shop: string, itemId: string) {
  return enqueueJob(tx, BULK_CHECK_JOB, shop, { itemId }, { dedupeKey: itemId });
}

export function enqueueBulkBuy(tx: Prisma.TransactionClient, shop: string, itemId: string) {
  return enqueueJob(tx, BULK_BUY_JOB, shop, { itemId }, { dedupeKey: itemId });
}

export type BulkJobDeps = ShopJobDeps<ShippingClient>;

// What the two bulk jobs share: their concurrency and backoff, and the worker's shipping slots.
const BULK_JOB = {
  concurrency: BULK_JOB_CONCURRENCY,
  perShopConcurrency: BULK_JOBS_PER_SHOP,
  perShopConcurrencyPerWorker: BULK_JOBS_PER_SHOP_PER_WORKER,
  backoff: { baseMs: 5_000, maxMs: 5 * 60_000 },
  slots: shippingCalls,
};

export function createBulkCheckJob(deps: BulkJobDeps): JobDefinition<BulkItemPayload> {
  return defineShopJob(deps, {
    ...BULK_CHECK_JOB,
    ...BULK_JOB,
    maxRunMs: 3 * 60_000,
    run: async (payload, context, { clients }) => {
      const checkDeps = await clients();
      const readRun = (runId: string) =>
        readRunOrders(checkDeps, runId, {
          fetch: globalThis.fetch,
          canReadAlone: () => canReadAlone(context.shop, BULK_JOBS_PER_SHOP),
        });
      const result = await checkBulkRunItem({ ...checkDeps, readRun }, payload.itemId);
      if (result.ok) return;
      const failure = new JobFailedError(result.error);
      // The last attempt, or a failure no retry can help: the item says why instead of holding
      // the whole run in "checking".
      if (context.attempt >= context.maxAttempts || jobOutcomeOf(failure).kind !== "retry") {
        await giveUpBulkCheck(deps.db, context.shop, payload.itemId, result.error.message);
      }
      throw failure;
    },
  });
}

export function createBulkBuyJob(deps: BulkJobDeps): JobDefinition<BulkItemPayload> {
  return defineShopJob(deps, {
    ...BULK_BUY_JOB,
    ...BULK_JOB,
    maxRunMs: 4 * 60_000,
    run: async (payload, context, { clients }) => {
      const { shipping, ...shopClients } = await clients();
      if (!shipping) throw new PermanentJobError(`${context.shop} has no usable shipping API key`);
      return buyBulkRunItem({ ...shopClients, shipping }, payload.itemId, {
        lastAttempt: context.attempt >= context.maxAttempts,
      });
    },
  });
}
