// npm run bench:pages — server time of the Orders loader and the order label page loader against
// the Shopify Admin emulator holding 10,000 open orders.
//
// The real loaders run as in production: signed session token, offline session from the
// database, the Admin GraphQL client, the app's adapters, prefill and preflight, SQLite. Shopify is
// the in-process emulator behind msw (as in the route tests), built with `throttle: false`: this
// measures server time, not Shopify's rate limit (an Orders page requests 482 points plus the
// shop and locations, inside the 2,000-point bucket for a merchant clicking through pages).
// `npm run bench:pages -- --plan standard` puts the store on that plan's rate limit instead: the
// loads then come back to back, faster than a merchant clicks, and wait on the bucket. The RESULT
// line says which: plan=none (throttling off, the default) or the plan's name.
//
// The RESULT line is the live time: the loader waiting on the emulator's answers, as a merchant
// waits on Shopify's (minus the network). The emulator stands in for Shopify at Shopify-like
// speed, so its share is printed too. The same runs are then repeated with Shopify's answers
// replayed from a recording, which times the app alone ("app only").
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";

import { createShopifyAdminEmulator } from "../emulator/shopify/emulator";
import { planFromArgs } from "../emulator/shopify/rate-limit";
import { withGeneratedOrders } from "../test/fixtures/generated-orders";
import { routeArgs } from "../test/helpers/route-args";
import { createSessionToken } from "../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../test/setup/test-env";

const ORDERS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;
const ROOT = resolve(import.meta.dirname, "..");

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

async function main() {
  const plan = planFromArgs(process.argv.slice(2));
  // A migrated database of its own, so the bench never touches dev data.
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test/.tmp/bench-"));
  const databaseUrl = `file:${join(dir, "bench.sqlite")}`;
  execFileSync(join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
  Object.assign(process.env, TEST_ENV, { NODE_ENV: "production", DATABASE_URL: databaseUrl });

  const built = performance.now();
  const shopify = createShopifyAdminEmulator({
    shop: TEST_SHOP,
    ...(plan ? { plan } : { throttle: false }),
    seed: withGeneratedOrders(ORDERS),
  });
  const openOrders = shopify.state().orders.length;
  const limit = plan
    ? `${plan} plan: ${shopify.rateLimit.maximumAvailable} points, ${shopify.rateLimit.restoreRate}/s`
    : "throttle off";
  console.log(`emulator: ${openOrders} orders seeded in ${Math.round(performance.now() - built)} ms (${limit})`);

  // Every answer is recorded on the live runs and replayed for the "app only" runs. emulatorMs is
  // the wall time during which at least one request was with the emulator (the loader sends some
  // in parallel, so their durations are not simply added).
  let replay = false;
  let emulatorMs = 0;
  let inFlight = 0;
  let busySince = 0;
  const recorded = new Map<string, string>();
  const server = setupServer(
    http.post(`https://${TEST_SHOP}/admin/oauth/access_token`, () =>
      HttpResponse.json({
        access_token: "shpat_bench",
        scope: TEST_ENV.SCOPES,
        expires_in: 86_400,
        refresh_token: "shprt_bench",
        refresh_token_expires_in: 7_776_000,
      }),
    ),
    http.post(`https://${TEST_SHOP}/admin/api/:version/graphql.json`, async ({ request }) => {
      const body = await request.text();
      const known = replay ? recorded.get(body) : undefined;
      if (known !== undefined) return new Response(known, { headers: { "Content-Type": "application/json" } });
      if (inFlight++ === 0) busySince = performance.now();
      const response = await shopify.fetch(
        new Request(request.url, { method: "POST", headers: request.headers, body }),
      );
      const text = await response.text();
      if (--inFlight === 0) emulatorMs += performance.now() - busySince;
      recorded.set(body, text);
      return new Response(text, { status: response.status, headers: { "Content-Type": "application/json" } });
    }),
  );
  server.listen({ onUnhandledRequest: "error" });
  const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  setAbstractFetchFunc((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  // Imported after the environment is set: the app reads it at import.
  const { loader: ordersLoader } = await import("../app/routes/app.orders._index/route");
  const { loader: orderPageLoader } = await import("../app/routes/app.orders.$orderId/route");
  const { setShippingApiKey } = await import("../app/settings/settings.server");
  const { default: db } = await import("../app/db.server");
  await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");

  const request = (path: string) =>
    new Request(new URL(path, TEST_ENV.SHOPIFY_APP_URL), {
      headers: { Authorization: `Bearer ${createSessionToken()}` },
    });

  // The pages a merchant visits: the first pages, searches, the tabs; and random orders.
  const first = await ordersLoader(routeArgs(request("/app/orders")));
  const cursors: string[] = [];
  let after = first.list?.pageInfo.endCursor ?? null;
  for (let i = 0; i < 10 && after; i++) {
    cursors.push(after);
    const next = await ordersLoader(routeArgs(request(`/app/orders?after=${encodeURIComponent(after)}`)));
    after = next.list?.pageInfo.endCursor ?? null;
  }
  const orderPaths = [
    "/app/orders",
    "/app/orders?tab=needs_label",
    "/app/orders?tab=problems",
    "/app/orders?q=1003",
    `/app/orders?q=${100_000 + Math.floor(ORDERS / 2)}`,
    ...cursors.map((c) => `/app/orders?after=${encodeURIComponent(c)}`),
  ];
  const orderIds = shopify
    .state()
    .orders.map((o) => o.id.split("/").pop() ?? "")
    .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / 200)) === 0);

  // A run's wall time and, of it, the time the emulator spent answering.
  async function time(fn: () => Promise<unknown>): Promise<{ total: number; emulator: number }> {
    emulatorMs = 0;
    const start = performance.now();
    await fn();
    return { total: performance.now() - start, emulator: emulatorMs };
  }

  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? NaN };
  };
  const line = (label: string, values: number[]) => {
    const s = stats(values);
    console.log(
      `  ${label.padEnd(40)} p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`,
    );
    return s;
  };

  // Live runs first (they also record every answer), then the same runs replayed.
  const measure = async (label: string, run: (i: number) => Promise<unknown>) => {
    replay = false;
    for (let i = 0; i < WARMUP; i++) await run(i);
    const live: { total: number; emulator: number }[] = [];
    for (let i = 0; i < RUNS; i++) live.push(await time(() => run(i)));
    replay = true;
    for (let i = 0; i < WARMUP; i++) await run(i);
    const app: number[] = [];
    for (let i = 0; i < RUNS; i++) app.push((await time(() => run(i))).total);
    console.log(`${label}, ${RUNS} runs`);
    const result = line(
      "server time, live emulator:",
      live.map((r) => r.total),
    );
    line(
      "  of which the emulator answering:",
      live.map((r) => r.emulator),
    );
    line("app only (Shopify's answers replayed):", app);
    return result.p95;
  };

  const ordersP95 = await measure("Orders loader (/app)", (i) =>
    ordersLoader(routeArgs(request(orderPaths[i % orderPaths.length] ?? "/app/orders"))),
  );
  const orderPageP95 = await measure("Order label page loader (/app/orders/:orderId)", (i) => {
    const orderId = orderIds[i % orderIds.length] ?? "";
    return orderPageLoader(routeArgs(request(`/app/orders/${orderId}`), { orderId }));
  });

  server.close();
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `RESULT bench:pages orders_p95_ms=${Math.round(ordersP95)} order_page_p95_ms=${Math.round(orderPageP95)} plan=${plan ?? "none"}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
