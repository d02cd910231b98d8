import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { purchase } from "~/labels/purchase.server";
import { applyVoidDecision, requestLabelVoid } from "~/labels/void-label.server";
import { writeTracking } from "~/labels/write-tracking.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { Rate } from "~/shipping/schemas";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LocationGid, OrderGid, ReturnGid } from "~/shopify/ids";
import { attachReturnLabel } from "~/shopify/returns";

import {
  createEmulators,
  createTestShippingClient,
  DEMO_ORG,
  TEST_LABEL_SHOP as SHOP,
} from "../../test/helpers/labels";
import { checkReturn, checkReturnForDraft } from "./check-shipment";
import { draftShipment } from "./draft-shipment.server";
import {
  approveReturn,
  buyReturnLabel,
  type LoadedReturn,
  loadReturns,
  quoteReturn,
  returnOf,
} from "./return-shipment.server";

// Return labels through the one pipeline (ADR 23), judged by what the emulators recorded: charges
// at the shipping service, reverse deliveries on the return at Shopify.

type Emulators = ReturnType<typeof createEmulators>;
const NOW = new Date("2026-11-20T15:00:00Z");

function orderOf(emulators: Emulators, name: string) {
  const order = emulators.shopify.findOrderByName(name);
  if (!order) throw new Error(`no ${name}`);
  return order;
}

/** Ships every item of the order, as a label purchase would, so the customer can return them. */
async function shipAll(emulators: Emulators, name: string) {
  for (const fo of orderOf(emulators, name).fulfillmentOrders) {
    const lines = fo.lineItems.filter((l) => l.remainingQuantity > 0);
    if (lines.length === 0) continue;
    const shipped = await createFulfillmentWithTracking(emulators.shopify.graphql, {
      fulfillmentOrderId: fo.id as FulfillmentOrderGid,
      lineItems: lines.map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.remainingQuantity })),
      tracking: { company: "UPS", numbers: [`1Z${fo.id.replace(/\D/g, "").slice(-10)}`], urls: [] },
      notifyCustomer: false,
    });
    if (!shipped.ok) throw new Error(shipped.error.logMessage);
  }
}

async function requestedReturn(name: string, emulators = createEmulators()) {
  await shipAll(emulators, name);
  const orderGid = orderOf(emulators, name).id as OrderGid;
  const ret = emulators.shopify.requestReturn(orderGid, { reason: "SIZE_TOO_SMALL" });
  const client = createTestShippingClient(emulators.shipping);
  const deps = { db, shop: SHOP, admin: emulators.shopify.graphql, shipping: client };
  return { emulators, deps, client, orderGid, returnGid: ret.id as ReturnGid };
}

async function loadOne(
  deps: { db: typeof db; shop: string; admin: Emulators["shopify"]["graphql"] },
  orderGid: OrderGid,
  returnGid: ReturnGid,
) {
  const loaded = await loadReturns(deps, orderGid);
  if (!loaded.ok) throw new Error(loaded.error.logMessage);
  return returnOf(loaded.value, returnGid);
}

async function approvedReturn(name: string, emulators = createEmulators()) {
  const requested = await requestedReturn(name, emulators);
  const approved = await approveReturn(requested.deps, requested.returnGid);
  if (!approved.ok) throw new Error(approved.error.logMessage);
  const facts = await loadOne(requested.deps, requested.orderGid, requested.returnGid);
  if (!facts.ok) throw new Error(facts.error.logMessage);
  const quoted = await quoteReturn({ ...requested.deps, shipping: requested.client }, facts.value, {});
  if (!quoted.ok) throw new Error(quoted.error.logMessage);
  const rate = [...quoted.value.rates].sort((a, b) => Number(a.amount) - Number(b.amount))[0];
  if (!rate) throw new Error("no rate for the return");
  return { ...requested, facts: facts.value, rate };
}

/** The return's draft, made as another tab (or the page before) would make it. */
async function draftReturn(client: ShippingClient, facts: LoadedReturn, quote: Rate) {
  const ready = checkReturnForDraft(facts, { quote, now: NOW });
  if (!ready.ok) throw new Error(ready.error.logMessage);
  const drafted = await draftShipment({ db, shop: SHOP, shipping: client }, ready.value);
  if (!drafted.ok) throw new Error(drafted.error.logMessage);
  return drafted.value;
}

const deliveriesOf = (emulators: Emulators, returnGid: string) =>
  emulators.shopify
    .returns()
    .filter(({ ret }) => ret.id === returnGid)
    .flatMap(({ ret }) => ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.reverseDeliveries));

describe("return labels", () => {
  it("offers nothing to buy on a requested return until it is approved", async () => {
    const { deps, orderGid, returnGid, emulators } = await requestedReturn("#1003");
    const facts = await loadOne(deps, orderGid, returnGid);
    expect(facts).toMatchObject({ ok: false, error: { code: "INVALID_STATE" } });
    if (!facts.ok) expect(facts.error.message).toMatch(/approve it/);
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("turns an international return around: from the customer to the shop, customs as returned goods", async () => {
    const { facts } = await approvedReturn("#1003");
    const check = checkReturn(facts);
    const { request } = check.prefilled;
    expect(request.from_address?.country).toBe("CA");
    expect(request.to_address?.country).toBe("US");
    expect(request.to_address?.name).toBe(facts.shopAndLocations.shop.name);
    expect(request.customs?.contents_type).toBe("returned_goods");
    expect(request.reference).toBe(facts.ret.name);
    expect(check.prefilled.lineItems.map((l) => l.id)).toEqual(
      facts.reverseFulfillmentOrder.lineItems.map((l) => l.id),
    );
  });

  it("sends the return to the location the merchant chooses", async () => {
    const { facts } = await approvedReturn("#1003");
    const other = facts.shopAndLocations.locations.find(
      (l) => l.isActive && l.id !== checkReturn(facts).prefilled.returnLocationId && l.address.address1,
    );
    if (!other) throw new Error("the emulated shop should have a second location");
    const check = checkReturn({ ...facts, returnLocationId: other.id });
    expect(check.prefilled.returnLocationId).toBe(other.id);
    expect(check.prefilled.request.to_address?.street1).toBe(other.address.address1);
    expect(check.prefilled.request.from_address?.country).toBe("CA");
    // A location that is not the shop's is refused, naming the choice.
    const refused = returnOf(facts.loaded, facts.ret.id, "gid://shopify/Location/4242" as LocationGid);
    expect(refused).toMatchObject({ ok: false, error: { code: "INVALID_STATE" } });
    if (!refused.ok) expect(refused.error.message).toMatch(/^Send it back to:/);
  });

  it("buys once, and attaches the label and its tracking to the return in Shopify", async () => {
    const { emulators, deps, client, facts, rate, returnGid } = await approvedReturn("#1003");
    const input = { quote: rate, edits: {}, notifyCustomer: true, now: NOW };
    // Two clicks at once (two tabs): one purchase, one reverse delivery.
    const [first, second] = await Promise.all([
      buyReturnLabel({ ...deps, shipping: client }, facts, input),
      buyReturnLabel({ ...deps, shipping: client }, facts, input),
    ]);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok) return;
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    const label = await findLabel(db, SHOP, first.value.label.id);
    expect(label).toMatchObject({ kind: "return", returnGid, status: "fulfilled" });
    const deliveries = deliveriesOf(emulators, returnGid);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      id: label?.fulfillmentGid,
      label: { fileUrl: label?.labelUrl },
      tracking: { number: label?.trackingNumbers[0] },
      customerNotified: true,
    });
    expect(deliveries[0]?.lineItems.map((l) => l.quantity)).toEqual(label?.lineItems.map((l) => l.quantity));
  });

  it("lets the second of two clicks wait for the first one's draft, then answer the one label", async () => {
    const { emulators, deps, client, facts, rate, returnGid } = await approvedReturn("#1003");
    // The first click's draft is held at the service until the second click has found it being made.
    let entered = () => {};
    let release = () => {};
    const drafting = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding: ShippingClient = {
      ...client,
      createDraftLabel: async (...args) => {
        entered();
        await held;
        return client.createDraftLabel(...args);
      },
    };
    const input = { quote: rate, edits: {}, notifyCustomer: false, now: NOW };
    const first = buyReturnLabel({ ...deps, shipping: holding }, facts, input);
    await drafting;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      release();
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const second = await buyReturnLabel({ ...deps, shipping: holding, sleep }, facts, input);
    release();
    const firstResult = await first;
    expect(waits.length).toBeGreaterThan(0);
    expect(second.ok ? null : second.error).toBeNull();
    expect(firstResult.ok ? null : firstResult.error).toBeNull();
    if (!second.ok || !firstResult.ok) return;
    expect(second.value.label.id).toBe(firstResult.value.label.id);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(deliveriesOf(emulators, returnGid)).toHaveLength(1);
  });

  it("never buys a draft another tab made with another service, and says so", async () => {
    const { emulators, deps, client, facts, rate, returnGid } = await approvedReturn("#1003");
    const quoted = await quoteReturn({ ...deps, shipping: client }, facts, {});
    if (!quoted.ok) throw new Error(quoted.error.logMessage);
    const other = quoted.value.rates.find((r) => r.service_code !== rate.service_code);
    if (!other) throw new Error("the return should have a second service");
    // Another tab drafted with `other` after this page loaded its facts (which show no label).
    const drafted = await draftReturn(client, facts, other);
    expect(facts.activeLabel).toBeNull();
    const bought = await buyReturnLabel({ ...deps, shipping: client }, facts, {
      quote: rate,
      edits: {},
      notifyCustomer: false,
      now: NOW,
    });
    expect(bought).toMatchObject({ ok: false, error: { code: "INVALID_STATE" } });
    if (!bought.ok) expect(bought.error.message).toMatch(/another label meanwhile.*Nothing was bought/);
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
    expect(deliveriesOf(emulators, returnGid)).toEqual([]);
    expect(await findLabel(db, SHOP, drafted.label.id)).toMatchObject({ status: "draft", rateId: other.rate_id });
  });

  it("refuses to spend once the return was cancelled in Shopify after its draft was made", async () => {
    const { emulators, deps, client, facts, rate, returnGid } = await approvedReturn("#1017");
    await draftReturn(client, facts, rate);
    emulators.shopify.cancelReturn(returnGid);
    const bought = await buyReturnLabel({ ...deps, shipping: client }, facts, {
      quote: rate,
      edits: {},
      notifyCustomer: false,
      now: NOW,
    });
    expect(bought).toMatchObject({ ok: false, error: { code: "NOT_FULFILLABLE" } });
    if (!bought.ok) expect(bought.error.message).toMatch(/canceled in Shopify.*Nothing was bought/);
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
    expect(deliveriesOf(emulators, returnGid)).toEqual([]);
  });

  it("adopts the reverse delivery Shopify made when its answer was lost, and never attaches twice", async () => {
    const { emulators, client, facts, rate, returnGid } = await approvedReturn("#1017");
    const drafted = await draftReturn(client, facts, rate as Rate);
    const bought = await purchase({ db, shop: SHOP, shipping: client }, drafted.label.id);
    if (!bought.ok || bought.value.kind !== "return" || !bought.value.labelUrl) throw new Error("not bought");
    // Shopify took the attachment, but its answer never reached the app.
    const lost = await attachReturnLabel(emulators.shopify.graphql, {
      reverseFulfillmentOrderId: bought.value.fulfillmentOrderGid,
      lineItems: bought.value.lineItems,
      labelFileUrl: bought.value.labelUrl,
      trackingNumber: bought.value.trackingNumbers[0] ?? null,
      trackingUrl: null,
      notifyCustomer: false,
    });
    if (!lost.ok) throw new Error(lost.error.logMessage);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, bought.value.id, {});
    expect(written).toMatchObject({ ok: true, value: { status: "fulfilled", fulfillmentGid: lost.value.id } });
    expect(deliveriesOf(emulators, returnGid)).toHaveLength(1);
  });

  it("voids a return label once from two places, refunds it once, and leaves Shopify's return as it was", async () => {
    const { emulators, deps, client, facts, rate, returnGid } = await approvedReturn("#1003");
    const bought = await buyReturnLabel({ ...deps, shipping: client }, facts, {
      quote: rate,
      edits: {},
      notifyCustomer: false,
      now: NOW,
    });
    if (!bought.ok || !bought.value.label.serviceLabelId) throw new Error("not bought");
    const voidDeps = { db, shop: SHOP, shipping: client, admin: emulators.shopify.graphql };
    const asked = await Promise.all([
      requestLabelVoid(voidDeps, bought.value.label.id),
      requestLabelVoid(voidDeps, bought.value.label.id),
    ]);
    expect(asked.every((a) => a.ok)).toBe(true);
    // The carrier refunds; the event and the recovery job's read-back bring it at the same time.
    await emulators.shipping.decideVoid(bought.value.label.serviceLabelId, "refunded");
    const [decided] = await Promise.all(
      [1, 2].map(() =>
        applyVoidDecision(voidDeps, bought.value.label.serviceLabelId ?? "", {
          outcome: "refunded",
          refundCents: null,
        }),
      ),
    );
    expect(decided).toMatchObject({
      ok: true,
      value: { status: "voided", void: { status: "refunded", shopify: null } },
    });
    expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);
    // Shopify has no way to take a label off a return: the reverse delivery stays as it was.
    expect(deliveriesOf(emulators, returnGid)).toHaveLength(1);
    expect(emulators.shopify.fulfillments().filter((f) => f.status === "CANCELLED")).toEqual([]);
  });
});
