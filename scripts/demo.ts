// `npm run demo`: the app against a seeded, emulated Shopify store and the emulated shipping
// service, all on this machine. Prints one URL (the emulated admin with the app inside).
//
//   npm run demo                         fresh demo database, 300 generated orders, ports 3000/4010/4545
//   npm run demo -- --keep               keep prisma/demo.sqlite (labels, settings) from the last run
//   npm run demo -- --orders 1000        how many generated orders besides the 22 scenario orders
//   npm run demo -- --app-port 3100 --shipping-port 4110 --shopify-port 4645   (0 = any free port)
//   npm run demo -- --build              rebuild the app even if build/ looks current
//   npm run demo -- --plan plus          the store's Shopify plan, which sets its Admin API rate
//                                        limit: standard (default), advanced, plus, enterprise
//
// What runs: the two emulators in this process (loopback servers), and the app's production
// build in a child process (scripts/demo-app-server.ts) with NODE_ENV=development, DEMO_MODE=1
// and a preload that routes calls for the demo shop's host to the Shopify emulator. On SQLite
// (the demo's database) that one process also runs the job worker (ADR 19: one process, so no
// two processes share the file), which drafts new orders and recovers interrupted purchases and
// pending write-backs. On PostgreSQL (`databaseUrl`, the benches' --postgres) the web processes
// only enqueue and the workers are processes of their own (scripts/worker.ts, as
// `npm run worker`), as in production. Ctrl-C stops everything and frees the ports.
//
// The Shopify emulator delivers webhooks to the app for the subscriptions in shopify.app.toml,
// signed with the demo's API secret: the admin page's "New order" button (or a test's
// `demo.shopify.createOrder()`) places an order and the app hears of it as it would from Shopify.
// The demo shop has automatic drafts on, so the worker then drafts the order's label (never buys).
//
// The shipping emulator delivers its events (label.purchased, label.tracking_updated) to the app:
// the demo registers the shop's event endpoint at start and after each reset, as saving the key in
// Settings would, and failed deliveries are retried after 2, 5, 10, 30, 60 and 120 seconds instead
// of the contract's minutes and hours (SHIPPING_EMULATOR_RETRY_DELAYS overrides it).
//
// Browser tests start it programmatically: see `startDemo` below and README "Running the demo".

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { setPriority } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";

import { createPrismaClient, isPostgresqlUrl } from "../app/db/client.server";
import { byDatabase } from "../app/db/database-kind.server";
import { setShippingApiKey } from "../app/settings/settings.server";
import { connectShippingEvents } from "../app/settings/shipping-event-endpoint.server";
import { createShippingClient } from "../app/shipping/client.server";
import {
  readDeliveryOptionsFromEnv,
  type RunningServer,
  startShippingEmulatorServer,
} from "../emulator/shipping/server";
import { loadWebhookSubscriptions } from "../emulator/shopify/app-config";
import type { ShopifyAdminEmulator, ShopifyAdminEmulatorOptions } from "../emulator/shopify/emulator";
import { DEFAULT_GENERATED_ORDER_COUNT } from "../emulator/shopify/generated-orders";
import {
  DEFAULT_SHOPIFY_PLAN,
  parseShopifyPlan,
  SHOPIFY_PLANS,
  type ShopifyPlan,
} from "../emulator/shopify/rate-limit";
import { DEFAULT_SHOP_DOMAIN } from "../emulator/shopify/seed";
import { type ShopifyAdminEmulatorServer, startShopifyAdminEmulatorServer } from "../emulator/shopify/server";
import { migratePostgresql } from "./migrate-postgresql.mjs";

const execFileAsync = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const HOST = "127.0.0.1";

// Fixed demo credentials. They are not secrets: they only open this machine's emulators.
export const DEMO = {
  shop: DEFAULT_SHOP_DOMAIN,
  apiKey: "demo-ship-orders-api-key",
  apiSecret: "demo-ship-orders-api-secret",
  // The shipping emulator's sandbox key for the demo organization (emulator/shipping/config.json).
  shippingApiKey: "sk_test_demo",
  encryptionKey: "de705e0d".repeat(8), // 64 hex characters
  scopes: [
    "read_orders",
    "read_merchant_managed_fulfillment_orders",
    "write_merchant_managed_fulfillment_orders",
    "read_products",
    "write_inventory",
    "read_locations",
    "write_fulfillments",
    "read_returns",
    "write_returns",
  ],
  ports: { app: 3000, shipping: 4010, shopify: 4545 },
  // Seconds between failed event deliveries (the contract's 1 min … 12 h, shortened for a demo).
  eventRetryDelaysSeconds: [2, 5, 10, 30, 60, 120],
} as const;

export interface DemoOptions {
  // 0 picks a free port. Defaults: 3000, 4010, 4545; a busy port fails with a clear message.
  appPort?: number;
  shippingPort?: number;
  shopifyPort?: number;
  // Generated orders besides the 22 scenario orders (default 300).
  orders?: number;
  // Keep the demo database from the last run instead of starting fresh.
  keep?: boolean;
  // The SQLite file (default prisma/demo.sqlite).
  databasePath?: string;
  // A PostgreSQL database instead (postgresql://…): migrated, and emptied of the app's rows unless
  // `keep`. The demo's processes and this one all use it.
  databaseUrl?: string;
  // PostgreSQL only: web processes behind one address (round-robin, as a load balancer would) and
  // worker processes (default 1 each). On SQLite the one app process runs the jobs.
  webProcesses?: number;
  workers?: number;
  // "if-stale" (default) builds when app/ is newer than build/; "always"; "never".
  build?: "if-stale" | "always" | "never";
  // Where progress lines and the app's output go (default: console). `null` discards them.
  log?: ((line: string) => void) | null;
  // The emulated store's Shopify plan, which sets its Admin API rate limit as Shopify does
  // (emulator/shopify/rate-limit.ts). Default "standard": 2,000 points, 100 restored a second.
  plan?: ShopifyPlan;
  // Overrides the plan's bucket size or restore rate; false turns throttling off.
  shopifyThrottle?: ShopifyAdminEmulatorOptions["throttle"];
  // More environment for the app's and workers' processes (a bench's DEMO_ROUTE_SHOPS).
  env?: Readonly<Record<string, string>>;
}

export interface RunningDemo {
  // The one URL to open: the emulated admin with the app inside.
  adminUrl: string;
  appUrl: string;
  shopifyUrl: string;
  shippingUrl: string;
  databaseUrl: string;
  shop: string;
  apiKey: string;
  apiSecret: string;
  // In-process handles for tests: failNextRequest, state(), findOrderByName, the store mutations
  // (createOrder, cancelOrder…), webhookEvents(), webhooks.log(), flushWebhooks()…
  shopify: ShopifyAdminEmulator;
  // The process running the jobs, for benchmarks that read its memory (/proc/<pid>/status): on
  // SQLite the app process.
  workerPid: number | undefined;
  // Every web process, and every process running jobs (on SQLite the app process again).
  webPids: (number | undefined)[];
  workerPids: (number | undefined)[];
  // Back to the seeded store: both emulators reset (pending webhook deliveries stop, the log
  // empties), the app's tables emptied except sessions, settings and presets seeded again. The
  // app keeps running (and stays authenticated).
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export class DemoStartError extends Error {
  override name = "DemoStartError";
}

function refuseProduction(): void {
  if (process.env.NODE_ENV === "production") {
    throw new DemoStartError("The demo is refused when NODE_ENV=production: it runs against emulated services only.");
  }
}

/** Resolves with a port to use: the requested one when free (else a clear error), any free one for 0. */
async function claimPort(requested: number, what: string, flag: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new DemoStartError(
          error.code === "EADDRINUSE"
            ? `Port ${requested} (${what}) is in use. Stop what uses it, or pass ${flag} <port> (0 = any free port).`
            : `Cannot listen on ${HOST}:${requested} (${what}): ${error.message}`,
        ),
      );
    });
    probe.listen(requested, HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : requested;
      probe.close(() => resolvePort(port));
    });
  });
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function buildIsStale(): boolean {
  const built = join(ROOT, "build/server/index.js");
  if (!existsSync(built) || !existsSync(join(ROOT, "build/client"))) return true;
  const sources = ["app", "vite.config.ts", "package-lock.json", "tsconfig.json"].map((p) => join(ROOT, p));
  return Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(built).mtimeMs;
}

// Node 24 from the project (npm scripts put node_modules/.bin first), never the system's node.
const nodeBin = process.execPath;
const binScript = (relative: string) => join(ROOT, "node_modules", relative);

async function buildApp(log: (line: string) => void): Promise<void> {
  log("building the app (react-router build)…");
  // A production build, as `npm run build` makes (vitest would otherwise pass NODE_ENV=test on).
  const env = { ...process.env, NODE_ENV: "production" as const };
  await execFileAsync(nodeBin, [binScript("@react-router/dev/bin.js"), "build"], {
    cwd: ROOT,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
}

async function migrate(databaseUrl: string): Promise<void> {
  await execFileAsync(nodeBin, [binScript("prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

// The demo's box presets (another screen manages them; the demo writes the rows directly).
export const BOX_PRESETS = [
  { name: "Small mailer", length: 9, width: 6, height: 3, dimensionUnit: "in", tareWeight: 0.2, maxWeight: 5, weightUnit: "lb", isDefault: false },
  { name: "Medium box", length: 12, width: 10, height: 6, dimensionUnit: "in", tareWeight: 0.5, maxWeight: 30, weightUnit: "lb", isDefault: true },
  { name: "Large box", length: 18, width: 14, height: 12, dimensionUnit: "in", tareWeight: 1, maxWeight: 70, weightUnit: "lb", isDefault: false },
] as const; // prettier-ignore

async function seedSettings(db: PrismaClient, shopify: ShopifyAdminEmulator): Promise<void> {
  const saved = await setShippingApiKey(db, DEMO.shop, DEMO.shippingApiKey, { encryptionKey: DEMO.encryptionKey });
  if (!saved.ok) throw new DemoStartError(`Could not store the demo's shipping key: ${saved.error.logMessage}`);
  const location = shopify.state().locations[0];
  if (!location) throw new DemoStartError("The Shopify emulator has no location to ship from.");
  // Automatic drafts on: an order placed with the admin's "New order" button gets its draft label
  // from the worker, as a merchant who turned them on in Settings would see.
  await db.shopSettings.update({
    where: { shop: DEMO.shop },
    data: { shipFromLocationGid: location.id, autoDraft: true },
  });
  if ((await db.boxPreset.count({ where: { shop: DEMO.shop } })) === 0) {
    await db.boxPreset.createMany({ data: BOX_PRESETS.map((preset) => ({ shop: DEMO.shop, ...preset })) });
  }
}

/**
 * Registers the demo shop's event endpoint with the shipping emulator (a fresh one: reset empties
 * both the emulator's endpoints and the app's row), so its events reach the running app.
 */
async function connectDemoShippingEvents(db: PrismaClient, shippingUrl: string, appUrl: string): Promise<void> {
  const shipping = createShippingClient({ baseUrl: shippingUrl, apiKey: DEMO.shippingApiKey });
  const connected = await connectShippingEvents(
    { db, shop: DEMO.shop, shipping },
    { appUrl, encryptionKey: DEMO.encryptionKey },
  );
  if (!connected.ok) {
    throw new DemoStartError(`Could not register the demo's shipping event endpoint: ${connected.error.logMessage}`);
  }
}

/** The demo's delivery retry schedule, unless SHIPPING_EMULATOR_RETRY_DELAYS sets one. */
function demoDeliveryOptions() {
  const fromEnv = readDeliveryOptionsFromEnv();
  return fromEnv.retryDelaysMs ? fromEnv : { retryDelaysMs: DEMO.eventRetryDelaysSeconds.map((s) => s * 1000) };
}

async function emptyAppTables(
  db: PrismaClient,
  options: { keepSessions: boolean } = { keepSessions: true },
): Promise<void> {
  const keep = options.keepSessions ? "'Session'" : "''";
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    byDatabase(db, {
      postgresql: `SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('_app_migrations', ${keep})`,
      sqlite: `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('_prisma_migrations', ${keep})`,
    }),
  );
  for (const { name } of tables) await db.$executeRawUnsafe(`DELETE FROM "${name.replace(/"/g, "")}"`);
}

async function waitForApp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new DemoStartError(`The app exited while starting (code ${child.exitCode}). Its output:\n${output()}`);
    }
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new DemoStartError(`The app did not answer at ${url} within 60 s. Its output:\n${output()}`);
}

/**
 * Spreads connections over the web processes in turn, as a load balancer in TCP mode (layer 4)
 * does. It never parses HTTP: the benches run it on the app's own cores, where a proxy that reads
 * and rewrites every request took a quarter of the machine at 500 webhooks a second, CPU a
 * deployed app's load balancer does not take from it.
 */
function startRoundRobinProxy(
  host: string,
  port: number,
  targets: readonly number[],
): Promise<{ close: () => Promise<void> }> {
  let next = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host, port: targets[next++ % targets.length] as number });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.setNoDelay(true);
      // Either side gone: the other goes too, so a request cut short reaches the client cut short.
      socket.once("close", () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () =>
      done({
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            for (const socket of open) socket.destroy();
          }),
      }),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      done();
    });
    child.kill("SIGTERM");
  });
}

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  refuseProduction();
  const postgresUrl = options.databaseUrl && isPostgresqlUrl(options.databaseUrl) ? options.databaseUrl : null;
  if (!postgresUrl && ((options.webProcesses ?? 1) > 1 || options.workers !== undefined)) {
    throw new DemoStartError(
      "Several processes need PostgreSQL (databaseUrl): on SQLite the app is one process that runs its jobs (ADR 19).",
    );
  }
  const log = options.log === null ? () => {} : (options.log ?? ((line: string) => console.log(line)));
  const [appPort, shippingPort, shopifyPort] = [
    await claimPort(options.appPort ?? DEMO.ports.app, "the app", "--app-port"),
    await claimPort(options.shippingPort ?? DEMO.ports.shipping, "the shipping emulator", "--shipping-port"),
    await claimPort(options.shopifyPort ?? DEMO.ports.shopify, "the Shopify emulator", "--shopify-port"),
  ];
  const appUrl = `http://${HOST}:${appPort}`;
  const databasePath = resolve(ROOT, options.databasePath ?? "prisma/demo.sqlite");
  const databaseUrl = postgresUrl ?? `file:${databasePath}`;

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
    cleanups.length = 0;
  };
  try {
    const build = options.build ?? "if-stale";
    if (build === "always" || (build === "if-stale" && buildIsStale())) await buildApp(log);
    else if (!existsSync(join(ROOT, "build/server/index.js"))) throw new DemoStartError("No build/ and build: never.");

    if (postgresUrl) {
      await migratePostgresql(postgresUrl);
    } else {
      if (!options.keep) {
        for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
      }
      await migrate(databaseUrl);
    }

    const shipping: RunningServer = await startShippingEmulatorServer({
      port: shippingPort,
      host: HOST,
      delivery: demoDeliveryOptions(),
    });
    cleanups.push(() => shipping.close());
    const shopify: ShopifyAdminEmulatorServer = await startShopifyAdminEmulatorServer({
      port: shopifyPort,
      host: HOST,
      generatedOrders: options.orders ?? DEFAULT_GENERATED_ORDER_COUNT,
      plan: options.plan ?? DEFAULT_SHOPIFY_PLAN,
      ...(options.shopifyThrottle === undefined ? {} : { throttle: options.shopifyThrottle }),
      app: { apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, scopes: [...DEMO.scopes], appUrl, name: "Ship Orders" },
      // Delivered to appUrl + each uri, signed with DEMO.apiSecret, as Shopify would for this app.
      webhookSubscriptions: loadWebhookSubscriptions(),
    });
    cleanups.push(() => shopify.close());

    const db = postgresUrl
      ? createPrismaClient(postgresUrl)
      : new PrismaClient({ adapter: new PrismaLibSQL({ url: databaseUrl }) });
    cleanups.push(() => db.$disconnect());
    if (postgresUrl && !options.keep) await emptyAppTables(db, { keepSessions: false });
    await seedSettings(db, shopify.emulator);
    // Before the app starts: an event is only sent for what happens after this, and the app
    // answers it once it listens (a delivery refused meanwhile is retried within seconds).
    await connectDemoShippingEvents(db, shipping.url, appUrl);

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: process.env.TZ,
      NODE_ENV: "development",
      HOST,
      PORT: String(appPort),
      SHOPIFY_API_KEY: DEMO.apiKey,
      SHOPIFY_API_SECRET: DEMO.apiSecret,
      SHOPIFY_APP_URL: appUrl,
      SCOPES: DEMO.scopes.join(","),
      DATABASE_URL: databaseUrl,
      SHIPPING_API_BASE_URL: shipping.url,
      APP_ENCRYPTION_KEY: DEMO.encryptionKey,
      APP_BRIDGE_URL: `${shopify.url}/app-bridge.js`,
      SHOPIFY_ADMIN_ORIGIN: shopify.url,
      DEMO_MODE: "1",
      DEMO_ROUTE_SHOP: DEMO.shop,
      DEMO_ROUTE_SHOPIFY_EMULATOR_URL: shopify.url,
      DEMO_EXIT_WITH_PARENT: "1",
      ...options.env,
    };
    // One web process on the app's address, or several behind a round-robin proxy there.
    const webCount = Math.max(1, options.webProcesses ?? 1);
    const webPorts =
      webCount === 1
        ? [appPort]
        : await Promise.all(Array.from({ length: webCount }, () => claimPort(0, "a web process", "")));
    const webs: ChildProcess[] = [];
    for (const [index, port] of webPorts.entries()) {
      const child = spawn(
        nodeBin,
        ["--import", "tsx", "--import", "./scripts/demo-fetch-routing.ts", "scripts/demo-app-server.ts"],
        { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ["pipe", "pipe", "pipe"] },
      );
      cleanups.push(() => stopChild(child));
      let recent = "";
      const tag = webCount === 1 ? "[app]" : `[app ${index + 1}]`;
      const onOutput = (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        recent = (recent + text).slice(-8000);
        for (const line of text.split("\n")) if (line.trim()) log(`${tag} ${line}`);
      };
      child.stdout.on("data", onOutput);
      child.stderr.on("data", onOutput);
      await waitForApp(`http://${HOST}:${port}`, child, () => recent);
      webs.push(child);
    }
    if (webCount > 1) {
      const proxy = await startRoundRobinProxy(HOST, appPort, webPorts);
      cleanups.push(() => proxy.close());
    }

    // On PostgreSQL the workers run the jobs and the web processes only enqueue. (On SQLite the
    // app process runs them itself: app/jobs/in-process-worker.server.ts.)
    const workerCount = postgresUrl ? Math.max(1, options.workers ?? 1) : 0;
    const workers: ChildProcess[] = [];
    for (let index = 0; index < workerCount; index++) {
      const worker = spawn(
        nodeBin,
        ["--import", "tsx", "--import", "./scripts/demo-fetch-routing.ts", "scripts/worker.ts"],
        { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] },
      );
      cleanups.push(() => stopChild(worker));
      // Background work yields the CPU to the web processes, as a worker deployed beside them should:
      // Shopify gives a webhook 5 seconds, and drafting 1,800 orders must not take them.
      if (worker.pid !== undefined) setPriority(worker.pid, WORKER_NICENESS);
      const tag = workerCount === 1 ? "[worker]" : `[worker ${index + 1}]`;
      const onWorkerOutput = (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) log(`${tag} ${line}`);
      };
      worker.stdout.on("data", onWorkerOutput);
      worker.stderr.on("data", onWorkerOutput);
      workers.push(worker);
    }
    const jobRunners = postgresUrl ? workers : webs;

    const adminUrl = shopify.adminUrl ?? `${shopify.url}/admin`;
    let stopped = false;
    return {
      adminUrl,
      appUrl,
      shopifyUrl: shopify.url,
      shippingUrl: shipping.url,
      databaseUrl,
      shop: DEMO.shop,
      apiKey: DEMO.apiKey,
      apiSecret: DEMO.apiSecret,
      shopify: shopify.emulator,
      workerPid: jobRunners[0]?.pid,
      webPids: webs.map((w) => w.pid),
      workerPids: jobRunners.map((w) => w.pid),
      async reset() {
        shopify.emulator.reset();
        await fetch(`${shipping.url}/__emulator/reset`, { method: "POST" });
        await emptyAppTables(db);
        await seedSettings(db, shopify.emulator);
        // The emulator's reset forgot the endpoint and the app's row is gone: register anew.
        await connectDemoShippingEvents(db, shipping.url, appUrl);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

const PLAN_NAMES: Record<ShopifyPlan, string> = {
  standard: "Standard",
  advanced: "Advanced",
  plus: "Plus",
  enterprise: "Enterprise",
};

/** "Standard plan: Admin API bucket of 2,000 points, 100 restored a second" (what the emulator enforces). */
export function describePlan(shopify: Pick<ShopifyAdminEmulator, "plan" | "rateLimit">): string {
  const { maximumAvailable, restoreRate } = shopify.rateLimit;
  const figures = `Admin API bucket of ${maximumAvailable.toLocaleString("en-US")} points, ${restoreRate.toLocaleString("en-US")} restored a second`;
  return `${PLAN_NAMES[shopify.plan]} plan: ${figures}`;
}

/** The worker's scheduling priority (nice): below the web process's 0. */
const WORKER_NICENESS = 10;

function parseArgs(argv: string[]): DemoOptions {
  const options: DemoOptions = {};
  const number = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < 0) throw new DemoStartError(`${flag} needs a whole number`);
    return n;
  };
  const plan = (value: string | undefined) => {
    const parsed = parseShopifyPlan(value);
    if (!parsed) throw new DemoStartError(`--plan needs one of ${SHOPIFY_PLANS.join(", ")}`);
    return parsed;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--keep") options.keep = true;
    else if (arg === "--build") options.build = "always";
    else if (arg === "--orders") options.orders = number(arg, argv[++i]);
    else if (arg === "--app-port") options.appPort = number(arg, argv[++i]);
    else if (arg === "--shipping-port") options.shippingPort = number(arg, argv[++i]);
    else if (arg === "--shopify-port") options.shopifyPort = number(arg, argv[++i]);
    else if (arg === "--plan") options.plan = plan(argv[++i]);
    else if (arg === "--help" || arg === "-h") {
      console.log(
        "npm run demo -- [--keep] [--orders N] [--build] [--plan standard|advanced|plus|enterprise] [--app-port P] [--shipping-port P] [--shopify-port P]",
      );
      process.exit(0);
    } else throw new DemoStartError(`Unknown option ${arg} (try --help)`);
  }
  return options;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const quiet = (line: string) => {
      // The app's request log is noise here; its warnings and errors are not.
      if (!line.startsWith("[app] [shopify-app/INFO]") && !line.startsWith("[app] [shopify-api/INFO]"))
        console.log(line);
    };
    const demo = await startDemo({ ...options, log: quiet });
    console.log(
      `\nShip Orders demo is running: emulated Shopify store ${demo.shop}, emulated shipping service.\n` +
        `The store is on Shopify's ${describePlan(demo.shopify)}.\n\n` +
        `  Open ${demo.adminUrl}\n\n` +
        `Ctrl-C stops it. ${options.keep ? "The database was kept" : "The database was reset"} (prisma/demo.sqlite; --keep keeps it next time).`,
    );
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      console.log("\nstopping the demo…");
      void demo.stop().then(() => process.exit(0));
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } catch (error) {
    console.error(error instanceof DemoStartError ? `demo: ${error.message}` : error);
    process.exit(1);
  }
}
