import type { PrismaClient } from "@prisma/client";
import { afterEach, describe, expect, it } from "vitest";

import db, { createPrismaClient } from "~/db.server";
import { databaseKindOf } from "~/db/database-kind.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { ok } from "~/utils/result";

import {
  countingFetch,
  crashAfterCharge,
  createEmulators,
  createTestShippingClient,
  DEMO_ORG,
  draftSeededOrder,
  TEST_LABEL_SHOP,
} from "../../test/helpers/labels";
import { listAuditEntries } from "./audit.server";
import { findLabel } from "./label-repository.server";
import { purchase, type PurchaseShippingPort, recoverStuckPurchases } from "./purchase.server";
import { writeTracking } from "./write-tracking.server";

const SHOP = TEST_LABEL_SHOP;
const secondProcesses: PrismaClient[] = [];
afterEach(async () => {
  await Promise.all(secondProcesses.splice(0).map((client) => client.$disconnect()));
});

// Several processes share a database only on PostgreSQL. On SQLite one process owns the file
// (ADR 19): its jobs run inside it, on the app's client.
const onPostgresql = databaseKindOf(db) === "postgresql";

/** Another process's database client: its own on PostgreSQL, the app's on SQLite. */
async function secondProcess(): Promise<PrismaClient> {
  if (!onPostgresql) return db;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL not set by the test setup");
  const client = createPrismaClient(url);
  secondProcesses.push(client);
  return client;
}

const purchaseCharges = async (labelId: string) =>
  (await listAuditEntries(db, SHOP, { labelId })).filter(
    (e) => e.action === "purchase" && (e.outcome === "ok" || e.outcome === "recovered"),
  );

describe("purchase is exactly once", () => {
  it("charges once when the same label is bought three times at once (double clicks)", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1001");
    const results = await Promise.all(
      [1, 2, 3].map(() => purchase({ db, shop: SHOP, shipping: client }, draft.label.id)),
    );
    expect(results.map((r) => r.ok && r.value.status)).toEqual(["purchased", "purchased", "purchased"]);
    expect(new Set(results.map((r) => r.ok && r.value.trackingNumbers[0])).size).toBe(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(await purchaseCharges(draft.label.id)).toHaveLength(1);

    const writes = await Promise.all(
      [1, 2].map(() =>
        writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, { notifyCustomer: true }),
      ),
    );
    expect(writes.every((w) => w.ok)).toBe(true);
    const again = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(again.ok && again.value.status).toBe("fulfilled");
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });

  it.runIf(onPostgresql)(
    "charges once when two processes with their own database connections buy the same label",
    async () => {
      const emulators = createEmulators();
      const { draft, order } = await draftSeededOrder(db, emulators, "#1002");
      const other = await secondProcess();
      // Each process has its own shipping client too; the service sees every request of both.
      const counted = countingFetch(emulators.shipping);
      const [a, b] = await Promise.all([
        purchase(
          { db, shop: SHOP, shipping: createTestShippingClient(emulators.shipping, "sk_live_demo", counted.fetch) },
          draft.label.id,
        ),
        purchase(
          {
            db: other,
            shop: SHOP,
            shipping: createTestShippingClient(emulators.shipping, "sk_live_demo", counted.fetch),
          },
          draft.label.id,
        ),
      ]);
      expect(a.ok && b.ok).toBe(true);
      // The claim lets one process call the service; the other waits for its result. (Without the
      // claim both would call, and the service's 409 would hide it from the charge count.)
      expect(counted.count("POST", "/purchase")).toBe(1);
      expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
      expect(await purchaseCharges(draft.label.id)).toHaveLength(1);

      const [w1, w2] = await Promise.all([
        writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, { notifyCustomer: true }),
        writeTracking({ db: other, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
          notifyCustomer: true,
        }),
      ]);
      expect(w1.ok && w2.ok).toBe(true);
      expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
    },
  );

  it("charges once when the purchase response is lost after the charge", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1003");
    emulators.shipping.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 }],
    });
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.status).toBe("purchased");
    expect(bought.value.trackingNumbers.length).toBeGreaterThan(0);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(await purchaseCharges(draft.label.id)).toHaveLength(1);

    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(written.ok).toBe(true);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });

  it("recovers a purchase that crashed between the charge and the database write, without charging again", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1001");
    const crashing = crashAfterCharge(client);
    await expect(purchase({ db, shop: SHOP, shipping: crashing }, draft.label.id)).rejects.toThrow("process crashed");
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "purchasing", trackingNumbers: [] });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);

    // While the crashed attempt's lease runs, another click does not buy again.
    const early = await purchase({ db, shop: SHOP, shipping: client, sleep: async () => {} }, draft.label.id, {
      waitMs: 0,
    });
    expect(early.ok ? null : early.error.code).toBe("PURCHASE_IN_PROGRESS");

    // After the lease, a job (on PostgreSQL, in another process) reads the label back from the service.
    const later = () => new Date(Date.now() + 10 * 60_000);
    const recovered = await recoverStuckPurchases({
      db: await secondProcess(),
      shop: SHOP,
      shipping: client,
      now: later,
    });
    expect(recovered.map((l) => l.status)).toEqual(["purchased"]);
    expect(recovered[0]?.trackingNumbers.length).toBe(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    const audit = await purchaseCharges(draft.label.id);
    expect(audit.map((e) => e.outcome)).toEqual(["recovered"]);
    expect(audit[0]?.amountCents).toBe(emulators.shipping.charges(DEMO_ORG)[0]?.amountCents);

    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(written.ok).toBe(true);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });

  it("puts a label back to draft, uncharged, when the service refuses the purchase", async () => {
    const emulators = createEmulators();
    const poor = createTestShippingClient(emulators.shipping, "sk_live_poor");
    const { draft } = await draftSeededOrder(db, emulators, "#1012", { client: poor });
    const result = await purchase({ db, shop: SHOP, shipping: poor }, draft.label.id);
    expect(result.ok ? null : result.error.code).toBe("SHIPPING_ERROR");
    expect(result.ok ? null : result.error.shipping?.code).toBe("INSUFFICIENT_BALANCE");
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "draft" });
    expect(emulators.shipping.charges("org_poor")).toHaveLength(0);
    expect((await listAuditEntries(db, SHOP, { labelId: draft.label.id })).map((e) => e.outcome)).toEqual(["error"]);
  });

  it("flags a purchase whose charge differs from the quote", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const repriced: PurchaseShippingPort = {
      getLabel: (id) => client.getLabel(id),
      purchaseLabel: async (id) => {
        const real = await client.purchaseLabel(id);
        if (!real.ok) return real;
        return ok({ ...real.value, charged: ((draft.label.quotedCents ?? 0) / 100 + 1.25).toFixed(2) });
      },
    } satisfies Pick<ShippingClient, "getLabel" | "purchaseLabel">;
    const bought = await purchase({ db, shop: SHOP, shipping: repriced }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.chargeMismatch).toBe(true);
    expect(bought.value.chargedCents).toBe((draft.label.quotedCents ?? 0) + 125);
    const [entry] = await purchaseCharges(draft.label.id);
    expect(entry?.detail).toContain("differs from quoted");
  });
});

describe("tracking write-back is exactly once", () => {
  it("adopts the fulfillment Shopify created when its answer was lost, in the same call, instead of creating a second", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1004");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    // Shopify creates the fulfillment; the process dies before our database write.
    const crashingAdmin: AdminGraphqlClient = async (query, options) => {
      const response = await emulators.shopify.graphql(query, options);
      if (query.includes("fulfillmentCreate")) throw new Error("process crashed");
      return response;
    };
    // The answer is lost; before giving up, the writer looks again and finds it.
    const lost = await writeTracking({ db, shop: SHOP, admin: crashingAdmin }, draft.label.id, {
      notifyCustomer: true,
    });
    if (!lost.ok) throw new Error(lost.error.logMessage);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(lost.value).toMatchObject({ status: "fulfilled", fulfillmentGid: fulfillments[0]?.id });

    const again = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(again.ok && again.value.fulfillmentGid).toBe(fulfillments[0]?.id);
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });

  it("adopts the fulfillment after a crash that left the write-back claimed", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1005");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    // A Response thrown by the admin client is passed through (auth redirects): the call dies
    // after Shopify created the fulfillment, leaving the claim in place like a crashed process.
    const dyingAdmin: AdminGraphqlClient = async (query, options) => {
      const response = await emulators.shopify.graphql(query, options);
      if (query.includes("fulfillmentCreate")) throw new Response("gone", { status: 401 });
      return response;
    };
    await expect(
      writeTracking({ db, shop: SHOP, admin: dyingAdmin }, draft.label.id, { notifyCustomer: true }),
    ).rejects.toBeInstanceOf(Response);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "writing" } });

    const during = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(during.ok && during.value.writeBack.status).toBe("writing");

    const later = () => new Date(Date.now() + 10 * 60_000);
    const retried = await writeTracking(
      { db, shop: SHOP, admin: emulators.shopify.graphql, now: later },
      draft.label.id,
      { notifyCustomer: true },
    );
    if (!retried.ok) throw new Error(retried.error.logMessage);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(retried.value).toMatchObject({ status: "fulfilled", fulfillmentGid: fulfillments[0]?.id });
  });
});
