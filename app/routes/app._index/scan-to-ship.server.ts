import type { PrismaClient } from "@prisma/client";

import type { SpendingRefusal } from "~/http/spending-permission.server";
import type { LabelError } from "~/labels/label-errors";
import { findLabelledOrderByName } from "~/labels/label-figures.server";
import { listLabelsForOrder } from "~/labels/label-repository.server";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import { getNumericId, type OrderGid, parseOrderGid } from "~/shopify/ids";
import { findOrderByName } from "~/shopify/order-summaries";
import { err, ok, type Result } from "~/utils/result";

import {
  buyLabelForOrderPage,
  type LabelSummary,
  type OrderActionDeps,
} from "../app.orders.$orderId/order-label-page.server";

// "Scan to ship" on the home: a barcode scanner types an order number and Enter. By default the
// order's label page opens. With the shop's `scanBuysDraft` setting, an order whose one label is a
// draft nothing blocks is bought at once, through the same purchase as the order page's Buy
// (buyLabel: Shopify asked first, exactly once, tracking written back), and printed by the page.

type ScanDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

/** A scan that names no order of the shop: the merchant scans again (ORDER_NOT_FOUND) or fixes the number. */
export type ScanError = { code: "ORDER_NUMBER_INVALID" | "ORDER_NOT_FOUND"; field: "orderNumber"; message: string };

export type ScannedOrder = { orderId: string; orderGid: OrderGid; orderName: string };

/**
 * The order a scanned or typed order number names ("#1001", "1001", " 1001\n"). The app's own
 * labels answer first (no Shopify call for an order already labelled); then Shopify's search by name.
 */
export async function findScannedOrder(
  deps: ScanDeps,
  scanned: string,
): Promise<Result<ScannedOrder, ScanError | ShopifyError>> {
  const digits = scanned.trim().replace(/^#/, "");
  if (!/^[A-Za-z0-9-]{1,30}$/.test(digits)) {
    return err({
      code: "ORDER_NUMBER_INVALID",
      field: "orderNumber",
      message: "Order number: scan or type an order number, like #1001.",
    });
  }
  const name = `#${digits}`;
  const known = parseOrderGid((await findLabelledOrderByName(deps.db, deps.shop, name)) ?? "");
  const knownId = known ? getNumericId(known) : undefined;
  if (known && knownId) return ok({ orderId: knownId, orderGid: known, orderName: name });
  const found = await findOrderByName(deps.admin, name);
  if (!found.ok) return found;
  const id = found.value ? getNumericId(found.value.orderGid) : undefined;
  if (!found.value || !id) {
    return err({
      code: "ORDER_NOT_FOUND",
      field: "orderNumber",
      message: `Order number: no order ${name} in this store.`,
    });
  }
  return ok({ orderId: id, orderGid: found.value.orderGid, orderName: name });
}

export type ScanOutcome =
  /** Open the order's label page: nothing to buy, or the shop buys only from the page. */
  | { kind: "open"; orderId: string }
  | { kind: "bought"; orderId: string; orderName: string; label: LabelSummary; writeBackError: string | null }
  /** The draft was not bought (a refusal before any charge, or the purchase's typed failure). */
  | { kind: "not_bought"; orderId: string; orderName: string; message: string; refusal: SpendingRefusal | null };

/**
 * What a scan does with the shop's setting: opens the order, or buys its one ready draft.
 * `mayBuy` asks Shopify whether the staff member may spend, only once there is a draft to buy.
 */
export async function shipScannedOrder(
  deps: ScanDeps & {
    scanBuysDraft: boolean;
    notifyCustomer: boolean;
    mayBuy: () => Promise<SpendingRefusal | null>;
    /** The shop's shipping client (no key: the route sends the merchant to Settings). */
    shipping: () => Promise<OrderActionDeps["shipping"]>;
    staffMemberId: string | null;
  },
  order: ScannedOrder,
): Promise<ScanOutcome> {
  const open: ScanOutcome = { kind: "open", orderId: order.orderId };
  if (!deps.scanBuysDraft) return open;
  const labels = (await listLabelsForOrder(deps.db, deps.shop, order.orderGid)).filter((l) => l.kind === "outbound");
  // One draft and nothing in flight: with two shipments, or a label being made or bought, the
  // merchant decides on the page.
  const drafts = labels.filter((l) => l.status === "draft");
  const draft = drafts[0];
  if (!draft || drafts.length > 1 || labels.some((l) => l.status === "creating" || l.status === "purchasing")) {
    return open;
  }
  const notBought = (message: string, refusal: SpendingRefusal | null = null): ScanOutcome => ({
    kind: "not_bought",
    orderId: order.orderId,
    orderName: order.orderName,
    message,
    refusal,
  });
  const refusal = await deps.mayBuy();
  if (refusal) return notBought(refusal.message, refusal);
  const shipping = await deps.shipping();
  const bought = await buyLabelForOrderPage(
    { db: deps.db, shop: deps.shop, admin: deps.admin, shipping, staffMemberId: deps.staffMemberId },
    { orderGid: order.orderGid, labelId: draft.id, notifyCustomer: deps.notifyCustomer },
  );
  if (!bought.ok) return notBought(describeFailure(order, bought.error));
  return { kind: "bought", orderId: order.orderId, orderName: order.orderName, ...bought.value };
}

const describeFailure = (order: ScannedOrder, error: LabelError) => `${order.orderName}: ${error.message}`;
