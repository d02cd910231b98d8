import { describe, expect, it } from "vitest";

import { recheckLabels } from "~/auto-draft/stale-labels.server";
import db from "~/db.server";
import { loadHomeScreen } from "~/routes/app._index/home.server";
import { listShopLabels } from "~/routes/app.labels/label-list.server";
import { toLabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import { saveShopSettings } from "~/settings/settings.server";
import { buyLabel } from "~/shipments/buy-label.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

import {
  createEmulators,
  DEMO_ORG,
  draftSeededOrder,
  readAtTheService,
  TEST_LABEL_SHOP as SHOP,
} from "../../test/helpers/labels";
import { listAuditEntries } from "./audit.server";
import { AUTO_VOID_NOTE } from "./held-purchase.server";
import { findLabel } from "./label-repository.server";
import { applyVoidDecision, requestLabelVoid } from "./void-label.server";
import { retryPendingWriteBacks } from "./write-tracking.server";

// Issue 40, item 3: a hold (or a cancellation) placed on the shipment in the instant between the
// spend guard's read and the purchase is paid for: Shopify offers no reservation to close that
// window. The label is then flagged "Bought for a held order" at once, on the order page, the
// Labels list and the home page, with a void in one click; it is voided on its own only when the
// shop turned that on in Settings. Judged by what the emulators recorded: the charge and the refund
// at the shipping service, the fulfillment order's state and fulfillments at Shopify.

type Emulators = ReturnType<typeof createEmulators>;

/** Shopify's Admin API, with `inTheWindow` run right after the spend guard's read is answered. */
function adminWithAWindow(emulators: Emulators, inTheWindow: () => void): AdminGraphqlClient {
  let done = false;
  return async (query, options) => {
    const response = await emulators.shopify.graphql(query, options);
    if (!done && query.includes("FulfillmentOrderGuard")) {
      done = true;
      inTheWindow();
    }
    return response;
  };
}

async function buyWhileShopifyHolds(name: string, inTheWindow: (emulators: Emulators, foGid: string) => void) {
  const emulators = createEmulators();
  const { draft, client, order } = await draftSeededOrder(db, emulators, name);
  const foGid = draft.label.fulfillmentOrderGid;
  const admin = adminWithAWindow(emulators, () => inTheWindow(emulators, foGid));
  const bought = await buyLabel({ db, shop: SHOP, admin, shipping: client }, draft.label.id, { notifyCustomer: false });
  if (!bought.ok) throw new Error(bought.error.logMessage);
  return { emulators, client, order, foGid, labelId: draft.label.id, bought: bought.value };
}

const hold = (emulators: Emulators, foGid: string) =>
  emulators.shopify.holdFulfillmentOrder(foGid, "HIGH_RISK_OF_FRAUD", "Card flagged");

const fulfillmentsOf = (emulators: Emulators, orderId: string) =>
  emulators.shopify.fulfillments().filter((f) => f.orderId === orderId && f.status === "SUCCESS");

describe("a label paid for in the instant Shopify held its shipment", () => {
  it("is charged once and flagged 'Bought for a held order' at once, on the order page, the Labels list and the home page; nothing is voided on its own", async () => {
    const { emulators, order, foGid, labelId, bought } = await buyWhileShopifyHolds("#1001", hold);

    // The shipping service charged it once; Shopify holds the shipment and has no fulfillment.
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shopify.findFulfillmentOrder(foGid)?.status).toBe("ON_HOLD");
    expect(fulfillmentsOf(emulators, order.id)).toEqual([]);
    expect(bought.writeBackError).toMatch(/^Bought for a held order: Shopify put this shipment on hold/);

    const label = await findLabel(db, SHOP, labelId);
    expect(label).toMatchObject({
      status: "purchased",
      attention: { reason: "bought_while_held" },
      writeBack: { status: "failed" },
      void: null,
    });
    if (!label) throw new Error("no label");
    // The order page names the flag (its banner offers the void).
    expect(toLabelSummary(label)).toMatchObject({ attentionReason: "bought_while_held" });
    // The Labels list's filter and its row.
    const list = await listShopLabels(db, SHOP, { filter: "bought_while_held" });
    expect(list.counts.bought_while_held).toBe(1);
    expect(list.items.map((i) => [i.id, i.boughtWhileHeld, i.voidBlocker])).toEqual([[labelId, true, null]]);
    // Home's "Needs attention": the label, with what its void gives back.
    const home = await loadHomeScreen({ db, shop: SHOP, admin: emulators.shopify.graphql }, { now: new Date() });
    expect(home.heldPurchases).toEqual({
      count: 1,
      labels: [
        expect.objectContaining({
          labelId,
          orderName: "#1001",
          refundCents: emulators.shipping.charges(DEMO_ORG)[0]?.amountCents,
        }),
      ],
    });
    // Off by default: no void was asked, no refund.
    expect(emulators.shipping.refunds(DEMO_ORG)).toEqual([]);
    expect(await readAtTheService(emulators.shipping, label.serviceLabelId)).toMatchObject({ status: "purchased" });
  });

  it("is voided in one click: the charge comes back once the carrier confirms, and the flag leaves every list", async () => {
    const { emulators, client, labelId } = await buyWhileShopifyHolds("#1001", hold);
    const [charge] = emulators.shipping.charges(DEMO_ORG);
    const deps = { db, shop: SHOP, admin: emulators.shopify.graphql, shipping: client, staffMemberId: "staff-1" };

    const voided = await requestLabelVoid(deps, labelId);
    if (!voided.ok) throw new Error(voided.error.logMessage);
    expect(voided.value).toMatchObject({ status: "void_pending", void: { refundCents: charge?.amountCents } });
    const serviceLabelId = voided.value.serviceLabelId ?? "";
    await emulators.shipping.decideVoid(serviceLabelId, "refunded");
    await applyVoidDecision(deps, serviceLabelId, { outcome: "refunded", refundCents: charge?.amountCents ?? null });

    expect(emulators.shipping.refunds(DEMO_ORG).map((r) => r.amountCents)).toEqual([charge?.amountCents]);
    expect((await listShopLabels(db, SHOP, { filter: "bought_while_held" })).items).toEqual([]);
    const home = await loadHomeScreen({ db, shop: SHOP, admin: emulators.shopify.graphql }, { now: new Date() });
    expect(home.heldPurchases.count).toBe(0);
  });

  it("is voided on its own when Settings asks, and the audit trail says nobody clicked", async () => {
    expect((await saveShopSettings(db, SHOP, { autoVoidHeldPurchases: true })).ok).toBe(true);
    const { emulators, labelId, bought } = await buyWhileShopifyHolds("#1001", hold);

    expect(bought.label).toMatchObject({ id: labelId, status: "void_pending" });
    expect(bought.writeBackError).toMatch(/voided on its own/);
    const label = await findLabel(db, SHOP, labelId);
    // The service took the void: its record is void_pending, the refund on its way.
    expect(await readAtTheService(emulators.shipping, label?.serviceLabelId ?? null)).toMatchObject({
      status: "void_pending",
      refund: { status: "pending" },
    });
    const voids = (await listAuditEntries(db, SHOP, { labelId })).filter((e) => e.action === "void");
    expect(voids).toEqual([
      expect.objectContaining({ staffMemberId: null, detail: expect.stringContaining(AUTO_VOID_NOTE) }),
    ]);
    await emulators.shipping.decideVoid(label?.serviceLabelId ?? "", "refunded");
    expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  });

  it("is flagged the same when the order is cancelled in that instant", async () => {
    const { emulators, order, labelId } = await buyWhileShopifyHolds("#1002", (e) => {
      const found = e.shopify.findOrderByName("#1002");
      if (!found) throw new Error("no #1002");
      e.shopify.cancelOrder(found.id);
    });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(fulfillmentsOf(emulators, order.id)).toEqual([]);
    expect(await findLabel(db, SHOP, labelId)).toMatchObject({ attention: { reason: "bought_while_held" } });
  });

  it("sends its tracking once Shopify releases the hold, and the flag goes", async () => {
    const { emulators, order, foGid, labelId } = await buyWhileShopifyHolds("#1001", hold);
    emulators.shopify.releaseFulfillmentOrderHold(foGid);
    // fulfillment_orders/hold_released re-checks the shipment's labels.
    const rechecked = await recheckLabels(
      { db, shop: SHOP, admin: emulators.shopify.graphql, shipping: null, redraft: async () => {} },
      { orderGids: [], fulfillmentOrderGids: [foGid] },
    );
    expect(rechecked.ok && rechecked.value.released).toEqual([labelId]);
    const retried = await retryPendingWriteBacks({ db, shop: SHOP, admin: emulators.shopify.graphql }, {});
    expect(retried.done.map((l) => l.id)).toEqual([labelId]);
    expect(await findLabel(db, SHOP, labelId)).toMatchObject({ status: "fulfilled", attention: null });
    expect(fulfillmentsOf(emulators, order.id)).toHaveLength(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shipping.refunds(DEMO_ORG)).toEqual([]);
  });
});
