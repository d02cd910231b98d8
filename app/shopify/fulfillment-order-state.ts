import { z } from "zod";

import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type RunAdminGraphqlOptions,
  type ShopifyError,
} from "./admin-client";
import { FULFILLMENT_ORDER_STATE_QUERY, ORDER_CANCELLATION_QUERY } from "./fulfillments.graphql";
import type { FulfillmentOrderGid, OrderGid } from "./ids";
import { FULFILLMENT_ORDER_STATUSES, type ShopifyFulfillmentOrderStatus } from "./orders";
import { GidSchema } from "./response-schemas";

export interface FulfillmentOrderState {
  readonly id: FulfillmentOrderGid;
  // null: a status this app doesn't know; treated as not open.
  readonly status: ShopifyFulfillmentOrderStatus | null;
  readonly orderGid: OrderGid;
  readonly orderName: string;
}

const StateSchema = z.object({
  fulfillmentOrder: z
    .object({
      id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
      status: z.string(),
      orderId: GidSchema<OrderGid>("Order"),
      orderName: z.string(),
    })
    .nullable(),
});

const CancellationSchema = z.object({
  order: z
    .object({ id: GidSchema<OrderGid>("Order"), name: z.string(), cancelledAt: z.string().nullable() })
    .nullable(),
});

const knownStatus = (status: string): ShopifyFulfillmentOrderStatus | null =>
  (FULFILLMENT_ORDER_STATUSES as readonly string[]).includes(status) ? (status as ShopifyFulfillmentOrderStatus) : null;

/** NOT_FOUND when Shopify no longer has it (or never had it for this shop). */
export async function getFulfillmentOrderState(
  admin: AdminGraphqlClient,
  id: FulfillmentOrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<FulfillmentOrderState, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "FulfillmentOrderState",
      document: FULFILLMENT_ORDER_STATE_QUERY,
      variables: { id },
      schema: StateSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const fo = result.value.data.fulfillmentOrder;
  if (!fo) {
    return err(
      createShopifyError("NOT_FOUND", `FulfillmentOrderState: ${id} not found`, {
        message: "This shipment no longer exists in Shopify.",
      }),
    );
  }
  return ok({ id: fo.id, status: knownStatus(fo.status), orderGid: fo.orderId, orderName: fo.orderName });
}

/** Whether the order was cancelled; NOT_FOUND when Shopify no longer has it. */
export async function getOrderCancellation(
  admin: AdminGraphqlClient,
  id: OrderGid,
  callOptions: RunAdminGraphqlOptions = {},
): Promise<Result<{ orderGid: OrderGid; name: string; cancelled: boolean }, ShopifyError>> {
  const result = await runAdminGraphql(
    admin,
    {
      operation: "OrderCancellation",
      document: ORDER_CANCELLATION_QUERY,
      variables: { id },
      schema: CancellationSchema,
    },
    callOptions,
  );
  if (!result.ok) return result;
  const order = result.value.data.order;
  if (!order) {
    return err(
      createShopifyError("NOT_FOUND", `OrderCancellation: ${id} not found`, {
        message: "This order no longer exists in Shopify.",
      }),
    );
  }
  return ok({ orderGid: order.id, name: order.name, cancelled: order.cancelledAt !== null });
}
