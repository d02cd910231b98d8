import { GraphQLEnumType } from "graphql";
import { beforeEach, describe, expect, it } from "vitest";

import { TRACKING_STATUSES } from "~/shipping/schemas";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { loadAdminSchema } from "../../emulator/shopify/schema";
import {
  createFulfillmentEvent,
  FULFILLMENT_EVENT_STATUSES,
  toShopifyFulfillmentEventStatus,
} from "./fulfillment-events";
import { createFulfillmentWithTracking } from "./fulfillments";
import type { FulfillmentGid, FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "./ids";

const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

async function shipOrder(name = "#1003"): Promise<FulfillmentGid> {
  const fo = emulator.findOrderByName(name)?.fulfillmentOrders[0];
  if (!fo) throw new Error(`seed has no fulfillment order on ${name}`);
  const created = await createFulfillmentWithTracking(emulator.graphql, {
    fulfillmentOrderId: fo.id as FulfillmentOrderGid,
    lineItems: fo.lineItems.map((l) => ({ id: l.id as FulfillmentOrderLineItemGid, quantity: l.remainingQuantity })),
    tracking: { company: "UPS", numbers: ["1Z999AA10123456784"], urls: [] },
    notifyCustomer: true,
  });
  if (!created.ok) throw new Error(created.error.logMessage);
  return created.value.id;
}

const UNKNOWN = "gid://shopify/Fulfillment/404" as FulfillmentGid;

describe("toShopifyFulfillmentEventStatus", () => {
  it.each([
    ["pre_transit", "LABEL_PURCHASED"],
    ["in_transit", "IN_TRANSIT"],
    ["out_for_delivery", "OUT_FOR_DELIVERY"],
    ["delivered", "DELIVERED"],
    ["attempted_delivery", "ATTEMPTED_DELIVERY"],
    ["exception", "DELAYED"],
    ["returned", "FAILURE"],
  ] as const)("shows the service's %s as Shopify's %s", (service, shopify) => {
    expect(toShopifyFulfillmentEventStatus(service)).toBe(shopify);
  });

  it("answers only values of Shopify's FulfillmentEventStatus, and knows all of them", () => {
    const type = loadAdminSchema().getType("FulfillmentEventStatus");
    if (!(type instanceof GraphQLEnumType)) throw new Error("schema has no FulfillmentEventStatus enum");
    const shopifyValues = type.getValues().map((v) => v.name);
    expect([...FULFILLMENT_EVENT_STATUSES].sort()).toEqual([...shopifyValues].sort());
    for (const status of TRACKING_STATUSES) {
      expect(shopifyValues).toContain(toShopifyFulfillmentEventStatus(status));
    }
  });
});

describe("createFulfillmentEvent", () => {
  it("adds the carrier's event to the fulfillment, which then shows as in transit", async () => {
    const fulfillmentId = await shipOrder();
    const result = await createFulfillmentEvent(emulator.graphql, {
      fulfillmentId,
      status: toShopifyFulfillmentEventStatus("in_transit"),
      happenedAt: "2026-11-23T08:12:00Z",
      estimatedDeliveryAt: "2026-11-25T00:00:00Z",
      message: "Departed facility",
      city: "LOUISVILLE",
      province: "KY",
      zip: "40209",
      country: "US",
    });
    expect(result).toEqual({
      ok: true,
      value: {
        id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentEvent\//),
        status: "IN_TRANSIT",
        happenedAt: "2026-11-23T08:12:00Z",
      },
    });
    expect(emulator.fulfillmentEvents(fulfillmentId)).toMatchObject([
      {
        status: "IN_TRANSIT",
        happenedAt: "2026-11-23T08:12:00Z",
        estimatedDeliveryAt: "2026-11-25T00:00:00Z",
        message: "Departed facility",
        city: "LOUISVILLE",
        province: "KY",
        zip: "40209",
        country: "US",
      },
    ]);
  });

  it("leaves out details the carrier did not give instead of sending blanks", async () => {
    const fulfillmentId = await shipOrder();
    const result = await createFulfillmentEvent(emulator.graphql, {
      fulfillmentId,
      status: "DELIVERED",
      happenedAt: "2026-11-24T15:30:00Z",
      message: "  ",
      city: null,
    });
    expect(result.ok).toBe(true);
    expect(emulator.fulfillmentEvents(fulfillmentId)).toMatchObject([
      { status: "DELIVERED", message: null, city: null, estimatedDeliveryAt: null },
    ]);
  });

  it("answers NOT_FOUND when Shopify says the fulfillment does not exist", async () => {
    const result = await createFulfillmentEvent(emulator.graphql, {
      fulfillmentId: UNKNOWN,
      status: "IN_TRANSIT",
      happenedAt: "2026-11-23T08:12:00Z",
    });
    expect(result).toMatchObject({ ok: false, error: { code: "NOT_FOUND", fixable: false } });
  });

  it("surfaces Shopify's other refusals as USER_ERROR with the field", async () => {
    const fulfillmentId = await shipOrder();
    const record = emulator.fulfillments()[0];
    if (!record) throw new Error("no fulfillment recorded");
    record.status = "CANCELLED";
    const result = await createFulfillmentEvent(emulator.graphql, {
      fulfillmentId,
      status: "IN_TRANSIT",
      happenedAt: "2026-11-23T08:12:00Z",
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "USER_ERROR", fields: [{ path: "fulfillmentEvent.fulfillmentId", message: /cancelled/ }] },
    });
  });

  it("answers a Shopify outage as a NETWORK_ERROR and records nothing", async () => {
    const fulfillmentId = await shipOrder();
    emulator.failNextRequest("SERVICE_UNAVAILABLE");
    const result = await createFulfillmentEvent(emulator.graphql, {
      fulfillmentId,
      status: "IN_TRANSIT",
      happenedAt: "2026-11-23T08:12:00Z",
    });
    expect(result).toMatchObject({ ok: false, error: { code: "NETWORK_ERROR" } });
    expect(emulator.fulfillmentEvents(fulfillmentId)).toEqual([]);
  });
});
