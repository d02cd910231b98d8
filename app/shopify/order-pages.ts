import type {
  FulfillmentOrderLineItemsForLabelQueryVariables,
  OrderFulfillmentOrdersForLabelQueryVariables,
  OrderLineItemsForLabelQueryVariables,
} from "~/types/admin.generated";
import { ok, type Result } from "~/utils/result";

import { type AdminGraphqlClient, runAdminGraphql, type ShopifyError, type ShopifyProblem } from "./admin-client";
import type { OrderGid } from "./ids";
import { toFulfillmentOrder, toFulfillmentOrderLineItem, toLineItem } from "./order-mapping";
import {
  type FulfillmentOrderData,
  FulfillmentOrderLineItemsDataSchema,
  type LineItemConnectionData,
  OrderFulfillmentOrdersDataSchema,
  OrderLineItemsDataSchema,
} from "./order-schemas";
import type { ShopifyFulfillmentOrder, ShopifyFulfillmentOrderLineItem, ShopifyOrderLineItem } from "./orders";
import {
  FULFILLMENT_ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
  ORDER_FULFILLMENT_ORDERS_FOR_LABEL_QUERY,
  ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
} from "./orders.graphql";

// Reading every page of an order's line items and fulfillment orders for getOrderForLabel.
// Hard caps on paging (25 order lines, 5 fulfillment orders, 50 fulfillment order lines a page):
// beyond these an order is reported as truncated, never silently cut.
const MAX_LINE_ITEM_PAGES = 20;
const MAX_FULFILLMENT_ORDER_PAGES = 10;
const MAX_FULFILLMENT_ORDER_LINE_ITEM_PAGES = 10;

export const createTruncatedProblem = (what: string, logMessage: string): ShopifyProblem => ({
  code: "TRUNCATED",
  message: `This order has more ${what} than we could load at once; check it in Shopify before buying a label.`,
  logMessage,
});

type Page<T> = { items: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

// Follows `hasNextPage` from a first page, up to `maxPages` pages in all. `complete` is false
// when the cap stopped it with pages left. A page whose parent vanished (null) ends the list.
async function readRemainingPages<T>(
  first: Page<T>,
  maxPages: number,
  fetchPage: (after: string | null) => Promise<Result<Page<T> | null, ShopifyError>>,
): Promise<Result<{ items: T[]; complete: boolean }, ShopifyError>> {
  const items = [...first.items];
  let pageInfo = first.pageInfo;
  for (let page = 1; pageInfo.hasNextPage && page < maxPages; page++) {
    const next = await fetchPage(pageInfo.endCursor);
    if (!next.ok) return next;
    if (!next.value) break;
    items.push(...next.value.items);
    pageInfo = next.value.pageInfo;
  }
  return ok({ items, complete: !pageInfo.hasNextPage });
}

/** Every line item of the order, from the first page the order's header came with. */
export async function getOrderLineItems(
  admin: AdminGraphqlClient,
  orderGid: OrderGid,
  first: LineItemConnectionData,
  problems: ShopifyProblem[],
): Promise<Result<ShopifyOrderLineItem[], ShopifyError>> {
  const paged = await readRemainingPages(
    { items: first.nodes.map((li) => toLineItem(li, problems)), pageInfo: first.pageInfo },
    MAX_LINE_ITEM_PAGES,
    async (after) => {
      const next = await runAdminGraphql(admin, {
        operation: "OrderLineItemsForLabel",
        document: ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
        variables: { id: orderGid, after } satisfies OrderLineItemsForLabelQueryVariables,
        schema: OrderLineItemsDataSchema,
      });
      if (!next.ok) return next;
      const connection = next.value.data.order?.lineItems;
      problems.push(...next.value.problems);
      return ok(
        connection
          ? { items: connection.nodes.map((li) => toLineItem(li, problems)), pageInfo: connection.pageInfo }
          : null,
      );
    },
  );
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      createTruncatedProblem(
        "line items",
        `OrderForLabel: ${orderGid} has more than ${paged.value.items.length} line items`,
      ),
    );
  }
  return ok(paged.value.items);
}

async function getFulfillmentOrderLineItems(
  admin: AdminGraphqlClient,
  fo: FulfillmentOrderData,
  problems: ShopifyProblem[],
): Promise<Result<{ lineItems: ShopifyFulfillmentOrderLineItem[]; complete: boolean }, ShopifyError>> {
  const paged = await readRemainingPages(
    { items: fo.lineItems.nodes.map((l) => toFulfillmentOrderLineItem(l, problems)), pageInfo: fo.lineItems.pageInfo },
    MAX_FULFILLMENT_ORDER_LINE_ITEM_PAGES,
    async (after) => {
      const next = await runAdminGraphql(admin, {
        operation: "FulfillmentOrderLineItemsForLabel",
        document: FULFILLMENT_ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
        variables: { id: fo.id, after } satisfies FulfillmentOrderLineItemsForLabelQueryVariables,
        schema: FulfillmentOrderLineItemsDataSchema,
      });
      if (!next.ok) return next;
      const connection = next.value.data.fulfillmentOrder?.lineItems;
      problems.push(...next.value.problems);
      return ok(
        connection
          ? {
              items: connection.nodes.map((l) => toFulfillmentOrderLineItem(l, problems)),
              pageInfo: connection.pageInfo,
            }
          : null,
      );
    },
  );
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      createTruncatedProblem(
        "items in one shipment",
        `OrderFulfillmentOrdersForLabel: fulfillment order ${fo.id} has more than ${paged.value.items.length} line items`,
      ),
    );
  }
  return ok({ lineItems: paged.value.items, complete: paged.value.complete });
}

/** The order's displayable fulfillment orders, each with every line item. */
export async function getFulfillmentOrders(
  admin: AdminGraphqlClient,
  orderGid: OrderGid,
  problems: ShopifyProblem[],
): Promise<Result<ShopifyFulfillmentOrder[], ShopifyError>> {
  const pageOf = async (after: string | null) => {
    const result = await runAdminGraphql(admin, {
      operation: "OrderFulfillmentOrdersForLabel",
      document: ORDER_FULFILLMENT_ORDERS_FOR_LABEL_QUERY,
      variables: { id: orderGid, after } satisfies OrderFulfillmentOrdersForLabelQueryVariables,
      schema: OrderFulfillmentOrdersDataSchema,
    });
    if (!result.ok) return result;
    problems.push(...result.value.problems);
    const connection = result.value.data.order?.fulfillmentOrders;
    return ok(connection ? { items: connection.nodes, pageInfo: connection.pageInfo } : null);
  };
  const first = await pageOf(null);
  if (!first.ok) return first;
  if (!first.value) return ok([]);
  const paged = await readRemainingPages(first.value, MAX_FULFILLMENT_ORDER_PAGES, pageOf);
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      createTruncatedProblem(
        "fulfillment orders",
        `OrderFulfillmentOrdersForLabel: ${orderGid} has more than ${paged.value.items.length} fulfillment orders`,
      ),
    );
  }
  const fulfillmentOrders: ShopifyFulfillmentOrder[] = [];
  for (const fo of paged.value.items) {
    const lines = await getFulfillmentOrderLineItems(admin, fo, problems);
    if (!lines.ok) return lines;
    fulfillmentOrders.push(toFulfillmentOrder(fo, lines.value.lineItems, lines.value.complete, problems));
  }
  return ok(fulfillmentOrders);
}
