import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { parseOrderGid } from "~/shopify/ids";
import { pacerFor } from "~/shopify/paced-admin-client";

import { loadDefaultConfig } from "../../emulator/shipping/config";
import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { createTestShippingClient, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { getBulkRun } from "../routes/app.bulk.$runId/bulk-run-view.server";
import { BULK_READ_MIN_ORDERS, canReadAlone, claimRunBulkRead, readRunOrders } from "./bulk-run-reads.server";
import { checkBulkRunItem, startBulkRun } from "./bulk-runs.server";

const SHOP = TEST_LABEL_SHOP;

// A run's check phase, measured in Shopify points as the emulator charges them (Shopify's
// published cost rules): with one bulk read for the run, and with each order read on its own.
async function checkRun(orders: number, options: { bulk: boolean; canReadAlone?: () => boolean }) {
  let now = 1_000_000;
  const shopify = createShopifyAdminEmulator({ now: () => now, throttle: false });
  const shipping = createTestShippingClient(createShippingEmulator({ config: loadDefaultConfig() }));
  const placed = Array.from({ length: orders }, (_, i) =>
    shopify.createOrder({ kind: i % 7 === 6 ? "international" : "domestic" }),
  );
  const checks: string[] = [];
  const started = await startBulkRun(
    db,
    SHOP,
    {
      orders: placed.map(({ order }) => ({ orderGid: order.id, orderName: order.name })),
      choice: { mode: "cheapest" },
    },
    async (_tx: Prisma.TransactionClient, id: string) => void checks.push(id),
  );
  if (!started.ok) throw new Error(started.error.message);
  const deps = { db, shop: SHOP, admin: shopify.graphql, shipping };
  // Time passes only while the bulk read waits for its operation.
  const sleep = passing((ms) => (now += ms));
  const readRun = (runId: string) =>
    readRunOrders(deps, runId, {
      fetch: shopify.fetch,
      sleep,
      now: () => now,
      pollMs: 1_000,
      canReadAlone: options.canReadAlone ?? (() => false),
    });
  const before = shopify.queryCostSpent();
  // As the worker runs them: many at once.
  const results = await Promise.all(
    checks.map((id) => checkBulkRunItem(options.bulk ? { ...deps, readRun } : deps, id)),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  const run = await getBulkRun(db, SHOP, started.value.runId);
  return {
    pointsPerOrder: (shopify.queryCostSpent() - before) / orders,
    items: run?.items.map((i) => ({
      status: i.status,
      service: i.service,
      quotedCents: i.quotedCents,
      problems: i.problems,
    })),
  };
}

/**
 * A test's sleep: moves its clock, then lets the event loop turn. Resolving at once would spin a
 * waiting loop in microtasks while the database's answers (I/O on PostgreSQL) never arrive.
 */
const passing =
  (move: (ms: number) => void) =>
  async (ms: number): Promise<void> => {
    move(ms);
    await new Promise((resolve) => setImmediate(resolve));
  };

/** A run of these orders, its check jobs not enqueued (the test calls the reads itself). */
async function startRunOf(orders: readonly { id: string; name: string }[]): Promise<string> {
  const started = await startBulkRun(
    db,
    SHOP,
    { orders: orders.map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "cheapest" } },
    async () => {},
  );
  if (!started.ok) throw new Error(started.error.message);
  return started.value.runId;
}

describe("a bulk run's check phase", () => {
  // Two runs of the pipeline over 20 orders each: slow on a shared machine.
  it(
    "reads a large run's orders with one bulk operation: a few points a run instead of about 60 an order",
    { timeout: 90_000 },
    async () => {
      const orders = BULK_READ_MIN_ORDERS;
      const bulk = await checkRun(orders, { bulk: true });
      const oneByOne = await checkRun(orders, { bulk: false });
      // The old way: the order, its fulfillment orders and the shop, each read per order.
      expect(oneByOne.pointsPerOrder).toBeGreaterThan(40);
      // The bulk read's mutation and status reads, and the shop once, for the whole run.
      expect(bulk.pointsPerOrder).toBeLessThan(2);
      // The same verdicts, services and quotes either way.
      expect(bulk.items).toEqual(oneByOne.items);
      expect(bulk.items?.filter((i) => i.status === "ready").length).toBeGreaterThan(orders / 2);
    },
  );

  it(
    "reads orders alone while the bulk read runs if the shop can spare it, to the same verdicts",
    { timeout: 90_000 },
    async () => {
      const orders = BULK_READ_MIN_ORDERS;
      const waited = await checkRun(orders, { bulk: true });
      // A bucket that can spare every check's reads: no check waits for the bulk operation.
      const alone = await checkRun(orders, { bulk: true, canReadAlone: () => true });
      expect(alone.pointsPerOrder).toBeGreaterThan(40);
      expect(alone.items).toEqual(waited.items);
    },
  );

  it("stops waiting for the bulk read once the shop's bucket can spare a check's reads", async () => {
    let now = 1_000_000;
    // The operation takes a minute: a check that waited for it would see the clock pass it.
    const shopify = createShopifyAdminEmulator({ now: () => now, bulkOperationDurationMs: () => 60_000 });
    const placed = Array.from({ length: BULK_READ_MIN_ORDERS }, () => shopify.createOrder().order);
    const runId = await startRunOf(placed);
    let asked = 0;
    const reads = await readRunOrders({ db, shop: SHOP, admin: shopify.graphql }, runId, {
      fetch: shopify.fetch,
      sleep: passing((ms) => (now += ms)),
      now: () => now,
      // Spare from the fourth look on (the answers of other checks' reads refilled the estimate).
      canReadAlone: () => ++asked > 3,
    });
    expect(reads).toBeNull();
    expect(asked).toBe(4);
    expect(now - 1_000_000).toBeLessThan(60_000);
  });

  it("lets checks read alone only when the bucket holds the pages' reserve and every check's reads", () => {
    const bucket = (shop: string, maximumAvailable: number, currentlyAvailable: number) =>
      pacerFor(shop).learn({
        requestedQueryCost: null,
        throttleStatus: { maximumAvailable, currentlyAvailable, restoreRate: maximumAvailable / 20 },
      });
    bucket("standard-full.myshopify.com", 2_000, 2_000);
    bucket("plus-full.myshopify.com", 20_000, 20_000);
    bucket("plus-spent.myshopify.com", 20_000, 8_000);
    // Standard's whole bucket is not 16 checks' reads; Plus's is, until it is spent.
    expect(canReadAlone("standard-full.myshopify.com", 16)).toBe(false);
    expect(canReadAlone("plus-full.myshopify.com", 16)).toBe(true);
    expect(canReadAlone("plus-spent.myshopify.com", 16)).toBe(false);
    expect(canReadAlone("never-asked.myshopify.com", 1)).toBe(false);
  });

  it("starts one bulk operation a run, whichever worker process asks first", async () => {
    let now = 1_000_000;
    const shopify = createShopifyAdminEmulator({ now: () => now });
    const placed = Array.from({ length: BULK_READ_MIN_ORDERS }, () => shopify.createOrder().order);
    const runId = await startRunOf(placed);
    const orderGids = placed.flatMap((order) => parseOrderGid(order.id) ?? []);
    const options = { fetch: shopify.fetch, sleep: passing((ms) => (now += ms)), now: () => now };
    const claim = async (admin = shopify.graphql) => {
      const claimed = await claimRunBulkRead({ db, shop: SHOP, admin }, runId, orderGids, options);
      return claimed.ok ? claimed.value : `failed: ${claimed.error.message}`;
    };

    // Two processes' first checks at once: one starts the operation, the other follows it.
    const [first, second] = await Promise.all([claim(), claim()]);
    expect(first).toMatch(/^gid:\/\/shopify\/BulkOperation\//);
    expect(second).toBe(first);

    // Ten minutes on, a retried check reads afresh: a new operation.
    now += 10 * 60_000 + 1;
    const later = await claim();
    expect(later).toMatch(/^gid:\/\/shopify\/BulkOperation\//);
    expect(later).not.toBe(first);

    // A claimant whose start Shopify refused: the next process tries its own, at once.
    now += 10 * 60_000 + 1;
    const refusing = async () => new Response("unavailable", { status: 503 });
    expect(await claim(refusing)).toMatch(/^failed/);
    const before = now;
    const retried = await claim();
    expect(retried).toMatch(/^gid:\/\/shopify\/BulkOperation\//);
    expect(retried).not.toBe(later);
    expect(now).toBe(before);

    // A claimant that stopped before Shopify answered: another process waits 30 s, then starts one.
    now += 10 * 60_000 + 1;
    await db.bulkRun.update({
      where: { id: runId },
      data: { bulkReadClaimedAt: new Date(now), bulkReadOperation: null },
    });
    const overtaking = await claim();
    expect(overtaking).toMatch(/^gid:\/\/shopify\/BulkOperation\//);
    expect(overtaking).not.toBe(retried);
    expect(now - before).toBeGreaterThan(10 * 60_000 + 30_000);
  });

  it("reads a small run's orders one by one", async () => {
    let now = 1_000_000;
    const shopify = createShopifyAdminEmulator({ now: () => now });
    const placed = Array.from({ length: 3 }, () => shopify.createOrder().order);
    const runId = await startRunOf(placed);
    const reads = await readRunOrders({ db, shop: SHOP, admin: shopify.graphql }, runId, {
      fetch: shopify.fetch,
      sleep: passing((ms) => (now += ms)),
      now: () => now,
    });
    expect(reads).toBeNull();
  });
});
