import { beforeEach, describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";
import { ORDER_SCENARIOS } from "./seed";
import { startShopifyAdminEmulatorServer } from "./server";

// One emulator per file: building Shopify's schema is the slow part and it is cached anyway.
const emulator = createShopifyAdminEmulator();
beforeEach(() => emulator.reset());

async function run(query: string, variables?: Record<string, unknown>) {
  const response = await emulator.graphql(query, variables ? { variables } : undefined);
  // The tests read loosely shaped JSON; the app's adapters are where responses get typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await response.json()) as { data?: Record<string, any>; errors?: { message: string; path?: unknown[] }[] };
}

const CREATE = `mutation Create($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status trackingInfo(first: 5) { company number url } }
    userErrors { field message }
  }
}`;

function fo(orderName: string, index = 0) {
  const found = emulator.findOrderByName(orderName)?.fulfillmentOrders[index];
  if (!found) throw new Error(`no fulfillment order ${index} on ${orderName}`);
  return found;
}

function isValidCpf(value: string): boolean {
  const d = value.replace(/\D/g, "").split("").map(Number);
  if (d.length !== 11 || new Set(d).size === 1) return false;
  const check = (n: number) => {
    const sum = d.slice(0, n).reduce((s, x, i) => s + x * (n + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d[9] && check(10) === d[10];
}

function isValidCodiceFiscale(value: string): boolean {
  const odd: Record<string, number> = {
    0: 1,
    1: 0,
    2: 5,
    3: 7,
    4: 9,
    5: 13,
    6: 15,
    7: 17,
    8: 19,
    9: 21,
    A: 1,
    B: 0,
    C: 5,
    D: 7,
    E: 9,
    F: 13,
    G: 15,
    H: 17,
    I: 19,
    J: 21,
    K: 2,
    L: 4,
    M: 18,
    N: 20,
    O: 11,
    P: 3,
    Q: 6,
    R: 8,
    S: 12,
    T: 14,
    U: 16,
    V: 10,
    W: 22,
    X: 25,
    Y: 24,
    Z: 23,
  };
  const even = (c: string) => (/\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65);
  if (!/^[A-Z0-9]{16}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = value.charAt(i);
    sum += i % 2 === 0 ? (odd[c] ?? NaN) : even(c);
  }
  return String.fromCharCode(65 + (sum % 26)) === value.charAt(15);
}

describe("the Shopify Admin emulator", () => {
  it("refuses a query with a field Shopify's schema does not have, without data", async () => {
    const body = await run(`query { shop { name bogusField } }`);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "bogusField" on type "Shop"/);
  });

  it("refuses a mutation whose input type does not match the schema", async () => {
    const body = await run(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: 5 }], trackingNumber: "x" },
    });
    expect(body.errors?.[0]?.message).toMatch(/Variable "\$fulfillment"/);
  });

  it("serves every seeded scenario as an order with a shipping address and an open fulfillment order", async () => {
    const body =
      await run(`query { orders(first: 50, sortKey: CREATED_AT) { nodes { name shippingAddress { countryCodeV2 }
      fulfillmentOrders(first: 5) { nodes { status supportedActions { action } } } } } }`);
    const orders = body.data?.orders.nodes as {
      name: string;
      shippingAddress: { countryCodeV2: string };
      fulfillmentOrders: { nodes: { status: string; supportedActions: { action: string }[] }[] };
    }[];
    expect(orders.map((o) => o.name).sort()).toEqual(Object.keys(ORDER_SCENARIOS).sort());
    for (const order of orders) {
      expect(
        order.fulfillmentOrders.nodes.some((f) => f.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT")),
      ).toBe(true);
    }
  });

  it("counts the orders a search matches, saying AT_LEAST past the limit", async () => {
    const all = await run(`query { ordersCount(query: "status:open") { count precision } }`);
    expect(all.data?.ordersCount).toEqual({ count: Object.keys(ORDER_SCENARIOS).length, precision: "EXACT" });
    const pickups = await run(`query { ordersCount(query: "delivery_method:pick-up") { count precision } }`);
    expect(pickups.data?.ordersCount).toEqual({ count: 1, precision: "EXACT" });
    const capped = await run(`query { ordersCount(limit: 3) { count precision } }`);
    expect(capped.data?.ordersCount).toEqual({ count: 3, precision: "AT_LEAST" });
  });

  it("answers what the customer paid for shipping, from the order's shipping line", async () => {
    const body = await run(
      `query { orders(first: 1, query: "name:#1001") { nodes { currentShippingPriceSet { shopMoney { amount currencyCode } }
      shippingLine { originalPriceSet { shopMoney { amount } } } } } }`,
    );
    const order = body.data?.orders.nodes[0];
    expect(order.currentShippingPriceSet.shopMoney).toEqual({ amount: "8.95", currencyCode: "USD" });
    expect(order.shippingLine.originalPriceSet.shopMoney.amount).toBe("8.95");
  });

  it("filters orders with the search terms the app sends and pages with cursors", async () => {
    const first = await run(
      `query { orders(first: 10, query: "status:open fulfillment_status:unfulfilled") { pageInfo { hasNextPage endCursor } nodes { name } } }`,
    );
    expect(first.data?.orders.nodes).toHaveLength(10);
    expect(first.data?.orders.pageInfo.hasNextPage).toBe(true);
    const second = await run(
      `query($after: String) { orders(first: 50, after: $after, query: "fulfillment_status:unfulfilled") { pageInfo { hasNextPage } nodes { name } } }`,
      { after: first.data?.orders.pageInfo.endCursor },
    );
    expect(second.data?.orders.nodes).toHaveLength(Object.keys(ORDER_SCENARIOS).length - 10);
    const shipped = await run(`query { orders(first: 50, query: "delivery_method:shipping") { nodes { name } } }`);
    expect(shipped.data?.orders.nodes.map((o: { name: string }) => o.name)).not.toContain("#1018");
    const pickups = await run(`query { orders(first: 50, query: "delivery_method:pick-up") { nodes { name } } }`);
    expect(pickups.data?.orders.nodes).toEqual([{ name: "#1018" }]);
    const byName = await run(`query { orders(first: 5, query: "name:#1006") { nodes { name } } }`);
    expect(byName.data?.orders.nodes).toEqual([{ name: "#1006" }]);
  });

  it("asks for first or last on connections, like Shopify", async () => {
    const body = await run(`query { orders { nodes { id } } }`);
    expect(body.errors?.[0]?.message).toMatch(/first or last/);
  });

  it("resolves node and nodes by id", async () => {
    const id = fo("#1016", 1).id;
    const body = await run(
      `query($id: ID!) { node(id: $id) { __typename ... on FulfillmentOrder { assignedLocation { name } } } }`,
      { id },
    );
    expect(body.data?.node).toEqual({
      __typename: "FulfillmentOrder",
      assignedLocation: { name: "Reno Fulfillment Center" },
    });
  });

  it("seeds tax ids with valid check digits", () => {
    const cpf = emulator.findOrderByName("#1006")?.localizedFields[0]?.value ?? "";
    const cf = emulator.findOrderByName("#1008")?.localizedFields[0]?.value ?? "";
    expect(isValidCpf(cpf)).toBe(true);
    expect(isValidCodiceFiscale(cf)).toBe(true);
    expect(isValidCodiceFiscale("RSSMRA85T10A562S")).toBe(true);
    expect(emulator.findOrderByName("#1007")?.localizedFields).toEqual([]);
  });

  it("creates a fulfillment with tracking, decrements what remains and closes the fulfillment order", async () => {
    const target = fo("#1001");
    const body = await run(CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: target.id }],
        trackingInfo: {
          company: "UPS",
          numbers: ["1Z999AA10123456784"],
          urls: ["https://www.ups.com/track?tracknum=1Z999AA10123456784"],
        },
        notifyCustomer: true,
      },
    });
    expect(body.data?.fulfillmentCreate.userErrors).toEqual([]);
    expect(body.data?.fulfillmentCreate.fulfillment.trackingInfo).toEqual([
      { company: "UPS", number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z999AA10123456784" },
    ]);
    expect(fo("#1001").status).toBe("CLOSED");
    expect(fo("#1001").lineItems.every((l) => l.remainingQuantity === 0)).toBe(true);
    const [recorded] = emulator.fulfillments();
    expect(recorded).toMatchObject({ notifyCustomer: true, fulfillmentOrderIds: [target.id] });
  });

  it("fulfils part of a fulfillment order and keeps it in progress", async () => {
    const target = fo("#1010");
    const line = target.lineItems[0];
    if (!line) throw new Error("seed: #1010 has no lines");
    const body = await run(CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: target.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] },
        ],
      },
    });
    expect(body.data?.fulfillmentCreate.userErrors).toEqual([]);
    expect(fo("#1010").status).toBe("IN_PROGRESS");
    expect(fo("#1010").lineItems[0]?.remainingQuantity).toBe(3);
  });

  it.each([
    [
      "an unknown fulfillment order",
      () => ({ lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1" }] }),
      /does not exist/,
    ],
    [
      "a closed fulfillment order",
      () => ({ lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo("#1017", 1).id }] }),
      /unfulfillable status= closed/,
    ],
    [
      "a quantity above what remains",
      () => {
        const target = fo("#1017", 0);
        return {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: target.id,
              fulfillmentOrderLineItems: [{ id: target.lineItems[0]?.id, quantity: 2 }],
            },
          ],
        };
      },
      /Invalid fulfillment order line item quantity/,
    ],
    [
      "tracking mixing number and numbers",
      () => ({
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo("#1002").id }],
        trackingInfo: { number: "1", numbers: ["1"] },
      }),
      /cannot both be set/,
    ],
  ])("rejects %s with userErrors and records nothing", async (_name, input, message) => {
    const body = await run(CREATE, { fulfillment: input() });
    expect(body.errors).toBeUndefined();
    expect(body.data?.fulfillmentCreate.fulfillment).toBeNull();
    expect(body.data?.fulfillmentCreate.userErrors[0].message).toMatch(message);
    expect(body.data?.fulfillmentCreate.userErrors[0].field[0]).toBe("fulfillment");
    expect(emulator.fulfillments()).toEqual([]);
  });

  it("updates tracking on a recorded fulfillment", async () => {
    const created = await run(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo("#1003").id }] },
    });
    const id = created.data?.fulfillmentCreate.fulfillment.id as string;
    const body = await run(
      `mutation($id: ID!, $t: FulfillmentTrackingInput!) { fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $t, notifyCustomer: true) { fulfillment { trackingInfo(first: 3) { company number } } userErrors { field message } } }`,
      { id, t: { company: "USPS", numbers: ["9400111899223856412024"] } },
    );
    expect(body.data?.fulfillmentTrackingInfoUpdate).toEqual({
      fulfillment: { trackingInfo: [{ company: "USPS", number: "9400111899223856412024" }] },
      userErrors: [],
    });
    expect(emulator.fulfillments()[0]?.notifyCustomer).toBe(true);
  });

  // The emulator indexes the store and remembers what each order's search reads (emulator.ts,
  // Lookups); these answers must change as soon as the store does.
  it("reflects a new fulfillment at once in searches, remaining quantities and lookups by id", async () => {
    const ORDER = `query($q: String) { orders(first: 5, query: $q) { nodes { id displayFulfillmentStatus
      fulfillmentOrders(first: 5) { nodes { id status } } lineItems(first: 5) { nodes { unfulfilledQuantity } } } } }`;
    const unfulfilled = "status:open fulfillment_status:unfulfilled delivery_method:shipping name:#1001";
    const before = await run(ORDER, { q: unfulfilled });
    const order = before.data?.orders.nodes[0];
    expect(order.displayFulfillmentStatus).toBe("UNFULFILLED");
    expect(order.lineItems.nodes.every((l: { unfulfilledQuantity: number }) => l.unfulfilledQuantity > 0)).toBe(true);

    const created = await run(CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: order.fulfillmentOrders.nodes[0].id }] },
    });
    const fulfillmentId = created.data?.fulfillmentCreate.fulfillment.id as string;

    expect((await run(ORDER, { q: unfulfilled })).data?.orders.nodes).toEqual([]);
    const shipped = (await run(ORDER, { q: "fulfillment_status:shipped name:#1001" })).data?.orders.nodes;
    expect(shipped).toEqual([
      {
        id: order.id,
        displayFulfillmentStatus: "FULFILLED",
        fulfillmentOrders: { nodes: [{ id: order.fulfillmentOrders.nodes[0].id, status: "CLOSED" }] },
        lineItems: { nodes: order.lineItems.nodes.map(() => ({ unfulfilledQuantity: 0 })) },
      },
    ]);
    const byId = await run(`query($id: ID!) { fulfillment(id: $id) { id order { id } } node(id: $id) { id } }`, {
      id: fulfillmentId,
    });
    expect(byId.data).toEqual({
      fulfillment: { id: fulfillmentId, order: { id: order.id } },
      node: { id: fulfillmentId },
    });
  });

  it("finds an order added to the store even after answering searches", async () => {
    const state = emulator.state();
    const search = `query { orders(first: 50, sortKey: CREATED_AT, reverse: true) { nodes { name } } }`;
    expect((await run(search)).data?.orders.nodes).toHaveLength(state.orders.length);
    const copy = structuredClone(state.orders[0]);
    if (!copy) throw new Error("seed: no orders");
    copy.id = "gid://shopify/Order/1";
    copy.name = "#9999";
    // Newer than every seeded order, whatever today's date is.
    copy.createdAt = new Date(Math.max(...state.orders.map((o) => Date.parse(o.createdAt))) + 60_000).toISOString();
    state.orders.push(copy);
    expect((await run(search)).data?.orders.nodes[0]).toEqual({ name: "#9999" });
    const byId = await run(`query { order(id: "gid://shopify/Order/1") { name } }`);
    expect(byId.data?.order).toEqual({ name: "#9999" });
  });

  it("refuses a document the same way each time it is sent", async () => {
    for (const query of ["query { shop { name }", "query { shop { nope } }"]) {
      const first = await run(query);
      expect(first.errors?.length).toBeGreaterThan(0);
      expect(first.data).toBeUndefined();
      expect(await run(query)).toEqual(first);
    }
  });

  it("withholds protected customer data with an error next to the rest of the data when not approved", async () => {
    const unapproved = createShopifyAdminEmulator({ protectedCustomerDataApproved: false });
    const id = unapproved.findOrderByName("#1001")?.id;
    const response = await unapproved.graphql(
      `query($id: ID!) { order(id: $id) { name email shippingAddress { city address1 } } }`,
      { variables: { id } },
    );
    const body = (await response.json()) as { data: { order: Record<string, unknown> }; errors: { message: string }[] };
    expect(body.data.order).toEqual({
      name: "#1001",
      email: null,
      shippingAddress: { city: "Evanston", address1: null },
    });
    expect(body.errors[0]?.message).toMatch(/not approved to access the Order object/);
  });

  it("answers throttling the way Shopify does when told to", async () => {
    emulator.failNextRequest("THROTTLED");
    const body = await run(`query { shop { name } }`);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "THROTTLED" } });
    expect((await run(`query { shop { name } }`)).data?.shop.name).toBe("Harbor & Pine Goods");
  });

  it("reports the requested and actual cost of each query with the bucket's state", async () => {
    const response = await emulator.graphql('{ orders(first: 50, query: "name:#1001") { nodes { id } } }');
    const body = (await response.json()) as { extensions?: { cost?: Record<string, unknown> } };
    // Requested: 2 + 50 × 1. Actual: 2 + the one order found; the bucket keeps only the actual cost.
    expect(body.extensions?.cost).toEqual({
      requestedQueryCost: 52,
      actualQueryCost: 3,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1997, restoreRate: 100 },
    });
  });

  it("throttles like Shopify's leaky bucket: HTTP 200, THROTTLED, no data, until the bucket refills", async () => {
    let now = 0;
    const small = createShopifyAdminEmulator({ throttle: { maximumAvailable: 100, restoreRate: 10 }, now: () => now });
    const query = '{ orders(first: 90, query: "name:#1001") { nodes { id } } }';
    const send = async () => {
      const response = await small.graphql(query);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    // Each query needs 92 points to start and keeps 3: 100 → 97 → 94 → 91, too few for a fourth.
    for (let i = 0; i < 3; i++) expect((await send()).body.data?.orders.nodes).toHaveLength(1);
    const throttled = await send();
    expect(throttled.status).toBe(200);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: "THROTTLED" }) }),
    ]);
    expect(throttled.body.extensions.cost).toMatchObject({
      requestedQueryCost: 92,
      actualQueryCost: null,
      throttleStatus: { currentlyAvailable: 91, maximumAvailable: 100, restoreRate: 10 },
    });
    now += 1_000;
    expect((await send()).body.data?.orders.nodes).toHaveLength(1);
    small.reset();
    expect(small.throttleStatus().currentlyAvailable).toBe(100);
  });

  it("refuses a query above the 1,000-point single-query limit before it runs", async () => {
    const body = await run("{ orders(first: 250) { nodes { id lineItems(first: 250) { nodes { id } } } } }");
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "MAX_COST_EXCEEDED" } });
  });

  it("serves Shopify's GraphQL URL through fetch and refuses other paths and wrong tokens", async () => {
    const guarded = createShopifyAdminEmulator({ accessToken: "shpat_test" });
    const post = (url: string, token?: string) =>
      guarded.fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { "X-Shopify-Access-Token": token } : {}) },
        body: JSON.stringify({ query: "{ shop { name } }" }),
      });
    expect((await post(guarded.graphqlUrl, "wrong")).status).toBe(401);
    expect((await post("https://demo-shop.myshopify.com/admin/api/2024-01/graphql.json", "shpat_test")).status).toBe(
      404,
    );
    const ok = await post(guarded.graphqlUrl, "shpat_test");
    expect(await ok.json()).toMatchObject({ data: { shop: { name: "Harbor & Pine Goods" } } });
  });

  it("serves the same handlers on a loopback server", async () => {
    const { url, close } = await startShopifyAdminEmulatorServer({ port: 0 });
    try {
      const response = await fetch(`${url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ query: "query { shop { myshopifyDomain } }" }),
      });
      expect(await response.json()).toMatchObject({ data: { shop: { myshopifyDomain: "demo-shop.myshopify.com" } } });
    } finally {
      await close();
    }
  });

  it("restores the seeded store on reset", async () => {
    await run(CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo("#1005").id }] } });
    expect(emulator.fulfillments()).toHaveLength(1);
    emulator.reset();
    expect(emulator.fulfillments()).toEqual([]);
    expect(fo("#1005").status).toBe("OPEN");
  });
});
