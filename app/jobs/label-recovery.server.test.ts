import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { purchase } from "~/labels/purchase.server";
import { writeTracking } from "~/labels/write-tracking.server";
import { saveShopSettings } from "~/settings/settings.server";

import {
  crashAfterCharge,
  createEmulators,
  DEMO_ORG,
  draftSeededOrder,
  readAtTheService,
  TEST_LABEL_SHOP,
} from "../../test/helpers/labels";
import { createPrismaJobQueue } from "../queue/prisma-job-queue.server";
import {
  createLabelRecoveryJob,
  enqueueLabelRecoveryJobs,
  LABEL_RECOVERY_JOB_NAME,
  recoverShopLabels,
} from "./label-recovery.server";

const SHOP = TEST_LABEL_SHOP;
const afterLeases = () => new Date(Date.now() + 10 * 60_000);

describe("label recovery, one shop at a time", () => {
  it("finishes a purchase that crashed after the charge and writes its tracking back, charging once", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1001");
    const crashing = crashAfterCharge(client);
    await expect(purchase({ db, shop: SHOP, shipping: crashing }, draft.label.id)).rejects.toThrow("process crashed");

    const report = await recoverShopLabels(
      {
        db,
        adminFor: async () => emulators.shopify.graphql,
        shippingFor: async () => client,
        now: afterLeases,
      },
      SHOP,
    );

    expect(report).toMatchObject({ purchasesRecovered: 1, writeBacksDone: 1, writeBacksPending: 0, skipped: [] });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "fulfilled" });
  });

  it("flags a recovered purchase whose shipment Shopify held meanwhile, and voids it when Settings asks", async () => {
    const emulators = createEmulators();
    const { draft, client, order, input } = await draftSeededOrder(db, emulators, "#1001");
    const crashing = crashAfterCharge(client);
    await expect(purchase({ db, shop: SHOP, shipping: crashing }, draft.label.id)).rejects.toThrow("process crashed");
    // Charged, then held in Shopify before anyone learned of the charge.
    emulators.shopify.holdFulfillmentOrder(input.fulfillmentOrderGid, "HIGH_RISK_OF_FRAUD");
    expect((await saveShopSettings(db, SHOP, { autoVoidHeldPurchases: true })).ok).toBe(true);

    const report = await recoverShopLabels(
      { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client, now: afterLeases },
      SHOP,
    );

    expect(report).toMatchObject({ purchasesRecovered: 1, writeBacksDone: 0, writeBacksPending: 1 });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toEqual([]);
    const label = await findLabel(db, SHOP, draft.label.id);
    expect(label).toMatchObject({ status: "void_pending", attention: { reason: "bought_while_held" } });
    expect(await readAtTheService(emulators.shipping, label?.serviceLabelId ?? null)).toMatchObject({
      status: "void_pending",
    });
  });

  it("buys nothing for a purchase that died before its charge once Shopify holds the shipment: the label is a draft again", async () => {
    const emulators = createEmulators();
    const { draft, client, input } = await draftSeededOrder(db, emulators, "#1001");
    // The process died after claiming the label, before its request reached the service.
    const dying = { ...client, purchaseLabel: () => Promise.reject(new Error("process crashed")) };
    await expect(purchase({ db, shop: SHOP, shipping: dying }, draft.label.id)).rejects.toThrow("process crashed");
    emulators.shopify.holdFulfillmentOrder(input.fulfillmentOrderGid, "HIGH_RISK_OF_FRAUD");

    const report = await recoverShopLabels(
      { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client, now: afterLeases },
      SHOP,
    );

    expect(report.purchasesRecovered).toBe(0);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(0);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({
      status: "draft",
      lastError: expect.stringMatching(/ON_HOLD/),
    });
  });

  it("retries a write-back Shopify did not take until it succeeds, and never writes it twice", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1003");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(bought.ok).toBe(true);
    emulators.shopify.failNextRequest("SERVICE_UNAVAILABLE");
    expect((await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {})).ok).toBe(
      false,
    );

    const deps = { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client };
    emulators.shopify.failNextRequest("THROTTLED");
    const first = await recoverShopLabels(deps, SHOP);
    expect(first).toMatchObject({ writeBacksDone: 0, writeBacksPending: 1 });
    const second = await recoverShopLabels(deps, SHOP);
    expect(second).toMatchObject({ writeBacksDone: 1, writeBacksPending: 0 });
    const third = await recoverShopLabels(deps, SHOP);
    expect(third).toMatchObject({ writeBacksDone: 0, writeBacksPending: 0 });

    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "done", attempts: 3 } });
  });

  it("skips a shop the app can no longer reach, keeping its write-back pending", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    expect((await purchase({ db, shop: SHOP, shipping: client }, draft.label.id)).ok).toBe(true);

    const report = await recoverShopLabels({ db, adminFor: async () => null, shippingFor: async () => client }, SHOP);

    expect(report.skipped).toEqual([{ shop: SHOP, reason: "no offline session" }]);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "pending" } });
  });

  it("runs as a label-recovery job per installed shop in the worker, one queued at a time, charging once", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1001");
    const crashing = crashAfterCharge(client);
    await expect(purchase({ db, shop: SHOP, shipping: crashing }, draft.label.id)).rejects.toThrow("process crashed");
    const deps = {
      db,
      adminFor: async () => emulators.shopify.graphql,
      shippingFor: async () => client,
      now: afterLeases,
    };
    const queue = createPrismaJobQueue(db);
    const job = createLabelRecoveryJob(deps);

    // Not installed (no offline session): nothing is enqueued for the shop.
    expect(await enqueueLabelRecoveryJobs(db, queue, job, afterLeases())).toEqual({ enqueued: [] });
    await db.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_x" } });
    expect(await enqueueLabelRecoveryJobs(db, queue, job, afterLeases())).toEqual({ enqueued: [SHOP] });
    expect(await enqueueLabelRecoveryJobs(db, queue, job, afterLeases())).toEqual({ enqueued: [] });
    expect(await db.job.count({ where: { shop: SHOP, name: LABEL_RECOVERY_JOB_NAME } })).toBe(1);

    const worker = queue.createWorker([job], { pollIntervalMs: 10, log: { info: () => {}, error: () => {} } });
    worker.start();
    try {
      await expect
        .poll(async () => (await findLabel(db, SHOP, draft.label.id))?.status, { timeout: 10_000 })
        .toBe("fulfilled");
      await expect.poll(() => db.job.count({ where: { status: "done" } }), { timeout: 5_000 }).toBe(1);
    } finally {
      await worker.stop({ graceMs: 5_000 });
    }
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });
});
