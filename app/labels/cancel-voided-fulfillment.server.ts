import type { PrismaClient } from "@prisma/client";

import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { cancelFulfillment } from "~/shopify/fulfillments";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { fromShopifyError, type LabelError } from "./label-errors";
import { findLabel } from "./label-repository.server";
import { recordVoidShopify } from "./void-transitions.server";

// A voided label must leave no live Shopify fulfillment carrying its tracking (ADR 22). Both the
// void (once accepted) and a write-back that lands after it call this: whichever records the
// second half of "voided and fulfilled" finds the cancel planned and does it.

export type CancelVoidedDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

/**
 * Cancels the Shopify fulfillment of a label whose void is pending or done, once. Shopify failing
 * leaves it `cancel_pending` for the next decision or the recovery job; Shopify refusing it marks
 * it `cancel_failed`, shown to the merchant (asking again would be refused again).
 */
export async function cancelVoidedFulfillment(
  deps: CancelVoidedDeps,
  labelId: string,
): Promise<Result<void, LabelError>> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label?.void || label.void.shopify !== "cancel_pending" || label.kind !== "outbound" || !label.fulfillmentGid) {
    return ok(undefined);
  }
  if (label.status !== "void_pending" && label.status !== "voided") return ok(undefined);
  const ref = { shop: deps.shop, labelId };
  const cancelled = await cancelFulfillment(deps.admin, label.fulfillmentGid);
  if (!cancelled.ok) {
    if (cancelled.error.code === "USER_ERROR") {
      await recordVoidShopify(deps.db, ref, "cancel_failed");
      await recordAudit(deps.db, {
        shop: deps.shop,
        action: "fulfill",
        outcome: "error",
        orderGid: label.orderGid,
        labelId,
        detail: `fulfillment ${label.fulfillmentGid} not cancelled: ${cancelled.error.logMessage}`,
        staffMemberId: null,
      });
    }
    return err(fromShopifyError("cancelVoidedFulfillment", cancelled.error));
  }
  await recordVoidShopify(deps.db, ref, "cancelled", { cancelled: label.fulfillmentGid });
  await recordAudit(deps.db, {
    shop: deps.shop,
    action: "fulfill",
    outcome: "ok",
    orderGid: label.orderGid,
    labelId,
    detail: `fulfillment ${label.fulfillmentGid} cancelled: label voided`,
    staffMemberId: null,
  });
  return ok(undefined);
}
