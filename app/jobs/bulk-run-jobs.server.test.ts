import type { PrismaClient } from "@prisma/client";
import { afterEach, describe, expect, it, vi } from "vitest";

import db, { createPrismaClient } from "~/db.server";
import { type BulkRunView, confirmBulkRun, getBulkRun, startBulkRun } from "~/labels/bulk-runs.server";
import { PURCHASE_LEASE_MS } from "~/labels/purchase.server";
import type { FetchLike } from "~/shipping/client.server";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import {
  createKillSwitch,
  killableAdmin,
  killableDb,
  killableFetch,
  observingAdmin,
  observingFetch,
  type ShippingExchange,
  waitFor,
} from "../../test/helpers/bulk-runs";
import { createTestShippingClient, DEMO_ORG, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import {
  type BulkJobDeps,
  createBulkBuyJob,
  createBulkCheckJob,
  enqueueBulkBuy,
  enqueueBulkCheck,
} from "./bulk-run-jobs.server";
import type { JobWorker, WorkerLog } from "./job-queue";
import { DEFAULT_LEASE_MS } from "./job-worker.server";
import { createPrismaJobQueue, listDeadJobs } from "./prisma-job-queue.server";

// Issue 12's acceptance run: 50 orders through the real worker (the production job definitions,
// leases, backoff and concurrency) against both emulators, with faults injected while it runs.
// Worker A checks everything and buys until it is killed right after a charge whose answer it
// never read; worker B is started as the restarted process once A's leases have run out (the
// clock is moved on: a bulk-buy job's lease is 4 minutes and a purchase's 2) and finishes.

const SHOP = TEST_LABEL_SHOP;
const ORDERS = 50;
const PURCHASE = "POST /v1/labels/{id}/purchase";
const READ_LABEL = "GET /v1/labels/{id}";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A process of its own: a second PrismaClient on the test's database file. */
function processClient(): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL not set by the test setup");
  const client = createPrismaClient(url);
  // A killed process's client may have a transaction left open: never wait long for it.
  cleanups.push(() => Promise.race([client.$disconnect(), new Promise((resolve) => setTimeout(resolve, 2000))]));
  return client;
}

/** The worker's log, kept for the failure message (console.error would fail the test). */
function collectingLog(name: string, lines: string[]): WorkerLog {
  return {
    info: (message) => lines.push(`${name} info: ${message}`),
    error: (message, error) =>
      lines.push(`${name} error: ${message}${error instanceof Error ? ` — ${error.message}` : ""}`),
  };
}

describe("a bulk run through the real job worker", () => {
  it("buys 50 orders each once through 429 storms, lost purchase answers, Shopify THROTTLED and a worker killed mid-run", async () => {
    const timings: Record<string, number> = {};
    const t0 = performance.now();
    const mark = (name: string) => (timings[name] = Math.round(performance.now() - t0));

    const shipping = createShippingEmulator();
    // Shopify Plus's bucket (20,000 points, 1,000 a second): on the Standard plan's 100 a second
    // the checks wait on the bucket's refill for most of the test's time budget.
    const shopify = createShopifyAdminEmulator({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
    // Every tenth order goes abroad (customs, another currency): 45 domestic, 5 international.
    const orders = Array.from(
      { length: ORDERS },
      (_, i) => shopify.createOrder({ kind: i % 10 === 9 ? "international" : "domestic" }).order,
    );

    // ---- What both workers saw of the services, and the faults as the run goes on ----
    const exchanges: Array<ShippingExchange & { worker: "A" | "B" }> = [];
    let throttledAnswers = 0;
    const seen = (endpoint: string, status: number) =>
      exchanges.filter((e) => e.endpoint === endpoint && e.status === status).length;
    let phase: "checking" | "buying" | "second-lost-answer" | "kill-armed" | "killed" = "checking";
    const log: string[] = [];

    const A = createKillSwitch();
    const onExchangeA = (exchange: ShippingExchange) => {
      exchanges.push({ ...exchange, worker: "A" });
      // The first lost answer was read back as bought: next, an answer lost while reading the
      // label back fails too (the service stays unavailable for reads for three tries).
      if (phase === "buying" && exchange.endpoint === READ_LABEL && exchange.status === 200) {
        phase = "second-lost-answer";
        shipping.setFaults({
          failures: [
            { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
            { endpoint: READ_LABEL, kind: "unavailable", times: 3, retry_after: 0 },
          ],
        });
      }
      if (phase === "second-lost-answer" && seen(READ_LABEL, 503) >= 3) phase = "kill-armed";
      // The crash: right after the service charged a label and answered, before A reads it.
      if (phase === "kill-armed" && exchange.endpoint === PURCHASE && exchange.status === 200) {
        if (seen(PURCHASE, 200) >= 20) {
          phase = "killed";
          A.kill();
        }
      }
    };
    const fetchA: FetchLike = killableFetch(observingFetch(shipping.fetch, onExchangeA), A);
    const adminA = killableAdmin(
      observingAdmin(shopify.graphql, (throttled) => void (throttledAnswers += throttled ? 1 : 0)),
      A,
    );
    const dbA = killableDb(processClient(), A);
    const depsA: BulkJobDeps = {
      db: dbA,
      adminFor: async () => adminA,
      shippingFor: async (_shop, options) => createTestShippingClient(shipping, "sk_live_demo", fetchA, options?.slots),
    };
    const workerA = createPrismaJobQueue(dbA).createWorker([createBulkCheckJob(depsA), createBulkBuyJob(depsA)], {
      pollIntervalMs: 20,
      log: collectingLog("A", log),
    });

    const readRun = async (): Promise<BulkRunView> => {
      const run = await getBulkRun(db, SHOP, runId);
      if (!run) throw new Error(`no run ${runId}`);
      return run;
    };
    const describeRun = async () => {
      const run = await readRun();
      const jobs = await db.job.groupBy({ by: ["name", "status"], _count: true });
      return [
        `run ${run.status} ${JSON.stringify(run.counts)} phase ${phase} timings ${JSON.stringify(timings)}`,
        ...run.items.filter((i) => i.status !== "bought").map((i) => `${i.orderName}: ${i.status} ${i.message ?? ""}`),
        `jobs ${JSON.stringify(jobs.map((j) => [j.name, j.status, j._count]))}`,
        ...log.slice(-30),
      ].join("\n");
    };

    // ---- Checking: a 429 storm on rates and drafts, and Shopify THROTTLED on order reads ----
    shipping.setFaults({
      failures: [
        { endpoint: "POST /v1/rates", kind: "rate_limited", times: 24, retry_after: 1 },
        { endpoint: "POST /v1/labels", kind: "rate_limited", times: 6, retry_after: 1 },
      ],
    });
    for (let i = 0; i < 3; i++) shopify.failNextRequest("THROTTLED");
    const started = await startBulkRun(
      db,
      SHOP,
      { orders: orders.map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "rules" } },
      (tx, itemId) => enqueueBulkCheck(tx, SHOP, itemId),
    );
    if (!started.ok) throw new Error(started.error.message);
    const runId = started.value.runId;
    workerA.start();
    // Halfway through, Shopify throttles two more reads.
    await waitFor(async () => (await readRun()).counts.ready >= ORDERS / 2, "half the orders are checked", {
      timeoutMs: 60_000,
      describe: describeRun,
    });
    shopify.failNextRequest("THROTTLED");
    shopify.failNextRequest("THROTTLED");
    const review = await waitFor(
      async () => {
        const run = await readRun();
        return run.status === "review" ? run : null;
      },
      "every order is checked",
      { timeoutMs: 60_000, describe: describeRun },
    );
    mark("checked");

    expect(review.items.map((i) => i.status)).toEqual(Array(ORDERS).fill("ready"));
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
    // One draft per order at the service, whatever was retried.
    expect(shipping.labelsCreated(DEMO_ORG)).toBe(ORDERS);
    expect(seen("POST /v1/rates", 429)).toBe(24);
    expect(seen("POST /v1/labels", 429)).toBe(6);
    expect(throttledAnswers).toBeGreaterThanOrEqual(5);
    // Some checks failed for good within their call and were retried by the queue.
    const retriedChecks = await db.job.count({ where: { name: "bulk-check", attempts: { gt: 1 } } });
    expect(retriedChecks).toBeGreaterThan(0);

    // ---- Buying: a 429 storm on purchase, a lost answer, a THROTTLED write-back read ----
    shipping.setFaults({
      failures: [
        { endpoint: PURCHASE, kind: "rate_limited", times: 9, retry_after: 1 },
        { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
      ],
    });
    shopify.failNextRequest("THROTTLED");
    phase = "buying";
    const confirmed = await confirmBulkRun(
      db,
      SHOP,
      runId,
      { count: review.counts.ready, totalCents: review.totalCents },
      (tx, itemId) => enqueueBulkBuy(tx, SHOP, itemId),
    );
    expect(confirmed).toEqual({ ok: true, value: { queued: ORDERS } });

    // ---- Worker A dies right after a charge it never heard of ----
    await waitFor(async () => A.killed, "worker A is killed mid-run", { timeoutMs: 60_000, describe: describeRun });
    mark("killed");
    const atKill = await readRun();
    // The jobs A held stay "running" under its claim: only their lease ending frees them.
    const heldByA = await db.job.findMany({ where: { name: "bulk-buy", status: "running" } });
    expect(heldByA.length).toBeGreaterThan(0);
    expect(atKill.progress.remaining).toBeGreaterThan(0);
    // The charge A never read is at the service and not in our rows.
    expect(shipping.charges(DEMO_ORG).length).toBeGreaterThan(
      await db.label.count({ where: { shop: SHOP, status: { in: ["purchased", "fulfilled"] } } }),
    );

    // The restarted worker comes up; A's claims (job leases, purchase leases) run out meanwhile.
    const buyJobLeaseMs = createBulkBuyJob(depsA).leaseMs ?? DEFAULT_LEASE_MS;
    vi.useFakeTimers({
      toFake: ["Date"],
      now: Date.now() + Math.max(buyJobLeaseMs, PURCHASE_LEASE_MS) + 1_000,
      shouldAdvanceTime: true,
    });
    shipping.setFaults({
      failures: [
        { endpoint: PURCHASE, kind: "rate_limited", times: 6, retry_after: 1 },
        { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
      ],
    });
    shopify.failNextRequest("THROTTLED");
    // A restarted process loads its modules afresh: nothing A held in memory (such as the bulk
    // jobs' per-process slots for shipping calls) carries over to B.
    vi.resetModules();
    const restarted = {
      ...(await import("./bulk-run-jobs.server")),
      ...(await import("./label-recovery.server")),
      ...(await import("./prisma-job-queue.server")),
    };
    const dbB = processClient();
    const fetchB = observingFetch(shipping.fetch, (exchange) => exchanges.push({ ...exchange, worker: "B" }));
    const adminB = observingAdmin(shopify.graphql, (throttled) => void (throttledAnswers += throttled ? 1 : 0));
    const depsB: BulkJobDeps = {
      db: dbB,
      adminFor: async () => adminB,
      shippingFor: async (_shop, options) => createTestShippingClient(shipping, "sk_live_demo", fetchB, options?.slots),
    };
    // The production worker also runs the label-recovery sweep (write-backs Shopify throttled).
    const recoveryJob = restarted.createLabelRecoveryJob(depsB);
    const workerB: JobWorker = restarted
      .createPrismaJobQueue(dbB)
      .createWorker([restarted.createBulkCheckJob(depsB), restarted.createBulkBuyJob(depsB), recoveryJob], {
        pollIntervalMs: 20,
        log: collectingLog("B", log),
      });
    workerB.start();
    cleanups.push(() => workerB.stop({ graceMs: 0 }));

    const finished = await waitFor(
      async () => {
        const run = await readRun();
        return run.status === "running" ? null : run;
      },
      "the run is over",
      { timeoutMs: 60_000, describe: describeRun },
    );
    mark("bought");

    // Write-backs Shopify throttled are left to the recovery sweep the worker schedules.
    const sweep = await createPrismaJobQueue(db).enqueue(recoveryJob, SHOP, {}, { dedupeKey: "sweep" });
    await waitFor(
      async () => (await db.job.findUniqueOrThrow({ where: { id: sweep.jobId } })).status === "done",
      "the recovery sweep is done",
      { timeoutMs: 30_000, describe: describeRun },
    );
    mark("recovered");

    // ---- Every item bought once, one charge each, one fulfillment per fulfillment order ----
    const context = await describeRun();
    expect(finished.status, context).toBe("done");
    const notBought = finished.items.filter((i) => i.status !== "bought");
    // Nothing here is a failure the merchant must see: every fault is one the run recovers from.
    expect(
      notBought.map((i) => `${i.orderName} ${i.status}: ${i.message ?? ""}`),
      context,
    ).toEqual([]);
    expect(finished.progress).toEqual({ bought: ORDERS, failed: 0, remaining: 0, notStarted: 0 });

    const bought = finished.items.filter((i) => i.status === "bought");
    const labels = await db.label.findMany({
      where: { shop: SHOP, id: { in: bought.flatMap((i) => (i.labelId ? [i.labelId] : [])) } },
    });
    expect(labels).toHaveLength(bought.length);
    expect(labels.map((l) => l.status)).toEqual(Array(bought.length).fill("fulfilled"));

    const charges = shipping.charges(DEMO_ORG);
    expect(charges).toHaveLength(bought.length);
    expect(new Set(charges.map((c) => c.labelId)).size).toBe(charges.length);
    expect(new Set(charges.map((c) => c.labelId))).toEqual(new Set(labels.map((l) => l.serviceLabelId)));

    const fulfillments = shopify.fulfillments();
    const perFulfillmentOrder = new Map<string, number>();
    for (const f of fulfillments) {
      for (const id of f.fulfillmentOrderIds) perFulfillmentOrder.set(id, (perFulfillmentOrder.get(id) ?? 0) + 1);
    }
    expect(fulfillments).toHaveLength(bought.length);
    expect([...perFulfillmentOrder.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(perFulfillmentOrder.keys())).toEqual(new Set(bought.map((i) => i.fulfillmentOrderGid)));

    // The faults did happen, and the dead worker's jobs were taken over, not lost.
    expect(seen(PURCHASE, 429)).toBe(15);
    expect(seen(PURCHASE, 0)).toBe(3); // three answers lost after the charge
    // Each of those, and the dead worker's charge, was read back, never bought again: the
    // service's 409 ALREADY_PURCHASED is its safety net, not our way of finding out.
    expect(seen(PURCHASE, 409)).toBe(0);
    expect(seen(READ_LABEL, 503)).toBe(3);
    expect(throttledAnswers).toBeGreaterThanOrEqual(7);
    expect(exchanges.some((e) => e.worker === "B" && e.endpoint === PURCHASE && e.status === 200)).toBe(true);
    const afterwards = await db.job.findMany({ where: { id: { in: heldByA.map((j) => j.id) } } });
    expect(afterwards.map((j) => j.status)).toEqual(heldByA.map(() => "done"));
    expect(afterwards.every((j) => j.attempts > (heldByA.find((h) => h.id === j.id)?.attempts ?? Infinity))).toBe(true);
    // A write-back Shopify throttled was left to the sweep, which did it.
    expect(bought.filter((i) => /Tracking is not in Shopify yet/.test(i.message ?? "")).length).toBeGreaterThan(0);
    expect(await listDeadJobs(db, SHOP)).toEqual([]);
  }, 120_000);

  it("settles an order whose check fails on every attempt with the reason, so the run still reaches review", async () => {
    const shipping = createShippingEmulator();
    const shopify = createShopifyAdminEmulator();
    const [down, fine] = [shopify.createOrder({ kind: "domestic" }).order, shopify.createOrder().order];
    if (!down || !fine) throw new Error("no orders");
    // Shopify answers 503 to every read of one order, for longer than the job's eight attempts.
    const admin: typeof shopify.graphql = async (query, options) =>
      JSON.stringify(options?.variables ?? {}).includes(down.id)
        ? Response.json({ errors: "Service Unavailable" }, { status: 503 })
        : shopify.graphql(query, options);
    const deps: BulkJobDeps = {
      db,
      adminFor: async () => admin,
      shippingFor: async (_shop, options) =>
        createTestShippingClient(shipping, "sk_live_demo", shipping.fetch, options?.slots),
    };
    // The worker's clock jumps over each backoff (5 s … 5 min) instead of the test waiting it out.
    let aheadMs = 0;
    const log: string[] = [];
    const worker = createPrismaJobQueue(db).createWorker([createBulkCheckJob(deps)], {
      pollIntervalMs: 10,
      log: collectingLog("worker", log),
      now: () => new Date(Date.now() + aheadMs),
    });
    const started = await startBulkRun(
      db,
      SHOP,
      { orders: [down, fine].map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "rules" } },
      (tx, itemId) => enqueueBulkCheck(tx, SHOP, itemId),
    );
    if (!started.ok) throw new Error(started.error.message);
    const { runId } = started.value;
    worker.start();
    cleanups.push(() => worker.stop({ graceMs: 0 }));

    const downItem = await db.bulkRunItem.findFirstOrThrow({ where: { runId, orderGid: down.id } });
    const job = await waitFor(
      async () => {
        const row = await db.job.findFirstOrThrow({
          where: { name: "bulk-check", payload: { contains: downItem.id } },
        });
        if (row.status === "queued") aheadMs = Math.max(aheadMs, row.runAt.getTime() - Date.now() + 1);
        return row.status === "dead" || row.status === "done" ? row : null;
      },
      "the failing order's check has used its attempts",
      { timeoutMs: 30_000, describe: () => log.join("\n") },
    );
    expect(job.attempts).toBe(8);

    const run = await getBulkRun(db, SHOP, runId);
    const item = run?.items.find((i) => i.orderGid === down.id);
    const context = JSON.stringify({ run: run?.status, item, lastError: job.lastError });
    // The other order is ready; this one is not left "checking" for ever, and says why.
    expect(run?.items.find((i) => i.orderGid === fine.id)?.status, context).toBe("ready");
    expect(item?.status, context).not.toBe("checking");
    expect([item?.message ?? "", ...(item?.problems ?? []).map((p) => p.message)].join(" "), context).toMatch(
      /Shopify/,
    );
    expect(run?.status, context).toBe("review");
  }, 60_000);
});
