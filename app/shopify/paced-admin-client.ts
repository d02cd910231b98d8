import { z } from "zod";

import { type AdminGraphqlClient, readCallCost, runAdminGraphql } from "./admin-client";
import { SHOP_ID_QUERY } from "./shop.graphql";
import { type CallCost, createShopPacer, type ShopPacer, type ThrottleStatus } from "./shop-pacer";

// The Admin API client as the worker and the pages get it: the worker's (background) calls wait
// for their shop's pacer (shop-pacer.ts), the pages' calls only teach it what Shopify reported.

const OPERATION_NAME = /\b(?:query|mutation)\s+([A-Za-z_]\w*)/;

/** The operation's name, which the pacer keys the cost it learned by. */
export function operationNameOf(document: string): string {
  return OPERATION_NAME.exec(document)?.[1] ?? "anonymous";
}

// The library's client throws GraphqlQueryError for an answer with `errors` (THROTTLED among
// them); its `body` still carries Shopify's cost report.
function costOfThrown(error: unknown): CallCost | null {
  if (typeof error !== "object" || error === null || !("body" in error)) return null;
  const body = (error as { body?: unknown }).body;
  return typeof body === "object" && body !== null && "extensions" in body ? readCallCost(body.extensions) : null;
}

async function costOf(response: Response): Promise<CallCost | null> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === "object" && body !== null && "extensions" in body ? readCallCost(body.extensions) : null;
  } catch {
    return null;
  }
}

/** A background client: each call waits for the shop's bucket to hold it and the pages' reserve. */
export function paceAdminClient(admin: AdminGraphqlClient, pacer: ShopPacer): AdminGraphqlClient {
  return async (document, options) => {
    const done = await pacer.acquire(operationNameOf(document));
    let cost: CallCost | null = null;
    try {
      const response = await admin(document, options);
      cost = await costOf(response);
      return response;
    } catch (error) {
      cost = costOfThrown(error);
      throw error;
    } finally {
      done(cost);
    }
  };
}

/** A page's client: never held (the merchant is waiting), but what Shopify reports is learned. */
export function observeAdminClient(admin: AdminGraphqlClient, pacer: ShopPacer): AdminGraphqlClient {
  return async (document, options) => {
    const operation = operationNameOf(document);
    try {
      const response = await admin(document, options);
      const cost = await costOf(response);
      if (cost) pacer.learn(cost, operation);
      return response;
    } catch (error) {
      const cost = costOfThrown(error);
      if (cost) pacer.learn(cost, operation);
      throw error;
    }
  };
}

// One pacer per shop in this process. Small (a few numbers and a cost per operation) and bounded
// by the shops the process serves, so kept for the process's life.
const pacers = new Map<string, ShopPacer>();

/** This process's pacer for the shop. */
export function pacerFor(shop: string): ShopPacer {
  let pacer = pacers.get(shop);
  if (!pacer) pacers.set(shop, (pacer = createShopPacer()));
  return pacer;
}

/** The shop's bucket as this process last saw it (restored since), or null when it has not asked Shopify yet. */
export function knownThrottleStatus(shop: string): ThrottleStatus | null {
  return pacers.get(shop)?.estimate() ?? null;
}

/** What this process's background calls may take of the shop's bucket now (ShopPacer.spare), or null. */
export function knownSpare(shop: string): number | null {
  return pacers.get(shop)?.spare() ?? null;
}

/**
 * The shop's restore rate (points a second): as this process last saw it, or asked of Shopify
 * with its smallest read through a client that teaches the pacer. Null when Shopify did not say.
 */
export async function readRestoreRate(shop: string, admin: AdminGraphqlClient): Promise<number | null> {
  const known = knownThrottleStatus(shop);
  if (known) return known.restoreRate;
  await runAdminGraphql(admin, { operation: "ShopId", document: SHOP_ID_QUERY, schema: z.unknown() });
  return knownThrottleStatus(shop)?.restoreRate ?? null;
}
