import type { PrismaClient } from "@prisma/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { confirmBulkRun } from "../../app/bulk/bulk-buying.server";
import { startBulkRun } from "../../app/bulk/bulk-runs.server";
import { createPrismaClient } from "../../app/db/client.server";
import { enqueueBulkBuy, enqueueBulkCheck } from "../../app/jobs/bulk-run-jobs.server";
import { getBulkRun } from "../../app/routes/app.bulk.$runId/bulk-run-view.server";
import { demoShippingOrganization, installBenchApp } from "../../scripts/bench-demo";
import { DEMO, type RunningDemo, startDemo } from "../../scripts/demo";
import { createSessionToken } from "../helpers/shopify-requests";

// Issue 14 at scale: two web processes (behind a round-robin proxy, as behind a load balancer)
// and two workers on one PostgreSQL database. A burst of Shopify webhooks (every event delivered
// twice, to either process) drafts labels automatically; the same labels are bought by two
// clicks at once on two processes; a bulk run of 200 orders is checked and bought by both
// workers. The shipping emulator must record one draft per fulfillment order and one charge per
// label; Shopify one fulfillment per fulfillment order. Runs under `npm run test:postgres`.

const postgresUrl = process.env.TEST_POSTGRES_URL;
if (!postgresUrl) throw new Error("PostgreSQL's own tests: run them with `npm run test:postgres`");
const WEBHOOK_ORDERS = 30;
const DOUBLE_CLICKED = 8;
const BULK_ORDERS = 200;
const TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = TIMEOUT_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(250);
  }
}

describe("two web processes and two workers on one PostgreSQL database", () => {
  let demo: RunningDemo;
  let db: PrismaClient;
  let databaseName: string;
  const log: string[] = [];

  beforeAll(async () => {
    databaseName = `ship_multi_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${databaseName}"`);
    await admin.end();
    const url = new URL(postgresUrl ?? "");
    url.pathname = `/${databaseName}`;
    demo = await startDemo({
      appPort: 0,
      shippingPort: 0,
      shopifyPort: 0,
      orders: 0,
      databaseUrl: url.toString(),
      webProcesses: 2,
      workers: 2,
      shopifyThrottle: { maximumAvailable: 20_000, restoreRate: 1_000 },
      log: (line) => void (log.length < 5000 && log.push(line)),
    });
    db = createPrismaClient(url.toString());
    const install = await installBenchApp(demo);
    expect(install.ok, `installing: HTTP ${install.status}`).toBe(true);
  }, TIMEOUT_MS);

  afterAll(async () => {
    await db?.$disconnect();
    await demo?.stop();
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin.end();
  });

  it(
    "drafts once per fulfillment order, charges once per label and fulfils once per fulfillment order",
    async () => {
      const organization = demoShippingOrganization();
      const account = async () =>
        (await (await fetch(`${demo.shippingUrl}/__emulator/organizations/${organization}`)).json()) as {
          labels_created: number;
          charges: { label_id: string }[];
        };

      // ---- A burst of webhooks, each event delivered twice, to either web process ----
      const placed = Array.from({ length: WEBHOOK_ORDERS }, () => demo.shopify.createOrder({ kind: "domestic" }).order);
      await demo.shopify.flushWebhooks();
      for (const event of demo.shopify.webhookEvents()) demo.shopify.webhooks?.redeliver(event.eventId);
      await demo.shopify.flushWebhooks();
      const placedIds = placed.map((o) => o.id);
      const drafts = await waitFor(
        "an automatic draft for every order placed",
        () => db.label.findMany({ where: { shop: DEMO.shop, orderGid: { in: placedIds } } }),
        (labels) => labels.filter((l) => l.status === "draft").length >= WEBHOOK_ORDERS,
      );
      expect(new Set(drafts.map((l) => l.fulfillmentOrderGid)).size).toBe(drafts.length);

      // ---- The same labels bought by two clicks at once, on the two processes ----
      const buy = (orderGid: string, labelId: string) => {
        const body = new URLSearchParams({ intent: "buy", labelId, notifyCustomer: "false" });
        const orderId = orderGid.split("/").pop() ?? "";
        return fetch(`${demo.appUrl}/app/orders/${orderId}?_data=routes%2Fapp.orders.%24orderId`, {
          method: "POST",
          body,
          headers: {
            Authorization: `Bearer ${createSessionToken({ shop: DEMO.shop, apiKey: DEMO.apiKey, secret: DEMO.apiSecret })}`,
            "Content-Type": "application/x-www-form-urlencoded",
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36",
          },
        });
      };
      const clicked = drafts.slice(0, DOUBLE_CLICKED);
      const answers = await Promise.all(clicked.flatMap((l) => [buy(l.orderGid, l.id), buy(l.orderGid, l.id)]));
      for (const answer of answers) await answer.arrayBuffer();
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(DOUBLE_CLICKED);

      // ---- A bulk run of 200 orders, checked and bought by both workers ----
      demo.shopify.webhooks?.close();
      const bulkOrders = Array.from(
        { length: BULK_ORDERS },
        (_, i) => demo.shopify.createOrder({ kind: i % 9 === 8 ? "international" : "domestic" }).order,
      );
      const started = await startBulkRun(
        db,
        DEMO.shop,
        { orders: bulkOrders.map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "cheapest" } },
        (tx, itemId) => enqueueBulkCheck(tx, DEMO.shop, itemId),
      );
      if (!started.ok) throw new Error(started.error.message);
      const runId = started.value.runId;
      const review = await waitFor(
        "the run's review",
        () => getBulkRun(db, DEMO.shop, runId),
        (run) => run?.status === "review",
      );
      if (!review) throw new Error("no run");
      const ready = review.items.filter((i) => i.status === "ready").length;
      expect(ready).toBe(BULK_ORDERS);
      const confirmed = await confirmBulkRun(
        db,
        DEMO.shop,
        runId,
        { count: ready, totalCents: review.totalCents },
        (tx, itemId) => enqueueBulkBuy(tx, DEMO.shop, itemId),
      );
      expect(confirmed.ok).toBe(true);
      const finished = await waitFor(
        "the run's end",
        () => getBulkRun(db, DEMO.shop, runId),
        (run) => run?.status === "done" || run?.status === "stopped",
      );
      expect(finished?.counts.bought).toBe(BULK_ORDERS);

      // ---- What the services recorded ----
      await waitFor(
        "every bought label written back",
        () => db.label.count({ where: { shop: DEMO.shop, status: "purchased" } }),
        (n) => n === 0,
      );
      const labels = await db.label.findMany({ where: { shop: DEMO.shop } });
      const bought = labels.filter((l) => l.status === "fulfilled");
      expect(bought.length).toBe(DOUBLE_CLICKED + BULK_ORDERS);

      const { labels_created: drafted, charges } = await account();
      // One draft per fulfillment order: the webhook burst's and the run's, none twice.
      expect(drafted).toBe(WEBHOOK_ORDERS + BULK_ORDERS);
      expect(new Set(labels.map((l) => l.fulfillmentOrderGid)).size).toBe(labels.length);
      // One charge per bought label, and only for labels the app bought.
      expect(charges).toHaveLength(bought.length);
      expect(new Set(charges.map((c) => c.label_id))).toEqual(new Set(bought.map((l) => l.serviceLabelId)));

      const perFulfillmentOrder = new Map<string, number>();
      for (const f of demo.shopify.fulfillments()) {
        for (const id of f.fulfillmentOrderIds) perFulfillmentOrder.set(id, (perFulfillmentOrder.get(id) ?? 0) + 1);
      }
      expect([...perFulfillmentOrder.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(perFulfillmentOrder.keys())).toEqual(new Set(bought.map((l) => l.fulfillmentOrderGid)));
    },
    TIMEOUT_MS * 2,
  );
});
