import { randomUUID } from "node:crypto";

import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";

import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { processDeliveryOnce, type WebhookDelivery } from "./webhook-delivery.server";

const delivery: WebhookDelivery = { shop: TEST_SHOP, topic: "APP_UNINSTALLED", eventId: "event-1", webhookId: "wh-1" };

// An effect with a visible outcome: one session row per run.
async function storeSessionRow(tx: Prisma.TransactionClient) {
  await tx.session.create({ data: { id: randomUUID(), shop: TEST_SHOP, state: "", accessToken: "shpat_x" } });
}
const sessionRows = () => db.session.count({ where: { shop: TEST_SHOP } });

describe("processDeliveryOnce", () => {
  it("runs the effect for the first delivery of an event and hands back its value", async () => {
    const outcome = await processDeliveryOnce(db, delivery, async () => "done");
    expect(outcome).toEqual({ status: "processed", value: "done" });
    expect(await db.webhookDelivery.count()).toBe(1);
  });

  it("skips a redelivery that carries the same event id, even under a new webhook id", async () => {
    await processDeliveryOnce(db, delivery, storeSessionRow);
    const again = await processDeliveryOnce(db, { ...delivery, webhookId: "wh-2" }, storeSessionRow);
    expect(again).toEqual({ status: "duplicate" });
    expect(await sessionRows()).toBe(1);
  });

  it("keys on the webhook id when Shopify sends no event id", async () => {
    const withoutEvent = { ...delivery, eventId: undefined };
    await processDeliveryOnce(db, withoutEvent, storeSessionRow);
    expect(await processDeliveryOnce(db, withoutEvent, storeSessionRow)).toEqual({ status: "duplicate" });
    expect(await processDeliveryOnce(db, { ...withoutEvent, webhookId: "wh-2" }, storeSessionRow)).toMatchObject({
      status: "processed",
    });
    expect(await sessionRows()).toBe(2);
  });

  it("treats the same event id for another shop or another topic as a new event", async () => {
    await processDeliveryOnce(db, delivery, storeSessionRow);
    const otherShop = await processDeliveryOnce(db, { ...delivery, shop: "other.myshopify.com" }, storeSessionRow);
    const otherTopic = await processDeliveryOnce(db, { ...delivery, topic: "APP_SCOPES_UPDATE" }, storeSessionRow);
    expect([otherShop.status, otherTopic.status]).toEqual(["processed", "processed"]);
    expect(await sessionRows()).toBe(3);
  });

  it("forgets the delivery when the effect fails, so the redelivery runs the effect again", async () => {
    const crash = new Error("crashed after writing");
    const failing = async (tx: Prisma.TransactionClient) => {
      await storeSessionRow(tx);
      throw crash;
    };
    await expect(processDeliveryOnce(db, delivery, failing)).rejects.toBe(crash);
    expect(await sessionRows()).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);

    expect(await processDeliveryOnce(db, delivery, storeSessionRow)).toMatchObject({ status: "processed" });
    expect(await sessionRows()).toBe(1);
  });

  it("fails instead of reporting a duplicate when the effect itself hits a unique constraint", async () => {
    const conflicting = async (tx: Prisma.TransactionClient) => {
      await tx.session.create({ data: { id: "same", shop: TEST_SHOP, state: "", accessToken: "a" } });
      await tx.session.create({ data: { id: "same", shop: TEST_SHOP, state: "", accessToken: "b" } });
    };
    await expect(processDeliveryOnce(db, delivery, conflicting)).rejects.toMatchObject({ code: "P2002" });
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it("runs the effect once when two deliveries of one event arrive at the same time", async () => {
    const outcomes = await Promise.all([
      processDeliveryOnce(db, delivery, storeSessionRow),
      processDeliveryOnce(db, { ...delivery, webhookId: "wh-2" }, storeSessionRow),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["duplicate", "processed"]);
    expect(await sessionRows()).toBe(1);
  });

  it("writes deliveries that arrive together in shared transactions, each event once", async () => {
    const transactions = new Set<Prisma.TransactionClient>();
    const storeAndNoteTransaction = async (tx: Prisma.TransactionClient) => {
      transactions.add(tx);
      await storeSessionRow(tx);
    };
    const events = Array.from({ length: 30 }, (_, i) => ({ ...delivery, eventId: `event-${i}`, webhookId: `wh-${i}` }));
    const repeats = events.slice(0, 5).map((event) => ({ ...event, webhookId: `${event.webhookId}-again` }));
    const outcomes = await Promise.all(
      [...events, ...repeats].map((d) => processDeliveryOnce(db, d, storeAndNoteTransaction)),
    );

    expect(outcomes.filter((o) => o.status === "processed")).toHaveLength(30);
    expect(outcomes.slice(30).map((o) => o.status)).toEqual(Array(5).fill("duplicate"));
    expect(await sessionRows()).toBe(30);
    expect(await db.webhookDelivery.count()).toBe(30);
    // The first goes alone; the rest, waiting for it, share one more.
    expect(transactions.size).toBeLessThanOrEqual(2);
  });

  it("fails only the delivery whose effect failed when it shared a transaction with others", async () => {
    const crash = new Error("crashed after writing");
    const failing = async (tx: Prisma.TransactionClient) => {
      await storeSessionRow(tx);
      throw crash;
    };
    const events = Array.from({ length: 6 }, (_, i) => ({ ...delivery, eventId: `event-${i}`, webhookId: `wh-${i}` }));
    const outcomes = await Promise.allSettled(
      events.map((d, i) => processDeliveryOnce(db, d, i === 3 ? failing : storeSessionRow)),
    );

    expect(outcomes.map((o) => o.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(outcomes[3]).toMatchObject({ reason: crash });
    expect(await sessionRows()).toBe(5);
    const recorded = await db.webhookDelivery.findMany({ select: { eventKey: true } });
    expect(recorded.map((r) => r.eventKey).sort()).toEqual(["event-0", "event-1", "event-2", "event-4", "event-5"]);
  });
});
