import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { recoverShopLabels } from "~/jobs/label-recovery.server";
import { findLabel } from "~/labels/label-repository.server";
import { UNKNOWN_OUTCOME_QUIET_MS } from "~/labels/purchase.server";

import { loadDefaultConfig } from "../../emulator/shipping/config";
import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { createTestShippingClient, DEMO_ORG, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { getBulkRun, listBulkRunLabels } from "../routes/app.bulk.$runId/bulk-run-view.server";
import {
  buyBulkRunItem,
  buyNotStartedBulkItems,
  cancelBulkRun,
  confirmBulkRun,
  resumeStrandedBulkItems,
  retryFailedBulkItems,
  STRANDED_AFTER_MS,
} from "./bulk-buying.server";
import { type BulkChoice, checkBulkRunItem, startBulkRun } from "./bulk-runs.server";

const SHOP = TEST_LABEL_SHOP;

// The queue is the worker's business (bulk-run-jobs.server.ts): here each job is a call, so the
// tests can run them in any order, twice, or not at all.
function setUp(
  options: { balance?: string; orders?: number; kinds?: ("domestic" | "international" | "problem")[] } = {},
) {
  const config = loadDefaultConfig();
  const org = config.organizations[DEMO_ORG];
  if (org && options.balance) org.balance = options.balance;
  const shippingEmulator = createShippingEmulator({ config });
  const shopify = createShopifyAdminEmulator();
  const shipping = createTestShippingClient(shippingEmulator);
  const kinds = options.kinds ?? Array.from({ length: options.orders ?? 6 }, () => "domestic" as const);
  const orders = kinds.map((kind) => shopify.createOrder({ kind }).order);
  const checks: string[] = [];
  const buys: string[] = [];
  const enqueue = (into: string[]) => async (_tx: Prisma.TransactionClient, itemId: string) => void into.push(itemId);
  const deps = { db, shop: SHOP, admin: shopify.graphql, shipping };

  const start = async (choice: BulkChoice = { mode: "rules" }) => {
    const started = await startBulkRun(
      db,
      SHOP,
      // A run started from an admin extension knows only the ids: the check takes names from Shopify.
      { orders: orders.map((o) => ({ orderGid: o.id, orderName: "#unknown" })), choice },
      enqueue(checks),
    );
    if (!started.ok) throw new Error(started.error.message);
    return started.value.runId;
  };
  const checkAll = async () => {
    for (const id of checks.splice(0)) expect((await checkBulkRunItem(deps, id)).ok).toBe(true);
  };
  const review = async (runId: string) => {
    const run = await getBulkRun(db, SHOP, runId);
    if (!run) throw new Error("no run");
    return run;
  };
  const confirm = async (runId: string) => {
    const run = await review(runId);
    const count = run.items.filter((i) => i.status === "ready").length;
    return confirmBulkRun(db, SHOP, runId, { count, totalCents: run.totalCents }, enqueue(buys));
  };
  /** Runs the queued buy jobs, `concurrency` at a time, as the worker would. */
  const buyAll = async (concurrency = 4) => {
    while (buys.length > 0) {
      const batch = buys.splice(0, concurrency);
      await Promise.all(batch.map((id) => buyBulkRunItem(deps, id, { lastAttempt: false })));
    }
  };
  return { shippingEmulator, shopify, orders, checks, buys, start, checkAll, review, confirm, buyAll, deps };
}

describe("bulk runs", () => {
  it("reviews each product its international shipments lack customs data for once, with where to fix it", async () => {
    const t = setUp({ kinds: ["problem", "domestic", "problem"] });
    const runId = await t.start();
    await t.checkAll();
    const run = await t.review(runId);
    const [first, , third] = t.orders;
    if (!first || !third) throw new Error("no orders");
    const productIdOf = (title: string) =>
      first.lineItems
        .find((l) => l.title === title)
        ?.product?.id.split("/")
        .pop() ?? "none";
    expect(run.productsMissingCustoms).toEqual([
      {
        // The declaration carries the tote's code and origin: its order page saves them to the product.
        title: "Organic Cotton Market Tote",
        missing: ["hs_code", "country_of_origin"],
        orderNames: [first.name, third.name],
        fix: { kind: "order", url: `/app/orders/${first.id.split("/").pop()}`, orderName: first.name },
      },
      {
        title: "Olive Oil Castile Soap Bar",
        missing: ["hs_code"],
        orderNames: [first.name, third.name],
        fix: { kind: "product", url: `shopify:admin/products/${productIdOf("Olive Oil Castile Soap Bar")}` },
      },
    ]);
  });

  it("checks every order without spending, shows the total, buys each once and writes tracking back", async () => {
    const t = setUp({ orders: 6 });
    const runId = await t.start();
    expect((await t.review(runId)).status).toBe("checking");
    await t.checkAll();

    const run = await t.review(runId);
    expect(run.status).toBe("review");
    expect(run.items.map((i) => i.status)).toEqual(Array(6).fill("ready"));
    expect(run.items.map((i) => i.orderName)).toEqual(t.orders.map((o) => o.name));
    // Checking drafts (free) and charges nothing.
    expect(t.shippingEmulator.charges(DEMO_ORG)).toEqual([]);
    expect(t.shippingEmulator.labelsCreated(DEMO_ORG)).toBe(6);
    // The review's total is the sum of the quotes.
    const quotes = run.items.map((i) => i.quotedCents ?? NaN);
    expect(run.totalCents).toBe(quotes.reduce((a, b) => a + b, 0));
    expect(run.totalCents).toBeGreaterThan(0);

    expect((await t.confirm(runId)).ok).toBe(true);
    await t.buyAll();

    const done = await t.review(runId);
    expect(done.status).toBe("done");
    expect(done.progress).toEqual({ bought: 6, failed: 0, remaining: 0, notStarted: 0, notFulfillable: 0 });
    const charges = t.shippingEmulator.charges(DEMO_ORG);
    expect(charges).toHaveLength(6);
    expect(new Set(charges.map((c) => c.labelId)).size).toBe(6);
    // One fulfillment per fulfillment order, carrying the label's tracking.
    expect(t.shopify.fulfillments()).toHaveLength(6);
    const labels = await listBulkRunLabels(db, SHOP, runId);
    expect(labels.map((l) => l.orderName)).toEqual(t.orders.map((o) => o.name));
    expect(labels.every((l) => l.status === "fulfilled")).toBe(true);
  });

  it("overrides the shop's rules per destination: a named service at home, the fastest rate abroad", async () => {
    const t = setUp({ kinds: ["domestic", "international", "domestic", "international"] });
    const runId = await t.start({
      mode: "destination",
      domestic: { mode: "service", serviceCode: "svc_usps_priority" },
      international: { mode: "fastest" },
    });
    await t.checkAll();
    const run = await t.review(runId);
    expect(run.items.map((i) => i.status)).toEqual(Array(4).fill("ready"));
    const labels = await Promise.all(run.items.map((i) => findLabel(db, SHOP, i.labelId ?? "")));
    const services = labels.map((l) => l?.serviceCode);
    expect([services[0], services[2]]).toEqual(["svc_usps_priority", "svc_usps_priority"]);
    // Abroad: the quickest of the shipment's own rates (the rules' cheapest would differ).
    for (const index of [1, 3]) {
      const label = labels[index];
      const quote = await t.deps.shipping.getRates(label?.request as never);
      if (!quote.ok) throw new Error("no quote");
      const fastest = Math.min(...quote.value.rates.map((r) => r.delivery_days ?? Infinity));
      const chosen = quote.value.rates.find((r) => r.service_code === label?.serviceCode);
      expect(chosen?.delivery_days, label?.serviceCode ?? "").toBe(fastest);
    }
  });

  it("refuses a confirmation whose total is not the one on screen", async () => {
    const t = setUp({ orders: 2 });
    const runId = await t.start();
    await t.checkAll();
    const run = await t.review(runId);
    const confirmed = await confirmBulkRun(
      db,
      SHOP,
      runId,
      { count: 2, totalCents: run.totalCents + 1 },
      async () => {},
    );
    expect(confirmed).toMatchObject({ ok: false, error: { code: "TOTAL_CHANGED" } });
    expect((await t.review(runId)).status).toBe("review");
    // Refused after the run was claimed: the claim is undone and nothing else is written.
    expect(await db.bulkRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      confirmedAt: null,
      confirmedBy: null,
      confirmedCents: null,
    });
    expect((await t.review(runId)).items.map((i) => i.status)).toEqual(["ready", "ready"]);
    expect(await db.auditEntry.count({ where: { shop: SHOP, action: "authorize" } })).toBe(0);
    expect(t.buys).toEqual([]);
  });

  it("buys nothing twice when every job runs twice, or a purchase answer is lost and retried", async () => {
    const t = setUp({ orders: 3 });
    const runId = await t.start();
    await t.checkAll();
    await t.confirm(runId);
    const queued = [...t.buys];
    // The service charges, and its answer never arrives: the item is read back, not bought again.
    t.shippingEmulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 }],
    });
    await buyBulkRunItem(t.deps, queued[0] ?? "", { lastAttempt: false });
    t.shippingEmulator.setFaults({ failures: [] });
    await t.buyAll();
    for (const id of queued) await buyBulkRunItem(t.deps, id, { lastAttempt: false });

    expect((await t.review(runId)).progress.bought).toBe(3);
    expect(t.shippingEmulator.charges(DEMO_ORG)).toHaveLength(3);
    expect(t.shopify.fulfillments()).toHaveLength(3);
  });

  it("stops cleanly when the balance runs out: what was bought stays bought, the rest is not started", async () => {
    // Enough for a few labels, not all ten.
    const t = setUp({ orders: 10, balance: "40.00" });
    const runId = await t.start({ mode: "cheapest" });
    await t.checkAll();
    await t.confirm(runId);
    await t.buyAll(1);

    const run = await t.review(runId);
    expect(run.status).toBe("stopped");
    expect(run.stopReason).toMatch(/balance/i);
    const bought = run.items.filter((i) => i.status === "bought");
    expect(bought.length).toBeGreaterThan(0);
    expect(bought.length).toBeLessThan(10);
    expect(run.counts.failed).toBe(1);
    expect(run.counts.not_started).toBe(10 - bought.length - 1);
    expect(run.items.filter((i) => i.status === "not_started").every((i) => /balance/i.test(i.message ?? ""))).toBe(
      true,
    );
    expect(t.shippingEmulator.charges(DEMO_ORG)).toHaveLength(bought.length);
    expect(t.shopify.fulfillments()).toHaveLength(bought.length);
  });

  it("cancel stops before the next purchase and leaves the rest untouched", async () => {
    const t = setUp({ orders: 4 });
    const runId = await t.start();
    await t.checkAll();
    await t.confirm(runId);
    const [firstId, ...rest] = t.buys.splice(0);
    await buyBulkRunItem(t.deps, firstId ?? "", { lastAttempt: false });
    expect((await cancelBulkRun(db, SHOP, runId)).ok).toBe(true);
    for (const id of rest) await buyBulkRunItem(t.deps, id, { lastAttempt: false });

    const cancelled = await t.review(runId);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.counts).toMatchObject({ bought: 1, not_started: 3 });
    expect(t.shippingEmulator.charges(DEMO_ORG)).toHaveLength(1);
    expect(t.shopify.fulfillments()).toHaveLength(1);
  });

  it("a cancelled run states what it charged and buys the labels it did not buy, at their total, once confirmed", async () => {
    const t = setUp({ orders: 4 });
    const runId = await t.start();
    await t.checkAll();
    await t.confirm(runId);
    const [firstId, ...rest] = t.buys.splice(0);
    await buyBulkRunItem(t.deps, firstId ?? "", { lastAttempt: false });
    expect((await cancelBulkRun(db, SHOP, runId)).ok).toBe(true);
    for (const id of rest) await buyBulkRunItem(t.deps, id, { lastAttempt: false });

    const cancelled = await t.review(runId);
    const [charge] = t.shippingEmulator.charges(DEMO_ORG);
    // What it charged, counted from the labels bought: the shipping service's one charge.
    expect(cancelled.charged).toEqual({
      count: 1,
      chargedCents: charge?.amountCents,
      refundedCents: 0,
      currency: "USD",
    });
    // The three not started, with the total of their quotes, computed on the server.
    const notStarted = cancelled.items.filter((i) => i.status === "not_started");
    const total = notStarted.reduce((sum, i) => sum + (i.quotedCents ?? 0), 0);
    expect(cancelled.notBought).toEqual({ count: 3, totalCents: total, currency: "USD" });

    // A total that is not the one shown is refused and buys nothing.
    const forged = await buyNotStartedBulkItems(
      db,
      SHOP,
      runId,
      { count: 3, totalCents: total - 1 },
      async (_tx, id) => void t.buys.push(id),
    );
    expect(forged).toMatchObject({ ok: false, error: { code: "TOTAL_CHANGED" } });
    expect(t.buys).toEqual([]);
    expect((await t.review(runId)).status).toBe("cancelled");

    const confirmed = await buyNotStartedBulkItems(
      db,
      SHOP,
      runId,
      { count: 3, totalCents: total },
      async (_tx, id) => void t.buys.push(id),
    );
    expect(confirmed).toEqual({ ok: true, value: { queued: 3 } });
    await t.buyAll();
    // Bought twice over? Asked again, nothing is left to buy.
    const again = await buyNotStartedBulkItems(db, SHOP, runId, { count: 0, totalCents: 0 }, async () => {});
    expect(again.ok).toBe(false);

    const done = await t.review(runId);
    expect(done.status).toBe("done");
    expect(done.counts).toMatchObject({ bought: 4, not_started: 0 });
    expect(done.notBought).toBeNull();
    const charges = t.shippingEmulator.charges(DEMO_ORG);
    expect(charges).toHaveLength(4);
    expect(new Set(charges.map((c) => c.labelId)).size).toBe(4);
    expect(done.charged.chargedCents).toBe(charges.reduce((sum, c) => sum + c.amountCents, 0));
    expect(t.shopify.fulfillments()).toHaveLength(4);
  });

  it("retry failed re-runs the failed items, and only them", async () => {
    // One purchase the service keeps refusing until the job's last attempt.
    const second = setUp({ orders: 2 });
    const secondId = await second.start();
    await second.checkAll();
    await second.confirm(secondId);
    const [refusedId, okId] = second.buys.splice(0);
    second.shippingEmulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 100, retry_after: 0 }],
    });
    await buyBulkRunItem(second.deps, refusedId ?? "", { lastAttempt: true });
    second.shippingEmulator.setFaults({ failures: [] });
    await buyBulkRunItem(second.deps, okId ?? "", { lastAttempt: false });
    const afterRefusal = await second.review(secondId);
    expect(afterRefusal.counts, JSON.stringify(afterRefusal.items)).toMatchObject({ bought: 1, failed: 1 });

    const retried = await retryFailedBulkItems(db, SHOP, secondId, async (_tx, id) => void second.buys.push(id));
    expect(retried).toEqual({ ok: true, value: { queued: 1 } });
    expect(second.buys).toEqual([refusedId]);
    await second.buyAll();
    const after = await second.review(secondId);
    expect(after.status).toBe("done");
    expect(after.counts).toMatchObject({ bought: 2, failed: 0 });
    expect(second.shippingEmulator.charges(DEMO_ORG)).toHaveLength(2);
  });

  it("queues again an item whose job died with its worker, and leaves alone one still being worked on", async () => {
    const run = await db.bulkRun.create({ data: { shop: SHOP, status: "running" } });
    const item = (status: string, position: number) =>
      db.bulkRunItem.create({
        data: {
          runId: run.id,
          shop: SHOP,
          position,
          orderGid: `gid://shopify/Order/${position}`,
          orderName: `#${position}`,
          status,
          labelId: `l${position}`,
        },
      });
    const stranded = await item("buying", 1);
    const waiting = await item("queued", 2);
    const bought = await item("bought", 3);
    const buys: string[] = [];
    const enqueue = {
      check: async () => {},
      buy: async (_tx: Prisma.TransactionClient, _shop: string, id: string) => void buys.push(id),
    };

    // Recently touched: its job may still be at it.
    expect(await resumeStrandedBulkItems(db, enqueue)).toEqual({ checks: 0, buys: 0 });
    const later = new Date(Date.now() + STRANDED_AFTER_MS + 1_000);
    expect(await resumeStrandedBulkItems(db, enqueue, later)).toEqual({ checks: 0, buys: 2 });
    expect(buys.sort()).toEqual([stranded.id, waiting.id].sort());
    expect(buys).not.toContain(bought.id);
    // Taken with their jobs: a second sweep at the same moment (another worker's) leaves them.
    expect(await resumeStrandedBulkItems(db, enqueue, later)).toEqual({ checks: 0, buys: 0 });
  });

  it("does not mark failed an item that another job bought meanwhile", async () => {
    const t = setUp({ orders: 1 });
    const runId = await t.start();
    await t.checkAll();
    expect((await t.confirm(runId)).ok).toBe(true);
    const [itemId] = t.buys.splice(0);
    if (!itemId) throw new Error("no buy queued");
    // This job's last attempt is refused (an outage) after a job that took over after its lease
    // bought the label and recorded the item.
    t.shippingEmulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 100, retry_after: 0 }],
    });
    const shipping = {
      ...t.deps.shipping,
      purchaseLabel: async (...args: Parameters<typeof t.deps.shipping.purchaseLabel>) => {
        await db.bulkRunItem.update({ where: { id: itemId }, data: { status: "bought" } });
        return t.deps.shipping.purchaseLabel(...args);
      },
    };
    expect((await buyBulkRunItem({ ...t.deps, shipping }, itemId, { lastAttempt: true })).ok).toBe(true);
    expect((await db.bulkRunItem.findUniqueOrThrow({ where: { id: itemId } })).status).toBe("bought");
    expect((await t.review(runId)).status).toBe("done");
  });

  it("drops a bought item's tracking-pending note once the label's tracking is in Shopify", async () => {
    const run = await db.bulkRun.create({ data: { shop: SHOP, status: "done" } });
    const fulfilled = await insertLabelRow({ shop: SHOP, status: "fulfilled" });
    const pending = await insertLabelRow({ shop: SHOP, status: "purchased" });
    const note = "Bought. Tracking is not in Shopify yet.";
    for (const [position, label] of [fulfilled, pending].entries()) {
      await db.bulkRunItem.create({
        data: {
          runId: run.id,
          shop: SHOP,
          position,
          orderGid: label.orderGid,
          orderName: label.orderName,
          status: "bought",
          labelId: label.id,
          message: note,
        },
      });
    }
    const view = await getBulkRun(db, SHOP, run.id);
    expect(view?.items.map((i) => i.message)).toEqual([null, note]);
  });

  it("shows a shipping outage during a run as waiting to retry, with its cause, not as buying or failed", async () => {
    const t = setUp({ orders: 3 });
    const runId = await t.start();
    await t.checkAll();
    expect((await t.confirm(runId)).ok).toBe(true);
    // The service answers 429 to every purchase for a while: refused unprocessed, never charged.
    t.shippingEmulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 100, retry_after: 0 }],
    });
    const queued = [...t.buys];
    const results = await Promise.all(queued.map((id) => buyBulkRunItem(t.deps, id, { lastAttempt: false })));
    expect(results.every((r) => !r.ok)).toBe(true);

    const run = await t.review(runId);
    expect(run.status).toBe("running");
    expect(run.retrying).toEqual({ count: 3, cause: "the shipping service is busy." });
    expect(run.items.map((i) => [i.status, i.retryingBecause])).toEqual(
      Array(3).fill(["queued", "the shipping service is busy."]),
    );
    expect(run.progress).toMatchObject({ bought: 0, failed: 0, remaining: 3 });
    expect(t.shippingEmulator.charges(DEMO_ORG)).toEqual([]);

    // The outage ends: the retries buy each label once and the cause is gone.
    t.shippingEmulator.setFaults({ failures: [] });
    for (const id of queued) expect((await buyBulkRunItem(t.deps, id, { lastAttempt: false })).ok).toBe(true);
    const after = await t.review(runId);
    expect(after.status).toBe("done");
    expect(after.retrying).toBeNull();
    expect(after.items.every((i) => i.status === "bought" && i.retryingBecause === null)).toBe(true);
    expect(t.shippingEmulator.charges(DEMO_ORG)).toHaveLength(3);
  });

  it("offers each print file only for the labels it takes, and names the ones it leaves out", async () => {
    const t = setUp({ orders: 2 });
    const runId = await t.start();
    await t.checkAll();
    expect((await t.confirm(runId)).ok).toBe(true);
    await t.buyAll();
    const [first] = (await t.review(runId)).items;
    if (!first?.labelId) throw new Error("no bought label");
    await db.label.update({ where: { id: first.labelId }, data: { labelFormat: "zpl" } });

    const run = await t.review(runId);
    expect(run.printable.pdf.count).toBe(1);
    expect(run.printable.zpl.count).toBe(1);
    expect(run.printable.png.count).toBe(0);
    expect(run.printable.pdf.elsewhere).toEqual([{ orderName: first.orderName, format: "zpl" }]);
  });

  describe("cancelled during an outage, with a purchase whose outcome is unknown", () => {
    const PURCHASE = "POST /v1/labels/{id}/purchase";
    const READ = "GET /v1/labels/{id}";

    async function cancelWhileUnknown(
      faults: Parameters<ReturnType<typeof setUp>["shippingEmulator"]["setFaults"]>[0],
    ) {
      const t = setUp({ orders: 1 });
      const runId = await t.start();
      await t.checkAll();
      expect((await t.confirm(runId)).ok).toBe(true);
      t.shippingEmulator.setFaults(faults);
      const [itemId] = t.buys.splice(0);
      if (!itemId) throw new Error("no buy queued");
      expect((await buyBulkRunItem(t.deps, itemId, { lastAttempt: false })).ok).toBe(false);
      const item = await db.bulkRunItem.findUniqueOrThrow({ where: { id: itemId } });
      expect((await findLabel(db, SHOP, item.labelId ?? ""))?.status).toBe("purchasing");
      expect((await cancelBulkRun(db, SHOP, runId)).ok).toBe(true);
      t.shippingEmulator.setFaults({ failures: [] });
      // The recovery sweep, once the quiet period for a request still in flight is over.
      const later = () => new Date(Date.now() + UNKNOWN_OUTCOME_QUIET_MS + 60_000);
      const report = await recoverShopLabels(
        {
          db,
          adminFor: async () => t.shopify.graphql,
          shippingFor: async () => t.deps.shipping,
          now: later,
        },
        SHOP,
      );
      expect(report.skipped).toEqual([]);
      return { t, runId, labelId: item.labelId ?? "" };
    }

    it("is never bought anew by the recovery job when the service still has it as a draft", async () => {
      // Every purchase attempt answers 503: the client reads back a draft each time, then gives up unknown.
      const { t, runId, labelId } = await cancelWhileUnknown({
        failures: [{ endpoint: PURCHASE, kind: "unavailable", times: 3, retry_after: 0 }],
      });
      expect(t.shippingEmulator.charges(DEMO_ORG)).toEqual([]);
      expect((await findLabel(db, SHOP, labelId))?.status).toBe("draft");
      const run = await t.review(runId);
      expect(run.counts).toMatchObject({ bought: 0, not_started: 1 });
      expect(run.boughtAfterCancel).toEqual({ count: 0, chargedCents: 0, currency: "USD" });
    });

    it("is shown as bought, after the cancel and for what it cost, when the service had charged it", async () => {
      // Charged, the answer lost, and the label unreadable until the outage ends.
      const { t, runId, labelId } = await cancelWhileUnknown({
        failures: [
          { endpoint: PURCHASE, kind: "lost_after_charge", times: 1 },
          { endpoint: READ, kind: "unavailable", times: 3, retry_after: 0 },
        ],
      });
      const charges = t.shippingEmulator.charges(DEMO_ORG);
      expect(charges).toHaveLength(1);
      expect((await findLabel(db, SHOP, labelId))?.status).toMatch(/^(purchased|fulfilled)$/);
      const run = await t.review(runId);
      expect(run.status).toBe("cancelled");
      expect(run.counts).toMatchObject({ bought: 1, not_started: 0 });
      expect(run.items[0]?.message).toMatch(/confirmed this purchase after/);
      expect(run.boughtAfterCancel).toEqual({ count: 1, chargedCents: charges[0]?.amountCents, currency: "USD" });
    });
  });

  it("settles an item left buying in a cancelled run once its job is found dead", async () => {
    const t = setUp({ orders: 1 });
    const runId = await t.start();
    await t.checkAll();
    expect((await t.confirm(runId)).ok).toBe(true);
    const [itemId] = t.buys.splice(0);
    if (!itemId) throw new Error("no buy queued");
    // The job took the item and died on its last attempt; then the merchant cancelled.
    await db.bulkRunItem.update({ where: { id: itemId }, data: { status: "buying" } });
    expect((await cancelBulkRun(db, SHOP, runId)).ok).toBe(true);
    const later = new Date(Date.now() + STRANDED_AFTER_MS + 1_000);
    const requeued: string[] = [];
    const enqueue = async (_tx: Prisma.TransactionClient, _shop: string, id: string) => void requeued.push(id);
    expect(await resumeStrandedBulkItems(db, { check: enqueue, buy: enqueue }, later)).toEqual({ checks: 0, buys: 1 });
    expect((await buyBulkRunItem(t.deps, itemId, { lastAttempt: false })).ok).toBe(true);
    const run = await t.review(runId);
    expect(run.counts).toMatchObject({ buying: 0, not_started: 1 });
    expect(run.progress.remaining).toBe(0);
    expect(t.shippingEmulator.charges(DEMO_ORG)).toEqual([]);
  });
});
