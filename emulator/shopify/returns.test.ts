import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";
import { ShopifyEmulatorControlError } from "./store-mutations";

// Returns and reverse deliveries through GraphQL, as an app shipping return labels uses them.
// #1017 (domestic) has shipped 3 of its 4 mugs and its duvet; nothing else of the seed is shipped.
const emulator = createShopifyAdminEmulator({ now: () => Date.parse("2026-11-21T10:00:00Z") });
beforeEach(() => emulator.reset());

type Body = {
  data?: Record<string, Record<string, unknown> | null>;
  errors?: { message: string; extensions?: unknown }[];
};
async function run(query: string, variables: Record<string, unknown> = {}) {
  return (await (await emulator.graphql(query, { variables })).json()) as Body;
}

const MUG = "gid://shopify/LineItem/14100010170";
const DUVET = "gid://shopify/LineItem/14100010172";

function order1017() {
  const order = emulator.findOrderByName("#1017");
  if (!order) throw new Error("no #1017");
  return order;
}
const fulfillmentLineOf = (lineItemId: string) => {
  const line = order1017()
    .fulfillments.flatMap((f) => f.lineItems)
    .find((l) => l.lineItem.id === lineItemId);
  if (!line) throw new Error(`${lineItemId} not shipped`);
  return line.id;
};

const RETURN_FIELDS = `id name status
  returnLineItems(first: 5) { nodes { id quantity ... on ReturnLineItem { fulfillmentLineItem { id lineItem { id title } } } } }
  reverseFulfillmentOrders(first: 2) { nodes { id status lineItems(first: 5) { nodes { id totalQuantity fulfillmentLineItem { lineItem { id } } } } } }`;

const APPROVE = `mutation Approve($id: ID!) {
  returnApproveRequest(input: { id: $id }) { return { ${RETURN_FIELDS} } userErrors { field code message } }
}`;
const DECLINE = `mutation Decline($id: ID!) {
  returnDeclineRequest(input: { id: $id, declineReason: FINAL_SALE, declineNote: "Sale item" }) {
    return { id status decline { reason note } } userErrors { field code message }
  }
}`;
const CREATE = `mutation Create($input: ReturnInput!) {
  returnCreate(returnInput: $input) { return { ${RETURN_FIELDS} } userErrors { field code message } }
}`;
const DELIVERY_FIELDS = `id
  deliverable { ... on ReverseDeliveryShippingDeliverable { label { publicFileUrl } tracking { number url carrierName } } }
  reverseDeliveryLineItems(first: 10) { nodes { quantity reverseFulfillmentOrderLineItem { id } } }`;
const SHIP = `mutation Ship($rfo: ID!, $lines: [ReverseDeliveryLineItemInput!]!, $label: ReverseDeliveryLabelInput, $tracking: ReverseDeliveryTrackingInput, $notify: Boolean) {
  reverseDeliveryCreateWithShipping(reverseFulfillmentOrderId: $rfo, reverseDeliveryLineItems: $lines, labelInput: $label, trackingInput: $tracking, notifyCustomer: $notify) {
    reverseDelivery { ${DELIVERY_FIELDS} } userErrors { field code message }
  }
}`;
const UPDATE = `mutation Update($id: ID!, $label: ReverseDeliveryLabelInput, $tracking: ReverseDeliveryTrackingInput) {
  reverseDeliveryShippingUpdate(reverseDeliveryId: $id, labelInput: $label, trackingInput: $tracking) {
    reverseDelivery { ${DELIVERY_FIELDS} } userErrors { field code message }
  }
}`;
const ORDER_RETURNS = `query Returns($id: ID!) { order(id: $id) { returns(first: 5) { nodes { ${RETURN_FIELDS} } } } }`;

/** A customer's request for the 3 shipped mugs and the duvet, approved: its open reverse fulfillment order. */
async function openReturn() {
  const requested = emulator.requestReturn(order1017().id);
  const body = await run(APPROVE, { id: requested.id });
  const rfo = requested.reverseFulfillmentOrders[0];
  if (!rfo) throw new Error(`not approved: ${JSON.stringify(body)}`);
  return { ret: requested, rfo };
}

describe("a customer's return request", () => {
  it("is REQUESTED for every shipped item, without a reverse fulfillment order, and shows on the order", async () => {
    const ret = emulator.requestReturn(order1017().id, { reason: "DEFECTIVE" });
    expect(ret).toMatchObject({ name: "#1017-R1", status: "REQUESTED", reverseFulfillmentOrders: [] });
    const body = await run(ORDER_RETURNS, { id: order1017().id });
    expect(body.data?.order).toEqual({
      returns: {
        nodes: [
          {
            id: ret.id,
            name: "#1017-R1",
            status: "REQUESTED",
            returnLineItems: {
              nodes: [
                expect.objectContaining({
                  quantity: 3,
                  fulfillmentLineItem: expect.objectContaining({
                    lineItem: { id: MUG, title: "Hand-thrown Stoneware Mug" },
                  }),
                }),
                expect.objectContaining({
                  quantity: 1,
                  fulfillmentLineItem: expect.objectContaining({ lineItem: expect.objectContaining({ id: DUVET }) }),
                }),
              ],
            },
            reverseFulfillmentOrders: { nodes: [] },
          },
        ],
      },
    });
  });

  it("takes only what was shipped and not already being returned", () => {
    emulator.requestReturn(order1017().id, { lineItems: [{ lineItemId: MUG, quantity: 2 }] });
    const again = () => emulator.requestReturn(order1017().id, { lineItems: [{ lineItemId: MUG, quantity: 2 }] });
    expect(again).toThrow(ShopifyEmulatorControlError);
    expect(again).toThrow(/quantity must be 1 to 1/);
    // The fourth mug never shipped; #1001 shipped nothing.
    expect(() => emulator.requestReturn(emulator.findOrderByName("#1001")?.id ?? "")).toThrow(/nothing fulfilled/);
  });

  it("emits returns/request with Shopify's payload", () => {
    const ret = emulator.requestReturn(order1017().id, {
      lineItems: [{ lineItemId: MUG, quantity: 1 }],
      customerNote: "Chipped",
    });
    const [event] = emulator.webhookEvents();
    expect(event?.topic).toBe("returns/request");
    expect(event?.payload).toEqual({
      id: Number(ret.id.split("/").pop()),
      admin_graphql_api_id: ret.id,
      status: "requested",
      order: { id: 5829105017, admin_graphql_api_id: "gid://shopify/Order/5829105017" },
      total_return_line_items: 1,
      name: "#1017-R1",
      return_line_items: [
        {
          id: expect.any(Number),
          admin_graphql_api_id: expect.stringMatching(/^gid:\/\/shopify\/ReturnLineItem\//),
          fulfillment_line_item: {
            id: expect.any(Number),
            admin_graphql_api_id: fulfillmentLineOf(MUG),
            line_item: { id: 14100010170, admin_graphql_api_id: MUG },
          },
          quantity: 1,
          return_reason: "unwanted",
          return_reason_note: "",
          customer_note: "Chipped",
        },
      ],
      return_shipping_fees: [],
      exchange_line_items: [],
      total_exchange_line_items: 0,
    });
  });
});

describe("returnApproveRequest and returnDeclineRequest", () => {
  it("opens a requested return with a reverse fulfillment order of its items, and emits returns/approve", async () => {
    const ret = emulator.requestReturn(order1017().id);
    const body = await run(APPROVE, { id: ret.id });
    const approved = body.data?.returnApproveRequest;
    expect(approved?.userErrors).toEqual([]);
    expect(approved?.return).toMatchObject({
      status: "OPEN",
      reverseFulfillmentOrders: {
        nodes: [
          {
            status: "OPEN",
            lineItems: {
              nodes: [
                { totalQuantity: 3, fulfillmentLineItem: { lineItem: { id: MUG } } },
                { totalQuantity: 1, fulfillmentLineItem: { lineItem: { id: DUVET } } },
              ],
            },
          },
        ],
      },
    });
    expect(emulator.webhookEvents().map((e) => [e.topic, (e.payload as { status: string }).status])).toEqual([
      ["returns/request", "requested"],
      ["returns/approve", "open"],
    ]);
  });

  it("refuses to approve or decline a return that is not REQUESTED, or does not exist", async () => {
    const { ret } = await openReturn();
    const again = await run(APPROVE, { id: ret.id });
    expect(again.data?.returnApproveRequest).toEqual({
      return: null,
      userErrors: [{ field: ["input", "id"], code: "INVALID_STATE", message: expect.stringContaining("REQUESTED") }],
    });
    const decline = await run(DECLINE, { id: ret.id });
    expect(decline.data?.returnDeclineRequest).toMatchObject({ return: null, userErrors: [{ code: "INVALID_STATE" }] });
    const unknown = await run(APPROVE, { id: "gid://shopify/Return/1" });
    expect(unknown.data?.returnApproveRequest).toMatchObject({
      return: null,
      userErrors: [{ field: ["input", "id"], code: "NOT_FOUND" }],
    });
  });

  it("declines a requested return with the reason, gives its items back, and emits returns/decline", async () => {
    const ret = emulator.requestReturn(order1017().id, { lineItems: [{ lineItemId: MUG }] });
    const body = await run(DECLINE, { id: ret.id });
    expect(body.data?.returnDeclineRequest).toEqual({
      return: { id: ret.id, status: "DECLINED", decline: { reason: "FINAL_SALE", note: "Sale item" } },
      userErrors: [],
    });
    expect(emulator.webhookEvents().at(-1)).toMatchObject({
      topic: "returns/decline",
      payload: { status: "declined", decline: { reason: "final_sale", note: "Sale item" } },
    });
    // Declined items can be asked for again.
    expect(emulator.requestReturn(order1017().id, { lineItems: [{ lineItemId: MUG, quantity: 3 }] }).name).toBe(
      "#1017-R2",
    );
  });
});

describe("returnCreate", () => {
  it("makes the merchant's return OPEN at once, with its reverse fulfillment order", async () => {
    const body = await run(CREATE, {
      input: {
        orderId: order1017().id,
        returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineOf(DUVET), quantity: 1, returnReasonNote: "Torn" }],
      },
    });
    expect(body.data?.returnCreate).toMatchObject({
      return: { status: "OPEN", reverseFulfillmentOrders: { nodes: [{ status: "OPEN" }] } },
      userErrors: [],
    });
  });

  it("names the line and the rule a refused quantity breaks", async () => {
    const body = await run(CREATE, {
      input: {
        orderId: order1017().id,
        returnLineItems: [
          { fulfillmentLineItemId: fulfillmentLineOf(DUVET), quantity: 1 },
          { fulfillmentLineItemId: fulfillmentLineOf(MUG), quantity: 4 },
          { fulfillmentLineItemId: "gid://shopify/FulfillmentLineItem/1", quantity: 1 },
        ],
      },
    });
    expect(body.data?.returnCreate).toEqual({
      return: null,
      userErrors: [
        {
          field: ["returnInput", "returnLineItems", "1", "quantity"],
          code: "LESS_THAN_OR_EQUAL_TO",
          message: expect.stringContaining("(3)"),
        },
        {
          field: ["returnInput", "returnLineItems", "2", "fulfillmentLineItemId"],
          code: "NOT_FOUND",
          message: "Fulfillment line item does not exist.",
        },
      ],
    });
    expect(order1017().returns ?? []).toEqual([]);
  });
});

describe("reverseDeliveryCreateWithShipping", () => {
  it("attaches the label file and tracking to an open return's items", async () => {
    const { rfo } = await openReturn();
    const [mugs, duvet] = rfo.lineItems;
    const body = await run(SHIP, {
      rfo: rfo.id,
      lines: [{ reverseFulfillmentOrderLineItemId: mugs?.id, quantity: 2 }],
      label: { fileUrl: "https://labels.example.com/rtn_1.pdf" },
      tracking: { number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z999AA10123456784" },
    });
    expect(body.data?.reverseDeliveryCreateWithShipping).toEqual({
      reverseDelivery: {
        id: expect.stringMatching(/^gid:\/\/shopify\/ReverseDelivery\//),
        deliverable: {
          label: { publicFileUrl: "https://labels.example.com/rtn_1.pdf" },
          tracking: {
            number: "1Z999AA10123456784",
            url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
            carrierName: "UPS",
          },
        },
        reverseDeliveryLineItems: { nodes: [{ quantity: 2, reverseFulfillmentOrderLineItem: { id: mugs?.id } }] },
      },
      userErrors: [],
    });
    expect(rfo.reverseDeliveries[0]?.customerNotified).toBe(true);

    // An empty list takes what no delivery carries yet: the third mug and the duvet.
    const rest = await run(SHIP, { rfo: rfo.id, lines: [], notify: false });
    expect(rest.data?.reverseDeliveryCreateWithShipping).toMatchObject({
      reverseDelivery: {
        deliverable: { label: null, tracking: null },
        reverseDeliveryLineItems: {
          nodes: [
            { quantity: 1, reverseFulfillmentOrderLineItem: { id: mugs?.id } },
            { quantity: 1, reverseFulfillmentOrderLineItem: { id: duvet?.id } },
          ],
        },
      },
      userErrors: [],
    });
  });

  it("refuses quantities beyond the reverse fulfillment order, lines of another, and a bad label URL", async () => {
    const { rfo } = await openReturn();
    const [mugs] = rfo.lineItems;
    const body = await run(SHIP, {
      rfo: rfo.id,
      lines: [
        { reverseFulfillmentOrderLineItemId: mugs?.id, quantity: 4 },
        { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/1", quantity: 1 },
        { reverseFulfillmentOrderLineItemId: mugs?.id, quantity: 1 },
      ],
      label: { fileUrl: "labels/rtn_1.pdf" },
    });
    expect(body.data?.reverseDeliveryCreateWithShipping).toEqual({
      reverseDelivery: null,
      userErrors: [
        {
          field: ["reverseDeliveryLineItems", "0", "quantity"],
          code: "LESS_THAN_OR_EQUAL_TO",
          message: expect.any(String),
        },
        {
          field: ["reverseDeliveryLineItems", "1", "reverseFulfillmentOrderLineItemId"],
          code: "NOT_FOUND",
          message: expect.any(String),
        },
        {
          field: ["reverseDeliveryLineItems", "2", "reverseFulfillmentOrderLineItemId"],
          code: "TAKEN",
          message: expect.any(String),
        },
        { field: ["labelInput", "fileUrl"], code: "INVALID", message: "File url is invalid." },
      ],
    });
    expect(rfo.reverseDeliveries).toEqual([]);
  });

  it("requires the return to be open", async () => {
    const { ret, rfo } = await openReturn();
    emulator.cancelReturn(ret.id);
    const body = await run(SHIP, { rfo: rfo.id, lines: [] });
    expect(body.data?.reverseDeliveryCreateWithShipping).toEqual({
      reverseDelivery: null,
      userErrors: [
        { field: ["reverseFulfillmentOrderId"], code: "INVALID_STATE", message: expect.stringContaining("canceled") },
      ],
    });
    expect(emulator.webhookEvents().at(-1)).toMatchObject({
      topic: "returns/cancel",
      payload: { admin_graphql_api_id: ret.id, order_id: 5829105017, status: "canceled" },
    });
    const unknown = await run(SHIP, { rfo: "gid://shopify/ReverseFulfillmentOrder/1", lines: [] });
    expect(unknown.data?.reverseDeliveryCreateWithShipping).toMatchObject({ userErrors: [{ code: "NOT_FOUND" }] });
  });
});

describe("reverseDeliveryShippingUpdate", () => {
  it("replaces the tracking and keeps the label it is not given", async () => {
    const { rfo } = await openReturn();
    const created = await run(SHIP, {
      rfo: rfo.id,
      lines: [],
      label: { fileUrl: "https://labels.example.com/rtn_1.pdf" },
      tracking: { number: "OLD1" },
    });
    const id = (created.data?.reverseDeliveryCreateWithShipping?.reverseDelivery as { id: string }).id;
    const body = await run(UPDATE, { id, tracking: { number: "9400111899223856412999" } });
    expect(body.data?.reverseDeliveryShippingUpdate).toMatchObject({
      reverseDelivery: {
        id,
        deliverable: {
          label: { publicFileUrl: "https://labels.example.com/rtn_1.pdf" },
          tracking: { number: "9400111899223856412999", url: null, carrierName: null },
        },
      },
      userErrors: [],
    });
    const unknown = await run(UPDATE, { id: "gid://shopify/ReverseDelivery/1", tracking: { number: "X" } });
    expect(unknown.data?.reverseDeliveryShippingUpdate).toEqual({
      reverseDelivery: null,
      userErrors: [{ field: ["reverseDeliveryId"], code: "NOT_FOUND", message: "Reverse delivery does not exist." }],
    });
  });
});

describe("reading returns", () => {
  it("answers return(id:), reverseFulfillmentOrder(id:) and reverseDelivery(id:), and costs like other fields", async () => {
    const { ret, rfo } = await openReturn();
    const body = await run(
      `query One($r: ID!, $f: ID!) {
        return(id: $r) { name order { name } totalQuantity }
        reverseFulfillmentOrder(id: $f) { id order { name } reverseDeliveries(first: 5) { nodes { id } } }
      }`,
      { r: ret.id, f: rfo.id },
    );
    expect(body.data).toEqual({
      return: { name: "#1017-R1", order: { name: "#1017" }, totalQuantity: 4 },
      reverseFulfillmentOrder: { id: rfo.id, order: { name: "#1017" }, reverseDeliveries: { nodes: [] } },
    });
    const response = await emulator.graphql(ORDER_RETURNS, { variables: { id: order1017().id } });
    const cost = ((await response.json()) as { extensions: { cost: { requestedQueryCost: number } } }).extensions.cost;
    // Connections cost 2 + first × their node, objects 1: order 1 + returns (2 + 5 × (return 1
    // + lines (2 + 5 × 3) + reverse fulfillment orders (2 + 2 × (1 + lines (2 + 5 × 3))))) = 283.
    expect(cost.requestedQueryCost).toBe(283);
  });
});

describe("access scopes", () => {
  it("denies returns to an app without read_returns, and their mutations without write_returns", async () => {
    const limited = createShopifyAdminEmulator({ accessScopes: ["read_orders", "read_returns"] });
    const ret = limited.requestReturn(limited.findOrderByName("#1017")?.id ?? "");
    const read = (await (await limited.graphql(ORDER_RETURNS, { variables: { id: ret.orderId } })).json()) as Body;
    expect(read.errors).toBeUndefined();
    const approve = (await (await limited.graphql(APPROVE, { variables: { id: ret.id } })).json()) as Body;
    expect(approve.data?.returnApproveRequest).toBeNull();
    expect(approve.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^Access denied for returnApproveRequest field\. Required access: `write_returns`/,
        ),
        extensions: expect.objectContaining({ code: "ACCESS_DENIED" }),
      }),
    ]);
    expect(ret.status).toBe("REQUESTED");

    const ordersOnly = createShopifyAdminEmulator({ accessScopes: ["read_orders"] });
    ordersOnly.requestReturn(ordersOnly.findOrderByName("#1017")?.id ?? "");
    const denied = (await (
      await ordersOnly.graphql(`query($id: ID!) { order(id: $id) { name returns(first: 5) { nodes { id } } } }`, {
        variables: { id: ret.orderId },
      })
    ).json()) as Body;
    expect(denied.data).toEqual({ order: null });
    expect(denied.errors?.[0]?.message).toMatch(/Access denied for returns field.*`read_returns`/);

    // write_returns implies read_returns, as on Shopify.
    const writer = createShopifyAdminEmulator({ accessScopes: ["read_orders", "write_returns"] });
    const ok = (await (await writer.graphql(ORDER_RETURNS, { variables: { id: ret.orderId } })).json()) as Body;
    expect(ok.errors).toBeUndefined();
  });
});

describe("the demo store's returns", () => {
  it("has a customer's request on a shipped domestic and a shipped international order of its history", () => {
    const demo = createShopifyAdminEmulator({ generatedOrders: 300 });
    const requested = demo.returns().map(({ orderName, ret }) => {
      const order = demo.findOrderByName(orderName);
      return {
        orderNumber: Number(orderName.slice(1)),
        status: ret.status,
        country: order?.shippingAddress?.countryCodeV2,
        shipped: order?.fulfillments.length,
      };
    });
    expect(requested).toEqual([
      { orderNumber: expect.any(Number), status: "REQUESTED", country: expect.not.stringMatching(/^US$/), shipped: 1 },
      { orderNumber: expect.any(Number), status: "REQUESTED", country: "US", shipped: 1 },
    ]);
    // History only: the scenario orders (#1001 on) keep their scenarios.
    expect(requested.every((r) => r.orderNumber < 1001)).toBe(true);
    expect(demo.webhookEvents()).toEqual([]);
  });
});
