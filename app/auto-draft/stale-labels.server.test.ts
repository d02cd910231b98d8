import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { describeLabelProgress } from "~/labels/label-state";
import { purchase } from "~/labels/purchase.server";
import { shipToKeyOf } from "~/shipments/ship-to-key";
import type { FulfillmentOrderGid } from "~/shopify/ids";

import { createEmulators, DEMO_ORG, draftSeededOrder, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { listAutoDraftOutcomesForOrders } from "./auto-draft-outcomes.server";
import { recheckLabels } from "./stale-labels.server";

const SHOP = TEST_LABEL_SHOP;

// A draft made from Shopify's address, as the order page and auto-draft make them.
async function draftWithShipTo(emulators: ReturnType<typeof createEmulators>, name: string) {
  const drafted = await draftSeededOrder(db, emulators, name);
  const fo = drafted.order.fulfillmentOrders.find((f) => f.id === drafted.input.fulfillmentOrderGid) ?? null;
  await db.label.update({
    where: { id: drafted.draft.label.id },
    data: { shipToKey: shipToKeyOf(drafted.order, fo) },
  });
  return drafted;
}

function recheck(
  emulators: ReturnType<typeof createEmulators>,
  client: Parameters<typeof recheckLabels>[0]["shipping"],
  input: Partial<Parameters<typeof recheckLabels>[1]>,
) {
  const redrafted: string[] = [];
  const result = recheckLabels(
    {
      db,
      shop: SHOP,
      admin: emulators.shopify.graphql,
      shipping: client,
      redraft: async (gid) => void redrafted.push(gid),
    },
    { orderGids: [], fulfillmentOrderGids: [], ...input },
  );
  return { result, redrafted };
}

async function turnAutoDraftOn() {
  await db.shopSettings.upsert({
    where: { shop: SHOP },
    create: { shop: SHOP, autoDraft: true },
    update: { autoDraft: true },
  });
}

describe("re-checking labels after the order changed in Shopify", () => {
  it("leaves a draft alone when nothing it depends on changed", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftWithShipTo(emulators, "#1001");
    const { result } = recheck(emulators, client, { orderGids: [order.id] });
    expect(await result).toEqual({
      ok: true,
      value: { discarded: [], flagged: [], released: [], redrafted: [], unchanged: [draft.label.id] },
    });
    expect((await findLabel(db, SHOP, draft.label.id))?.status).toBe("draft");
  });

  it("marks a draft On hold while Shopify holds its shipment, and plain draft again once released", async () => {
    const emulators = createEmulators();
    const { draft, client, input } = await draftWithShipTo(emulators, "#1001");
    const fo = input.fulfillmentOrderGid;
    emulators.shopify.holdFulfillmentOrder(fo, "INCORRECT_ADDRESS");
    const held = await recheck(emulators, client, { fulfillmentOrderGids: [fo] }).result;
    expect(held).toMatchObject({ ok: true, value: { flagged: [{ labelId: draft.label.id, reason: "on_hold" }] } });
    const onHold = await findLabel(db, SHOP, draft.label.id);
    expect(onHold).toMatchObject({ status: "draft", attention: { reason: "on_hold" } });
    expect(onHold ? describeLabelProgress(onHold) : null).toBe("on_hold");

    emulators.shopify.releaseFulfillmentOrderHold(fo);
    const released = await recheck(emulators, client, { fulfillmentOrderGids: [fo] }).result;
    expect(released).toMatchObject({ ok: true, value: { released: [draft.label.id] } });
    const again = await findLabel(db, SHOP, draft.label.id);
    expect(again).toMatchObject({ status: "draft", attention: null });
    expect(again ? describeLabelProgress(again) : null).toBe("draft");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(0);
  });

  it("discards the draft of a cancelled order and flags its bought label, charging nothing more", async () => {
    const emulators = createEmulators();
    const drafted = await draftWithShipTo(emulators, "#1001");
    const bought = await draftWithShipTo(emulators, "#1016"); // two fulfillment orders: one bought
    expect((await purchase({ db, shop: SHOP, shipping: bought.client }, bought.draft.label.id)).ok).toBe(true);
    const charges = emulators.shipping.charges(DEMO_ORG).length;
    for (const name of ["#1001", "#1016"]) {
      const record = emulators.shopify.findOrderByName(name);
      if (!record) throw new Error(`no ${name}`);
      record.cancelledAt = new Date().toISOString();
    }

    const { result } = recheck(emulators, drafted.client, { orderGids: [drafted.order.id, bought.order.id] });

    expect(await result).toMatchObject({
      ok: true,
      value: {
        discarded: [drafted.draft.label.id],
        flagged: [{ labelId: bought.draft.label.id, reason: "order_cancelled" }],
      },
    });
    expect((await findLabel(db, SHOP, drafted.draft.label.id))?.status).toBe("voided");
    const flagged = await findLabel(db, SHOP, bought.draft.label.id);
    expect(flagged).toMatchObject({ status: "purchased", attention: { reason: "order_cancelled" } });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(charges);
  });

  it("discards a draft whose ship-to address changed and asks for a new automatic draft", async () => {
    const emulators = createEmulators();
    await turnAutoDraftOn();
    const { draft, client, order, input } = await draftWithShipTo(emulators, "#1001");
    const record = emulators.shopify.findOrderByName("#1001");
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    if (!record?.shippingAddress || !fo?.destination) throw new Error("no address on #1001");
    record.shippingAddress.address1 = "500 New Street";
    fo.destination.address1 = "500 New Street";

    const { result, redrafted } = recheck(emulators, client, { orderGids: [order.id] });

    expect(await result).toMatchObject({ ok: true, value: { discarded: [draft.label.id] } });
    expect(redrafted).toEqual([input.fulfillmentOrderGid]);
    expect((await findLabel(db, SHOP, draft.label.id))?.status).toBe("voided");
  });

  it("tells the merchant why a draft went when automatic drafts are off", async () => {
    const emulators = createEmulators();
    const { draft, client, order, input } = await draftWithShipTo(emulators, "#1001");
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    const record = emulators.shopify.findOrderByName("#1001");
    if (!record?.shippingAddress || !fo?.destination) throw new Error("no address on #1001");
    record.shippingAddress.zip = "10001";
    fo.destination.zip = "10001";

    const { result, redrafted } = recheck(emulators, client, { orderGids: [order.id] });

    expect(await result).toMatchObject({ ok: true, value: { discarded: [draft.label.id] } });
    expect(redrafted).toEqual([]);
    const [outcome] = await listAutoDraftOutcomesForOrders(db, SHOP, [order.id]);
    expect(outcome).toMatchObject({
      status: "blocked",
      problems: [{ path: "label", message: expect.stringMatching(/shipping address changed/) }],
    });
  });

  it("flags a bought label whose address changed instead of dropping it", async () => {
    const emulators = createEmulators();
    const { draft, client, order, input } = await draftWithShipTo(emulators, "#1001");
    expect((await purchase({ db, shop: SHOP, shipping: client }, draft.label.id)).ok).toBe(true);
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    if (!fo?.destination) throw new Error("no destination");
    fo.destination.city = "Hoboken";

    const { result } = recheck(emulators, client, { orderGids: [order.id] });

    expect(await result).toMatchObject({ ok: true, value: { flagged: [{ reason: "address_changed" }] } });
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({
      status: "purchased",
      attention: { reason: "address_changed" },
    });
  });

  it("discards the draft of a fulfillment order that was closed (moved or merged away), and drafts the new one", async () => {
    const emulators = createEmulators();
    await turnAutoDraftOn();
    const { draft, client, input } = await draftWithShipTo(emulators, "#1001");
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    if (!fo) throw new Error("no fulfillment order");
    fo.status = "CLOSED";
    const moved = "gid://shopify/FulfillmentOrder/999001" as FulfillmentOrderGid;

    const { result, redrafted } = recheck(emulators, client, {
      fulfillmentOrderGids: [input.fulfillmentOrderGid, moved],
    });

    expect(await result).toMatchObject({ ok: true, value: { discarded: [draft.label.id] } });
    expect(redrafted).toEqual([moved]);
  });

  it("discards a draft that ships more than the fulfillment order now holds (split)", async () => {
    const emulators = createEmulators();
    const { draft, client, input } = await draftWithShipTo(emulators, "#1001");
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    const line = fo?.lineItems[0];
    if (!line) throw new Error("no line");
    line.remainingQuantity = 0;

    const { result } = recheck(emulators, client, { fulfillmentOrderGids: [input.fulfillmentOrderGid] });

    expect(await result).toMatchObject({ ok: true, value: { discarded: [draft.label.id] } });
  });
});
