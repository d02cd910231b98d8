// What the benches share: the demo on free ports with a database of its own, on a Shopify plan's
// rate limit (by default Plus's, 20,000 points and 1,000 a second: a store that takes or labels
// thousands of orders a day is often on Plus; `--plan standard` measures where most merchants are),
// and the app installed as a merchant's first visit installs it.

import { join } from "node:path";

import { loadDefaultConfig } from "../emulator/shipping/config";
import type { ShopifyPlan } from "../emulator/shopify/rate-limit";
import { embeddedAppQuery } from "../emulator/shopify/server";
import { DEMO, type RunningDemo, startDemo } from "./demo";

// The plan the demo benches run on without `--plan`.
export const DEFAULT_BENCH_PLAN: ShopifyPlan = "plus";

export async function startBenchDemo(
  dir: string,
  log: (line: string) => void,
  plan: ShopifyPlan = DEFAULT_BENCH_PLAN,
): Promise<RunningDemo> {
  return startDemo({
    appPort: 0,
    shippingPort: 0,
    shopifyPort: 0,
    orders: 0,
    plan,
    databasePath: join(dir, "demo.sqlite"),
    log,
  });
}

/** Opens the app from the admin once: the session token is exchanged for the offline session the worker uses. */
export async function installBenchApp(demo: RunningDemo): Promise<Response> {
  const app = { apiKey: demo.apiKey, apiSecret: demo.apiSecret, scopes: [...DEMO.scopes] };
  const install = await fetch(`${demo.appUrl}/app?${embeddedAppQuery(app, demo.shop).toString()}`, {
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
