// npm run bench:bulk — one bulk run of 1,000 orders end to end (check: quote and draft; review;
// buy and write tracking back) through the demo's worker, against both emulators on loopback,
// with every shipping call slowed to BENCH_SHIPPING_LATENCY_MS (default 100 ms).
//
// The floor is what the shipping calls alone must take at the app's concurrency: calls per order
// (rates and draft while checking, purchase while buying: 3) × latency × orders ÷ concurrency.
// Wall time runs from the run's start to its last item, with the review confirmed as soon as it
// is ready. Printed: wall time, the floor, their ratio, the worker's peak RSS (sampled, and
// its high-water mark) and its RSS after the first quarter of the items (memory must stay flat),
// Shopify query cost spent, and charges as the shipping emulator counted them. Targets: ratio at
// most 1.15, memory flat, no double charge. Exits 1 when one is missed.
//
//   BENCH_ORDERS=1000 BENCH_SHIPPING_LATENCY_MS=100 npm run bench:bulk
//   npm run bench:bulk -- --plan standard   the store's Shopify plan (default plus; RESULT plan=)
//   BENCH_APP_LOG=1   also prints the app's and the worker's output

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

import { FAULT_ENDPOINTS } from "../emulator/shipping/emulator";
import { planFromArgs } from "../emulator/shopify/rate-limit";
import { DEFAULT_BENCH_PLAN, demoShippingOrganization, installBenchApp, runBench, startBenchDemo } from "./bench-demo";
import { DEMO } from "./demo";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_SHIPPING_LATENCY_MS ?? 100);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 900) * 1000;
const CALLS_PER_ORDER = 3; // POST /v1/rates, POST /v1/labels, POST /v1/labels/{id}/purchase
const TARGET_RATIO = 1.15;
// "Flat": the worker's RSS at the end within this of its RSS a quarter of the way through.
const FLAT_GROWTH_MB = 40;
const ROOT = resolve(import.meta.dirname, "..");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${field}:`));
    const kb = line ? Number(/(\d+)/.exec(line)?.[1]) : NaN;
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

async function main(): Promise<{ result: string; code: number }> {
  const plan = planFromArgs(process.argv.slice(2)) ?? DEFAULT_BENCH_PLAN;
  const organization = demoShippingOrganization();
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test/.tmp/bench-bulk-"));
  const appLog = process.env.BENCH_APP_LOG === "1";
  const problems: string[] = [];
  const demo = await startBenchDemo(
    dir,
    (line) => {
      if (appLog || !line.startsWith("[")) console.log(line);
      else if (/error|dead|fail/i.test(line) && problems.length < 8) problems.push(line.slice(0, 240));
    },
    plan,
  );
  console.log(
    `Shopify plan: ${plan} (${demo.shopify.rateLimit.maximumAvailable} points, ${demo.shopify.rateLimit.restoreRate}/s)`,
  );
  // This process plays the web process's part (it starts and confirms the run): the app's modules
  // read the demo app's configuration when they load.
  Object.assign(process.env, {
    DATABASE_URL: demo.databaseUrl,
    SHOPIFY_API_KEY: demo.apiKey,
    SHOPIFY_API_SECRET: demo.apiSecret,
    SHOPIFY_APP_URL: demo.appUrl,
    SCOPES: DEMO.scopes.join(","),
    APP_ENCRYPTION_KEY: DEMO.encryptionKey,
    SHIPPING_API_BASE_URL: demo.shippingUrl,
  });
  const { createPrismaClient } = await import("../app/db.server");
  const { startBulkRun } = await import("../app/bulk/bulk-runs.server");
  const { confirmBulkRun } = await import("../app/bulk/bulk-buying.server");
  const { getBulkRun } = await import("../app/bulk/bulk-run-view.server");
  const { enqueueBulkBuy, enqueueBulkCheck, BULK_SHIPPING_CONCURRENCY } =
    await import("../app/jobs/bulk-run-jobs.server");
  const db = createPrismaClient(demo.databaseUrl);
  try {
    // Installed: the merchant's first visit stores the offline session the worker uses.
    const install = await installBenchApp(demo);
    if (!install.ok) throw new Error(`installing the app failed: HTTP ${install.status}`);

    // The orders, placed with the store's webhooks closed and automatic drafts off: the run
    // makes every draft.
    demo.shopify.webhooks?.close();
    await db.shopSettings.update({ where: { shop: demo.shop }, data: { autoDraft: false } });
    const orders = Array.from({ length: ORDERS }, (_, i) => {
      const { order } = demo.shopify.createOrder({ kind: i % 7 === 6 ? "international" : "domestic" });
      return { orderGid: order.id, orderName: order.name };
    });
    const latency = Object.fromEntries(FAULT_ENDPOINTS.filter((e) => e !== "DELIVERY").map((e) => [e, LATENCY_MS]));
    const faults = await fetch(`${demo.shippingUrl}/__emulator/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ latency_ms: latency }),
    });
    if (!faults.ok) throw new Error(`setting the latency failed: ${await faults.text()}`);
    const costBefore = demo.shopify.queryCostSpent();
    console.log(`store: ${ORDERS} orders (1 in 7 international); every shipping call takes ${LATENCY_MS} ms`);

    // The run, as the Orders screen and the review page start and confirm it.
    const started = performance.now();
    const run = await startBulkRun(db, demo.shop, { orders, choice: { mode: "cheapest" } }, (tx, id) =>
      enqueueBulkCheck(tx, demo.shop, id),
    );
    if (!run.ok) throw new Error(run.error.message);
    const runId = run.value.runId;
    let peakRss = 0;
    let quarterRss: number | null = null;
    let reviewedAt: number | null = null;
    let lastPrint = performance.now();
    // Watched through a count by status: the run's whole view (every item) read four times a
    // second would take the CPU the emulators answer with, in this process, and slow the calls
    // whose wait the bench measures. The view is read once for the review and once at the end.
    const watch = async () => {
      const run = await db.bulkRun.findFirst({ where: { id: runId }, select: { status: true } });
      const groups = await db.bulkRunItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
      const counts = Object.fromEntries(groups.map((g) => [g.status, g._count._all])) as Record<string, number>;
      return { status: run?.status ?? "gone", counts, total: groups.reduce((n, g) => n + g._count._all, 0) };
    };
    let state = await watch();
    while (state.status !== "done" && state.status !== "stopped" && state.status !== "cancelled") {
      if (performance.now() - started > TIMEOUT_MS) break;
      await sleep(250);
      state = await watch();
      if (state.status === "gone") break;
      const rss = rssMb(demo.workerPid, "VmRSS");
      if (rss !== null) peakRss = Math.max(peakRss, rss);
      const count = (status: string) => state.counts[status] ?? 0;
      const settled = count("bought") + count("failed") + count("not_started");
      if (quarterRss === null && settled >= state.total / 4 && state.status === "running") quarterRss = rss;
      if (state.status === "review") {
        reviewedAt = performance.now();
        const review = await getBulkRun(db, demo.shop, runId);
        if (!review) break;
        const ready = review.items.filter((i) => i.status === "ready").length;
        console.log(
          `review after ${((reviewedAt - started) / 1000).toFixed(1)} s: ${ready} ready, ${review.counts.blocked} blocked, ` +
            `${review.counts.skipped} left out; total ${(review.totalCents / 100).toFixed(2)} USD`,
        );
        const confirmed = await confirmBulkRun(
          db,
          demo.shop,
          runId,
          { count: ready, totalCents: review.totalCents },
          (tx, id) => enqueueBulkBuy(tx, demo.shop, id),
        );
        if (!confirmed.ok) throw new Error(confirmed.error.message);
      }
      if (performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        console.log(
          `  ${((lastPrint - started) / 1000).toFixed(0)} s: ${state.status} ${JSON.stringify(state.counts)}`,
        );
      }
    }
    const wallS = (performance.now() - started) / 1000;
    const view = await getBulkRun(db, demo.shop, runId);
    if (!view) throw new Error("the run disappeared");

    const account = (await (await fetch(`${demo.shippingUrl}/__emulator/organizations/${organization}`)).json()) as {
      labels_created: number;
      charges: { label_id: string }[];
    };
    const charged = new Set(account.charges.map((c) => c.label_id));
    const bought = view.items.filter((i) => i.status === "bought");
    const doubleCharges = account.charges.length - charged.size + Math.max(0, charged.size - bought.length);
    const floorS = (CALLS_PER_ORDER * LATENCY_MS * ORDERS) / BULK_SHIPPING_CONCURRENCY / 1000;
    const ratio = wallS / floorS;
    const hwm = rssMb(demo.workerPid, "VmHWM");
    const cost = demo.shopify.queryCostSpent() - costBefore;
    const growth = quarterRss === null ? null : peakRss - quarterRss;
    console.log(
      `run ${view.status}: ${bought.length} bought, ${view.counts.failed} failed, ${view.counts.blocked} blocked, ` +
        `${view.counts.skipped} left out, ${view.counts.not_started} not started` +
        (reviewedAt ? `; checking took ${((reviewedAt - started) / 1000).toFixed(1)} s` : ""),
    );
    console.log(
      `wall ${wallS.toFixed(1)} s; floor ${floorS.toFixed(1)} s (${CALLS_PER_ORDER} calls × ${LATENCY_MS} ms × ${ORDERS} ÷ ` +
        `concurrency ${BULK_SHIPPING_CONCURRENCY}); ratio ${ratio.toFixed(3)}`,
    );
    console.log(
      `worker RSS: peak ${peakRss.toFixed(0)} MB sampled (high-water ${hwm?.toFixed(0) ?? "?"} MB), ` +
        `${quarterRss?.toFixed(0) ?? "?"} MB a quarter of the way; Shopify cost spent ${cost} points ` +
        `(${(cost / ORDERS).toFixed(0)} an order)`,
    );
    console.log(
      `shipping service: ${account.labels_created} drafts, ${account.charges.length} charges for ${charged.size} labels`,
    );
    for (const line of problems) console.log(`  ${line}`);

    const missed: string[] = [];
    if (view.status !== "done") missed.push(`the run ended ${view.status}`);
    if (bought.length !== ORDERS) missed.push(`${bought.length} of ${ORDERS} bought`);
    if (!(ratio <= TARGET_RATIO)) missed.push(`ratio ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})`);
    if (growth === null || growth > FLAT_GROWTH_MB) missed.push(`worker memory grew ${growth?.toFixed(0) ?? "?"} MB`);
    if (doubleCharges > 0) missed.push(`${doubleCharges} double charges`);
    if (missed.length) console.log(`targets missed: ${missed.join("; ")}`);
    return {
      result:
        `RESULT bench:bulk orders=${ORDERS} wall_s=${wallS.toFixed(1)} floor_s=${floorS.toFixed(1)} ` +
        `ratio=${ratio.toFixed(3)} peak_rss_mb=${Math.round(Math.max(peakRss, hwm ?? 0))} double_charges=${doubleCharges} ` +
        `plan=${plan}`,
      code: missed.length > 0 ? 1 : 0,
    };
  } finally {
    await db.$disconnect();
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
