import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";
import { ShopifyEmulatorControlError } from "./store-mutations";

// The store changes made outside the app: what the app's queries see afterwards, and the webhook
// events each emits. One emulator for the file (the schema is the slow part), reset per test.
const NOW = Date.parse("2026-11-22T10:00:00Z");
const emulator = createShopifyAdminEmulator({ now: () => NOW });
beforeEach(() => emulator.reset());

async function run(query: string, variables?: Record<string, unknown>) {
  const response = await emulator.graphql(query, variables ? { variables } : undefined);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = (await response.json()) as { data?: Record<string, any>; errors?: { message: string }[] };
  expect(body.errors).toBeUndefined();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return body.data as Record<string, any>;
}

// The shapes of the app's documents: the Orders screen's list, an order for a label, one FO.
const ORDERS_LIST = `query List($query: String) {
  orders(first: 5, query: $query, sortKey: CREATED_AT, reverse: true) {
    nodes { id name createdAt displayFulfillmentStatus cancelledAt }
  }
}`;
const ORDER_FOR_LABEL = `query Order($id: ID!) {
  order(id: $id) {
    name email cancelledAt cancelReason closed displayFinancialStatus displayFulfillmentStatus
    shippingAddress { firstName lastName address1 city provinceCode zip countryCodeV2 phone }
    lineItems(first: 10) { nodes { id sku quantity currentQuantity unfulfilledQuantity
      variant { inventoryItem { harmonizedSystemCode countryCodeOfOrigin measurement { weight { value unit } } } } } }
    fulfillmentOrders(first: 10, displayable: true) { nodes {
      id status
      supportedActions { action }
      assignedLocation { name location { id } }
      deliveryMethod { methodType }
      destination { firstName address1 city zip countryCode phone }
      fulfillmentHolds { reason reasonNotes }
      lineItems(first: 10) { nodes { id totalQuantity remainingQuantity lineItem { id } } }
    } }
  }
}`;
const FULFILLMENT_ORDER = `query FO($id: ID!) {
  fulfillmentOrder(id: $id) { id status orderName assignedLocation { name } lineItems(first: 10) { nodes { remainingQuantity } } }
}`;
const UNFULFILLED = "status:open fulfillment_status:unfulfilled delivery_method:shipping";

const topicsOf = (events: { topic: string }[]) => events.map((e) => e.topic);

function orderId(name: string): string {
  const order = emulator.findOrderByName(name);
  if (!order) throw new Error(`no order ${name}`);
  return order.id;
}

function foId(name: string, index = 0): string {
  const fo = emulator.findOrderByName(name)?.fulfillmentOrders[index];
  if (!fo) throw new Error(`no fulfillment order ${index} on ${name}`);
  return fo.id;
}

describe("createOrder", () => {
  it("places a paid, unfulfilled domestic order after the highest number, first in the app's list at once", async () => {
    // The list is read (and indexed) before the order exists: the new one must still show up.
    expect((await run(ORDERS_LIST, { query: UNFULFILLED })).orders.nodes[0].name).not.toBe("#1023");
    const { order, fulfillmentOrders } = emulator.createOrder();
    expect(order.name).toBe("#1023");
    expect(fulfillmentOrders).toHaveLength(1);

    const list = (await run(ORDERS_LIST, { query: UNFULFILLED })).orders.nodes;
    expect(list[0]).toMatchObject({ id: order.id, name: "#1023", displayFulfillmentStatus: "UNFULFILLED" });
    // After the newest seeded order even though the clock reads only a little later.
    expect(Date.parse(list[0].createdAt)).toBeGreaterThan(Date.parse(list[1].createdAt));

    const detail = (await run(ORDER_FOR_LABEL, { id: order.id })).order;
    expect(detail).toMatchObject({
      displayFinancialStatus: "PAID",
      cancelledAt: null,
      cancelReason: null,
      shippingAddress: { countryCodeV2: "US" },
    });
    expect(detail.lineItems.nodes.length).toBeGreaterThan(0);
    for (const line of detail.lineItems.nodes) expect(line.variant.inventoryItem.measurement.weight).not.toBeNull();
    expect(detail.fulfillmentOrders.nodes).toEqual([
      expect.objectContaining({
        status: "OPEN",
        assignedLocation: expect.objectContaining({ name: "Brooklyn Warehouse" }),
        deliveryMethod: { methodType: "SHIPPING" },
        supportedActions: expect.arrayContaining([{ action: "CREATE_FULFILLMENT" }]),
      }),
    ]);
    const fo = (await run(FULFILLMENT_ORDER, { id: fulfillmentOrders[0]?.id })).fulfillmentOrder;
    expect(fo).toMatchObject({ status: "OPEN", orderName: "#1023" });

    expect(emulator.createOrder().order.name).toBe("#1024");
  });

  it("numbers after the highest order of a store with generated history", () => {
    const bigger = createShopifyAdminEmulator({ generatedOrders: 1200 });
    // 1,200 generated orders are numbered after #1022 (#1023–#2222).
    expect(bigger.createOrder().order.name).toBe("#2223");
  });

  it("emits orders/create with the REST order, then order_routing_complete for its fulfillment order", () => {
    const { order, fulfillmentOrders } = emulator.createOrder({ kind: "domestic" });
    const events = emulator.webhookEvents();
    expect(topicsOf(events)).toEqual(["orders/create", "fulfillment_orders/order_routing_complete"]);
    const numeric = Number(order.id.split("/").pop());
    expect(events[0]?.payload).toMatchObject({
      id: numeric,
      admin_graphql_api_id: order.id,
      name: "#1023",
      email: order.email,
      cancelled_at: null,
      cancel_reason: null,
      financial_status: "paid",
      fulfillment_status: null,
      currency: "USD",
      total_price: order.totalPriceSet.shopMoney.amount,
      shipping_address: {
        first_name: order.shippingAddress?.firstName,
        country_code: "US",
        province_code: order.shippingAddress?.provinceCode,
        zip: order.shippingAddress?.zip,
      },
    });
    const lines = (events[0]?.payload as { line_items: Record<string, unknown>[] }).line_items;
    // The domestic kind ships two mugs (450 g each) and a dripper (380 g).
    expect(lines).toEqual([
      expect.objectContaining({ title: "Hand-thrown Stoneware Mug", quantity: 2, sku: "HP-MUG-SLATE", grams: 450 }),
      expect.objectContaining({ title: "Ceramic Pour-Over Dripper", quantity: 1, sku: "AK-DRIPPER-02", grams: 380 }),
    ]);
    expect(lines[0]).toMatchObject({
      id: Number(order.lineItems[0]?.id.split("/").pop()),
      admin_graphql_api_id: order.lineItems[0]?.id,
    });
    expect(events[1]?.payload).toEqual({ fulfillment_order: { id: fulfillmentOrders[0]?.id, status: "open" } });
    expect(events[0]?.eventId).not.toBe(events[1]?.eventId);
    expect(events[0]?.triggeredAt).toBe(new Date(NOW).toISOString());
  });

  it("makes international orders customs-ready: an address abroad with a phone, HS codes and origins", async () => {
    const { order } = emulator.createOrder({ kind: "international" });
    const detail = (await run(ORDER_FOR_LABEL, { id: order.id })).order;
    expect(["CA", "GB"]).toContain(detail.shippingAddress.countryCodeV2);
    expect(detail.shippingAddress.phone).toMatch(/^\+\d{10,}$/);
    for (const line of detail.lineItems.nodes) {
      expect(line.variant.inventoryItem).toMatchObject({
        harmonizedSystemCode: expect.stringMatching(/^\d{4}\.\d{2}$/),
        countryCodeOfOrigin: expect.stringMatching(/^[A-Z]{2}$/),
        measurement: { weight: expect.objectContaining({ value: expect.any(Number) }) },
      });
    }
  });

  it("repeats the seed's #1014 problem for the problem kind: a product without weight or HS code", async () => {
    const { order } = emulator.createOrder({ kind: "problem" });
    const lines = (await run(ORDER_FOR_LABEL, { id: order.id })).order.lineItems.nodes;
    expect(lines.some((l: { sku: string }) => l.sku === "HP-TOTE-NAT")).toBe(true);
    expect(lines.find((l: { sku: string }) => l.sku === "HP-TOTE-NAT").variant.inventoryItem).toMatchObject({
      harmonizedSystemCode: null,
      measurement: { weight: null },
    });
  });

  it("refuses an unknown kind without placing anything", () => {
    expect(() => emulator.createOrder({ kind: "express" as never })).toThrow(ShopifyEmulatorControlError);
    expect(emulator.findOrderByName("#1023")).toBeUndefined();
    expect(emulator.webhookEvents()).toEqual([]);
  });
});

describe("cancelOrder", () => {
  it("cancels and closes the order and its open fulfillment orders, and the open-orders search drops it", async () => {
    const id = orderId("#1016");
    expect((await run(ORDERS_LIST, { query: "name:#1016 status:open" })).orders.nodes).toHaveLength(1);
    emulator.cancelOrder(id, "INVENTORY");
    const detail = (await run(ORDER_FOR_LABEL, { id })).order;
    expect(detail).toMatchObject({ cancelledAt: new Date(NOW).toISOString(), cancelReason: "INVENTORY", closed: true });
    // API 2026-10: cancelled before anything shipped, the order needs no fulfillment.
    expect(detail.displayFulfillmentStatus).toBe("FULFILLMENT_NOT_REQUIRED");
    expect(detail.fulfillmentOrders.nodes.map((fo: { status: string }) => fo.status)).toEqual(["CLOSED", "CLOSED"]);
    expect(detail.fulfillmentOrders.nodes[0].supportedActions).toEqual([]);
    expect(detail.lineItems.nodes.every((l: { currentQuantity: number }) => l.currentQuantity === 0)).toBe(true);
    expect((await run(ORDERS_LIST, { query: "name:#1016 status:open" })).orders.nodes).toEqual([]);
    expect((await run(ORDERS_LIST, { query: "name:#1016 status:cancelled" })).orders.nodes).toHaveLength(1);
  });

  it("emits orders/cancelled, orders/updated and fulfillment_orders/cancelled for each fulfillment order it closed", () => {
    // #1017: one fulfillment order already CLOSED, one IN_PROGRESS; only the second is cancelled.
    const id = orderId("#1017");
    const inProgress = foId("#1017", 0);
    emulator.cancelOrder(id);
    const events = emulator.webhookEvents();
    expect(topicsOf(events)).toEqual(["orders/cancelled", "orders/updated", "fulfillment_orders/cancelled"]);
    expect(events[0]?.payload).toMatchObject({
      admin_graphql_api_id: id,
      name: "#1017",
      cancelled_at: new Date(NOW).toISOString(),
      cancel_reason: "customer",
      updated_at: new Date(NOW).toISOString(),
      fulfillment_status: "partial",
    });
    expect(events[2]?.payload).toEqual({
      fulfillment_order: { id: inProgress, status: "closed" },
      replacement_fulfillment_order: null,
    });
  });

  it("refuses to cancel an order twice or one that does not exist", () => {
    emulator.cancelOrder(orderId("#1001"));
    expect(() => emulator.cancelOrder(orderId("#1001"))).toThrow(/already cancelled/);
    expect(() => emulator.cancelOrder("999")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
  });
});

describe("updateShippingAddress", () => {
  it("changes the order's address and its open fulfillment orders' destination, and emits orders/updated", async () => {
    const id = orderId("#1001");
    emulator.updateShippingAddress(id, { address1: "1600 Chicago Ave", address2: "Apt 3", zip: "60201" });
    const detail = (await run(ORDER_FOR_LABEL, { id })).order;
    expect(detail.shippingAddress).toMatchObject({ address1: "1600 Chicago Ave", city: "Evanston", zip: "60201" });
    expect(detail.fulfillmentOrders.nodes[0].destination).toMatchObject({
      firstName: "Emily",
      address1: "1600 Chicago Ave",
      zip: "60201",
    });
    const events = emulator.webhookEvents();
    expect(topicsOf(events)).toEqual(["orders/updated"]);
    expect(events[0]?.payload).toMatchObject({
      admin_graphql_api_id: id,
      shipping_address: {
        first_name: "Emily",
        last_name: "Carter",
        name: "Emily Carter",
        address1: "1600 Chicago Ave",
        address2: "Apt 3",
        city: "Evanston",
        province_code: "IL",
        zip: "60201",
        country: "United States",
        country_code: "US",
      },
    });
  });

  it("names the country from a new country code and renames the customer", async () => {
    const id = orderId("#1001");
    emulator.updateShippingAddress(id, {
      firstName: "Em",
      address1: "10 Downing St",
      city: "London",
      province: null,
      provinceCode: null,
      zip: "SW1A 2AA",
      countryCode: "GB",
    });
    const address = (await run(ORDER_FOR_LABEL, { id })).order.shippingAddress;
    expect(address).toMatchObject({ firstName: "Em", countryCodeV2: "GB", provinceCode: null });
    expect(emulator.findOrderByName("#1001")?.shippingAddress).toMatchObject({
      name: "Em Carter",
      country: "United Kingdom",
    });
  });

  it("refuses unknown fields and orders picked up in store, changing nothing", () => {
    const id = orderId("#1001");
    expect(() => emulator.updateShippingAddress(id, { street: "x" } as never)).toThrow(/Unknown address fields street/);
    expect(() => emulator.updateShippingAddress(orderId("#1018"), { zip: "11211" })).toThrow(/no shipping address/);
    expect(emulator.webhookEvents()).toEqual([]);
  });
});

describe("holds", () => {
  it("holds a fulfillment order (ON_HOLD, the reason recorded) and releases it back to OPEN", async () => {
    const id = orderId("#1002");
    const fo = foId("#1002");
    emulator.holdFulfillmentOrder(fo, "INCORRECT_ADDRESS", "Customer is checking the suite number");
    let node = (await run(ORDER_FOR_LABEL, { id })).order.fulfillmentOrders.nodes[0];
    expect(node).toMatchObject({
      status: "ON_HOLD",
      supportedActions: [{ action: "RELEASE_HOLD" }],
      fulfillmentHolds: [{ reason: "INCORRECT_ADDRESS", reasonNotes: "Customer is checking the suite number" }],
    });
    emulator.releaseFulfillmentOrderHold(fo);
    node = (await run(ORDER_FOR_LABEL, { id })).order.fulfillmentOrders.nodes[0];
    expect(node).toMatchObject({ status: "OPEN", fulfillmentHolds: [] });

    const events = emulator.webhookEvents();
    expect(topicsOf(events)).toEqual(["fulfillment_orders/placed_on_hold", "fulfillment_orders/hold_released"]);
    expect(events[0]?.payload).toEqual({ fulfillment_order: { id: fo, status: "on_hold" } });
    expect(events[1]?.payload).toEqual({ fulfillment_order: { id: fo, status: "open" } });
  });

  it("releases a hold on a partly shipped fulfillment order back to IN_PROGRESS", () => {
    const fo = foId("#1017", 0);
    emulator.holdFulfillmentOrder(fo);
    expect(emulator.releaseFulfillmentOrderHold(fo).status).toBe("IN_PROGRESS");
  });

  it("refuses to release a fulfillment order that is not on hold, or to hold a closed one", () => {
    expect(() => emulator.releaseFulfillmentOrderHold(foId("#1001"))).toThrow(
      expect.objectContaining({ code: "CONFLICT" }),
    );
    expect(() => emulator.holdFulfillmentOrder(foId("#1017", 1))).toThrow(/CLOSED and cannot be held/);
  });
});

describe("moveFulfillmentOrder", () => {
  it("closes the original and opens a new fulfillment order with the lines at the new location", async () => {
    const id = orderId("#1001");
    const original = foId("#1001");
    const reno = emulator.state().locations[1]?.id ?? "";
    // Read first, so the emulator's indexes exist before the move and must be dropped by it.
    expect((await run(FULFILLMENT_ORDER, { id: original })).fulfillmentOrder.status).toBe("OPEN");
    const { movedFulfillmentOrder } = emulator.moveFulfillmentOrder(original, reno);
    expect((await run(FULFILLMENT_ORDER, { id: movedFulfillmentOrder.id })).fulfillmentOrder).toMatchObject({
      status: "OPEN",
      orderName: "#1001",
      assignedLocation: { name: "Reno Fulfillment Center" },
    });

    const shown = (await run(ORDER_FOR_LABEL, { id })).order.fulfillmentOrders.nodes;
    // The original is hidden from the merchant (nothing had shipped from it), like the seed's #1022.
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      id: movedFulfillmentOrder.id,
      status: "OPEN",
      assignedLocation: { name: "Reno Fulfillment Center", location: { id: reno } },
      destination: expect.objectContaining({ firstName: "Emily", city: "Evanston" }),
    });
    expect(movedFulfillmentOrder.id).not.toBe(original);
    expect(shown[0].lineItems.nodes.map((l: { totalQuantity: number }) => l.totalQuantity)).toEqual([2, 1]);
    expect((await run(FULFILLMENT_ORDER, { id: original })).fulfillmentOrder).toMatchObject({
      status: "CLOSED",
      assignedLocation: { name: "Brooklyn Warehouse" },
      lineItems: { nodes: [{ remainingQuantity: 0 }, { remainingQuantity: 0 }] },
    });
    // Still waiting to ship: the order stays in the app's list.
    const list = (await run(ORDERS_LIST, { query: `${UNFULFILLED} name:#1001` })).orders.nodes;
    expect(list).toHaveLength(1);
  });

  it("emits fulfillment_orders/moved with both fulfillment orders, the source location and the lines", () => {
    const original = emulator.findOrderByName("#1001")?.fulfillmentOrders[0];
    const [brooklyn, reno] = emulator.state().locations;
    const { movedFulfillmentOrder } = emulator.moveFulfillmentOrder(original?.id ?? "", reno?.id ?? "");
    const events = emulator.webhookEvents();
    expect(topicsOf(events)).toEqual(["fulfillment_orders/moved"]);
    expect(events[0]?.payload).toEqual({
      original_fulfillment_order: { id: original?.id, status: "closed", assigned_location_id: brooklyn?.id },
      moved_fulfillment_order: { id: movedFulfillmentOrder.id, status: "open", assigned_location_id: reno?.id },
      destination: { id: movedFulfillmentOrder.id, status: "open" },
      destination_location_id: reno?.id,
      source_location: { id: brooklyn?.id },
      fulfillment_order_line_items_requested: original?.lineItems.map((l) => ({ id: l.id, quantity: l.totalQuantity })),
    });
  });

  it("moves only what is left of a partly shipped fulfillment order, which keeps what it shipped", async () => {
    // #1017's Brooklyn FO: 4 mugs (3 shipped) and 2 drippers (none shipped).
    const original = foId("#1017", 0);
    const reno = emulator.state().locations[1]?.id ?? "";
    const { movedFulfillmentOrder } = emulator.moveFulfillmentOrder(original, reno);
    expect(movedFulfillmentOrder.lineItems.map((l) => [l.totalQuantity, l.remainingQuantity])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const detail = (await run(ORDER_FOR_LABEL, { id: orderId("#1017") })).order;
    expect(detail.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    const kept = detail.fulfillmentOrders.nodes.find((fo: { id: string }) => fo.id === original);
    expect(kept.status).toBe("CLOSED");
    expect(kept.lineItems.nodes.map((l: { totalQuantity: number }) => l.totalQuantity)).toEqual([3, 0]);
  });

  it("refuses a move to where the fulfillment order already is, or to an unknown location", () => {
    const [brooklyn] = emulator.state().locations;
    expect(() => emulator.moveFulfillmentOrder(foId("#1001"), brooklyn?.id ?? "")).toThrow(/already at/);
    expect(() => emulator.moveFulfillmentOrder(foId("#1001"), "123")).toThrow(
      expect.objectContaining({ code: "NOT_FOUND" }),
    );
  });
});

describe("markScheduledFulfillmentOrderReady", () => {
  it("opens a scheduled fulfillment order and emits scheduled_fulfillment_order_ready", async () => {
    const fo = emulator.findOrderByName("#1003")?.fulfillmentOrders[0];
    if (!fo) throw new Error("no fulfillment order on #1003");
    fo.status = "SCHEDULED";
    expect((await run(FULFILLMENT_ORDER, { id: fo.id })).fulfillmentOrder.status).toBe("SCHEDULED");
    emulator.markScheduledFulfillmentOrderReady(fo.id);
    expect((await run(FULFILLMENT_ORDER, { id: fo.id })).fulfillmentOrder.status).toBe("OPEN");
    expect(emulator.webhookEvents().map((e) => [e.topic, e.payload])).toEqual([
      ["fulfillment_orders/scheduled_fulfillment_order_ready", { fulfillment_order: { id: fo.id, status: "open" } }],
    ]);
    expect(() => emulator.markScheduledFulfillmentOrderReady(fo.id)).toThrow(/not scheduled/);
  });
});

describe("reset", () => {
  it("forgets created orders and emitted events", () => {
    emulator.createOrder();
    emulator.reset();
    expect(emulator.findOrderByName("#1023")).toBeUndefined();
    expect(emulator.webhookEvents()).toEqual([]);
    expect(emulator.createOrder().order.name).toBe("#1023");
  });
});
