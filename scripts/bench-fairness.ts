// npm run bench:fairness — does one shop's big bulk run hold up everyone else's work? The demo's
// shop runs a 2,000-order bulk run (check, review confirmed at once, buy and write back) while 50
// other shops each get a new order every 10 s for 3 minutes, with automatic drafts on: each order's
// fulfillment_orders/order_routing_complete delivery goes to the app, and its worker drafts the
// label. The same big run is first timed alone.
//
// Every shop is a store of its own in a Shopify emulator of its own (its own rate-limit bucket, as
// on Shopify), all on the same plan; the app's processes reach them through the demo's fetch
// routing (DEMO_ROUTE_SHOPS). Every shipping call takes BENCH_SHIPPING_LATENCY_MS (100 ms).
//
// A run takes at most MAX_BULK_RUN_ORDERS (1,000) orders, so the shop's 2,000 orders go as two
// runs of 1,000 started together, as a merchant would start them; the big run's time is until the
// last of them ends.
//
// Printed: the big run's wall time alone and with the others, their ratio, and for the other
// shops the time from sending an order's webhook to its draft at the shipping service (seen by
// polling the app's labels every 500 ms). Targets: others_draft_p95_s < 10, big_run_ratio ≤ 1.3,
// every other shop's order drafted. Exits 1 when one is missed.
//
//   npm run bench:fairness -- --postgres   production's configuration (ADR 19; RESULT db=)
//   npm run bench:fairness -- --plan standard   the stores' Shopify plan (default plus; RESULT plan=)
//   BENCH_ORDERS=2000 BENCH_OTHER_SHOPS=50 BENCH_ORDER_EVERY_S=10 BENCH_OTHERS_FOR_S=180
//   BENCH_APP_LOG=1   also prints the app's and the workers' output

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

import { MAX_BULK_RUN_ORDERS } from "../app/bulk/run-limits";
import { planFromArgs } from "../emulator/shopify/rate-limit";
import { type ShopifyAdminEmulatorServer, startShopifyAdminEmulatorServer } from "../emulator/shopify/server";
import { adoptDemoAppEnvironment, driveBulkRun, placeOrders, slowShippingCalls } from "./bench-bulk-run";
import {
  DEFAULT_BENCH_PLAN,
  describeBenchDemo,
  installBenchApp,
  openBenchDatabase,
  runBench,
  startBenchDemo,
} from "./bench-demo";
import { signedWebhookHeaders } from "./bench-webhook-sender";
import { BOX_PRESETS, DEMO, type RunningDemo } from "./demo";

const BIG_ORDERS = Number(process.env.BENCH_ORDERS ?? 2000);
const OTHER_SHOPS = Number(process.env.BENCH_OTHER_SHOPS ?? 50);
const ORDER_EVERY_MS = Number(process.env.BENCH_ORDER_EVERY_S ?? 10) * 1000;
const OTHERS_FOR_MS = Number(process.env.BENCH_OTHERS_FOR_S ?? 180) * 1000;
const LATENCY_MS = Number(process.env.BENCH_SHIPPING_LATENCY_MS ?? 100);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 1200) * 1000;
// After the last order: how long the other shops' drafts may still take before they count as missing.
const DRAIN_MS = 120_000;
const TARGET_DRAFT_P95_S = 10;
const TARGET_RATIO = 1.3;
const TOPIC = "fulfillment_orders/order_routing_complete";
const ROOT = resolve(import.meta.dirname, "..");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The shop's orders as runs of at most MAX_BULK_RUN_ORDERS, started together; done when the last one is. */
async function driveBigRun(
  db: Parameters<typeof driveBulkRun>[0],
  shop: string,
  orders: ReturnType<typeof placeOrders>,
  options: Parameters<typeof driveBulkRun>[3],
): Promise<{ wallS: number }> {
  const runs: ReturnType<typeof placeOrders>[] = [];
  for (let i = 0; i < orders.length; i += MAX_BULK_RUN_ORDERS) runs.push(orders.slice(i, i + MAX_BULK_RUN_ORDERS));
  const driven = await Promise.all(runs.map((run) => driveBulkRun(db, shop, run, options)));
  return { wallS: Math.max(...driven.map((run) => run.wallS)) };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/** The other shops' stores: one emulator each, with no webhook delivery of their own (the bench sends). */
async function startOtherStores(count: number, plan: ReturnType<typeof planFromArgs>) {
  const stores: ShopifyAdminEmulatorServer[] = [];
  for (let i = 1; i <= count; i++) {
    stores.push(
      await startShopifyAdminEmulatorServer({
        port: 0,
        host: "127.0.0.1",
        shop: `fair-shop-${i}.myshopify.com`,
        generatedOrders: 0,
        ...(plan ? { plan } : {}),
        // The app's URL only places the admin page's frame; nothing here opens it.
        app: { apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, scopes: [...DEMO.scopes], appUrl: "http://127.0.0.1:9" },
      }),
    );
  }
  return stores;
}

type SentOrder = { shop: string; fulfillmentOrderGid: string; sentAt: number; draftedAfterS?: number };

/**
 * Each other shop gets a new order every ORDER_EVERY_MS for OTHERS_FOR_MS (shops staggered across
 * the interval), and Shopify's delivery of its routing event goes to the app at once (sent again a
 * second later if not acknowledged, as Shopify retries).
 */
async function feedOtherShops(demo: RunningDemo, stores: ShopifyAdminEmulatorServer[], sent: SentOrder[]) {
  const started = performance.now();
  const perShop = Math.max(1, Math.floor(OTHERS_FOR_MS / ORDER_EVERY_MS));
  const schedule = stores
    .flatMap((store, i) =>
      Array.from({ length: perShop }, (_, k) => ({
        store,
        atMs: k * ORDER_EVERY_MS + (i * ORDER_EVERY_MS) / stores.length,
      })),
    )
    .sort((a, b) => a.atMs - b.atMs);
  const deliveries: Promise<void>[] = [];
  for (const { store, atMs } of schedule) {
    const wait = atMs - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    const before = store.emulator.webhookEvents().length;
    store.emulator.createOrder({ kind: "domestic" });
    for (const event of store.emulator
      .webhookEvents()
      .slice(before)
      .filter((e) => e.topic === TOPIC)) {
      const payload = event.payload as { fulfillment_order: { id: string } };
      const body = JSON.stringify(event.payload);
      const order: SentOrder = {
        shop: store.emulator.shop,
        fulfillmentOrderGid: payload.fulfillment_order.id,
        sentAt: performance.now(),
      };
      sent.push(order);
      deliveries.push(
        (async () => {
          for (let attempt = 0; attempt < 5; attempt++) {
            const response = await fetch(`${demo.appUrl}/webhooks/fulfillment_orders`, {
              method: "POST",
              headers: signedWebhookHeaders(demo.apiSecret, {
                shop: order.shop,
                topic: TOPIC,
                body,
                eventId: event.eventId,
                triggeredAt: event.triggeredAt,
                webhookId: randomUUID(),
              }),
              body,
              signal: AbortSignal.timeout(5_000),
            }).catch(() => null);
            await response?.arrayBuffer();
            if (response?.ok) return;
            await sleep(1000);
          }
        })(),
      );
    }
  }
  await Promise.all(deliveries);
}

async function main(): Promise<{ result: string; code: number }> {
  const argv = process.argv.slice(2);
  const plan = planFromArgs(argv) ?? DEFAULT_BENCH_PLAN;
  const database = await openBenchDatabase(argv);
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test/.tmp/bench-fairness-"));
  const appLog = process.env.BENCH_APP_LOG === "1";
  const problems: string[] = [];
  const stores = await startOtherStores(OTHER_SHOPS, plan);
  let demo: RunningDemo | undefined;
  try {
    demo = await startBenchDemo(
      dir,
      (line) => {
        if (appLog || !line.startsWith("[")) console.log(line);
        else if (/"level":"(warn|error|fatal)"|Error/.test(line) && problems.length < 8)
          problems.push(line.slice(0, 240));
      },
      plan,
      database,
      { DEMO_ROUTE_SHOPS: JSON.stringify(Object.fromEntries(stores.map((s) => [s.emulator.shop, s.url]))) },
    );
    const running = demo;
    console.log(
      `${describeBenchDemo(running, database)}; ${OTHER_SHOPS + 1} stores on Shopify's ${plan} plan ` +
        `(${running.shopify.rateLimit.maximumAvailable} points, ${running.shopify.rateLimit.restoreRate}/s each)`,
    );
    adoptDemoAppEnvironment(running);
    const { createPrismaClient } = await import("../app/db.server");
    const { setShippingApiKey } = await import("../app/settings/settings.server");
    const db = createPrismaClient(running.databaseUrl);
    try {
      // Every shop installed (its offline session stored); the others with automatic drafts on.
      for (const shop of [running.shop, ...stores.map((s) => s.emulator.shop)]) {
        const install = await installBenchApp(running, shop);
        if (!install.ok) throw new Error(`installing the app on ${shop} failed: HTTP ${install.status}`);
      }
      for (const store of stores) {
        const shop = store.emulator.shop;
        const saved = await setShippingApiKey(db, shop, DEMO.shippingApiKey, { encryptionKey: DEMO.encryptionKey });
        if (!saved.ok) throw new Error(`${shop}: ${saved.error.logMessage}`);
        const location = store.emulator.state().locations[0];
        if (!location) throw new Error(`${shop} has no location`);
        await db.shopSettings.update({ where: { shop }, data: { shipFromLocationGid: location.id, autoDraft: true } });
        await db.boxPreset.createMany({ data: BOX_PRESETS.map((preset) => ({ shop, ...preset })) });
      }
      running.shopify.webhooks?.close();
      await db.shopSettings.update({ where: { shop: running.shop }, data: { autoDraft: false } });
      await slowShippingCalls(running.shippingUrl, LATENCY_MS);
      const log = (line: string) => console.log(line);

      console.log(`alone: ${running.shop} runs ${BIG_ORDERS} orders; every shipping call takes ${LATENCY_MS} ms`);
      const alone = await driveBigRun(db, running.shop, placeOrders(running.shopify, BIG_ORDERS), {
        timeoutMs: RUN_TIMEOUT_MS,
        log,
      });
      console.log(`alone: ${alone.wallS.toFixed(1)} s`);

      console.log(
        `together: ${BIG_ORDERS} more orders, while ${OTHER_SHOPS} shops get an order every ` +
          `${ORDER_EVERY_MS / 1000} s for ${OTHERS_FOR_MS / 1000} s`,
      );
      const sent: SentOrder[] = [];
      const feed = feedOtherShops(running, stores, sent);
      const runStarted = performance.now();
      let polling = true;
      // Drafts as the app holds them: a Label row with the service's id.
      const poll = (async () => {
        while (polling) {
          const pending = sent.filter((o) => o.draftedAfterS === undefined);
          if (pending.length) {
            const drafted = await db.label.findMany({
              where: {
                fulfillmentOrderGid: { in: pending.map((o) => o.fulfillmentOrderGid) },
                serviceLabelId: { not: null },
              },
              select: { shop: true, fulfillmentOrderGid: true },
            });
            const now = performance.now();
            const seen = new Set(drafted.map((l) => `${l.shop} ${l.fulfillmentOrderGid}`));
            for (const order of pending) {
              if (seen.has(`${order.shop} ${order.fulfillmentOrderGid}`))
                order.draftedAfterS = (now - order.sentAt) / 1000;
            }
          }
          await sleep(500);
        }
      })();
      const together = await driveBigRun(db, running.shop, placeOrders(running.shopify, BIG_ORDERS), {
        timeoutMs: RUN_TIMEOUT_MS,
        log,
      });
      console.log(`together: the big run took ${together.wallS.toFixed(1)} s`);
      await feed;
      const drainUntil = performance.now() + DRAIN_MS;
      while (sent.some((o) => o.draftedAfterS === undefined) && performance.now() < drainUntil) await sleep(500);
      polling = false;
      await poll;
      console.log(`the other shops' orders: fed over ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);

      const drafted = sent.filter((o) => o.draftedAfterS !== undefined);
      const latencies = drafted.map((o) => o.draftedAfterS ?? NaN).sort((a, b) => a - b);
      // An order never drafted counts as the slowest of all.
      const withMissing = [...latencies, ...Array.from({ length: sent.length - drafted.length }, () => Infinity)];
      const p95 = percentile(withMissing, 95);
      const ratio = together.wallS / alone.wallS;
      const blocked = await db.autoDraftOutcome.count({
        where: { shop: { in: stores.map((s) => s.emulator.shop) }, status: "blocked" },
      });
      console.log(
        `other shops: ${drafted.length} of ${sent.length} orders drafted; webhook to draft p50 ` +
          `${percentile(latencies, 50).toFixed(1)} s, p95 ${p95.toFixed(1)} s, max ${(latencies.at(-1) ?? NaN).toFixed(1)} s; ` +
          `${blocked} automatic drafts blocked`,
      );
      console.log(
        `big run: alone ${alone.wallS.toFixed(1)} s, with the others ${together.wallS.toFixed(1)} s: ratio ${ratio.toFixed(3)}`,
      );
      for (const line of problems) console.log(`  ${line}`);
      const missed: string[] = [];
      if (!(p95 < TARGET_DRAFT_P95_S))
        missed.push(`others' draft p95 ${p95.toFixed(1)} s (target < ${TARGET_DRAFT_P95_S})`);
      if (!(ratio <= TARGET_RATIO)) missed.push(`big run ratio ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})`);
      if (drafted.length < sent.length) missed.push(`${sent.length - drafted.length} other shops' orders not drafted`);
      if (missed.length) console.log(`targets missed: ${missed.join("; ")}`);
      return {
        result:
          `RESULT bench:fairness others_draft_p95_s=${p95.toFixed(1)} big_run_ratio=${ratio.toFixed(3)} ` +
          `alone_s=${alone.wallS.toFixed(1)} together_s=${together.wallS.toFixed(1)} ` +
          `others_drafted=${drafted.length}/${sent.length} db=${database.kind} plan=${plan}`,
        code: missed.length ? 1 : 0,
      };
    } finally {
      await db.$disconnect();
    }
  } finally {
    await demo?.stop();
    for (const store of stores) await store.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
