import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { purchase } from "~/labels/purchase.server";
import { writeTracking } from "~/labels/write-tracking.server";

import {
  crashAfterCharge,
  createEmulators,
  DEMO_ORG,
  draftSeededOrder,
  TEST_LABEL_SHOP,
} from "../../test/helpers/labels";
import { runLabelRecovery, startLabelRecoveryLoop } from "./label-recovery.server";

const SHOP = TEST_LABEL_SHOP;
const afterLeases = () => new Date(Date.now() + 10 * 60_000);

describe("label recovery sweep", () => {
  it("finishes a purchase that crashed after the charge and writes its tracking back, charging once", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1001");
    const crashing = crashAfterCharge(client);
    await expect(purchase({ db, shop: SHOP, shipping: crashing }, draft.label.id)).rejects.toThrow("process crashed");

    const report = await runLabelRecovery({
      db,
      adminFor: async () => emulators.shopify.graphql,
      shippingFor: async () => client,
      now: afterLeases,
    });

    expect(report).toMatchObject({ purchasesRecovered: 1, writeBacksDone: 1, writeBacksPending: 0, skipped: [] });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "fulfilled" });
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
    const first = await runLabelRecovery(deps);
    expect(first).toMatchObject({ writeBacksDone: 0, writeBacksPending: 1 });
    const second = await runLabelRecovery(deps);
    expect(second).toMatchObject({ writeBacksDone: 1, writeBacksPending: 0 });
    const third = await runLabelRecovery(deps);
    expect(third).toMatchObject({ writeBacksDone: 0, writeBacksPending: 0 });

    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "done", attempts: 3 } });
  });

  it("skips a shop the app can no longer reach, keeping its write-back pending", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    expect((await purchase({ db, shop: SHOP, shipping: client }, draft.label.id)).ok).toBe(true);

    const report = await runLabelRecovery({ db, adminFor: async () => null, shippingFor: async () => client });

    expect(report.skipped).toEqual([{ shop: SHOP, reason: "no offline session" }]);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "pending" } });
  });

  it("runs the sweep on an interval, one run at a time, until stopped", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    expect((await purchase({ db, shop: SHOP, shipping: client }, draft.label.id)).ok).toBe(true);

    const reports: unknown[] = [];
    const stop = startLabelRecoveryLoop(
      { db, adminFor: async () => emulators.shopify.graphql, shippingFor: async () => client },
      { intervalMs: 20, onReport: (report) => reports.push(report) },
    );
    await expect
      .poll(async () => (await findLabel(db, SHOP, draft.label.id))?.status, { timeout: 5_000 })
      .toBe("fulfilled");
    stop();
    expect(reports.length).toBeGreaterThan(0);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === draft.label.orderGid)).toHaveLength(1);
  });
});
