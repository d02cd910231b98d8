import { describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = { data?: any; errors?: { message: string }[]; extensions?: { cost?: any } };

const RUN = `mutation Run($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { field message code }
  }
}`;
const STATUS = `query Status($id: ID!) {
  bulkOperation(id: $id) { id status objectCount rootObjectCount url errorCode }
  node(id: $id) { ... on BulkOperation { status } }
}`;

function setUp() {
  let now = 1_000_000;
  const shopify = createShopifyAdminEmulator({ now: () => now, bulkOperationDurationMs: () => 5_000 });
  const orders = [shopify.createOrder().order, shopify.createOrder({ kind: "international" }).order];
  const call = async (query: string, variables: Record<string, unknown> = {}) =>
    (await (await shopify.graphql(query, { variables })).json()) as Body;
  return { shopify, orders, call, tick: (ms: number) => (now += ms) };
}

const ordersQuery = (ids: string[]) => `{
  orders(query: "${ids.map((id) => `id:${id.split("/").pop()}`).join(" OR ")}") {
    edges { node {
      id name
      lineItems { edges { node { id quantity } } }
      fulfillmentOrders { edges { node { id status lineItems { edges { node { id remainingQuantity } } } } } }
    } }
  }
}`;

describe("bulk query operations", () => {
  it("run the query in the background, free of its cost, and serve the result as JSONL once completed", async () => {
    const t = setUp();
    const started = await t.call(RUN, { query: ordersQuery(t.orders.map((o) => o.id)) });
    expect(started.data.bulkOperationRunQuery.userErrors).toEqual([]);
    const { id, status } = started.data.bulkOperationRunQuery.bulkOperation;
    expect(status).toBe("CREATED");
    // The mutation's own cost only; the query it starts costs nothing.
    expect(started.extensions?.cost.actualQueryCost).toBeLessThanOrEqual(12);

    const running = await t.call(STATUS, { id });
    expect(running.data.bulkOperation).toMatchObject({ status: "RUNNING", url: null });
    expect(running.data.node.status).toBe("RUNNING");

    t.tick(5_000);
    const done = (await t.call(STATUS, { id })).data.bulkOperation;
    expect(done.status).toBe("COMPLETED");
    expect(done.rootObjectCount).toBe("2");
    const file = await t.shopify.fetch(done.url);
    expect(file.status).toBe(200);
    const lines = (await file.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(Number(done.objectCount));
    // Each order, then its objects, each naming the one it belongs to.
    const [order] = t.orders;
    const fo = t.shopify.findFulfillmentOrder(order?.fulfillmentOrders[0]?.id ?? "");
    expect(lines[0]).toEqual({ id: order?.id, name: order?.name });
    expect(lines.filter((l) => l.__parentId === order?.id).map((l) => l.id)).toEqual([
      ...(order?.lineItems.map((li) => li.id) ?? []),
      fo?.id,
    ]);
    expect(lines.filter((l) => l.__parentId === fo?.id)).toHaveLength(fo?.lineItems.length ?? -1);
    expect(lines.some((l) => "lineItems" in l || "fulfillmentOrders" in l)).toBe(false);
  });

  it("has no file before it completes", async () => {
    const t = setUp();
    const started = await t.call(RUN, { query: ordersQuery([t.orders[0]?.id ?? ""]) });
    const { id } = started.data.bulkOperationRunQuery.bulkOperation;
    expect((await t.shopify.fetch(`https://${t.shopify.shop}/__emulator/bulk-operations/1.jsonl`)).status).toBe(404);
    t.tick(5_000);
    expect((await t.call(STATUS, { id })).data.bulkOperation.url).toBe(
      `https://${t.shopify.shop}/__emulator/bulk-operations/1.jsonl`,
    );
  });

  it.each([
    [
      "a mutation",
      "mutation { fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [] }) { userErrors { message } } }",
    ],
    ["no connection", "{ shop { id } }"],
    ["the top-level node field", '{ node(id: "gid://shopify/Order/1") { id } }'],
    [
      "more than five connections",
      "{ orders { edges { node { id lineItems { edges { node { id } } } localizedFields { edges { node { key } } } fulfillmentOrders { edges { node { id lineItems { edges { node { id } } } } } } } } } locations { edges { node { id } } } }",
    ],
    [
      "a connection nested in three others",
      "{ orders { edges { node { id fulfillmentOrders { edges { node { id fulfillments { edges { node { id events { edges { node { id } } } } } } } } } } } } }",
    ],
    [
      "a nested connection whose parent has no id",
      "{ orders { edges { node { name lineItems { edges { node { id } } } } } } }",
    ],
    ["a field Shopify does not have", "{ orders { edges { node { id nope } } } }"],
  ])("are refused for %s", async (_what, query) => {
    const t = setUp();
    const answer = await t.call(RUN, { query });
    expect(answer.data.bulkOperationRunQuery.bulkOperation).toBeNull();
    expect(answer.data.bulkOperationRunQuery.userErrors).toEqual([
      expect.objectContaining({ field: ["query"], code: "INVALID" }),
    ]);
  });

  it("allows five running at once per shop, as API versions from 2026-01 do", async () => {
    const t = setUp();
    const query = ordersQuery([t.orders[0]?.id ?? ""]);
    for (let i = 0; i < 5; i++)
      expect((await t.call(RUN, { query })).data.bulkOperationRunQuery.userErrors).toEqual([]);
    expect((await t.call(RUN, { query })).data.bulkOperationRunQuery.userErrors[0].code).toBe("LIMIT_REACHED");
    t.tick(5_000);
    expect((await t.call(RUN, { query })).data.bulkOperationRunQuery.userErrors).toEqual([]);
  });
});

describe("order search", () => {
  it("matches either side of OR", async () => {
    const t = setUp();
    const [a, b] = t.orders.map((o) => o.id.split("/").pop());
    const answer = await t.call(`{ orders(first: 10, query: "id:${a} OR id:${b}") { nodes { id } } }`);
    expect(answer.data.orders.nodes.map((n: { id: string }) => n.id).sort()).toEqual(t.orders.map((o) => o.id).sort());
  });
});
