import { describe, expect, it } from "vitest";

import { SHOPIFY_POINTS_PER_LABEL } from "~/bulk/bulk-run-eta";
import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { retryPendingWriteBacks } from "~/labels/write-tracking.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";

import { createEmulators, draftSeededOrder, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { buyLabel } from "./buy-label.server";

// The purchase's spend guard reads the fulfillment order right before the charge; the label's
// first write-back uses that read instead of asking Shopify again (7 points a label on a
// Standard shop's 100 a second). Judged by what the Shopify emulator was asked and holds.

const SHOP = TEST_LABEL_SHOP;
type Emulators = ReturnType<typeof createEmulators>;

/** The emulator's Admin API, recording each operation's name, with a hook after each answer. */
function watchedAdmin(emulators: Emulators, after: (operation: string) => Promise<void> = async () => {}) {
  const operations: string[] = [];
  const admin: AdminGraphqlClient = async (query, options) => {
    const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
    operations.push(operation);
    const response = await emulators.shopify.graphql(query, options);
    await after(operation);
    return response;
  };
  return { admin, operations };
}

const fulfillmentsOf = (emulators: Emulators, orderGid: string) =>
  emulators.shopify.fulfillments().filter((f) => f.orderId === orderGid);

describe("buying a label, then its tracking to Shopify", () => {
  it("reads the shipment once: the write-back fulfils what the guard saw remaining", async () => {
    const emulators = createEmulators();
    // #1017 is partly fulfilled: the label's items are capped at what remains.
    const { draft, client } = await draftSeededOrder(db, emulators, "#1017");
    const { admin, operations } = watchedAdmin(emulators);
    const before = emulators.shopify.queryCostSpent();
    const bought = await buyLabel({ db, shop: SHOP, admin, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.writeBackError).toBeNull();
    expect(operations).toEqual(["FulfillmentOrderGuard", "CreateFulfillmentWithTracking"]);
    // What a bulk run's estimate counts a label at (the guard, then the fulfillment).
    expect(emulators.shopify.queryCostSpent() - before).toBeLessThanOrEqual(SHOPIFY_POINTS_PER_LABEL);
    const fulfillments = fulfillmentsOf(emulators, draft.label.orderGid);
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.lineItems.map((l) => l.quantity)).toEqual([1, 2]);
    expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual(bought.value.label.trackingNumbers);
  });

  it("reads the shipment again on a later write-back, and never fulfils twice", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1003");
    // Shopify is unavailable for the first fulfillment.
    let failed = false;
    const admin: AdminGraphqlClient = async (query, options) => {
      if (!failed && query.includes("CreateFulfillmentWithTracking")) {
        failed = true;
        emulators.shopify.failNextRequest("SERVICE_UNAVAILABLE");
      }
      return emulators.shopify.graphql(query, options);
    };
    const bought = await buyLabel({ db, shop: SHOP, admin, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.writeBackError).toBeTruthy();
    expect(fulfillmentsOf(emulators, draft.label.orderGid)).toHaveLength(0);

    const retry = watchedAdmin(emulators);
    const retried = await retryPendingWriteBacks({ db, shop: SHOP, admin: retry.admin }, {});
    expect(retried.done.map((l) => l.id)).toEqual([draft.label.id]);
    expect(retry.operations).toEqual(["FulfillmentOrderForWriteBack", "CreateFulfillmentWithTracking"]);
    expect(fulfillmentsOf(emulators, draft.label.orderGid)).toHaveLength(1);
  });

  it("is refused by Shopify, not doubled, when the items were fulfilled after the guard read", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1003");
    // The merchant fulfils the same items in Shopify between the guard's read and the write-back.
    const { admin } = watchedAdmin(emulators, async (operation) => {
      if (operation !== "FulfillmentOrderGuard") return;
      const byHand = await createFulfillmentWithTracking(emulators.shopify.graphql, {
        fulfillmentOrderId: draft.label.fulfillmentOrderGid,
        lineItems: draft.label.lineItems,
        tracking: { company: "UPS", numbers: ["1ZBYHAND"], urls: [] },
        notifyCustomer: false,
      });
      if (!byHand.ok) throw new Error(byHand.error.logMessage);
    });
    const bought = await buyLabel({ db, shop: SHOP, admin, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.writeBackError).toBeTruthy();
    const fulfillments = fulfillmentsOf(emulators, draft.label.orderGid);
    expect(fulfillments.map((f) => f.trackingInfo.map((t) => t.number))).toEqual([["1ZBYHAND"]]);
    // Refused on the guard's figures: retried on a fresh read, not handed to the merchant yet.
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({
      status: "purchased",
      fulfillmentGid: null,
      writeBack: { status: "pending" },
    });
    // The fresh read finds nothing left to fulfil: now the merchant is told why.
    const retried = await retryPendingWriteBacks({ db, shop: SHOP, admin: emulators.shopify.graphql }, {});
    expect(retried.done).toEqual([]);
    const after = await findLabel(db, SHOP, draft.label.id);
    expect(after?.writeBack.status).toBe("failed");
    expect(after?.writeBack.lastError).toMatch(/nothing of .* remains/);
    expect(fulfillmentsOf(emulators, draft.label.orderGid)).toHaveLength(1);
  });
});
