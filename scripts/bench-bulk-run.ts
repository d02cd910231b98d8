// What bench:bulk and bench:fairness share: the bench process playing the web process's part in
// a bulk run (it places the orders, starts the run and confirms its review as soon as it is ready,
// as the Orders screen and the review page do), while the demo's workers do the work.
//
// The app's modules read the app's configuration when they load: call adoptDemoAppEnvironment
// before the first `driveBulkRun`, which imports them.

import { performance } from "node:perf_hooks";

import type { PrismaClient } from "@prisma/client";

import { FAULT_ENDPOINTS } from "../emulator/shipping/emulator";
import type { ShopifyAdminEmulator } from "../emulator/shopify/emulator";
import { DEMO, type RunningDemo } from "./demo";

/** The demo app's configuration in this process's environment, as its web processes have it. */
export function adoptDemoAppEnvironment(demo: RunningDemo): void {
  Object.assign(process.env, {
    DATABASE_URL: demo.databaseUrl,
    SHOPIFY_API_KEY: demo.apiKey,
    SHOPIFY_API_SECRET: demo.apiSecret,
    SHOPIFY_APP_URL: demo.appUrl,
    SCOPES: DEMO.scopes.join(","),
    APP_ENCRYPTION_KEY: DEMO.encryptionKey,
    SHIPPING_API_BASE_URL: demo.shippingUrl,
  });
}

/** Every call to the shipping emulator (but event deliveries) takes `ms`. */
export async function slowShippingCalls(shippingUrl: string, ms: number): Promise<void> {
  const latency = Object.fromEntries(FAULT_ENDPOINTS.filter((e) => e !== "DELIVERY").map((e) => [e, ms]));
  const faults = await fetch(`${shippingUrl}/__emulator/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ latency_ms: latency }),
  });
  if (!faults.ok) throw new Error(`setting the latency failed: ${await faults.text()}`);
}

/** `count` new orders in the store, 1 in 7 international. */
export function placeOrders(shopify: ShopifyAdminEmulator, count: number): { orderGid: string; orderName: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const { order } = shopify.createOrder({ kind: i % 7 === 6 ? "international" : "domestic" });
    return { orderGid: order.id, orderName: order.name };
  });
}

export type RunState = { status: string; counts: Record<string, number>; total: number };

export type DrivenRun = {
  runId: string;
  /** The run's start to its last item (or the timeout). */
  wallS: number;
  /** When its review was ready and confirmed, from the start; null if it never was. */
  reviewedAtS: number | null;
};

/**
 * Starts a "cheapest rate" run of `orders` for `shop`, confirms its review when ready, and
 * answers once it has ended (or `timeoutMs` passed). `onTick` sees the run every 250 ms.
 */
export async function driveBulkRun(
  db: PrismaClient,
  shop: string,
  orders: { orderGid: string; orderName: string }[],
  options: { timeoutMs: number; log: (line: string) => void; onTick?: (state: RunState) => void },
): Promise<DrivenRun> {
  const { startBulkRun } = await import("../app/bulk/bulk-runs.server");
  const { confirmBulkRun } = await import("../app/bulk/bulk-buying.server");
  const { getBulkRun } = await import("../app/routes/app.bulk.$runId/bulk-run-view.server");
  const { enqueueBulkBuy, enqueueBulkCheck } = await import("../app/jobs/bulk-run-jobs.server");
  const started = performance.now();
  const run = await startBulkRun(db, shop, { orders, choice: { mode: "cheapest" } }, (tx, id) =>
    enqueueBulkCheck(tx, shop, id),
  );
  if (!run.ok) throw new Error(run.error.message);
  const runId = run.value.runId;
  let reviewedAt: number | null = null;
  let lastPrint = performance.now();
  // Watched through a count by status: the run's whole view (every item) read four times a
  // second would take the CPU the emulators answer with, in this process, and slow the calls
  // whose wait the bench measures. The view is read once, for the review.
  const watch = async (): Promise<RunState> => {
    const row = await db.bulkRun.findFirst({ where: { id: runId }, select: { status: true } });
    const groups = await db.bulkRunItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
    const counts = Object.fromEntries(groups.map((g) => [g.status, g._count._all])) as Record<string, number>;
    return { status: row?.status ?? "gone", counts, total: groups.reduce((n, g) => n + g._count._all, 0) };
  };
  let state = await watch();
  while (state.status !== "done" && state.status !== "stopped" && state.status !== "cancelled") {
    if (performance.now() - started > options.timeoutMs) break;
    await new Promise((r) => setTimeout(r, 250));
    state = await watch();
    if (state.status === "gone") break;
    options.onTick?.(state);
    if (state.status === "review") {
      reviewedAt = performance.now();
      const review = await getBulkRun(db, shop, runId);
      if (!review) break;
      const ready = review.items.filter((i) => i.status === "ready").length;
      options.log(
        `review after ${((reviewedAt - started) / 1000).toFixed(1)} s: ${ready} ready, ${review.counts.blocked} blocked, ` +
          `${review.counts.skipped} left out; total ${(review.totalCents / 100).toFixed(2)} USD`,
      );
      const confirmed = await confirmBulkRun(
        db,
        shop,
        runId,
        { count: ready, totalCents: review.totalCents },
        (tx, id) => enqueueBulkBuy(tx, shop, id),
      );
      if (!confirmed.ok) throw new Error(confirmed.error.message);
    }
    if (performance.now() - lastPrint > 10_000) {
      lastPrint = performance.now();
      options.log(`  ${((lastPrint - started) / 1000).toFixed(0)} s: ${state.status} ${JSON.stringify(state.counts)}`);
    }
  }
  return {
    runId,
    wallS: (performance.now() - started) / 1000,
    reviewedAtS: reviewedAt === null ? null : (reviewedAt - started) / 1000,
  };
}
