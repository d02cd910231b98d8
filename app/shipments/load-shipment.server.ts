import type { PrismaClient } from "@prisma/client";

import { fromShopifyError, type LabelError, labelError } from "~/labels/label-errors";
import { type LabelView, listLabelsForOrder } from "~/labels/label-repository.server";
import { ACTIVE_STATUSES } from "~/labels/label-state";
import type { BoxPreset } from "~/settings/settings";
import { getSettingsWithPresets, type SettingsView } from "~/settings/settings.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { type FulfillmentOrderState, getFulfillmentOrderState } from "~/shopify/fulfillment-order-state";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";
import {
  getOrderForLabel,
  type ShopifyFulfillmentOrder,
  type ShopifyOrderForLabel,
  type ShopifyOrderForLabelResult,
} from "~/shopify/orders";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";
import { err, ok, type Result } from "~/utils/result";

import type { ShipmentFacts } from "./check-shipment";

// The pipeline's first step (LOAD → check → draft → buy): everything a door needs about an order's
// shipments, each read once: the order with its fulfillment orders (Shopify), the shop and its
// locations (Shopify), the shop's settings and boxes, and the order's labels (the database). A
// door that handles many orders (bulk, the selection check) reads the shop's part once for all.

export type ShipmentDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

/** What is the same for every order of a shop: read once per page, run or selection. */
export type ShopContext = {
  readonly shopAndLocations: ShopifyShopAndLocations;
  readonly settings: SettingsView;
  readonly presets: readonly BoxPreset[];
};

export type LoadedOrder = ShopContext & {
  readonly order: ShopifyOrderForLabel;
  /** Every label of the order (active and past), oldest first. */
  readonly labels: readonly LabelView[];
  /** What Shopify could not give in full, in the merchant's words. */
  readonly shopifyProblems: readonly string[];
};

export type LoadedShipment = ShipmentFacts &
  LoadedOrder & {
    readonly fulfillmentOrder: ShopifyFulfillmentOrder;
    /** The fulfillment order's one active label (creating … fulfilled), if any. */
    readonly activeLabel: LabelView | null;
  };

export const isActiveLabel = (label: LabelView) => (ACTIVE_STATUSES as readonly string[]).includes(label.status);

/** The shop's context; `known` is the shop and its locations as a caller already read them. */
export async function loadShopContext(
  deps: ShipmentDeps,
  known?: ShopifyShopAndLocations,
): Promise<Result<ShopContext, LabelError>> {
  const [shopAndLocations, { settings, presets }] = await Promise.all([
    known ? ok(known) : getShopAndLocations(deps.admin),
    getSettingsWithPresets(deps.db, deps.shop),
  ]);
  if (!shopAndLocations.ok) return err(fromShopifyError("loadShopContext", shopAndLocations.error));
  return ok({ shopAndLocations: shopAndLocations.value, settings, presets });
}

/**
 * One order and its labels, with the shop's context (read here unless the caller has it) and the
 * order (read here unless the caller read it with others: a bulk run's bulk read). An order of
 * another shop, or one deleted since, is NOT_FOUND: a 404 for a page, a skip for a job.
 */
export async function loadOrder(
  deps: ShipmentDeps,
  orderGid: OrderGid,
  context?: ShopContext,
  preread?: ShopifyOrderForLabelResult,
): Promise<Result<LoadedOrder, LabelError>> {
  const [order, shopContext, labels] = await Promise.all([
    preread ? ok(preread) : readShopOrder(deps, orderGid, "loadOrder"),
    context ? Promise.resolve(ok(context)) : loadShopContext(deps),
    listLabelsForOrder(deps.db, deps.shop, orderGid),
  ]);
  if (!order.ok) return order;
  if (!shopContext.ok) return shopContext;
  return ok({
    ...shopContext.value,
    order: order.value.order,
    labels,
    shopifyProblems: [...order.value.problems, ...shopContext.value.shopAndLocations.problems].map((p) => p.message),
  });
}

/**
 * The order alone, as this shop's store has it. An order id of another shop's (or one deleted
 * since) is NOT_FOUND: a 404 for a page, a skip for a job, never a system error.
 */
export async function readShopOrder(
  deps: Pick<ShipmentDeps, "admin">,
  orderGid: OrderGid,
  operation: string,
): Promise<Result<ShopifyOrderForLabelResult, LabelError>> {
  const order = await getOrderForLabel(deps.admin, orderGid);
  if (order.ok) return order;
  if (order.error.code === "NOT_FOUND") {
    return err(labelError("NOT_FOUND", "This order is no longer in Shopify.", `${operation}: no order ${orderGid}`));
  }
  return err(fromShopifyError(operation, order.error));
}

/** One of the loaded order's shipments; null when Shopify no longer shows it on the order. */
export function shipmentOf(loaded: LoadedOrder, fulfillmentOrderGid: string): LoadedShipment | null {
  const fulfillmentOrder = loaded.order.fulfillmentOrders.find((fo) => fo.id === fulfillmentOrderGid);
  if (!fulfillmentOrder) return null;
  const activeLabel =
    loaded.labels.find((l) => l.fulfillmentOrderGid === fulfillmentOrder.id && isActiveLabel(l)) ?? null;
  return { ...loaded, fulfillmentOrder, activeLabel };
}

/**
 * Where a fulfillment order named alone (a webhook, a job) stands in Shopify, and its order: one
 * cheap read, so a caller can stop before the order's larger read (held, scheduled, closed).
 */
export async function locateShipment(
  deps: Pick<ShipmentDeps, "admin">,
  fulfillmentOrderGid: FulfillmentOrderGid,
): Promise<Result<FulfillmentOrderState, LabelError>> {
  const state = await getFulfillmentOrderState(deps.admin, fulfillmentOrderGid);
  if (state.ok) return state;
  if (state.error.code === "NOT_FOUND") {
    return err(labelError("NOT_FOUND", "This shipment is no longer in Shopify.", state.error.logMessage));
  }
  return err(fromShopifyError("locateShipment", state.error));
}

/** The located shipment with its order, the shop's context and the order's labels. */
export async function loadShipment(
  deps: ShipmentDeps,
  // The id as a page or an extension sent it is checked against the order's own shipments.
  located: { id: string; orderGid: FulfillmentOrderState["orderGid"] },
): Promise<Result<LoadedShipment, LabelError>> {
  const loaded = await loadOrder(deps, located.orderGid);
  if (!loaded.ok) return loaded;
  const shipment = shipmentOf(loaded.value, located.id);
  if (!shipment) {
    return err(
      labelError(
        "NOT_FOUND",
        "This shipment is no longer part of the order in Shopify.",
        `loadShipment: ${located.id} not shown on ${located.orderGid}`,
      ),
    );
  }
  return ok(shipment);
}
