import { z } from "zod";

import type {
  OrderForListFragment,
  OrderListCustomsFactsQuery,
  OrderListCustomsFactsQueryVariables,
  OrdersForListAfterQuery,
  OrdersForListAfterQueryVariables,
  OrdersForListBeforeQuery,
  OrdersForListBeforeQueryVariables,
} from "~/types/admin.generated";
import { ok, type Result } from "~/utils/result";

import type { AdminGraphqlClient, ShopifyError, ShopifyProblem } from "./admin-client";
import { runAdminGraphql } from "./admin-client";
import { schemaFor } from "./document-schema";
import { getNumericId, type LineItemGid, type OrderGid } from "./ids";
import {
  ORDER_LIST_CUSTOMS_FACTS_QUERY,
  ORDERS_FOR_LIST_AFTER_QUERY,
  ORDERS_FOR_LIST_BEFORE_QUERY,
} from "./order-list.graphql";
import { selectCustomsTaxId, toLocalizedFields, toMailingAddress, toMoneyBag } from "./order-mapping";
import { LocalizedFieldSchema, MailingAddressSchema, MoneyBagSchema, UInt64Schema } from "./order-schemas";
import {
  type CustomsTaxId,
  DEFAULT_UNFULFILLED_ORDERS_QUERY,
  type ShopifyLocalizedField,
  type ShopifyMailingAddress,
  type ShopifyMoneyBag,
  type ShopifyWeight,
} from "./orders";
import { GidSchema, ns, RawWeightSchema, readWeight } from "./response-schemas";

// One page of orders awaiting shipment for the Orders screen, each with enough to prefill and
// preflight a label roughly (see order-list.graphql.ts for what is left out and why).

export const ORDER_LIST_PAGE_SIZE = 20;
// How many line items the list reads per order; more are marked, not guessed.
export const ORDER_LIST_LINES_READ = 3;

export interface ShopifyOrderListLine {
  readonly id: LineItemGid;
  readonly title: string;
  readonly sku: string | null;
  readonly quantity: number;
  readonly unfulfilledQuantity: number;
  readonly requiresShipping: boolean;
  readonly weight: ShopifyWeight | null;
  readonly productType: string | null;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
}

export interface ShopifyOrderListItem {
  readonly id: OrderGid;
  readonly legacyId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly displayFulfillmentStatus: string;
  /** Whether the customer asked for a return that waits for the merchant (Shopify's RETURN_REQUESTED). */
  readonly returnRequested: boolean;
  readonly totalWeightGrams: number | null;
  readonly currencyCode: string;
  readonly shippingAddress: ShopifyMailingAddress | null;
  readonly shippingLine: { readonly title: string; readonly code: string | null } | null;
  readonly localizedFields: readonly ShopifyLocalizedField[];
  readonly customsTaxId: CustomsTaxId | null;
  readonly lines: readonly ShopifyOrderListLine[];
  /** False when the order has more line items than the list reads. */
  readonly linesComplete: boolean;
}

export interface ShopifyOrderListPage {
  readonly orders: readonly ShopifyOrderListItem[];
  /** Each order's cursor, in the same order: a filtered page ends at the last order it shows. */
  readonly cursors: readonly string[];
  readonly pageInfo: {
    readonly hasNextPage: boolean;
    readonly hasPreviousPage: boolean;
    readonly startCursor: string | null;
    readonly endCursor: string | null;
  };
  readonly problems: readonly ShopifyProblem[];
}

// Checked against codegen's types for the documents in order-list.graphql.ts (document-schema.ts).
const OrderForListSchema = schemaFor<OrderForListFragment>()(
  z.object({
    id: GidSchema<OrderGid>("Order"),
    legacyResourceId: UInt64Schema,
    name: z.string(),
    createdAt: z.string(),
    email: ns,
    phone: ns,
    displayFulfillmentStatus: z.string(),
    returnStatus: z.string(),
    totalWeight: UInt64Schema.nullish(),
    currencyCode: z.string(),
    shippingAddress: MailingAddressSchema.nullish(),
    shippingLine: z.object({ title: z.string(), code: ns }).nullish(),
    localizedFields: z.object({ nodes: z.array(LocalizedFieldSchema) }),
    lineItems: z.object({
      pageInfo: z.object({ hasNextPage: z.boolean() }),
      nodes: z.array(
        z.object({
          id: GidSchema<LineItemGid>("LineItem"),
          title: z.string(),
          name: z.string(),
          sku: ns,
          quantity: z.number().int(),
          unfulfilledQuantity: z.number().int(),
          requiresShipping: z.boolean(),
          weight: RawWeightSchema.nullish(),
          product: z.object({ productType: z.string() }).nullish(),
          variant: z
            .object({ inventoryItem: z.object({ harmonizedSystemCode: ns, countryCodeOfOrigin: ns }) })
            .nullish(),
        }),
      ),
    }),
  }),
);
type OrderForListData = z.infer<typeof OrderForListSchema>;

// Both directions read the same page: one schema, checked against both documents' types.
const OrdersForListDataSchema = schemaFor<OrdersForListAfterQuery | OrdersForListBeforeQuery>()(
  z.object({
    orders: z.object({
      pageInfo: z.object({
        hasNextPage: z.boolean(),
        hasPreviousPage: z.boolean(),
        startCursor: ns,
        endCursor: ns,
      }),
      edges: z.array(z.object({ cursor: z.string(), node: OrderForListSchema })),
    }),
  }),
);

const OPERATION = "OrdersForList";

function toListItem(o: OrderForListData, problems: ShopifyProblem[]): ShopifyOrderListItem {
  const shippingAddress = o.shippingAddress ? toMailingAddress(o.shippingAddress) : null;
  const localizedFields = toLocalizedFields(
    o.localizedFields.nodes,
    { operation: OPERATION, pathOf: (_, i) => `${o.name}.localizedFields[${i}].purpose` },
    problems,
  );
  const grams = o.totalWeight == null ? null : Number(o.totalWeight);
  return {
    id: o.id,
    legacyId: o.legacyResourceId,
    name: o.name,
    createdAt: o.createdAt,
    email: o.email,
    phone: o.phone,
    displayFulfillmentStatus: o.displayFulfillmentStatus,
    returnRequested: o.returnStatus === "RETURN_REQUESTED",
    totalWeightGrams: grams !== null && Number.isFinite(grams) ? grams : null,
    currencyCode: o.currencyCode,
    shippingAddress,
    shippingLine: o.shippingLine ?? null,
    localizedFields,
    customsTaxId: selectCustomsTaxId(localizedFields, shippingAddress?.countryCode ?? null),
    lines: o.lineItems.nodes.map((line, i) => ({
      id: line.id,
      title: line.title,
      sku: line.sku,
      quantity: line.quantity,
      unfulfilledQuantity: line.unfulfilledQuantity,
      requiresShipping: line.requiresShipping,
      weight: readWeight(line.weight, { operation: OPERATION, path: `${o.name}.lineItems[${i}].weight` }, problems),
      productType: line.product?.productType.trim() ? line.product.productType : null,
      hsCode: line.variant?.inventoryItem.harmonizedSystemCode ?? null,
      countryOfOrigin: line.variant?.inventoryItem.countryCodeOfOrigin ?? null,
    })),
    linesComplete: !o.lineItems.pageInfo.hasNextPage,
  };
}

/**
 * Which orders a list page reads: those awaiting shipment, those whose customer asked for a
 * return, or these orders by id (at most a page of them: the Flagged tab, from the app's records).
 */
export type OrderListScope = "awaiting_shipment" | "return_requested" | { readonly ids: readonly OrderGid[] };

/** Shopify's search for orders whose customer requested a return (Order.returnStatus). */
export const RETURN_REQUESTED_ORDERS_QUERY = "return_status:return_requested";

/** Shopify's search for the list's orders, narrowed by an order name when the merchant searches. */
export function buildOrderListQuery(
  search: string | null | undefined,
  scope: OrderListScope = "awaiting_shipment",
): string {
  if (typeof scope === "object") {
    const ids = scope.ids.slice(0, ORDER_LIST_PAGE_SIZE).flatMap((gid) => {
      const id = getNumericId(gid);
      return id ? [`id:${id}`] : [];
    });
    // No id is no order (an empty search would be every order).
    return ids.length > 0 ? ids.join(" OR ") : "id:0";
  }
  const name = search
    ?.trim()
    .replace(/^#/, "")
    .replace(/[^\w-]/g, "");
  const base = scope === "return_requested" ? RETURN_REQUESTED_ORDERS_QUERY : DEFAULT_UNFULFILLED_ORDERS_QUERY;
  return name ? `${base} name:${name}` : base;
}

/** A page of orders awaiting shipment, newest first; `before` reads the page before a cursor. */
export async function getOrderListPage(
  admin: AdminGraphqlClient,
  options: { after?: string | null; before?: string | null; search?: string | null; scope?: OrderListScope },
): Promise<Result<ShopifyOrderListPage, ShopifyError>> {
  const query = buildOrderListQuery(options.search, options.scope);
  const backwards = Boolean(options.before);
  const result = await runAdminGraphql(admin, {
    operation: backwards ? "OrdersForListBefore" : "OrdersForListAfter",
    document: backwards ? ORDERS_FOR_LIST_BEFORE_QUERY : ORDERS_FOR_LIST_AFTER_QUERY,
    variables: backwards
      ? ({ before: options.before, query } satisfies OrdersForListBeforeQueryVariables)
      : ({ after: options.after ?? null, query } satisfies OrdersForListAfterQueryVariables),
    schema: OrdersForListDataSchema,
  });
  if (!result.ok) return result;
  const problems: ShopifyProblem[] = [...result.value.problems];
  const { edges, pageInfo } = result.value.data.orders;
  return ok({
    orders: edges.map((e) => toListItem(e.node, problems)),
    cursors: edges.map((e) => e.cursor),
    pageInfo,
    problems,
  });
}

// ---------- What the short read leaves out, for international orders ----------

const OrderListCustomsFactsSchema = schemaFor<OrderListCustomsFactsQuery>()(
  z.object({
    orders: z.object({
      nodes: z.array(
        z.object({
          id: GidSchema<OrderGid>("Order"),
          lineItems: z.object({
            nodes: z.array(
              z.object({
                id: GidSchema<LineItemGid>("LineItem"),
                discountedUnitPriceAfterAllDiscountsSet: MoneyBagSchema,
              }),
            ),
          }),
          fulfillmentOrders: z.object({
            nodes: z.array(
              z.object({ status: z.string(), internationalDuties: z.object({ incoterm: z.string() }).nullish() }),
            ),
          }),
        }),
      ),
    }),
  }),
);

/** What the customer paid per unit of each line read, and the open shipments' duties terms. */
export type OrderListCustomsFacts = {
  readonly paidUnitPrices: ReadonlyMap<LineItemGid, ShopifyMoneyBag>;
  /** The duties terms of the order's open fulfillment orders (DDP, DAP), as Shopify states them. */
  readonly incoterms: readonly string[];
};

/**
 * One call for the orders of a list page that cross a border (ORDER_LIST_CUSTOMS_FACTS_QUERY):
 * what the one judge needs beyond the short read to judge them as the order page does.
 */
export async function getOrderListCustomsFacts(
  admin: AdminGraphqlClient,
  orderGids: readonly OrderGid[],
): Promise<Result<Map<OrderGid, OrderListCustomsFacts>, ShopifyError>> {
  const facts = new Map<OrderGid, OrderListCustomsFacts>();
  const ids = orderGids.slice(0, ORDER_LIST_PAGE_SIZE).flatMap((gid) => {
    const id = getNumericId(gid);
    return id ? [`id:${id}`] : [];
  });
  if (ids.length === 0) return ok(facts);
  const result = await runAdminGraphql(admin, {
    operation: "OrderListCustomsFacts",
    document: ORDER_LIST_CUSTOMS_FACTS_QUERY,
    variables: { query: ids.join(" OR "), first: ids.length } satisfies OrderListCustomsFactsQueryVariables,
    schema: OrderListCustomsFactsSchema,
  });
  if (!result.ok) return result;
  for (const node of result.value.data.orders.nodes) {
    facts.set(node.id, {
      paidUnitPrices: new Map(
        node.lineItems.nodes.map((l) => [l.id, toMoneyBag(l.discountedUnitPriceAfterAllDiscountsSet)] as const),
      ),
      incoterms: node.fulfillmentOrders.nodes
        .filter((fo) => fo.status !== "CLOSED" && fo.status !== "CANCELLED" && fo.status !== "INCOMPLETE")
        .flatMap((fo) => (fo.internationalDuties ? [fo.internationalDuties.incoterm] : [])),
    });
  }
  return ok(facts);
}
