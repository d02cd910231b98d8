// What the benches share: the demo on free ports with a database of its own, on a Shopify plan's
// rate limit (by default Plus's, 20,000 points and 1,000 a second: a store that takes or labels
// thousands of orders a day is often on Plus; `--plan standard` measures where most merchants are),
// and the app installed as a merchant's first visit installs it.
//
// Two configurations (ADR 19), named on the RESULT line as db=:
// - db=sqlite (default): the embedded single-process story, as the demo runs. Information only.
// - db=postgresql (`--postgres`): production's, 2 web processes behind the demo's round-robin
//   proxy and 2 worker processes, on a database of their own in a throwaway PostgreSQL cluster on
//   loopback (as `npm run test:postgres` starts one), or on BENCH_POSTGRES_URL's server (an admin
//   URL; the bench creates and drops its own database there). BENCH_WEB_PROCESSES and
//   BENCH_WORKERS change the counts.

import { randomBytes } from "node:crypto";
import { join } from "node:path";

import pg from "pg";

import { loadDefaultConfig } from "../emulator/shipping/config";
import type { ShopifyPlan } from "../emulator/shopify/rate-limit";
import { embeddedAppQuery } from "../emulator/shopify/server";
import { DEMO, type RunningDemo, startDemo } from "./demo";
import { startThrowawayCluster } from "./postgres-cluster.mjs";

// The plan the demo benches run on without `--plan`.
export const DEFAULT_BENCH_PLAN: ShopifyPlan = "plus";

/**
 * The demo as the screen benches (vitals, Lighthouse) load it: free ports, 60 orders, its SQLite
 * file in `dir`, quiet, and without the demo banner (a real store has none; it would otherwise be
 * the largest text on a short page).
 */
export function startScreenBenchDemo(dir: string): Promise<RunningDemo> {
  return startDemo({
    appPort: 0,
    shippingPort: 0,
    shopifyPort: 0,
    orders: 60,
    databasePath: join(dir, "demo.sqlite"),
    log: null,
    env: { DEMO_MODE: "0" },
  });
}

/** The database a bench runs on: `kind` is the RESULT line's db=. */
export type BenchDatabase = {
  readonly kind: "sqlite" | "postgresql";
  /** The PostgreSQL database's URL; undefined on SQLite (the demo's file in the bench's folder). */
  readonly url: string | undefined;
  /** Drops what the bench made (its database, the throwaway cluster). */
  readonly drop: () => Promise<void>;
};

const count = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

/** `--postgres` among the arguments: a PostgreSQL database of the bench's own; SQLite without it. */
export async function openBenchDatabase(argv: readonly string[]): Promise<BenchDatabase> {
  if (!argv.includes("--postgres")) return { kind: "sqlite", url: undefined, drop: async () => {} };
  const cluster = process.env.BENCH_POSTGRES_URL ? null : await startThrowawayCluster();
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? cluster?.url;
  if (!adminUrl) throw new Error("no PostgreSQL server: install postgresql or set BENCH_POSTGRES_URL");
  const name = `bench_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: "postgresql",
    url: url.toString(),
    drop: async () => {
      try {
        if (!cluster) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        cluster?.stop();
      }
    },
  };
}

export async function startBenchDemo(
  dir: string,
  log: (line: string) => void,
  plan: ShopifyPlan = DEFAULT_BENCH_PLAN,
  database?: BenchDatabase,
  env?: Readonly<Record<string, string>>,
): Promise<RunningDemo> {
  const postgres = database?.kind === "postgresql" && database.url ? database.url : null;
  return startDemo({
    appPort: 0,
    shippingPort: 0,
    shopifyPort: 0,
    orders: 0,
    plan,
    ...(postgres
      ? { databaseUrl: postgres, webProcesses: count("BENCH_WEB_PROCESSES", 2), workers: count("BENCH_WORKERS", 2) }
      : { databasePath: join(dir, "demo.sqlite") }),
    ...(env ? { env } : {}),
    log,
  });
}

/** The configuration in words, for the bench's first lines. */
export function describeBenchDemo(demo: RunningDemo, database: BenchDatabase): string {
  return database.kind === "postgresql"
    ? `PostgreSQL, ${demo.webPids.length} web processes behind the proxy and ${demo.workerPids.length} workers`
    : "SQLite, one app process (the embedded story; information only)";
}

/**
 * Opens the app from the admin (its home, or `path`): the first time, the session token is
 * exchanged for the offline session the worker uses. `shop` defaults to the demo's.
 */
export async function installBenchApp(demo: RunningDemo, shop = demo.shop, path = "/app"): Promise<Response> {
  const app = { apiKey: demo.apiKey, apiSecret: demo.apiSecret, scopes: [...DEMO.scopes] };
  const install = await fetch(`${demo.appUrl}${path}?${embeddedAppQuery(app, shop).toString()}`, {
    // Shopify's library answers bots with 410: this is a merchant's browser.
    headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36" },
  });
  await install.arrayBuffer();
  return install;
}

/** The shipping emulator's organization behind the demo's API key: where its drafts and charges are counted. */
export function demoShippingOrganization(): string {
  const organization = loadDefaultConfig().keys[DEMO.shippingApiKey]?.organization;
  if (!organization) throw new Error(`${DEMO.shippingApiKey} has no organization in emulator/shipping/config.json`);
  return organization;
}

/** Runs a bench's main: prints its RESULT line last, once everything has stopped, and exits with its code. */
export function runBench(main: () => Promise<{ result: string; code: number }>): void {
  main().then(
    ({ result, code }) => {
      console.log(result);
      process.exit(code);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
