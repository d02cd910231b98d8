import type { PrismaClient } from "@prisma/client";

import { logFor } from "~/logger.server";
import { type AdminGraphqlClient, createShopifyError, type ShopifyError } from "~/shopify/admin-client";
import { type BulkReadOptions, followOrdersBulkRead, startOrdersBulkRead } from "~/shopify/bulk-orders";
import { type OrderGid, parseOrderGid } from "~/shopify/ids";
import type { ShopifyOrderForLabelResult } from "~/shopify/orders";
import { knownSpare } from "~/shopify/paced-admin-client";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";
import { delay } from "~/utils/delay";
import { err, ok, type Result } from "~/utils/result";

// What a run's checks read from Shopify once for all their orders, in this worker process (ADR 20).
// Read one by one, an order costs about 50 points (OrderForLabel, its fulfillment orders) and the
// shop with its locations 8 more: on Standard's 100 points a second, two orders a second. A run of
// BULK_READ_MIN_ORDERS or more reads its orders with one bulk operation instead (free of query
// cost, a few seconds to complete) and the shop once. Every worker process follows the run's one
// operation (claimRunBulkRead; in a process, the first check job of the run follows it and the
// others wait for that), and keeps its result for KEEP_MS. An order the bulk read did not give,
// or a bulk read that failed, is read on its own as before.
//
// While the bulk operation runs (8 s for 1,000 orders at the emulator, longer on a busy store)
// the checks need not stand idle where the shop's bucket is large: a check reads its order on its
// own when the bucket, as this process's pacer last saw it, holds the pages' reserve plus the
// reads of every check the shop may run at once. Then no check waits for another in the pacer,
// so none delays the bulk operation's own status reads, and the points are back long before the
// run buys (a bucket refills in 20 s on every plan). Plus and Enterprise buckets hold that;
// Standard's and Advanced's do not, and their checks wait for the bulk read as before.

/** From this many orders a run's checks read them with a bulk operation. */
export const BULK_READ_MIN_ORDERS = 20;
// Long enough for the checks of a run that was retried later to read afresh.
const KEEP_MS = 10 * 60_000;
/**
 * What one check's own reads ask of the bucket: OrderForLabel, its fulfillment orders and the shop
 * with its locations, at Shopify's requested cost (test/query-cost.test.ts keeps it true).
 */
export const CHECK_READS_REQUESTED_COST = 820;
// How often a waiting check looks at the bucket again (a reading check's answer refills the estimate).
const SPARE_POLL_MS = 250;

export type RunReads = {
  readonly orders: ReadonlyMap<OrderGid, ShopifyOrderForLabelResult>;
  readonly shopAndLocations: ShopifyShopAndLocations | null;
};

type Entry = { at: number; reads: Promise<RunReads | null>; settled: boolean };
const byRun = new Map<string, Entry>();

export type RunReadDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

// A run has one bulk operation, whichever worker process's check asks first: Shopify runs at most
// five of a shop's bulk queries at once (API 2026-01 on), and one a process would pass that with
// three workers and two runs, sending the rest to read their orders one by one. A process claims
// the run's read in its row and records the operation it started; the others follow it. The read
// is claimed afresh when the claim is older than KEEP_MS (this process's own reads expire then),
// when the claimant's start failed (each process tries once, as when each read for itself), and
// when the claimant recorded nothing within CLAIM_WAIT_MS (it stopped between its claim and
// Shopify's answer).
const FAILED_OPERATION = "failed";
const CLAIM_WAIT_MS = 30_000;

export async function claimRunBulkRead(
  deps: RunReadDeps,
  runId: string,
  orderGids: readonly OrderGid[],
  options: BulkReadOptions,
): Promise<Result<string, ShopifyError>> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? delay;
  const run = { id: runId, shop: deps.shop };
  // Long enough for a claimant that stopped to be overtaken, and for that one's start.
  const deadline = now() + 2 * CLAIM_WAIT_MS;
  for (;;) {
    const claimedAt = new Date(now());
    const claimed = await deps.db.bulkRun.updateMany({
      where: {
        ...run,
        OR: [
          { bulkReadClaimedAt: null },
          { bulkReadClaimedAt: { lt: new Date(now() - KEEP_MS) } },
          { bulkReadOperation: FAILED_OPERATION },
          { bulkReadOperation: null, bulkReadClaimedAt: { lt: new Date(now() - CLAIM_WAIT_MS) } },
        ],
      },
      data: { bulkReadClaimedAt: claimedAt, bulkReadOperation: null },
    });
    if (claimed.count === 1) return startClaimedBulkRead(deps, run, claimedAt, orderGids);
    const row = await deps.db.bulkRun.findFirst({ where: run, select: { bulkReadOperation: true } });
    const operation = row?.bulkReadOperation;
    if (operation && operation !== FAILED_OPERATION) return ok(operation);
    if (!row || now() >= deadline) {
      return err(createShopifyError("NETWORK_ERROR", `bulk read of run ${runId}: no operation started for it`));
    }
    await sleep(options.pollMs ?? 1_000);
  }
}

async function startClaimedBulkRead(
  deps: RunReadDeps,
  run: { id: string; shop: string },
  claimedAt: Date,
  orderGids: readonly OrderGid[],
): Promise<Result<string, ShopifyError>> {
  let operation = FAILED_OPERATION;
  try {
    const started = await startOrdersBulkRead(deps.admin, orderGids);
    if (started.ok) operation = started.value;
    return started;
  } finally {
    // Only while the claim is still this one's: a process that overtook a claim it took for
    // stopped keeps its own operation.
    await deps.db.bulkRun.updateMany({
      where: { ...run, bulkReadClaimedAt: claimedAt },
      data: { bulkReadOperation: operation },
    });
  }
}

async function readRun(deps: RunReadDeps, runId: string, options: BulkReadOptions): Promise<RunReads | null> {
  const rows = await deps.db.bulkRunItem.findMany({
    where: { runId, shop: deps.shop },
    select: { orderGid: true },
    distinct: ["orderGid"],
  });
  const orderGids = rows.flatMap((r) => {
    const gid = parseOrderGid(r.orderGid);
    return gid ? [gid] : [];
  });
  if (orderGids.length < BULK_READ_MIN_ORDERS) return null;
  const [orders, shop] = await Promise.all([
    claimRunBulkRead(deps, runId, orderGids, options).then((operation) =>
      operation.ok ? followOrdersBulkRead(deps.admin, operation.value, options) : operation,
    ),
    getShopAndLocations(deps.admin),
  ]);
  if (!orders.ok) {
    logFor({ shop: deps.shop }).info(`bulk run ${runId}: reading orders one by one (${orders.error.logMessage})`);
  }
  return { orders: orders.ok ? orders.value : new Map(), shopAndLocations: shop.ok ? shop.value : null };
}

/**
 * Whether the shop's bucket, as this process's pacer last saw it, holds the pages' reserve and
 * the own reads of `checksAtOnce` checks.
 */
export function canReadAlone(shop: string, checksAtOnce: number): boolean {
  const spare = knownSpare(shop);
  return spare !== null && spare >= checksAtOnce * CHECK_READS_REQUESTED_COST;
}

export type RunReadOptions = BulkReadOptions & {
  now?: () => number;
  /** Asked while the bulk read runs: true lets the caller read its order alone (default: never). */
  canReadAlone?: () => boolean;
};

/**
 * The run's orders and shop as one read gave them, for its checks in this process; null for a
 * small run, or while the bulk read runs and `canReadAlone` says yes: the caller then reads its
 * order itself. Concurrent callers share one read.
 */
export async function readRunOrders(
  deps: RunReadDeps,
  runId: string,
  options: RunReadOptions,
): Promise<RunReads | null> {
  const now = (options.now ?? Date.now)();
  for (const [id, entry] of byRun) if (now - entry.at > KEEP_MS) byRun.delete(id);
  let entry = byRun.get(runId);
  if (!entry) {
    const started: Entry = { at: now, settled: false, reads: readRun(deps, runId, options).catch(() => null) };
    void started.reads.finally(() => (started.settled = true));
    byRun.set(runId, (entry = started));
  }
  const spare = options.canReadAlone ?? (() => false);
  const sleep = options.sleep ?? delay;
  while (!entry.settled) {
    if (spare()) return null;
    await Promise.race([entry.reads, sleep(SPARE_POLL_MS)]);
  }
  return entry.reads;
}
