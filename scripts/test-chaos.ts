// npm run test:chaos — production's configuration (PostgreSQL, 2 web processes behind the demo's
// proxy, 2 worker processes, on a throwaway cluster as `npm run test:postgres` starts one) while
// the database and the processes fail under it. Judged only on the emulators' records (the
// shipping emulator's drafts, labels and charges, the Shopify emulator's fulfillments), never on
// what the app believes, but for which bulk items are still open.
//
// Scenario B runs first (its drafting wants both workers; A ends one).
//
// Scenario A: a bulk run of CHAOS_ORDERS (160) orders, confirmed; while it buys (every purchase
// slowed so the buying lasts), a PostgreSQL restart (pg_ctl restart -m fast), then every app
// connection terminated (pg_terminate_backend of every backend but this one's), then one worker
// process SIGKILLed; then a bounded wait until every item is settled and every write-back done.
// Targets: no label charged twice and no order with two charged labels (double_charges=0), every charged label fulfilled in
// Shopify with its tracking (unfulfilled_charged=0), every item final (stuck_items=0), and
// recovery_s ≤ 60 from the worker's death to the last item settled.
//
// Scenario B: 500 signed deliveries of fulfillment_orders/order_routing_complete (450 events, 10%
// repeats) sent at 100 a second, with a PostgreSQL restart in the middle; what is not answered 200
// is sent again on Shopify's retry schedule (1, 2, 4, 8 s, a new webhook id each time); then a
// bounded wait until drafting settles. Targets: one draft at the shipping service per
// fulfillment order (drafts=expected_drafts, duplicate_drafts=0).
//
//   npm run test:chaos
//   CHAOS_APP_LOG=1   also prints the app's and the workers' output (always kept in test/.tmp/chaos-*/demo.log)
//   CHAOS_SETTLE_S=180 CHAOS_DRAFT_SETTLE_S=150   the bounded waits
//   CHAOS_CHILD_NODE_OPTIONS="--import ./scripts/trace-unheard-pg-errors.mjs"   a preload for the app's and
//                     workers' processes: names a pg client whose unheard 'error' would end one

import { randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

import type { PrismaClient } from "@prisma/client";
import pg from "pg";

import { adoptDemoAppEnvironment, placeOrders } from "./bench-bulk-run";
import { demoShippingOrganization, installBenchApp, runBench } from "./bench-demo";
import { type DeliveryAnswer, postDelivery, type SignedDelivery, signedWebhookHeaders } from "./bench-webhook-sender";
import { DEMO, type RunningDemo, startDemo } from "./demo";
import { startThrowawayCluster } from "./postgres-cluster.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const ORDERS = Number(process.env.CHAOS_ORDERS ?? 160);
// Bounded well past the target: the bulk purchase job's lease (30 s) and pg-boss's look for
// expired jobs (every 10 s) should settle a dead worker's items within TARGET_RECOVERY_S.
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_S ?? 180) * 1000;
// One shop's drafts run four at a time over the fleet (ADR 21): 450 take about two minutes here.
const DRAFT_SETTLE_MS = Number(process.env.CHAOS_DRAFT_SETTLE_S ?? 150) * 1000;
const TARGET_RECOVERY_S = 60;
const PURCHASE_LATENCY_MS = 400;
const BURST_EVENTS = 450;
const BURST_REPEATS = 50;
const BURST_RATE = 100;
const TOPIC = "fulfillment_orders/order_routing_complete";
// Shopify's: a delivery not answered within 5 s failed; 5 attempts, 1 s doubling between them.
const DELIVERY_TIMEOUT_MS = 5_000;
const RETRY = { attempts: 5, initialDelayMs: 1_000 };
const FINAL_ITEM_STATUSES = ["bought", "failed", "blocked", "skipped", "not_started", "not_fulfillable"];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s`;
const say = (line: string) => console.log(`[chaos ${clock()}] ${line}`);

type Cluster = Awaited<ReturnType<typeof startThrowawayCluster>>;

/** A read of ours that meets the database down (restart, terminated connection) waits it out, bounded. */
async function steady<T>(query: () => Promise<T>, waitMs = 30_000): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      return await query();
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function adminQuery(adminUrl: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** pg_ctl restart -m fast, timed. */
async function restartPostgresql(cluster: Cluster): Promise<void> {
  const at = performance.now();
  await cluster.restart();
  say(`PostgreSQL restarted (pg_ctl restart -m fast) in ${((performance.now() - at) / 1000).toFixed(1)} s`);
}

/** Every client backend but this connection's own: the app's, the workers', pg-boss's, ours. */
async function terminateEveryConnection(adminUrl: string): Promise<void> {
  const { rows } = await steady(() =>
    adminQuery(
      adminUrl,
      `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND backend_type = 'client backend') AS ended`,
    ),
  );
  say(`terminated ${String((rows[0] as { n: number } | undefined)?.n)} connections (pg_terminate_backend)`);
}

// ---- The emulators' records ----

type ServiceLabel = {
  id: string;
  status: string;
  platform_order_id: string | null;
  tracking_numbers?: string[];
};
type Account = { labels_created: number; charges: { label_id: string }[] };

async function readAccount(demo: RunningDemo): Promise<Account> {
  const organization = demoShippingOrganization();
  return (await (await fetch(`${demo.shippingUrl}/__emulator/organizations/${organization}`)).json()) as Account;
}

async function readServiceLabel(demo: RunningDemo, id: string): Promise<ServiceLabel | null> {
  const response = await fetch(`${demo.shippingUrl}/v1/labels/${encodeURIComponent(id)}`, {
    headers: { Authorization: `Bearer ${DEMO.shippingApiKey}` },
  });
  return response.ok ? ((await response.json()) as ServiceLabel) : null;
}

// ---- Scenario A: a bulk run through a restart, cut connections and a killed worker ----

type ScenarioA = {
  doubleCharges: number;
  bought: number;
  charged: number;
  unfulfilledCharged: number;
  stuckItems: number;
  recoveryS: number;
};

async function countItems(db: PrismaClient, runId: string): Promise<Record<string, number>> {
  const groups = await db.bulkRunItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
}

async function runScenarioA(demo: RunningDemo, db: PrismaClient, cluster: Cluster): Promise<ScenarioA> {
  const { startBulkRun } = await import("../app/bulk/bulk-runs.server");
  const { confirmBulkRun } = await import("../app/bulk/bulk-buying.server");
  const { getBulkRun } = await import("../app/routes/app.bulk.$runId/bulk-run-view.server");
  const { enqueueBulkBuy, enqueueBulkCheck } = await import("../app/jobs/bulk-run-jobs.server");
  demo.shopify.webhooks?.close();
  await db.shopSettings.update({ where: { shop: demo.shop }, data: { autoDraft: false } });
  const orders = placeOrders(demo.shopify, ORDERS);
  const chargesBefore = new Set((await readAccount(demo)).charges.map((c) => c.label_id));
  const run = await startBulkRun(db, demo.shop, { orders, choice: { mode: "cheapest" } }, (tx, id) =>
    enqueueBulkCheck(tx, demo.shop, id),
  );
  if (!run.ok) throw new Error(run.error.message);
  const runId = run.value.runId;
  say(`A: bulk run ${runId} of ${ORDERS} orders started`);

  const deadline = performance.now() + SETTLE_MS + 120_000;
  let confirmed = false;
  let killedAt: number | null = null;
  let settledAt: number | null = null;
  let lastPrint = 0;
  let counts: Record<string, number> = {};
  while (performance.now() < deadline) {
    await sleep(500);
    const status = await steady(async () => (await db.bulkRun.findFirst({ where: { id: runId } }))?.status);
    counts = await steady(() => countItems(db, runId));
    if (performance.now() - lastPrint > 10_000) {
      lastPrint = performance.now();
      say(`A: run ${status} ${JSON.stringify(counts)}`);
    }
    if (status === "review" && !confirmed) {
      const review = await steady(() => getBulkRun(db, demo.shop, runId));
      if (!review) throw new Error("the run disappeared");
      const ready = review.items.filter((i) => i.status === "ready").length;
      // Each purchase slowed, so the buying lasts past the faults below.
      await setPurchaseLatency(demo, PURCHASE_LATENCY_MS);
      const done = await confirmBulkRun(
        db,
        demo.shop,
        runId,
        { count: ready, totalCents: review.totalCents },
        (tx, id) => enqueueBulkBuy(tx, demo.shop, id),
      );
      if (!done.ok) throw new Error(`confirming failed: ${done.error.message}`);
      confirmed = true;
      say(`A: review confirmed: ${ready} to buy, ${(review.totalCents / 100).toFixed(2)} USD`);
    }
    if (confirmed && killedAt === null && (counts.bought ?? 0) >= 10) {
      say(`A: buying (${counts.bought ?? 0} bought): the faults begin`);
      await restartPostgresql(cluster);
      await sleep(3_000);
      await terminateEveryConnection(cluster.url);
      await sleep(2_000);
      // A worker the faults above already ended (it should not have) is reported; a live one is killed.
      const dead = demo.workerPids.filter((pid) => pid !== undefined && !isAlive(pid));
      if (dead.length > 0) say(`A: worker process ${dead.join(", ")} ENDED ON ITS OWN during the faults`);
      const pid = demo.workerPids.find((p) => p !== undefined && isAlive(p));
      if (pid === undefined) throw new Error("no live worker process to kill");
      process.kill(pid, "SIGKILL");
      killedAt = performance.now();
      say(`A: worker ${pid} SIGKILLed`);
    }
    const open = Object.entries(counts)
      .filter(([s]) => !FINAL_ITEM_STATUSES.includes(s))
      .reduce((n, [, c]) => n + c, 0);
    if (killedAt !== null && open === 0) {
      settledAt = performance.now();
      break;
    }
    if (killedAt !== null && performance.now() - killedAt > SETTLE_MS) break;
  }
  await setPurchaseLatency(demo, 0);
  const recoveryS = killedAt === null ? NaN : ((settledAt ?? performance.now()) - killedAt) / 1000;
  say(
    `A: ${settledAt ? "every item settled" : "NOT settled"} ${recoveryS.toFixed(0)} s after the worker's death: ${JSON.stringify(counts)}`,
  );

  // A bought item's tracking may still be on its way to Shopify: the dead worker's write-back
  // claim outlives it (60 s) and the recovery sweep (every 60 s) finishes it. Judged once no
  // write-back is left to do, within the same bound.
  const writing = () =>
    steady(() => db.label.count({ where: { shop: demo.shop, writeBackStatus: { in: ["pending", "writing"] } } }));
  let unwritten = await writing();
  while (unwritten > 0 && killedAt !== null && performance.now() - killedAt < SETTLE_MS) {
    await sleep(1_000);
    unwritten = await writing();
  }
  if (killedAt !== null) {
    const s = ((performance.now() - killedAt) / 1000).toFixed(0);
    say(
      unwritten === 0
        ? `A: every write-back done ${s} s after the worker's death`
        : `A: ${unwritten} write-backs NOT done after ${s} s`,
    );
  }

  // Judged on the emulators: what the service charged, and what Shopify fulfilled.
  const account = await readAccount(demo);
  const charges = account.charges.filter((c) => !chargesBefore.has(c.label_id));
  const chargedIds = [...new Set(charges.map((c) => c.label_id))];
  const labels = await Promise.all(chargedIds.map((id) => readServiceLabel(demo, id)));
  const byOrder = new Map<string, number>();
  for (const label of labels) {
    const order = label?.platform_order_id ?? `unknown:${label?.id}`;
    byOrder.set(order, (byOrder.get(order) ?? 0) + 1);
  }
  const twiceForOneOrder = [...byOrder.values()].reduce((n, c) => n + Math.max(0, c - 1), 0);
  const doubleCharges = charges.length - chargedIds.length + twiceForOneOrder;
  const fulfilledTracking = new Set(
    demo.shopify.fulfillments().flatMap((f) => f.trackingInfo.map((t) => t.number).filter((n) => n !== null)),
  );
  const unfulfilled = labels.filter((l) => !(l?.tracking_numbers ?? []).some((n) => fulfilledTracking.has(n)));
  // What the app knows of each, so a miss names its cause.
  for (const label of unfulfilled) {
    const row = await steady(() =>
      db.label.findFirst({
        where: { shop: demo.shop, serviceLabelId: label?.id ?? "" },
        select: { status: true, writeBackStatus: true, writeBackAttempts: true, writeBackLastError: true },
      }),
    );
    say(`A: charged label ${label?.id} has no fulfillment; the app's label: ${JSON.stringify(row)}`);
  }
  const bought = labels.filter((l) => l?.status === "purchased").length;
  const stuckItems = Object.entries(counts)
    .filter(([s]) => !FINAL_ITEM_STATUSES.includes(s))
    .reduce((n, [, c]) => n + c, 0);
  say(
    `A: shipping service: ${charges.length} charges for ${chargedIds.length} labels (${bought} purchased), ` +
      `${twiceForOneOrder} orders charged for a second label; Shopify: ${fulfilledTracking.size} tracking numbers fulfilled, ` +
      `${unfulfilled.length} charged labels without a fulfillment`,
  );
  return {
    doubleCharges,
    bought,
    charged: charges.length,
    unfulfilledCharged: unfulfilled.length,
    stuckItems,
    recoveryS,
  };
}

async function setPurchaseLatency(demo: RunningDemo, ms: number): Promise<void> {
  const faults = await fetch(`${demo.shippingUrl}/__emulator/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ latency_ms: { "POST /v1/labels/{id}/purchase": ms } }),
  });
  if (!faults.ok) throw new Error(`setting the latency failed: ${await faults.text()}`);
}

// ---- Scenario B: a burst of ready fulfillment orders through a restart ----

type ScenarioB = { drafts: number; expectedDrafts: number; duplicateDrafts: number; first: Answer[] };
type Planned = SignedDelivery;
type Answer = DeliveryAnswer;

/** Sends each delivery at `rate` a second; `during(i)` runs before the i-th one is sent. */
async function sendAll(deliveries: Planned[], rate: number, during?: (i: number) => void): Promise<Answer[]> {
  const start = performance.now();
  const answers: Promise<Answer>[] = [];
  for (const [i, delivery] of deliveries.entries()) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    during?.(i);
    answers.push(postDelivery(delivery, DELIVERY_TIMEOUT_MS));
  }
  return Promise.all(answers);
}

async function runScenarioB(demo: RunningDemo, db: PrismaClient, cluster: Cluster): Promise<ScenarioB> {
  const shopify = demo.shopify;
  shopify.webhooks?.close();
  await steady(() => db.shopSettings.update({ where: { shop: demo.shop }, data: { autoDraft: true } }));
  const before = shopify.webhookEvents().length;
  for (let i = 0; i < BURST_EVENTS; i++) shopify.createOrder({ kind: i % 7 === 6 ? "international" : "domestic" });
  const events = shopify
    .webhookEvents()
    .slice(before)
    .filter((e) => e.topic === TOPIC)
    .map((e) => ({
      eventId: e.eventId,
      body: JSON.stringify(e.payload),
      triggeredAt: e.triggeredAt,
      fulfillmentOrderGid: (e.payload as { fulfillment_order: { id: string } }).fulfillment_order.id,
    }));
  const fulfillmentOrders = [...new Set(events.map((e) => e.fulfillmentOrderGid))];
  // Every tenth delivery after the first ones repeats an event sent shortly before.
  const order = events.map((event) => ({ event }));
  for (let r = 0; r < BURST_REPEATS; r++) {
    const at = 20 + Math.floor(((events.length - 20) * r) / BURST_REPEATS);
    const event = order[at - 1 - (r % 15)]?.event;
    if (event) order.splice(at + r, 0, { event });
  }
  const sign = (event: (typeof events)[number]): Planned => ({
    url: `${demo.appUrl}/webhooks/fulfillment_orders`,
    body: event.body,
    headers: signedWebhookHeaders(demo.apiSecret, {
      shop: demo.shop,
      topic: TOPIC,
      body: event.body,
      eventId: event.eventId,
      triggeredAt: event.triggeredAt,
      webhookId: randomUUID(),
    }),
  });
  const planned = order.map(({ event }) => sign(event));
  const draftsBefore = (await readAccount(demo)).labels_created;
  say(
    `B: sending ${planned.length} deliveries (${events.length} events, ${fulfillmentOrders.length} fulfillment orders) at ${BURST_RATE}/s`,
  );

  // The restart runs beside the sending, halfway through.
  let restart: Promise<void> | null = null;
  const first = await sendAll(planned, BURST_RATE, (i) => {
    if (i === Math.floor(planned.length / 2)) {
      say("B: PostgreSQL restart (pg_ctl restart -m fast) while sending");
      restart = restartPostgresql(cluster);
    }
  });
  await restart;
  const failed = first.filter((a) => a.status !== 200);
  const slow = first.filter((a) => a.ms > 4_000).length;
  const why = [...new Set(failed.map((a) => a.error ?? `HTTP ${a.status}`))].slice(0, 4).join("; ");
  const max = Math.max(...first.map((a) => a.ms));
  say(
    `B: ${first.length - failed.length} answered 200, ${failed.length} not (${why || "none"}); ` +
      `${slow} took over 4 s, the slowest ${max.toFixed(0)} ms`,
  );
  let unacknowledged = planned.filter((_, i) => first[i]?.status !== 200);
  for (let retry = 1; retry < RETRY.attempts && unacknowledged.length > 0; retry++) {
    await sleep(RETRY.initialDelayMs * 2 ** (retry - 1));
    const again = unacknowledged.map((d) => ({
      ...d,
      headers: { ...d.headers, "X-Shopify-Webhook-Id": randomUUID() },
    }));
    const answers = await sendAll(again, BURST_RATE);
    unacknowledged = again.filter((_, i) => answers[i]?.status !== 200);
    say(`B: Shopify's retry ${retry}: ${again.length} sent again, ${unacknowledged.length} still not acknowledged`);
  }

  // Drafting settles: no auto-draft job waiting or running, or the bound.
  const drainStart = performance.now();
  let jobs: Record<string, number> = {};
  let lastPrint = 0;
  while (performance.now() - drainStart < DRAFT_SETTLE_MS) {
    const rows = await steady(() =>
      db.$queryRawUnsafe<{ state: string; n: number }[]>(
        `SELECT state::text AS state, count(*)::int AS n FROM pgboss.job WHERE name = 'auto-draft' GROUP BY state`,
      ),
    );
    jobs = Object.fromEntries(rows.map((r) => [r.state, r.n]));
    if ((jobs.created ?? 0) + (jobs.retry ?? 0) + (jobs.active ?? 0) === 0) break;
    if (performance.now() - lastPrint > 10_000) {
      lastPrint = performance.now();
      say(`B: auto-draft jobs ${JSON.stringify(jobs)}`);
    }
    await sleep(1_000);
  }
  say(
    `B: drafting ${((performance.now() - drainStart) / 1000).toFixed(0)} s after the last delivery: jobs ${JSON.stringify(jobs)}`,
  );

  // Drafts as the service counted them; a fulfillment order's draft is the one its order's id is on.
  const drafts = (await readAccount(demo)).labels_created - draftsBefore;
  const rows = await steady(() =>
    db.label.findMany({
      where: { shop: demo.shop, fulfillmentOrderGid: { in: fulfillmentOrders }, serviceLabelId: { not: null } },
      select: { fulfillmentOrderGid: true, orderGid: true, serviceLabelId: true, status: true },
    }),
  );
  const covered = new Set<string>();
  for (const row of rows) {
    const label = row.serviceLabelId ? await readServiceLabel(demo, row.serviceLabelId) : null;
    if (label && label.platform_order_id === row.orderGid.split("/").pop()) covered.add(row.fulfillmentOrderGid);
  }
  const states = await steady(() =>
    db.label.groupBy({
      by: ["status"],
      where: { shop: demo.shop, fulfillmentOrderGid: { in: fulfillmentOrders } },
      _count: { _all: true },
    }),
  );
  say(
    `B: ${drafts} drafts at the shipping service for ${fulfillmentOrders.length} fulfillment orders, ${covered.size} of them ` +
      `with a draft the service holds; the app's labels ${JSON.stringify(Object.fromEntries(states.map((s) => [s.status, s._count._all])))}`,
  );
  const missing = fulfillmentOrders.filter((fo) => !covered.has(fo));
  if (missing.length > 0) say(`B: without a draft: ${missing.slice(0, 8).join(", ")}`);
  return {
    drafts,
    expectedDrafts: fulfillmentOrders.length,
    // Every draft beyond the one each fulfillment order holds: drafted twice, or made and lost.
    duplicateDrafts: Math.max(0, drafts - covered.size),
    first,
  };
}

async function main(): Promise<{ result: string; code: number }> {
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test/.tmp/chaos-"));
  const logFile = join(dir, "demo.log");
  const appLog = process.env.CHAOS_APP_LOG === "1";
  const cluster = await startThrowawayCluster();
  const name = `chaos_${randomBytes(4).toString("hex")}`;
  await adminQuery(cluster.url, `CREATE DATABASE "${name}"`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  say(`throwaway cluster ${cluster.url}, database ${name}; the processes' output goes to ${logFile}`);
  let demo: RunningDemo | undefined;
  let db: PrismaClient | undefined;
  const workersStarted = new Set<string>();
  try {
    demo = await startDemo({
      appPort: 0,
      shippingPort: 0,
      shopifyPort: 0,
      orders: 0,
      plan: "plus",
      databaseUrl: url.toString(),
      webProcesses: 2,
      workers: 2,
      // A debugging aid for the processes (a preload), off by default.
      ...(process.env.CHAOS_CHILD_NODE_OPTIONS ? { env: { NODE_OPTIONS: process.env.CHAOS_CHILD_NODE_OPTIONS } } : {}),
      log: (line) => {
        appendFileSync(logFile, `${clock()} ${line}\n`);
        const worker = /^\[(worker[^\]]*)\].*"msg":"worker: started"/.exec(line)?.[1];
        if (worker) workersStarted.add(worker);
        if (appLog || !line.startsWith("[")) say(line);
      },
    });
    // The workers start in the background (a minute on a loaded machine): the faults are for
    // running workers.
    const waitUntil = performance.now() + 120_000;
    while (workersStarted.size < demo.workerPids.length && performance.now() < waitUntil) await sleep(500);
    say(
      `demo up: 2 web processes behind ${demo.appUrl}, workers ${demo.workerPids.join(", ")} ` +
        `(${workersStarted.size} started)`,
    );
    adoptDemoAppEnvironment(demo);
    const { createPrismaClient } = await import("../app/db/client.server");
    db = createPrismaClient(demo.databaseUrl);
    const install = await installBenchApp(demo);
    if (!install.ok) throw new Error(`installing the app failed: HTTP ${install.status}`);

    // B first: its drafting wants both workers, and A ends one.
    const b = await runScenarioB(demo, db, cluster);
    const a = await runScenarioA(demo, db, cluster);

    const missed: string[] = [];
    if (a.doubleCharges !== 0) missed.push(`double_charges=${a.doubleCharges}`);
    if (a.unfulfilledCharged !== 0) missed.push(`unfulfilled_charged=${a.unfulfilledCharged}`);
    if (a.stuckItems !== 0) missed.push(`stuck_items=${a.stuckItems}`);
    if (!(a.recoveryS <= TARGET_RECOVERY_S))
      missed.push(`recovery_s=${a.recoveryS.toFixed(0)} (target <= ${TARGET_RECOVERY_S})`);
    if (b.drafts !== b.expectedDrafts) missed.push(`drafts=${b.drafts} (expected ${b.expectedDrafts})`);
    if (b.duplicateDrafts !== 0) missed.push(`duplicate_drafts=${b.duplicateDrafts}`);
    say(missed.length ? `targets missed: ${missed.join("; ")}` : "every target met");
    say(`output kept in ${logFile}`);
    return {
      result:
        `RESULT chaos double_charges=${a.doubleCharges} bought=${a.bought} charged=${a.charged} ` +
        `unfulfilled_charged=${a.unfulfilledCharged} stuck_items=${a.stuckItems} ` +
        `recovery_s=${Number.isNaN(a.recoveryS) ? "none" : a.recoveryS.toFixed(0)} drafts=${b.drafts} ` +
        `expected_drafts=${b.expectedDrafts} duplicate_drafts=${b.duplicateDrafts}`,
      code: missed.length ? 1 : 0,
    };
  } finally {
    await db?.$disconnect().catch(() => {});
    await demo?.stop().catch(() => {});
    cluster.stop();
  }
}

runBench(main);
