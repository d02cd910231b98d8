import { afterEach, describe, expect, it } from "vitest";

import { cancelBulkRun, confirmBulkRun } from "~/bulk/bulk-buying.server";
import { startBulkRun } from "~/bulk/bulk-runs.server";
import db from "~/db.server";
import { type BulkRunView, getBulkRun } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import type { FetchLike } from "~/shipping/client.server";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { waitFor } from "../../test/helpers/bulk-runs";
import { collectingLog, setUpQueues } from "../../test/helpers/jobs";
import { createTestShippingClient, DEMO_ORG, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { jobQueueFor } from "../queue/queue.server";
import {
  BULK_SHIPPING_CONCURRENCY,
  type BulkJobDeps,
  createBulkBuyJob,
  createBulkCheckJob,
  enqueueBulkBuy,
  enqueueBulkCheck,
} from "./bulk-run-jobs.server";

// Issue 22, item 1: "Cancel the rest" answered means no new purchase request leaves the app. The
// run's buy jobs (48 at once) wait for the worker's 4 shipping slots; a job that gets its slot
// after the cancel must not send. Verdicts come from the shipping emulator's own charges and from
// the requests that actually reached it.

const SHOP = TEST_LABEL_SHOP;
const ORDERS = 20;
const PURCHASE_PATH = /\/v1\/labels\/[^/]+\/purchase$/;
// Long enough that requests pile up behind the slots, short enough for a quick test.
const WIRE_MS = 120;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("cancelling a bulk run while it buys", () => {
  it("sends no purchase request after the cancel is answered, and the run view counts what was bought after it", async () => {
    const shipping = createShippingEmulator();
    const shopify = createShopifyAdminEmulator({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
    const orders = Array.from({ length: ORDERS }, () => shopify.createOrder({ kind: "domestic" }).order);

    // Purchase requests as they leave the app (the wire) and as they are answered.
    let sent = 0;
    let answered = 0;
    const answeredAt: number[] = [];
    const wire: FetchLike = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!PURCHASE_PATH.test(new URL(url).pathname)) return shipping.fetch(input, init);
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, WIRE_MS));
      const response = await shipping.fetch(input, init);
      answered += 1;
      answeredAt.push(Date.now());
      return response;
    };
    const deps: BulkJobDeps = {
      db,
      adminFor: async () => shopify.graphql,
      shippingFor: async (_shop, options) => createTestShippingClient(shipping, "sk_live_demo", wire, options?.slots),
    };
    const definitions = [createBulkCheckJob(deps), createBulkBuyJob(deps)];
    await setUpQueues(db, definitions);
    const log: string[] = [];
    const worker = jobQueueFor(db).createWorker(definitions, { pollIntervalMs: 10, log: collectingLog("worker", log) });
    cleanups.push(() => worker.stop({ graceMs: 10_000 }));

    const started = await startBulkRun(
      db,
      SHOP,
      { orders: orders.map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "rules" } },
      (tx, itemId) => enqueueBulkCheck(tx, SHOP, itemId),
    );
    if (!started.ok) throw new Error(started.error.message);
    const { runId } = started.value;
    const readRun = async (): Promise<BulkRunView> => {
      const run = await getBulkRun(db, SHOP, runId);
      if (!run) throw new Error(`no run ${runId}`);
      return run;
    };
    const describe = async () => JSON.stringify({ counts: (await readRun()).counts, sent, answered, log });
    worker.start();
    const review = await waitFor(
      async () => {
        const run = await readRun();
        return run.status === "review" ? run : null;
      },
      "every order is checked",
      { timeoutMs: 60_000, describe },
    );
    expect(review.counts.ready).toBe(ORDERS);

    const confirmed = await confirmBulkRun(
      db,
      SHOP,
      runId,
      { count: review.counts.ready, totalCents: review.totalCents },
      (tx, itemId) => enqueueBulkBuy(tx, SHOP, itemId),
    );
    expect(confirmed.ok).toBe(true);

    // The merchant cancels once a few labels are charged.
    await waitFor(async () => shipping.charges(DEMO_ORG).length >= 6, "six labels are charged", {
      timeoutMs: 60_000,
      describe,
    });
    const boughtBeforeCancel = (await readRun()).counts.bought;
    const cancelled = await cancelBulkRun(db, SHOP, runId);
    expect(cancelled.ok).toBe(true);
    const sentAtCancel = sent;
    const onTheWire = sentAtCancel - answered;

    const settled = await waitFor(
      async () => {
        const run = await readRun();
        return run.progress.remaining === 0 ? run : null;
      },
      "every item has settled",
      { timeoutMs: 60_000, describe },
    );
    // Let any purchase that would still leave do so before counting.
    await new Promise((resolve) => setTimeout(resolve, 3 * WIRE_MS));

    const context = `sent at cancel ${sentAtCancel}, sent ${sent}, ${await describe()}`;
    // Nothing left the app after the cancel was answered...
    expect(sent, context).toBe(sentAtCancel);
    // ...and what could still complete was only what was on the wire, at most the slot count.
    expect(onTheWire, context).toBeLessThanOrEqual(BULK_SHIPPING_CONCURRENCY);
    const charges = shipping.charges(DEMO_ORG);
    expect(charges.length, context).toBeLessThanOrEqual(sentAtCancel);
    expect(charges.length, context).toBeLessThan(ORDERS);

    // The page's numbers are the emulator's: bought items are exactly the charged labels, and
    // those bought after the cancel are counted with what they cost.
    expect(settled.status).toBe("cancelled");
    expect(settled.counts.bought, context).toBe(charges.length);
    expect(settled.counts.not_started, context).toBe(ORDERS - charges.length);
    const boughtAfter = settled.boughtAfterCancel;
    const cancelledAt = (await db.bulkRun.findFirstOrThrow({ where: { id: runId } })).finishedAt ?? new Date();
    // A label counts as bought after the cancel when the app learned of its purchase after it. Every
    // purchase the service answered after the cancel is such a label; one answered just before may
    // be saved after the page's count was read, so the count read after the cancel is no bound.
    const answeredAfter = answeredAt.filter((t) => t >= cancelledAt.getTime()).length;
    expect(boughtAfter?.count, context).toBeGreaterThanOrEqual(answeredAfter);
    expect(boughtAfter?.count, context).toBeLessThanOrEqual(charges.length - boughtBeforeCancel);
    const labels = await db.label.findMany({
      where: { shop: SHOP, status: { in: ["purchased", "fulfilled"] } },
      select: { serviceLabelId: true, purchasedAt: true },
    });
    expect(new Set(charges.map((c) => c.labelId))).toEqual(new Set(labels.map((l) => l.serviceLabelId)));
    const afterIds = new Set(
      labels.filter((l) => l.purchasedAt && l.purchasedAt >= cancelledAt).map((l) => l.serviceLabelId),
    );
    const chargedAfter = charges.filter((c) => afterIds.has(c.labelId)).reduce((sum, c) => sum + c.amountCents, 0);
    expect(boughtAfter?.chargedCents, context).toBe(chargedAfter);
    // Every label not bought is still a draft (free) at the service and here.
    expect(await db.label.count({ where: { shop: SHOP, status: "draft" } })).toBe(ORDERS - charges.length);
  }, 120_000);
});
