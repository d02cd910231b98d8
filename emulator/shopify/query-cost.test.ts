import { parse } from "graphql";
import { describe, expect, it } from "vitest";

import { calculateActualQueryCost, calculateRequestedQueryCost, MAX_PAGE_SIZE } from "./query-cost";
import { loadAdminSchema } from "./schema";

const schema = loadAdminSchema();
const requested = (query: string, variables?: Record<string, unknown>) =>
  calculateRequestedQueryCost(schema, parse(query), { variables });

describe("calculateRequestedQueryCost", () => {
  it("charges one point for an object and nothing for its scalars and enums", () => {
    expect(requested("{ shop { id name currencyCode weightUnit } }").cost).toBe(1);
    expect(requested("{ shop { id shopAddress { city } } }").cost).toBe(2);
  });

  it("charges a connection two points plus its page size times the cost of one node", () => {
    expect(requested("{ orders(first: 10) { pageInfo { hasNextPage } nodes { id name } } }").cost).toBe(12);
    expect(requested("{ orders(first: 10) { edges { cursor node { id } } } }").cost).toBe(12);
  });

  it("multiplies nested connections", () => {
    const query = "{ orders(first: 10) { nodes { id lineItems(first: 5) { nodes { id variant { id } } } } } }";
    // 2 + 10 × (1 + (2 + 5 × 2))
    expect(requested(query).cost).toBe(132);
  });

  it("sizes a connection from the variables sent, then the variable's default", () => {
    const query = "query Q($n: Int = 4) { orders(first: $n) { nodes { id } } }";
    expect(requested(query, { n: 20 }).cost).toBe(22);
    expect(requested(query).cost).toBe(6);
  });

  it("costs a connection of unknown size at Shopify's largest page and says which", () => {
    const result = requested("query Q($n: Int) { orders(first: $n) { nodes { id } } }");
    expect(result).toEqual({ cost: 2 + MAX_PAGE_SIZE, unsizedConnections: ["orders"] });
  });

  it("charges the most expensive branch of an interface", () => {
    const query = `query Q($id: ID!) { node(id: $id) {
      ... on Order { id shippingAddress { city } }
      ... on Product { id variants(first: 5) { nodes { id } } }
    } }`;
    // node 1 + max(Order: 1, Product: 2 + 5)
    expect(requested(query, { id: "gid://shopify/Order/1" }).cost).toBe(8);
  });

  it("follows fragment spreads", () => {
    const query = `query Q { shop { ...ShopBits } } fragment ShopBits on Shop { shopAddress { city } }`;
    expect(requested(query).cost).toBe(2);
  });

  it("charges a mutation ten points plus what its payload selects", () => {
    const query = `mutation M($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) {
      fulfillment { id trackingInfo(first: 10) { number } } userErrors { field message } } }`;
    // 10 + fulfillment 1 + userErrors 1 (trackingInfo is a list, not a connection: counted once)
    expect(requested(query).cost).toBe(13);
  });
});

describe("calculateActualQueryCost", () => {
  it("counts the nodes a connection returned, not its page size", () => {
    const query = parse("{ orders(first: 50) { nodes { id shippingAddress { city } } } }");
    const data = {
      orders: {
        nodes: [
          { id: "1", shippingAddress: { city: "x" } },
          { id: "2", shippingAddress: null },
        ],
      },
    };
    // 2 + (1 + 1) + (1 + 0)
    expect(calculateActualQueryCost(schema, query, data)).toBe(5);
  });
});
