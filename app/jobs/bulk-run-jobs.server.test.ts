import type { PrismaClient } from "@prisma/client";
import { afterEach, describe, expect, it, vi } from "vitest";

import { confirmBulkRun } from "~/bulk/bulk-buying.server";
import { startBulkRun } from "~/bulk/bulk-runs.server";
import db, { createPrismaClient } from "~/db.server";
import { databaseKindOf } from "~/db/database-kind.server";
import { getEnv } from "~/env.server";
import { PURCHASE_LEASE_MS } from "~/labels/purchase.server";
import { type BulkRunView, getBulkRun } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import type { FetchLike } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import {
  createKillSwitch,
  killableAdmin,
  killableDb,
  killableFetch,
  observingAdmin,
  observingFetch,
  shippingEndpointOf,
  type ShippingExchange,
  waitFor,
} from "../../test/helpers/bulk-runs";
import { collectingLog, findJob, listJobs, setUpQueues } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { createTestShippingClient, DEMO_ORG, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import type { JobDefinition, JobWorker } from "../queue/job-queue";
import { jobQueueFor, pgBossFor, stopPgBosses } from "../queue/queue.server";
import {
  type BulkJobDeps,
  createBulkBuyJob,
  createBulkCheckJob,
  enqueueBulkBuy,
  enqueueBulkCheck,
} from "./bulk-run-jobs.server";

// Issue 12's acceptance run: 50 orders through the real worker (the production job definitions,
// backoff and concurrency; the bulk-buy lease shortened, below) against both emulators, with
// faults injected while it runs, on whichever queue the database has (the Job table on SQLite,
// pg-boss on PostgreSQL). Worker A checks everything and buys until it is killed right after a
// charge whose answer it never read; worker B is started as the restarted process and takes A's
// jobs over once their leases have run out (the purchases' 2-minute leases are passed by moving
// the clock on) and finishes.

const SHOP = TEST_LABEL_SHOP;
const ORDERS = 50;
const PURCHASE = "POST /v1/labels/{id}/purchase";
const READ_LABEL = "GET /v1/labels/{id}";

// A job's lease is kept by the queue's clock: on pg-boss the database server's, which no faked
// Date moves, so A's claims must really run out while the test waits. The production bulk-buy
// lease is 20 s, renewed while the job runs; 15 s keeps this test's wait short.
const BUY_LEASE_MS = 15_000;
// What a killed worker waits for its jobs before it would release them: never, within a test.
const NEVER_MS = 2 ** 31 - 1;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A worker process's database client. On PostgreSQL, a client of its own, as several processes
 * share the database. On SQLite one process owns the file (ADR 19): the worker runs inside it, and
 * the restarted process opens the file after the killed one, so both use the app's client.
 */
function processClient(): PrismaClient {
  if (databaseKindOf(db) !== "postgresql") return db;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL not set by the test setup");
  const client = createPrismaClient(url);
  // A killed process's client may have a transaction left open: never wait long for it.
  cleanups.push(() => Promise.race([client.$disconnect(), new Promise((resolve) => setTimeout(resolve, 2000))]));
  return client;
}

/** The pg-boss this process's workers claim and renew through (queue.server's workerBoss). */
async function closeWorkerPgBoss(): Promise<void> {
  const env = getEnv();
  const boss = await pgBossFor(env.DATABASE_URL, { superviseIntervalSeconds: env.PG_BOSS_SUPERVISE_SECONDS });
  await boss.stop({ graceful: false, timeout: 1000 }).catch(() => undefined);
  // The next test's workers start a pg-boss of their own, not the stopped one.
  cleanups.push(() => stopPgBosses().catch(() => undefined));
}

/** The clock Date showed before a test faked it. */
const realNow = () => new Date(performance.timeOrigin + performance.now());

/** The bulk-buy job with the test's lease (BUY_LEASE_MS) instead of the production 4 minutes. */
function withBuyLease<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return { ...definition, leaseMs: BUY_LEASE_MS };
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

    // Shopify throttles the next write-back (fulfillmentCreate), not the reads before it: each
    // purchase first asks Shopify whether the shipment can still be fulfilled.
    let writeBacksToThrottle = 0;
    const throttledWriteBacks = new Set<string>();
    let sweeping = false;
    // Halfway through the checks, Shopify throttles two more reads: counted by request, so the
    // throttling lands while checks still read, however fast they run.
    let checkReads = 0;
    const throttledCheckReads = new Set([ORDERS / 2, ORDERS / 2 + 5]);
    const throttlingWriteBacks =
      (admin: AdminGraphqlClient): AdminGraphqlClient =>
      (query, options) => {
        if (/fulfillmentCreate/.test(query)) {
          // A write-back chosen here is throttled on every try until the recovery sweep, so the
          // purchase leaves it to the sweep, however long the Admin client waits and retries.
          const writeBack = JSON.stringify(options?.variables ?? {});
          if (writeBacksToThrottle > 0 && !sweeping && !throttledWriteBacks.has(writeBack)) {
            writeBacksToThrottle -= 1;
            throttledWriteBacks.add(writeBack);
          }
          if (throttledWriteBacks.has(writeBack) && !sweeping) shopify.failNextRequest("THROTTLED");
        }
        if (phase === "checking" && !/\bmutation\b/.test(query) && throttledCheckReads.has(++checkReads)) {
          shopify.failNextRequest("THROTTLED");
        }
        return admin(query, options);
      };

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
          // A dead process claims nothing more and never hands its jobs back. On SQLite its claims
          // go through dbA and hang there; pg-boss's do not, so A's loop is stopped (with a grace
          // that never ends: the jobs it holds are never released, only their leases free them).
          workerA.stop({ graceMs: NEVER_MS }).catch(() => undefined);
          // A running job's lease is renewed through pg-boss's own pool, which dies with a real
          // process: closed, so A's leases end as a dead worker's do.
          if (databaseKindOf(db) === "postgresql") void closeWorkerPgBoss();
        }
      }
    };
    const fetchA: FetchLike = killableFetch(observingFetch(shipping.fetch, onExchangeA), A);
    const adminA = killableAdmin(
      observingAdmin(
        throttlingWriteBacks(shopify.graphql),
        (throttled) => void (throttledAnswers += throttled ? 1 : 0),
      ),
      A,
    );
    const dbA = killableDb(processClient(), A);
    const depsA: BulkJobDeps = {
      db: dbA,
      adminFor: async () => adminA,
      shippingFor: async (_shop, options) => createTestShippingClient(shipping, "sk_live_demo", fetchA, options?.slots),
    };
    const definitionsA = [createBulkCheckJob(depsA), withBuyLease(createBulkBuyJob(depsA))];
    await setUpQueues(db, definitionsA);
    const workerA = jobQueueFor(dbA).createWorker(definitionsA, { pollIntervalMs: 20, log: collectingLog("A", log) });

    const readRun = async (): Promise<BulkRunView> => {
      const run = await getBulkRun(db, SHOP, runId);
      if (!run) throw new Error(`no run ${runId}`);
      return run;
    };
    const describeRun = async () => {
      const run = await readRun();
      const jobs = new Map<string, number>();
      for (const job of await listJobs(db)) {
        jobs.set(`${job.name} ${job.status}`, (jobs.get(`${job.name} ${job.status}`) ?? 0) + 1);
      }
      return [
        `run ${run.status} ${JSON.stringify(run.counts)} phase ${phase} timings ${JSON.stringify(timings)}`,
        ...run.items.filter((i) => i.status !== "bought").map((i) => `${i.orderName}: ${i.status} ${i.message ?? ""}`),
        `jobs ${JSON.stringify([...jobs])}`,
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
    const retriedChecks = (await listJobs(db, { name: "bulk-check" })).filter((j) => j.attempts > 1).length;
    expect(retriedChecks).toBeGreaterThan(0);

    // ---- Buying: a 429 storm on purchase, a lost answer, a THROTTLED write-back ----
    shipping.setFaults({
      failures: [
        { endpoint: PURCHASE, kind: "rate_limited", times: 9, retry_after: 1 },
        { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
      ],
    });
    writeBacksToThrottle = 1;
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
    const heldByA = await listJobs(db, { name: "bulk-buy", status: "running" });
    expect(heldByA.length).toBeGreaterThan(0);
    expect(atKill.progress.remaining).toBeGreaterThan(0);
    // The charge A never read is at the service and not in our rows.
    expect(shipping.charges(DEMO_ORG).length).toBeGreaterThan(
      await db.label.count({ where: { shop: SHOP, status: { in: ["purchased", "fulfilled"] } } }),
    );

    // The restarted worker comes up; A's claims (job leases, purchase leases) run out meanwhile.
    // The purchases' leases are the app's, by the process's clock: it is moved on past them (and,
    // for the Job table, past A's job leases). pg-boss expires A's jobs by the database's clock,
    // BUY_LEASE_MS after A took them, and B takes them over then.
    vi.useFakeTimers({
      toFake: ["Date"],
      now: Date.now() + Math.max(BUY_LEASE_MS, PURCHASE_LEASE_MS) + 1_000,
      shouldAdvanceTime: true,
    });
    shipping.setFaults({
      failures: [
        { endpoint: PURCHASE, kind: "rate_limited", times: 6, retry_after: 1 },
        { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
      ],
    });
    writeBacksToThrottle = 1;
    // A restarted process loads its modules afresh: nothing A held in memory (such as the bulk
    // jobs' per-process slots for shipping calls) carries over to B.
    vi.resetModules();
    const restarted = {
      ...(await import("./bulk-run-jobs.server")),
      ...(await import("./label-recovery.server")),
      ...(await import("../queue/queue.server")),
    };
    // On PostgreSQL the restarted process has its own pg-boss (the module's): stopped at the end.
    cleanups.push(() => restarted.stopPgBosses());
    const dbB = processClient();
    const fetchB = observingFetch(shipping.fetch, (exchange) => exchanges.push({ ...exchange, worker: "B" }));
    const adminB = observingAdmin(
      throttlingWriteBacks(shopify.graphql),
      (throttled) => void (throttledAnswers += throttled ? 1 : 0),
    );
    const depsB: BulkJobDeps = {
      db: dbB,
      adminFor: async () => adminB,
      shippingFor: async (_shop, options) => createTestShippingClient(shipping, "sk_live_demo", fetchB, options?.slots),
    };
    // The production worker also runs the label-recovery sweep (write-backs Shopify throttled).
    const recoveryJob = restarted.createLabelRecoveryJob(depsB);
    const workerB: JobWorker = restarted
      .jobQueueFor(dbB)
      .createWorker(
        [restarted.createBulkCheckJob(depsB), withBuyLease(restarted.createBulkBuyJob(depsB)), recoveryJob],
        {
          pollIntervalMs: 20,
          log: collectingLog("B", log),
          // Setup only, not behaviour: pg-boss's leases run by the database server's clock, which
          // the faked Date does not move, so B's worker reads the real clock there (with the faked
          // one every job B claimed would look past its lease). The Job table's leases are written
          // by the worker's own clock, so on SQLite it keeps the faked one that passed A's.
          ...(databaseKindOf(dbB) === "postgresql" ? { now: realNow } : {}),
        },
      );
    workerB.start();
    cleanups.push(() => workerB.stop({ graceMs: 0 }));

    const finished = await waitFor(
      async () => {
        const run = await readRun();
        return run.status === "running" ? null : run;
      },
      "the run is over",
      // Generous: the chaos (429 storms, retries with backoff, a killed worker) takes about a
      // minute on a loaded two-core machine; the verdict is in the emulators' records, not the time.
      { timeoutMs: 120_000, describe: describeRun },
    );
    mark("bought");

    // Write-backs Shopify throttled are left to the recovery sweep the worker schedules.
    sweeping = true;
    const sweep = await jobQueueFor(db).enqueue(recoveryJob, SHOP, {}, { dedupeKey: "sweep" });
    await waitFor(async () => (await findJob(db, sweep.jobId)).status === "done", "the recovery sweep is done", {
      timeoutMs: 30_000,
      describe: describeRun,
    });
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
    expect(finished.progress).toEqual({ bought: ORDERS, failed: 0, remaining: 0, notStarted: 0, notFulfillable: 0 });

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
    const afterwards = await listJobs(db, { ids: heldByA.map((j) => j.id) });
    expect(afterwards.map((j) => j.status)).toEqual(heldByA.map(() => "done"));
    expect(afterwards.every((j) => j.attempts > (heldByA.find((h) => h.id === j.id)?.attempts ?? Infinity))).toBe(true);
    // A write-back Shopify throttled was left to the sweep, which did it.
    expect(
      bought.filter((i) => /Tracking is not in Shopify yet/.test(i.message ?? "")).length,
      context,
    ).toBeGreaterThan(0);
    expect(await jobQueueFor(db).listDeadJobs(SHOP)).toEqual([]);
  }, 200_000);

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
    // The retries come at once instead of after the production backoff (5 s … 5 min): the attempts
    // and what the last one does are the same. (pg-boss waits out a backoff by the database
    // server's clock, so a worker clock moved on cannot skip it as it can with the Job table.)
    const checkJob = { ...createBulkCheckJob(deps), backoff: { baseMs: 1, maxMs: 1 } };
    await setUpQueues(db, [checkJob]);
    const log: string[] = [];
    const worker = jobQueueFor(db).createWorker([checkJob], {
      pollIntervalMs: 10,
      log: collectingLog("worker", log),
    });
    const jobOfItem = new Map<string, string>();
    const started = await startBulkRun(
      db,
      SHOP,
      { orders: [down, fine].map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "rules" } },
      async (tx, itemId) => {
        const enqueued = await enqueueBulkCheck(tx, SHOP, itemId);
        jobOfItem.set(itemId, enqueued.jobId);
        return enqueued;
      },
    );
    if (!started.ok) throw new Error(started.error.message);
    const { runId } = started.value;
    worker.start();
    cleanups.push(() => worker.stop({ graceMs: 0 }));

    const downItem = await db.bulkRunItem.findFirstOrThrow({ where: { runId, orderGid: down.id } });
    const downJobId = jobOfItem.get(downItem.id);
    if (!downJobId) throw new Error(`no bulk-check job for ${downItem.id}`);
    const job = await waitFor(
      async () => {
        const found = await findJob(db, downJobId);
        return found.status === "dead" || found.status === "done" ? found : null;
      },
      "the failing order's check has used its attempts",
      { timeoutMs: 30_000, describe: () => log.join("\n") },
    );
    expect(job.name).toBe("bulk-check");
    expect(job.attempts).toBe(8);
    const lastError = (await jobQueueFor(db).listDeadJobs(SHOP)).find((dead) => dead.id === job.id)?.lastError;

    // The other order's check runs beside the failing one's: the run reaches review once both end.
    const run = await waitFor(
      async () => {
        const current = await getBulkRun(db, SHOP, runId);
        return current && current.counts.checking === 0 ? current : null;
      },
      "both checks have ended",
      { timeoutMs: 30_000, describe: () => log.join("\n") },
    );
    const item = run?.items.find((i) => i.orderGid === down.id);
    const context = JSON.stringify({ run: run?.status, item, status: job.status, lastError });
    // The other order is ready; this one is not left "checking" for ever, and says why.
    expect(run?.items.find((i) => i.orderGid === fine.id)?.status, context).toBe("ready");
    expect(item?.status, context).not.toBe("checking");
    expect([item?.message ?? "", ...(item?.problems ?? []).map((p) => p.message)].join(" "), context).toMatch(
      /Shopify/,
    );
    expect(run?.status, context).toBe("review");
  }, 60_000);

  it("settles, on the job taken over from a dead worker, an item left Buying whose label was bought and fulfilled, sending nothing", async () => {
    // What a worker killed after the write-back and before the item's own update leaves behind.
    const shipping = createShippingEmulator();
    const shopify = createShopifyAdminEmulator();
    const sent: string[] = [];
    const label = await insertLabelRow({
      shop: SHOP,
      status: "fulfilled",
      serviceLabelId: "lbl_bought_before_the_kill",
      fulfillmentGid: "gid://shopify/Fulfillment/1",
      writeBackStatus: "done",
    });
    const run = await db.bulkRun.create({ data: { shop: SHOP, status: "running", confirmedAt: new Date() } });
    const item = await db.bulkRunItem.create({
      data: {
        runId: run.id,
        shop: SHOP,
        position: 0,
        orderGid: label.orderGid,
        orderName: label.orderName,
        fulfillmentOrderGid: label.fulfillmentOrderGid,
        status: "buying",
        labelId: label.id,
        attempts: 1,
      },
    });
    const deps: BulkJobDeps = {
      db,
      adminFor: async () => async (query, options) => {
        sent.push(`shopify ${/\bmutation\b/.test(query) ? "mutation" : "query"}`);
        return shopify.graphql(query, options);
      },
      shippingFor: async (_shop, options) =>
        createTestShippingClient(
          shipping,
          "sk_live_demo",
          (input, init) => {
            sent.push(`shipping ${shippingEndpointOf(input, init)}`);
            return shipping.fetch(input, init);
          },
          options?.slots,
        ),
    };

    await createBulkBuyJob(deps).run(
      { itemId: item.id },
      {
        jobId: "taken-over",
        shop: SHOP,
        attempt: 2,
        maxAttempts: 6,
        deadline: new Date(Date.now() + 15_000),
        signal: new AbortController().signal,
      },
    );

    expect(await db.bulkRunItem.findUniqueOrThrow({ where: { id: item.id } })).toMatchObject({
      status: "bought",
      message: null,
    });
    expect((await db.bulkRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
    expect(sent.filter((line) => !line.endsWith("query"))).toEqual([]);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });
});
