import { z } from "zod";

import { parseAmountCents } from "~/shipping/vocabulary";
import type {
  OrderByNameQuery,
  OrdersAwaitingShipmentCountQuery,
  OrdersShippingPaidQuery,
} from "~/types/admin.generated";
import { ok, type Result } from "~/utils/result";

import { type AdminGraphqlClient, runAdminGraphql, type ShopifyError } from "./admin-client";
import { schemaFor } from "./document-schema";
import { getNumericId, type OrderGid } from "./ids";
import {
  ORDER_BY_NAME_QUERY,
  ORDERS_AWAITING_SHIPMENT_COUNT_QUERY,
  ORDERS_SHIPPING_PAID_QUERY,
} from "./order-summaries.graphql";
import { DEFAULT_UNFULFILLED_ORDERS_QUERY } from "./orders";
import { GidSchema } from "./response-schemas";

// Small reads for the home page (order-summaries.graphql.ts): a count, what a few orders paid for
// shipping, and the order an order number names. None pages through the store.

/** How many orders a batch of shipping-paid reads holds (the document's page size). */
export const SHIPPING_PAID_BATCH = 50;

const CountSchema = schemaFor<OrdersAwaitingShipmentCountQuery>()(
  z.object({ ordersCount: z.object({ count: z.number().int(), precision: z.string() }).nullish() }),
);

export type OrderCount = { count: number; /** Shopify stopped counting: "at least" this many. */ atLeast: boolean };

/** How many orders wait for shipment, by the Orders list's own search. */
export async function countOrdersAwaitingShipment(
  admin: AdminGraphqlClient,
): Promise<Result<OrderCount, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "OrdersAwaitingShipmentCount",
    document: ORDERS_AWAITING_SHIPMENT_COUNT_QUERY,
    variables: { query: DEFAULT_UNFULFILLED_ORDERS_QUERY },
    schema: CountSchema,
  });
  if (!result.ok) return result;
  const found = result.value.data.ordersCount;
  return ok({ count: found?.count ?? 0, atLeast: found?.precision === "AT_LEAST" });
}

const ShippingPaidSchema = schemaFor<OrdersShippingPaidQuery>()(
  z.object({
    orders: z.object({
      nodes: z.array(
        z.object({
          id: GidSchema<OrderGid>("Order"),
          currentShippingPriceSet: z.object({
            shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }),
          }),
        }),
      ),
    }),
  }),
);

export type ShippingPaid = { orderGid: OrderGid; paidCents: number; currency: string };

/**
 * What the customers of these orders (at most SHIPPING_PAID_BATCH) paid for shipping, in the
 * shop's currency. Orders Shopify does not find are left out; an unreadable amount is left out too.
 */
export async function getShippingPaid(
  admin: AdminGraphqlClient,
  orderGids: readonly string[],
): Promise<Result<ShippingPaid[], ShopifyError>> {
  const ids = orderGids.slice(0, SHIPPING_PAID_BATCH).flatMap((gid) => {
    const id = getNumericId(gid);
    return id ? [`id:${id}`] : [];
  });
  if (ids.length === 0) return ok([]);
  const result = await runAdminGraphql(admin, {
    operation: "OrdersShippingPaid",
    document: ORDERS_SHIPPING_PAID_QUERY,
    variables: { query: ids.join(" OR ") },
    schema: ShippingPaidSchema,
  });
  if (!result.ok) return result;
  return ok(
    result.value.data.orders.nodes.flatMap((order) => {
      const { amount, currencyCode } = order.currentShippingPriceSet.shopMoney;
      const paidCents = parseAmountCents(amount) ?? roundAmountCents(amount);
      return paidCents === null ? [] : [{ orderGid: order.id, paidCents, currency: currencyCode }];
    }),
  );
}

// Shopify may send more than two decimals ("8.950"); parseAmountCents takes the service's two.
function roundAmountCents(amount: string): number | null {
  const value = Number(amount);
  return Number.isFinite(value) ? Math.round(value * 100) : null;
}

const OrderByNameSchema = schemaFor<OrderByNameQuery>()(
  z.object({ orders: z.object({ nodes: z.array(z.object({ id: GidSchema<OrderGid>("Order"), name: z.string() })) }) }),
);

/**
 * The order named "#1001" (the name as Shopify shows it), or null. The caller passes a name of
 * letters, digits, "#" and "-" only: it goes into Shopify's search syntax as it is.
 */
export async function findOrderByName(
  admin: AdminGraphqlClient,
  name: string,
): Promise<Result<{ orderGid: OrderGid; name: string } | null, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "OrderByName",
    document: ORDER_BY_NAME_QUERY,
    variables: { query: `name:${name}` },
    schema: OrderByNameSchema,
  });
  if (!result.ok) return result;
  const order = result.value.data.orders.nodes[0];
  return ok(order ? { orderGid: order.id, name: order.name } : null);
}
