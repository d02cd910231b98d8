import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";
import { startShopifyAdminEmulatorServer } from "./server";
import { ShopifyEmulatorControlError } from "./store-mutations";

// fulfillmentEventCreate and what a fulfillment shows of its events: the events connection,
// displayStatus, inTransitAt, deliveredAt, estimatedDeliveryAt, and the read-only JSON.

let clock = Date.parse("2026-11-23T12:00:00.250Z");
const emulator = createShopifyAdminEmulator({ now: () => clock });
beforeEach(() => {
  clock = Date.parse("2026-11-23T12:00:00.250Z");
  emulator.reset();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = { data?: Record<string, any>; errors?: { message: string }[]; extensions?: { cost: any } };

async function run(query: string, variables?: Record<string, unknown>): Promise<Body> {
  const response = await emulator.graphql(query, variables ? { variables } : undefined);
  return (await response.json()) as Body;
}

const CREATE_EVENT = `mutation CreateEvent($event: FulfillmentEventInput!) {
  fulfillmentEventCreate(fulfillmentEvent: $event) {
    fulfillmentEvent { id status happenedAt createdAt estimatedDeliveryAt message city province zip country }
    userErrors { field message }
  }
}`;

const FULFILLMENT = `query Fulfillment($id: ID!, $sortKey: FulfillmentEventSortKeys, $reverse: Boolean, $after: String) {
  fulfillment(id: $id) {
    displayStatus
    inTransitAt
    deliveredAt
    estimatedDeliveryAt
    events(first: 2, sortKey: $sortKey, reverse: $reverse, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { id status happenedAt }
    }
  }
}`;

async function createFulfillment(orderName = "#1003"): Promise<string> {
  const fo = emulator.findOrderByName(orderName)?.fulfillmentOrders[0];
  if (!fo) throw new Error(`seed: no fulfillment order on ${orderName}`);
  const body = await run(
    `mutation($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { message } } }`,
    {
      f: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }],
        trackingInfo: { company: "UPS", numbers: ["1Z999AA10123456784"] },
      },
    },
  );
  const id: unknown = body.data?.fulfillmentCreate.fulfillment?.id;
  if (typeof id !== "string") throw new Error(`fulfillmentCreate failed: ${JSON.stringify(body)}`);
  return id;
}

const addEvent = (fulfillmentId: string, event: Record<string, unknown>) =>
  run(CREATE_EVENT, { event: { fulfillmentId, ...event } });

describe("fulfillmentEventCreate", () => {
  it("records a tracking event with its place and estimate, and the fulfillment shows it in transit", async () => {
    const id = await createFulfillment();
    const body = await addEvent(id, {
      status: "IN_TRANSIT",
      happenedAt: "2026-11-23T08:12:00.000Z",
      estimatedDeliveryAt: "2026-11-25T00:00:00Z",
      message: "Departed facility",
      city: "LOUISVILLE",
      province: "KY",
      zip: "40209",
      country: "US",
    });
    expect(body.data?.fulfillmentEventCreate).toEqual({
      fulfillmentEvent: {
        id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentEvent\/\d+$/),
        status: "IN_TRANSIT",
        // Whole seconds, UTC, as Shopify answers DateTime.
        happenedAt: "2026-11-23T08:12:00Z",
        createdAt: "2026-11-23T12:00:00Z",
        estimatedDeliveryAt: "2026-11-25T00:00:00Z",
        message: "Departed facility",
        city: "LOUISVILLE",
        province: "KY",
        zip: "40209",
        country: "US",
      },
      userErrors: [],
    });
    const read = await run(FULFILLMENT, { id });
    expect(read.data?.fulfillment).toMatchObject({
      displayStatus: "IN_TRANSIT",
      inTransitAt: "2026-11-23T08:12:00Z",
      deliveredAt: null,
      estimatedDeliveryAt: "2026-11-25T00:00:00Z",
      events: { nodes: [{ status: "IN_TRANSIT", happenedAt: "2026-11-23T08:12:00Z" }] },
    });
    expect(emulator.fulfillmentEvents(id)).toMatchObject([{ status: "IN_TRANSIT", city: "LOUISVILLE" }]);
  });

  it("dates an event without happenedAt with the emulator's clock", async () => {
    const id = await createFulfillment();
    const body = await addEvent(id, { status: "LABEL_PURCHASED" });
    expect(body.data?.fulfillmentEventCreate.fulfillmentEvent).toMatchObject({
      status: "LABEL_PURCHASED",
      happenedAt: "2026-11-23T12:00:00Z",
      estimatedDeliveryAt: null,
      message: null,
    });
  });

  it("marks the fulfillment delivered, keeping when it went into transit and the last estimate", async () => {
    const id = await createFulfillment();
    await addEvent(id, {
      status: "IN_TRANSIT",
      happenedAt: "2026-11-23T08:00:00Z",
      estimatedDeliveryAt: "2026-11-25T00:00:00Z",
    });
    await addEvent(id, {
      status: "OUT_FOR_DELIVERY",
      happenedAt: "2026-11-24T07:00:00Z",
      estimatedDeliveryAt: "2026-11-24T18:00:00Z",
    });
    await addEvent(id, { status: "DELIVERED", happenedAt: "2026-11-24T15:30:00Z" });
    const read = await run(FULFILLMENT, { id });
    expect(read.data?.fulfillment).toMatchObject({
      displayStatus: "DELIVERED",
      inTransitAt: "2026-11-23T08:00:00Z",
      deliveredAt: "2026-11-24T15:30:00Z",
      estimatedDeliveryAt: "2026-11-24T18:00:00Z",
    });
  });

  it("shows the status of the event created last, even one that happened earlier", async () => {
    const id = await createFulfillment();
    await addEvent(id, { status: "DELIVERED", happenedAt: "2026-11-24T15:30:00Z" });
    await addEvent(id, { status: "IN_TRANSIT", happenedAt: "2026-11-23T08:00:00Z" });
    const read = await run(FULFILLMENT, { id });
    expect(read.data?.fulfillment).toMatchObject({
      displayStatus: "IN_TRANSIT",
      deliveredAt: "2026-11-24T15:30:00Z",
      inTransitAt: "2026-11-23T08:00:00Z",
    });
  });

  it("refuses an unknown fulfillment with a userError and records nothing", async () => {
    const body = await addEvent("gid://shopify/Fulfillment/404", { status: "IN_TRANSIT" });
    expect(body.errors).toBeUndefined();
    expect(body.data?.fulfillmentEventCreate).toEqual({
      fulfillmentEvent: null,
      userErrors: [{ field: ["fulfillmentEvent", "fulfillmentId"], message: "Fulfillment does not exist." }],
    });
    expect(() => emulator.fulfillmentEvents("gid://shopify/Fulfillment/404")).toThrow(ShopifyEmulatorControlError);
  });

  it("refuses a cancelled fulfillment with a userError", async () => {
    const id = await createFulfillment();
    const record = emulator.fulfillments()[0];
    if (!record) throw new Error("no fulfillment recorded");
    record.status = "CANCELLED";
    const body = await addEvent(id, { status: "IN_TRANSIT" });
    expect(body.data?.fulfillmentEventCreate.userErrors).toEqual([
      { field: ["fulfillmentEvent", "fulfillmentId"], message: expect.stringMatching(/cancelled/) },
    ]);
    expect(emulator.fulfillmentEvents(id)).toEqual([]);
    expect((await run(FULFILLMENT, { id })).data?.fulfillment.displayStatus).toBe("CANCELED");
  });

  it("refuses a status Shopify does not have, and a time it cannot read, as GraphQL errors", async () => {
    const id = await createFulfillment();
    const badStatus = await addEvent(id, { status: "RETURNED" });
    expect(badStatus.data).toBeUndefined();
    expect(badStatus.errors?.[0]?.message).toMatch(/RETURNED/);
    const badTime = await addEvent(id, { status: "IN_TRANSIT", happenedAt: "yesterday" });
    expect(badTime.errors?.[0]?.message).toMatch(/happenedAt.*DateTime/);
    expect(emulator.fulfillmentEvents(id)).toEqual([]);
  });

  it("costs ten points plus its payload, like other mutations", async () => {
    const id = await createFulfillment();
    const body = await addEvent(id, { status: "IN_TRANSIT" });
    // 10 + fulfillmentEvent 1 + userErrors 1
    expect(body.extensions?.cost.requestedQueryCost).toBe(12);
  });
});

describe("Fulfillment.events", () => {
  async function fulfillmentWithThreeEvents() {
    const id = await createFulfillment();
    // Created out of order: the connection sorts by happenedAt unless told otherwise.
    await addEvent(id, { status: "OUT_FOR_DELIVERY", happenedAt: "2026-11-24T07:00:00Z" });
    await addEvent(id, { status: "LABEL_PURCHASED", happenedAt: "2026-11-22T10:00:00Z" });
    await addEvent(id, { status: "IN_TRANSIT", happenedAt: "2026-11-23T08:00:00Z" });
    return id;
  }
  const statuses = (body: Body) =>
    (body.data?.fulfillment.events.nodes as { status: string }[]).map((event) => event.status);

  it("pages through the events by when they happened, oldest first", async () => {
    const id = await fulfillmentWithThreeEvents();
    const first = await run(FULFILLMENT, { id });
    expect(statuses(first)).toEqual(["LABEL_PURCHASED", "IN_TRANSIT"]);
    expect(first.data?.fulfillment.events.pageInfo.hasNextPage).toBe(true);
    const next = await run(FULFILLMENT, { id, after: first.data?.fulfillment.events.pageInfo.endCursor });
    expect(statuses(next)).toEqual(["OUT_FOR_DELIVERY"]);
    expect(next.data?.fulfillment.events.pageInfo.hasNextPage).toBe(false);
  });

  it("sorts by id (creation) and reverses on request", async () => {
    const id = await fulfillmentWithThreeEvents();
    expect(statuses(await run(FULFILLMENT, { id, sortKey: "ID" }))).toEqual(["OUT_FOR_DELIVERY", "LABEL_PURCHASED"]);
    expect(statuses(await run(FULFILLMENT, { id, reverse: true }))).toEqual(["OUT_FOR_DELIVERY", "IN_TRANSIT"]);
  });

  it("answers an event by id through node()", async () => {
    const id = await createFulfillment();
    const created = await addEvent(id, { status: "DELAYED", message: "Weather delay" });
    const eventId: unknown = created.data?.fulfillmentEventCreate.fulfillmentEvent.id;
    const body = await run(`query($id: ID!) { node(id: $id) { ... on FulfillmentEvent { status message } } }`, {
      id: eventId,
    });
    expect(body.data?.node).toEqual({ status: "DELAYED", message: "Weather delay" });
  });

  it("is empty on a fulfillment without events, which shows as fulfilled", async () => {
    const id = await createFulfillment();
    const body = await run(FULFILLMENT, { id });
    expect(body.data?.fulfillment).toEqual({
      displayStatus: "FULFILLED",
      inTransitAt: null,
      deliveredAt: null,
      estimatedDeliveryAt: null,
      events: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] },
    });
  });

  it("costs two points plus the page size, per Shopify's connection rule", async () => {
    const id = await fulfillmentWithThreeEvents();
    const body = await run(FULFILLMENT, { id });
    // fulfillment 1 + events (2 + first: 2 × one event 1)
    expect(body.extensions?.cost.requestedQueryCost).toBe(5);
  });

  it("goes with the rest of the store on reset", async () => {
    const id = await fulfillmentWithThreeEvents();
    emulator.reset();
    expect(() => emulator.fulfillmentEvents(id)).toThrow(ShopifyEmulatorControlError);
  });
});

describe("GET /__emulator/fulfillments", () => {
  it("lists each fulfillment's events and the display status they give", async () => {
    const { url, close } = await startShopifyAdminEmulatorServer({ port: 0 });
    try {
      const graphql = (query: string, variables: Record<string, unknown>) =>
        fetch(`${url}/admin/api/2026-10/graphql.json`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ query, variables }),
        }).then((r) => r.json() as Promise<Body>);
      const snapshot = (await fetch(`${url}/__emulator/fulfillments`).then((r) => r.json())) as unknown;
      expect(snapshot).toEqual({ fulfillments: [] });

      const fo = (await graphql(
        `
          query ($q: String) {
            orders(first: 1, query: $q) {
              nodes {
                fulfillmentOrders(first: 1) {
                  nodes {
                    id
                  }
                }
              }
            }
          }
        `,
        {
          q: "name:#1003",
        },
      )) as Body;
      const foId: unknown = fo.data?.orders.nodes[0].fulfillmentOrders.nodes[0].id;
      const created = await graphql(
        `
          mutation ($f: FulfillmentInput!) {
            fulfillmentCreate(fulfillment: $f) {
              fulfillment {
                id
              }
              userErrors {
                message
              }
            }
          }
        `,
        { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: foId }] } },
      );
      const fulfillmentId: unknown = created.data?.fulfillmentCreate.fulfillment.id;
      await graphql(CREATE_EVENT, {
        event: {
          fulfillmentId,
          status: "OUT_FOR_DELIVERY",
          happenedAt: "2026-11-24T07:00:00Z",
          message: "Out for delivery",
          city: "BROOKLYN",
          province: "NY",
          zip: "11201",
          country: "US",
        },
      });

      const after = (await fetch(`${url}/__emulator/fulfillments`).then((r) => r.json())) as {
        fulfillments: unknown[];
      };
      expect(after.fulfillments).toMatchObject([
        {
          id: fulfillmentId,
          orderName: "#1003",
          displayStatus: "OUT_FOR_DELIVERY",
          inTransitAt: "2026-11-24T07:00:00Z",
          deliveredAt: null,
          events: [
            {
              status: "OUT_FOR_DELIVERY",
              happenedAt: "2026-11-24T07:00:00Z",
              message: "Out for delivery",
              city: "BROOKLYN",
              province: "NY",
              zip: "11201",
              country: "US",
            },
          ],
        },
      ]);
    } finally {
      await close();
    }
  });
});
