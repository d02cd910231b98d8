import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { saveShopSettings } from "~/settings/settings.server";
import { checkForDraft } from "~/shipments/check-shipment";
import { draftShipment } from "~/shipments/draft-shipment.server";
import type { ShippingClient } from "~/shipping/client.server";

import { createEmulators, DEMO_ORG, draftSeededOrder, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { listAuditEntries } from "./audit.server";
import { discardDraft } from "./discard-draft.server";
import { findLabel, listPendingWriteBacks } from "./label-repository.server";
import { purchase } from "./purchase.server";
import { retryPendingWriteBacks, writeTracking } from "./write-tracking.server";

const SHOP = TEST_LABEL_SHOP;

async function discardFirstDraft(client: ShippingClient) {
  const label = await db.label.findFirstOrThrow({ where: { shop: SHOP } });
  const discarded = await discardDraft({ db, shop: SHOP, shipping: client }, label.id);
  if (!discarded.ok || !discarded.value.discarded) throw new Error(`could not discard ${label.id}`);
}

describe("label lifecycle against both emulators", () => {
  it("takes a domestic order from quote to a fulfillment with tracking", async () => {
    const emulators = createEmulators();
    const { draft, rate, client, order } = await draftSeededOrder(db, emulators, "#1001", {
      pickRate: (rates) => rates.find((r) => r.service_code === "svc_usps_priority"),
    });
    expect(draft.existing).toBe(false);
    expect(draft.label).toMatchObject({
      status: "draft",
      carrier: "USPS",
      rateId: rate.rate_id,
      orderName: "#1001",
      packageCount: 1,
    });
    expect(draft.label.serviceLabelId).toMatch(/^lbl_/);
    expect(draft.label.quotedCents).toBeGreaterThan(0);

    const bought = await purchase({ db, shop: SHOP, shipping: client, staffMemberId: "42" }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value).toMatchObject({
      status: "purchased",
      chargedCents: draft.label.quotedCents,
      chargeMismatch: false,
      writeBack: { status: "pending" },
    });
    expect(bought.value.trackingNumbers).toHaveLength(1);
    expect(bought.value.labelUrl).toMatch(/lbl_/);
    expect(await listPendingWriteBacks(db, SHOP)).toHaveLength(1);

    const written = await writeTracking(
      { db, shop: SHOP, admin: emulators.shopify.graphql, staffMemberId: "42" },
      draft.label.id,
      {
        notifyCustomer: true,
      },
    );
    if (!written.ok) throw new Error(written.error.logMessage);
    expect(written.value).toMatchObject({ status: "fulfilled", writeBack: { status: "done" } });

    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.id).toBe(written.value.fulfillmentGid);
    expect(fulfillments[0]?.trackingInfo).toEqual([
      { company: "USPS", number: bought.value.trackingNumbers[0], url: bought.value.trackingUrl },
    ]);
    expect(fulfillments[0]?.notifyCustomer).toBe(true);
    expect(emulators.shopify.findOrderByName("#1001")?.fulfillmentOrders[0]?.status).toBe("CLOSED");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);

    const audit = await listAuditEntries(db, SHOP, { labelId: draft.label.id });
    // The charge and the fulfillment, each with the staff member who clicked.
    expect(audit).toEqual([
      expect.objectContaining({
        action: "purchase",
        outcome: "ok",
        amountCents: bought.value.chargedCents,
        orderGid: order.id,
        staffMemberId: "42",
      }),
      expect.objectContaining({ action: "fulfill", outcome: "ok", amountCents: null, staffMemberId: "42" }),
    ]);
    expect(audit[0]?.requestId).toMatch(/^req_/);
  });

  it("ships an international order with customs and writes back the carrier name Shopify knows", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1004", {
      pickRate: (rates) => rates.find((r) => r.carrier === "DHL"),
    });
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: false,
    });
    if (!written.ok) throw new Error(written.error.logMessage);
    const [fulfillment] = emulators.shopify.fulfillments().filter((f) => f.id === written.value.fulfillmentGid);
    expect(fulfillment?.trackingInfo[0]?.company).toBe("DHL Express");
    expect(fulfillment?.notifyCustomer).toBe(false);
  });

  it("ships a heavy order as one multi-piece UPS Ground label with a tracking number per box", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1012");
    expect(draft.label).toMatchObject({ serviceCode: "svc_ups_ground", packageCount: 2 });
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    expect(bought.value.trackingNumbers).toHaveLength(2);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    if (!written.ok) throw new Error(written.error.logMessage);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual(bought.value.trackingNumbers);
    expect(fulfillments[0]?.trackingInfo.every((t) => t.company === "UPS")).toBe(true);
  });

  it("fulfils only the remaining items of a partly fulfilled order", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1017");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    if (!written.ok) throw new Error(written.error.logMessage);
    const fulfillment = emulators.shopify.fulfillments().find((f) => f.id === written.value.fulfillmentGid);
    expect(fulfillment?.lineItems.map((l) => l.quantity)).toEqual([1, 2]);
  });

  it("returns the existing label for a second draft of the same fulfillment order", async () => {
    const emulators = createEmulators();
    const first = await draftSeededOrder(db, emulators, "#1001");
    const second = await draftSeededOrder(db, emulators, "#1001");
    expect(second.draft.existing).toBe(true);
    expect(second.draft.label.id).toBe(first.draft.label.id);
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("creates one draft when two requests draft the same fulfillment order at once", async () => {
    const emulators = createEmulators();
    const { input, client } = await draftSeededOrder(db, emulators, "#1002");
    await discardFirstDraft(client);
    const [a, b] = await Promise.all([
      draftShipment({ db, shop: SHOP, shipping: client }, input),
      draftShipment({ db, shop: SHOP, shipping: client }, input),
    ]);
    expect(a.ok && b.ok).toBe(true);
    expect(await db.label.count({ where: { shop: SHOP, activeKey: { not: null } } })).toBe(1);
    expect([a.ok && a.value.existing, b.ok && b.value.existing].filter(Boolean)).toHaveLength(1);
  });

  it("refuses a draft whose request has a blocking problem, and creates nothing", async () => {
    const emulators = createEmulators();
    const { prefilled, rate, client, facts } = await draftSeededOrder(db, emulators, "#1004");
    await discardFirstDraft(client);
    const request = { ...prefilled.request, to_address: { ...prefilled.request.to_address, phone: null } };
    // The pipeline's check refuses it: no draft request can be made, so nothing reaches the service.
    const result = checkForDraft(facts, { request, quote: rate, now: new Date() });
    expect(result.ok ? null : result.error.code).toBe("PREFLIGHT_BLOCKED");
    expect(await db.label.count({ where: { shop: SHOP, activeKey: { not: null } } })).toBe(0);
  });

  it("keeps labels of one shop invisible to another", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    expect(await findLabel(db, "other-shop.myshopify.com", draft.label.id)).toBeNull();
    const result = await purchase({ db, shop: "other-shop.myshopify.com", shipping: client }, draft.label.id);
    expect(result.ok ? null : result.error.code).toBe("NOT_FOUND");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(0);
  });

  it("shows a failed write-back as pending and finishes it on retry", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1003");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    emulators.shopify.failNextRequest("SERVICE_UNAVAILABLE");
    const failed = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {
      notifyCustomer: true,
    });
    expect(failed.ok).toBe(false);
    const pending = await findLabel(db, SHOP, draft.label.id);
    expect(pending).toMatchObject({ status: "purchased", writeBack: { status: "pending", attempts: 1 } });
    expect(pending?.writeBack.lastError).toBeTruthy();
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === draft.label.orderGid)).toHaveLength(0);

    // Without an explicit choice the shop's setting applies.
    await saveShopSettings(db, SHOP, { notifyCustomer: false });
    const retried = await retryPendingWriteBacks({ db, shop: SHOP, admin: emulators.shopify.graphql }, {});
    expect(retried.done.map((l) => l.id)).toEqual([draft.label.id]);
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === draft.label.orderGid);
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.notifyCustomer).toBe(false);
  });
});
