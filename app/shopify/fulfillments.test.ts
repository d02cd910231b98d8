import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { createFulfillmentWithTracking } from "./fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "./ids";

const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

function fulfillmentOrder(name: string, index = 0) {
  const fo = emulator.findOrderByName(name)?.fulfillmentOrders[index];
  if (!fo) throw new Error(`seed has no fulfillment order ${index} on ${name}`);
  return {
    ...fo,
    gid: fo.id as FulfillmentOrderGid,
    lineGids: fo.lineItems.map((l) => l.id as FulfillmentOrderLineItemGid),
    remaining: fo.lineItems
      .filter((l) => l.remainingQuantity > 0)
      .map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.remainingQuantity })),
  };
}

const UPS = {
  company: "UPS",
  numbers: ["1Z999AA10123456784"],
  urls: ["https://www.ups.com/track?tracknum=1Z999AA10123456784"],
};

describe("createFulfillmentWithTracking", () => {
  it("fulfils the items it is given with tracking and the customer notification", async () => {
    const fo = fulfillmentOrder("#1003");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: fo.remaining,
      tracking: UPS,
      notifyCustomer: true,
    });
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.trackingInfo).toEqual([{ company: "UPS", number: UPS.numbers[0], url: UPS.urls[0] }]);
    expect(emulator.fulfillments()).toMatchObject([
      { id: result.value.id, notifyCustomer: true, fulfillmentOrderIds: [fo.gid], trackingInfo: [{ company: "UPS" }] },
    ]);
    expect(emulator.findFulfillmentOrder(fo.gid)?.status).toBe("CLOSED");
  });

  it("omits the company for a carrier Shopify does not know, instead of naming it", async () => {
    const fo = fulfillmentOrder("#1003");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: fo.remaining,
      tracking: { ...UPS, company: null },
      notifyCustomer: false,
    });
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(emulator.fulfillments()[0]?.trackingInfo).toEqual([
      { company: null, number: UPS.numbers[0], url: UPS.urls[0] },
    ]);
  });

  it("refuses, before calling Shopify, to fulfil an empty item list (which Shopify reads as everything)", async () => {
    const fo = fulfillmentOrder("#1003");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: [],
      tracking: UPS,
      notifyCustomer: false,
    });
    expect(!result.ok && result.error.code).toBe("USER_ERROR");
    expect(emulator.fulfillments()).toHaveLength(0);
    expect(emulator.findFulfillmentOrder(fo.gid)?.status).toBe("OPEN");
  });

  it("fulfils chosen quantities with several tracking numbers (multi-piece)", async () => {
    const fo = fulfillmentOrder("#1012");
    const [kettlebells] = fo.lineGids;
    if (!kettlebells) throw new Error("seed: #1012 has no lines");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: [{ id: kettlebells, quantity: 2 }],
      tracking: { company: "UPS", numbers: ["1Z999AA10123456784", "1Z999AA10123456793"], urls: [] },
      notifyCustomer: false,
    });
    expect(result.ok && result.value.trackingInfo.map((t) => t.number)).toEqual([
      "1Z999AA10123456784",
      "1Z999AA10123456793",
    ]);
    expect(emulator.findFulfillmentOrder(fo.gid)?.status).toBe("IN_PROGRESS");
    expect(emulator.fulfillments()[0]?.notifyCustomer).toBe(false);
  });

  it("ships the remaining item of a partly fulfilled order", async () => {
    const fo = fulfillmentOrder("#1017");
    const [mugs] = fo.lineGids;
    if (!mugs) throw new Error("seed: #1017 has no lines");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: [{ id: mugs, quantity: 1 }],
      tracking: UPS,
      notifyCustomer: true,
    });
    expect(result.ok).toBe(true);
  });

  it("surfaces Shopify's userErrors for an unknown fulfillment order", async () => {
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: "gid://shopify/FulfillmentOrder/404" as FulfillmentOrderGid,
      lineItems: [{ id: "gid://shopify/FulfillmentOrderLineItem/404" as FulfillmentOrderLineItemGid, quantity: 1 }],
      tracking: UPS,
      notifyCustomer: true,
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "USER_ERROR",
        message: expect.stringMatching(/does not exist/),
        fields: [{ path: "fulfillment.lineItemsByFulfillmentOrder.0.fulfillmentOrderId" }],
      },
    });
    expect(emulator.fulfillments()).toEqual([]);
  });

  it("surfaces Shopify's userErrors for a closed fulfillment order", async () => {
    const closed = fulfillmentOrder("#1017", 1);
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: closed.gid,
      lineItems: closed.lineGids.map((id) => ({ id, quantity: 1 })),
      tracking: UPS,
      notifyCustomer: true,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "USER_ERROR", message: expect.stringMatching(/unfulfillable status= closed/) },
    });
  });

  it("surfaces Shopify's userErrors for a quantity above what remains", async () => {
    const fo = fulfillmentOrder("#1017");
    const [mugs] = fo.lineGids;
    if (!mugs) throw new Error("seed: #1017 has no lines");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: [{ id: mugs, quantity: 2 }],
      tracking: UPS,
      notifyCustomer: true,
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "USER_ERROR",
        fields: [{ path: "fulfillment.lineItemsByFulfillmentOrder.0.fulfillmentOrderLineItems.0.quantity" }],
      },
    });
    expect(emulator.findFulfillmentOrder(fo.gid)?.lineItems[0]?.remainingQuantity).toBe(1);
  });

  it("refuses tracking links without tracking numbers before calling Shopify", async () => {
    const fo = fulfillmentOrder("#1002");
    const result = await createFulfillmentWithTracking(emulator.graphql, {
      fulfillmentOrderId: fo.gid,
      lineItems: fo.remaining,
      tracking: { company: "UPS", numbers: [], urls: ["https://www.ups.com/track"] },
      notifyCustomer: true,
    });
    expect(result).toMatchObject({ ok: false, error: { code: "USER_ERROR", fields: [{ path: "tracking.numbers" }] } });
    expect(emulator.fulfillments()).toEqual([]);
  });
});
