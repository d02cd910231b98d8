import type { PrismaClient } from "@prisma/client";
import { LRUCache } from "lru-cache";

import { hasSpendingRun } from "~/bulk/bulk-runs.server";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import type { OrderGid } from "~/shopify/ids";
import {
  getOrderListCustomsFacts,
  getOrderListPage,
  type OrderListCustomsFacts,
  type OrderListScope,
  type ShopifyOrderListPage,
} from "~/shopify/order-list";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";
import { err, ok, type Result } from "~/utils/result";

// Shopify's part of the Orders list (a page of orders, the shop and its locations: about 350
// points as Shopify counts actual cost) while one of the shop's bulk runs spends the shop's rate
// limit (ADR 20). The page reloads itself whenever a label changes (every few seconds while a run
// buys), and on Standard's 100 points a second each such read would take 3.5 s of the shop's
// allowance from the run. So while a run is checking or buying, the list reuses what it read from
// Shopify for up to RUN_REUSE_MS and says so; the labels and problems beside each order still come
// from the app's database on every load. Outside runs, every load reads Shopify afresh.

/** How old Shopify's part of the list may be while one of the shop's bulk runs is under way. */
export const RUN_REUSE_MS = 60_000;
// Pages (cursor × search) kept per web process, over all shops.
const MAX_ENTRIES = 500;

export type OrderListShopifyReads = {
  page: ShopifyOrderListPage;
  shopAndLocations: ShopifyShopAndLocations;
  /** When Shopify answered these, in ms since the epoch. */
  readAt: number;
  /** Whether these were read earlier and reused because a bulk run is spending the allowance. */
  reused: boolean;
  /** Whole seconds since Shopify answered. */
  ageSeconds: number;
};

export type OrderListReadInput = {
  after: string | null;
  before: string | null;
  search: string;
  /** Default: the orders awaiting shipment. */
  scope?: OrderListScope;
};

export type OrderListReader = (
  deps: { db: PrismaClient; shop: string; admin: AdminGraphqlClient },
  input: OrderListReadInput,
  options: { reuseDuringRuns: boolean },
) => Promise<Result<OrderListShopifyReads, ShopifyError>>;

export function createOrderListReader(options: { now?: () => number; reuseMs?: number } = {}): OrderListReader {
  const now = options.now ?? Date.now;
  const reuseMs = options.reuseMs ?? RUN_REUSE_MS;
  const kept = new LRUCache<string, Omit<OrderListShopifyReads, "reused" | "ageSeconds">>({ max: MAX_ENTRIES });

  return async (deps, input, { reuseDuringRuns }) => {
    const key = JSON.stringify([deps.shop, input.search, input.after, input.before, input.scope ?? null]);
    if (reuseDuringRuns) {
      const earlier = kept.get(key);
      if (earlier && now() - earlier.readAt <= reuseMs && (await hasSpendingRun(deps.db, deps.shop))) {
        return ok({ ...earlier, reused: true, ageSeconds: Math.floor((now() - earlier.readAt) / 1000) });
      }
    }
    const [page, shopAndLocations] = await Promise.all([
      getOrderListPage(deps.admin, input),
      getShopAndLocations(deps.admin),
    ]);
    if (!page.ok) return page;
    if (!shopAndLocations.ok) return err(shopAndLocations.error);
    const reads = { page: page.value, shopAndLocations: shopAndLocations.value, readAt: now() };
    kept.set(key, reads);
    return ok({ ...reads, reused: false, ageSeconds: 0 });
  };
}

/** The web process's reader (one cache per process). */
export const readOrderListFromShopify = createOrderListReader();

export type CustomsFactsReader = (
  deps: { shop: string; admin: AdminGraphqlClient },
  orderGids: readonly OrderGid[],
  options: { reuse: boolean },
) => Promise<Result<Map<OrderGid, OrderListCustomsFacts>, ShopifyError>>;

/**
 * The prices and duties terms of a page's international orders (getOrderListCustomsFacts), kept
 * like the page itself: when the page was an earlier read reused during a bulk run (`reuse`), so
 * are these, for up to RUN_REUSE_MS; otherwise Shopify is asked.
 */
export function createCustomsFactsReader(options: { now?: () => number; reuseMs?: number } = {}): CustomsFactsReader {
  const now = options.now ?? Date.now;
  const reuseMs = options.reuseMs ?? RUN_REUSE_MS;
  const kept = new LRUCache<string, { facts: Map<OrderGid, OrderListCustomsFacts>; readAt: number }>({
    max: MAX_ENTRIES,
  });
  return async (deps, orderGids, { reuse }) => {
    const key = JSON.stringify([deps.shop, [...orderGids].sort()]);
    const earlier = reuse ? kept.get(key) : undefined;
    if (earlier && now() - earlier.readAt <= reuseMs) return ok(earlier.facts);
    const facts = await getOrderListCustomsFacts(deps.admin, orderGids);
    if (facts.ok) kept.set(key, { facts: facts.value, readAt: now() });
    return facts;
  };
}

/** The web process's reader of customs facts (one cache per process). */
export const readCustomsFactsFromShopify = createCustomsFactsReader();
