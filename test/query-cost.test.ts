import { join } from "node:path";

import { Kind, parse } from "graphql";
import { describe, expect, it } from "vitest";

import { CHECK_READS_REQUESTED_COST } from "~/bulk/bulk-run-reads.server";
import { ORDER_LIST_PAGE_SIZE } from "~/shopify/order-list";
import { LOCATIONS_PAGE_SIZE } from "~/shopify/shop";

import { calculateRequestedQueryCost, SINGLE_QUERY_MAX_COST } from "../emulator/shopify/query-cost";
import { loadAdminSchema } from "../emulator/shopify/schema";
import { collectFragments, findGraphqlDocuments, withSpreadFragments } from "./helpers/graphql-documents";
import { ROOT } from "./setup/database";

// Shopify refuses any query whose requested cost is above 1,000 points, whatever the bucket holds.
// Each document the app sends is costed by Shopify's published rules (emulator/shopify/query-cost.ts)
// at the largest page sizes the app asks for, and must stay well below the cap: a document near it
// breaks as soon as someone adds a field.
const COST_BUDGET = 500;

// The largest value the app sends for each page-size variable (the adapters clamp to these).
const WORST_CASE_VARIABLES: Record<string, Record<string, unknown>> = {
  ShopAndLocationsForLabels: { locationsFirst: LOCATIONS_PAGE_SIZE },
  // Sized to the page's international orders, a page of them at most.
  OrderListCustomsFacts: { first: ORDER_LIST_PAGE_SIZE },
};

const schema = loadAdminSchema();
const documents = findGraphqlDocuments(join(ROOT, "app"));
const fragments = collectFragments(documents);
const operations = documents.flatMap(({ file, source }) =>
  parse(source).definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION && d.name ? [{ file, name: d.name.value, source }] : [],
  ),
);

/** Shopify's requested cost of one of the app's operations, at the page sizes the app asks for at most. */
const requestedCostOf = (name: string, source: string) =>
  calculateRequestedQueryCost(schema, withSpreadFragments(source, fragments), {
    operationName: name,
    variables: WORST_CASE_VARIABLES[name] ?? {},
  });

describe("query cost of the app's GraphQL documents", () => {
  it("finds the app's operations", () => {
    expect(operations.length).toBeGreaterThan(5);
  });

  it.each(operations.map((o) => [o.name, o.file, o.source] as const))(
    "%s (%s) stays far below Shopify's 1,000-point single-query limit",
    (name, _file, source) => {
      const { cost, unsizedConnections } = requestedCostOf(name, source);
      // A page size from a variable needs its worst case above, or the cost is a guess.
      expect(unsizedConnections).toEqual([]);
      expect({ name, cost, withinLimit: cost <= SINGLE_QUERY_MAX_COST }).toEqual({ name, cost, withinLimit: true });
      expect(cost).toBeLessThanOrEqual(COST_BUDGET);
    },
  );

  it("keeps a bulk check's own reads within what the run budgets for them (CHECK_READS_REQUESTED_COST)", () => {
    const requested = (name: string) => {
      const operation = operations.find((o) => o.name === name);
      if (!operation) throw new Error(`no operation ${name}`);
      return requestedCostOf(name, operation.source).cost;
    };
    // loadOrder without a bulk read: the order, its fulfillment orders, and the shop with its locations.
    const reads = ["OrderForLabel", "OrderFulfillmentOrdersForLabel", "ShopAndLocationsForLabels"].map(requested);
    const total = reads.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(CHECK_READS_REQUESTED_COST);
    // Not so far above that Plus's bucket could no longer spare them for every check at once.
    expect(total).toBeGreaterThan(CHECK_READS_REQUESTED_COST * 0.9);
  });

  it("would fail the old single OrderForLabel document, so the check can fail", () => {
    // The shape OrderForLabel had before it was split: 50 line items and 5 fulfillment orders of 25 lines.
    const old = `query Old($id: ID!) { order(id: $id) {
      lineItems(first: 50) { nodes { id weight { value } originalUnitPriceSet { shopMoney { amount } presentmentMoney { amount } }
        product { id } variant { id inventoryItem { id measurement { weight { value } } } } } }
      fulfillmentOrders(first: 5) { nodes { id supportedActions { action } deliveryMethod { methodType }
        assignedLocation { name location { id } } destination { city }
        lineItems(first: 25) { nodes { id weight { value } lineItem { id } } } } } } }`;
    expect(calculateRequestedQueryCost(schema, parse(old)).cost).toBeGreaterThan(COST_BUDGET);
  });
});
