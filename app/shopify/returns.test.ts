import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { createFulfillmentWithTracking } from "./fulfillments";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, OrderGid, ReturnGid } from "./ids";
import {
  approveReturnRequest,
  attachReturnLabel,
  readOrderReturns,
  type ShopifyReverseFulfillmentOrder,
} from "./returns";

// Against the Shopify emulator, which keeps returns as Shopify does (REQUESTED until approved, a
// reverse fulfillment order once OPEN) and answers the reverse delivery mutations' userErrors.
// #1017 (New York) has shipped 3 of its 4 mugs and its duvet; #1003 (Montréal) nothing yet.
const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

const MUG = "gid://shopify/LineItem/14100010170";
const LABEL = "https://labels.example.com/rtn_1.pdf";

function orderId(name: string): OrderGid {
  const order = emulator.findOrderByName(name);
  if (!order) throw new Error(`no ${name}`);
  return order.id as OrderGid;
}

/** #1003's items shipped to Canada, the way the app's label purchase fulfils them. */
async function ship1003() {
  const fo = emulator.findOrderByName("#1003")?.fulfillmentOrders[0];
  if (!fo) throw new Error("no fulfillment order on #1003");
  const shipped = await createFulfillmentWithTracking(emulator.graphql, {
    fulfillmentOrderId: fo.id as FulfillmentOrderGid,
    lineItems: fo.lineItems.map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.totalQuantity })),
    tracking: { company: "UPS", numbers: ["1Z999AA10123456784"], urls: [] },
    notifyCustomer: false,
  });
  if (!shipped.ok) throw new Error(shipped.error.logMessage);
}

async function approvedReturnOf(name: string): Promise<ShopifyReverseFulfillmentOrder> {
  const requested = emulator.requestReturn(orderId(name));
  const approved = await approveReturnRequest(emulator.graphql, requested.id as ReturnGid);
  if (!approved.ok) throw new Error(approved.error.logMessage);
  const [rfo] = approved.value.reverseFulfillmentOrders;
  if (!rfo) throw new Error("approved without a reverse fulfillment order");
  return rfo;
}

describe("readOrderReturns", () => {
  it("reads a requested return's items with what customs needs, and no label yet", async () => {
    await ship1003();
    const requested = emulator.requestReturn(orderId("#1003"), { reason: "SIZE_TOO_SMALL" });
    const result = await readOrderReturns(emulator.graphql, orderId("#1003"));
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.problems).toEqual([]);
    expect(result.value.returns).toEqual([
      {
        id: requested.id,
        name: "#1003-R1",
        status: "REQUESTED",
        items: [
          {
            returnLineItemId: expect.any(String),
            quantity: 1,
            lineItem: expect.objectContaining({
              title: "Merino Wool Crew Sweater",
              sku: expect.any(String),
              hsCode: "6110.11",
              countryOfOrigin: expect.any(String),
              weight: expect.objectContaining({ value: expect.any(Number) }),
              paidUnitPrice: {
                shop: { amount: "128.00", currencyCode: "USD" },
                presentment: { amount: "176.64", currencyCode: "CAD" },
              },
            }),
          },
          {
            returnLineItemId: expect.any(String),
            quantity: 1,
            lineItem: expect.objectContaining({ hsCode: "6912.00" }),
          },
        ],
        reverseFulfillmentOrders: [],
        hasLabel: false,
      },
    ]);
  });

  it("says which return already has a label", async () => {
    const rfo = await approvedReturnOf("#1017");
    const attached = await attachReturnLabel(emulator.graphql, {
      reverseFulfillmentOrderId: rfo.id,
      lineItems: rfo.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
      labelFileUrl: LABEL,
      trackingNumber: "9400111899223856412999",
      trackingUrl: null,
      notifyCustomer: true,
    });
    expect(attached.ok).toBe(true);
    const result = await readOrderReturns(emulator.graphql, orderId("#1017"));
    if (!result.ok) throw new Error(result.error.logMessage);
    const [ret] = result.value.returns;
    expect(ret).toMatchObject({
      status: "OPEN",
      hasLabel: true,
      reverseFulfillmentOrders: [
        {
          status: "OPEN",
          lineItems: [
            { lineItemId: MUG, quantity: 3 },
            { lineItemId: expect.any(String), quantity: 1 },
          ],
          reverseDeliveries: [{ labelUrl: LABEL, trackingNumber: "9400111899223856412999", trackingUrl: null }],
        },
      ],
    });
  });

  it("answers NOT_FOUND for an order Shopify does not have, and an empty list for one without returns", async () => {
    const missing = await readOrderReturns(emulator.graphql, "gid://shopify/Order/1" as OrderGid);
    expect(missing).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    const none = await readOrderReturns(emulator.graphql, orderId("#1001"));
    expect(none).toEqual({ ok: true, value: { orderId: orderId("#1001"), returns: [], problems: [] } });
  });
});

describe("approveReturnRequest", () => {
  it("opens a requested return with its reverse fulfillment order", async () => {
    const requested = emulator.requestReturn(orderId("#1017"), { lineItems: [{ lineItemId: MUG, quantity: 2 }] });
    const result = await approveReturnRequest(emulator.graphql, requested.id as ReturnGid);
    expect(result).toEqual({
      ok: true,
      value: {
        id: requested.id,
        status: "OPEN",
        reverseFulfillmentOrders: [
          {
            id: expect.stringMatching(/^gid:\/\/shopify\/ReverseFulfillmentOrder\//),
            status: "OPEN",
            lineItems: [{ id: expect.any(String), lineItemId: MUG, quantity: 2 }],
            reverseDeliveries: [],
          },
        ],
      },
    });
  });

  it("returns Shopify's refusal of a return that is no longer requested, in its words", async () => {
    const requested = emulator.requestReturn(orderId("#1017"));
    emulator.declineReturn(requested.id);
    const result = await approveReturnRequest(emulator.graphql, requested.id as ReturnGid);
    if (result.ok) throw new Error("expected a refusal");
    expect(result.error).toMatchObject({
      code: "USER_ERROR",
      fixable: true,
      message: expect.stringContaining("Only returns with status REQUESTED can be approved"),
      fields: [{ path: "input.id", message: expect.any(String) }],
    });
  });
});

describe("attachReturnLabel", () => {
  it("attaches the label file and tracking to the items, and Shopify emails the customer", async () => {
    const rfo = await approvedReturnOf("#1017");
    const [mugs] = rfo.lineItems;
    if (!mugs) throw new Error("no mugs");
    const result = await attachReturnLabel(emulator.graphql, {
      reverseFulfillmentOrderId: rfo.id,
      lineItems: [{ id: mugs.id, quantity: 3 }],
      labelFileUrl: LABEL,
      trackingNumber: "1Z999AA10123456784",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
      notifyCustomer: true,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        id: expect.stringMatching(/^gid:\/\/shopify\/ReverseDelivery\//),
        labelUrl: LABEL,
        trackingNumber: "1Z999AA10123456784",
        trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
        carrierName: "UPS",
      },
    });
    const ret = emulator.returns()[0]?.ret;
    expect(ret?.reverseFulfillmentOrders[0]?.reverseDeliveries).toEqual([
      expect.objectContaining({ customerNotified: true, lineItems: [expect.objectContaining({ quantity: 3 })] }),
    ]);
  });

  it("names the quantity Shopify refuses, and sends nothing without items", async () => {
    const rfo = await approvedReturnOf("#1017");
    const [mugs] = rfo.lineItems;
    if (!mugs) throw new Error("no mugs");
    const tooMany = await attachReturnLabel(emulator.graphql, {
      reverseFulfillmentOrderId: rfo.id,
      lineItems: [{ id: mugs.id, quantity: 4 }],
      labelFileUrl: LABEL,
      trackingNumber: null,
      trackingUrl: null,
      notifyCustomer: false,
    });
    expect(tooMany).toMatchObject({
      ok: false,
      error: { code: "USER_ERROR", fields: [{ path: "reverseDeliveryLineItems.0.quantity" }] },
    });
    const spent = emulator.queryCostSpent();
    const empty = await attachReturnLabel(emulator.graphql, {
      reverseFulfillmentOrderId: rfo.id,
      lineItems: [],
      labelFileUrl: LABEL,
      trackingNumber: null,
      trackingUrl: null,
      notifyCustomer: false,
    });
    expect(empty).toMatchObject({ ok: false, error: { code: "USER_ERROR", fields: [{ path: "lineItems" }] } });
    expect(emulator.queryCostSpent()).toBe(spent);
  });

  it("is refused once the return is cancelled", async () => {
    const rfo = await approvedReturnOf("#1017");
    emulator.cancelReturn(emulator.returns()[0]?.ret.id ?? "");
    const result = await attachReturnLabel(emulator.graphql, {
      reverseFulfillmentOrderId: rfo.id,
      lineItems: rfo.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
      labelFileUrl: LABEL,
      trackingNumber: null,
      trackingUrl: null,
      notifyCustomer: true,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "USER_ERROR", message: expect.stringContaining("must be open") },
    });
  });
});
