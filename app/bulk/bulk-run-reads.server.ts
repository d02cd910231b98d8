import type { PrismaClient } from "@prisma/client";

import { logFor } from "~/logger.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { type BulkReadOptions, readOrdersInBulk } from "~/shopify/bulk-orders";
import { type OrderGid, parseOrderGid } from "~/shopify/ids";
import type { ShopifyOrderForLabelResult } from "~/shopify/orders";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";

// What a run's checks read from Shopify once for all their orders, in this worker process (ADR 20).
// Read one by one, an order costs about 50 points (OrderForLabel, its fulfillment orders) and the
// shop with its locations 8 more: on Standard's 100 points a second, two orders a second. A run of
// BULK_READ_MIN_ORDERS or more reads its orders with one bulk operation instead (free of query
// cost, a few seconds to complete) and the shop once. Each worker process reads for itself (the
// first check job of the run starts it, the others wait for it); a restart reads again. An order
// the bulk read did not give, or a bulk read that failed, is read on its own as before.

/** From this many orders a run's checks read them with a bulk operation. */
export const BULK_READ_MIN_ORDERS = 20;
// Long enough for the checks of a run that was retried later to read afresh.
const KEEP_MS = 10 * 60_000;

export type RunReads = {
  readonly orders: ReadonlyMap<OrderGid, ShopifyOrderForLabelResult>;
  readonly shopAndLocations: ShopifyShopAndLocations | null;
};

type Entry = { at: number; reads: Promise<RunReads | null> };
const byRun = new Map<string, Entry>();

export type RunReadDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

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
    readOrdersInBulk(deps.admin, orderGids, options),
    getShopAndLocations(deps.admin),
  ]);
  if (!orders.ok) {
    logFor({ shop: deps.shop }).info(`bulk run ${runId}: reading orders one by one (${orders.error.logMessage})`);
  }
  return { orders: orders.ok ? orders.value : new Map(), shopAndLocations: shop.ok ? shop.value : null };
}

/**
 * The run's orders and shop as one read gave them, for its checks in this process; null for a
 * small run (its checks read each order). Concurrent callers share one read.
 */
export function readRunOrders(
  deps: RunReadDeps,
  runId: string,
  options: BulkReadOptions & { now?: () => number },
): Promise<RunReads | null> {
  const now = (options.now ?? Date.now)();
  for (const [id, entry] of byRun) if (now - entry.at > KEEP_MS) byRun.delete(id);
  const known = byRun.get(runId);
  if (known) return known.reads;
  const reads = readRun(deps, runId, options).catch(() => null);
  byRun.set(runId, { at: now, reads });
  return reads;
}
