import type { PrismaClient } from "@prisma/client";

import { fromShopifyError, type LabelError, labelError, labelNotFound } from "~/labels/label-errors";
import { findLabel, type LabelView } from "~/labels/label-repository.server";
import { purchase, type PurchaseOptions, type PurchaseShippingPort } from "~/labels/purchase.server";
import { writeTracking } from "~/labels/write-tracking.server";
import type { KnownPreflightProblem, PreflightCode } from "~/shipping/preflight";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { type FulfillmentOrderGuard, getFulfillmentOrderGuard } from "~/shopify/fulfillment-order-state";
import { err, ok, type Result } from "~/utils/result";

import { shipToKeyOf } from "./ship-to-key";

// The pipeline's last step (load → check → draft → BUY), the one way every door spends: the order
// page, the extension and bulk runs. Right before the purchase it asks Shopify whether this
// shipment can still be fulfilled (not on hold, not cancelled or closed, still going where the
// draft was made for), so no label is bought that Shopify would not let us fulfil. Then the
// exactly-once purchase (ADR 5), then the tracking to Shopify.

export type BuyDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  shipping: PurchaseShippingPort;
  /** Who let this purchase happen, for the audit trail; null for jobs acting on their own. */
  staffMemberId?: string | null;
  now?: () => Date;
};

export type BoughtLabel = {
  label: LabelView;
  /** Set when the label was bought but its tracking did not reach Shopify (it is retried). */
  writeBackError: string | null;
};

// Shopify's FulfillmentHoldReason, in the merchant's words.
const HOLD_REASONS: Record<string, string> = {
  AWAITING_PAYMENT: "awaiting payment",
  HIGH_RISK_OF_FRAUD: "high risk of fraud",
  INCORRECT_ADDRESS: "incorrect address",
  INVENTORY_OUT_OF_STOCK: "inventory out of stock",
  UNKNOWN_DELIVERY_DATE: "unknown delivery date",
  AWAITING_RETURN_ITEMS: "awaiting returned items",
  ONLINE_STORE_POST_PURCHASE_CROSS_SELL: "post-purchase offer",
  OTHER: "other",
};

/** "on hold (awaiting payment: Bank transfer pending)": the hold as Shopify's admin names it. */
export function describeHolds(holds: FulfillmentOrderGuard["holds"]): string {
  const reasons = holds.map((h) => {
    const reason = HOLD_REASONS[h.reason] ?? h.reason.toLowerCase().replaceAll("_", " ");
    return h.notes ? `${reason}: ${h.notes}` : reason;
  });
  return reasons.length > 0 ? `on hold (${reasons.join("; ")})` : "on hold";
}

type Refusal = { code: PreflightCode; message: string; suggestion: string };

/** Why Shopify would not let this label's shipment be fulfilled now; null when it would. */
export function judgeSpend(label: Pick<LabelView, "shipToKey">, guard: FulfillmentOrderGuard): Refusal | null {
  if (guard.orderCancelled) {
    return {
      code: "ORDER_CANCELLED",
      message: "This order was cancelled in Shopify.",
      suggestion: "Discard the draft: a cancelled order is not shipped.",
    };
  }
  if (guard.status === "ON_HOLD") {
    return {
      code: "ON_HOLD",
      message: `This shipment is ${describeHolds(guard.holds)} in Shopify.`,
      suggestion: "Release the hold in Shopify, then buy the label.",
    };
  }
  if (!guard.canCreateFulfillment) {
    const state = guard.status ? guard.status.toLowerCase().replaceAll("_", " ") : "in a state this app doesn't know";
    return {
      code: "CANNOT_FULFILL",
      message: `This shipment is ${state} in Shopify and cannot be fulfilled now.`,
      suggestion: "Open the order in Shopify to see what changed.",
    };
  }
  const now = shipToKeyOf({ shippingAddress: guard.orderShippingAddress }, { destination: guard.destination });
  if (label.shipToKey && now && label.shipToKey !== now) {
    return {
      code: "ADDRESS_CHANGED",
      message: "The order's shipping address changed after this draft was made.",
      suggestion: "Discard the draft and create the label again for the new address.",
    };
  }
  return null;
}

function refuse(label: LabelView, refusal: Refusal): LabelError {
  // A purchase already under way may have gone through: say only that nothing more was bought.
  const outcome = label.status === "purchasing" ? "Nothing more was bought." : "Nothing was bought.";
  const problem: KnownPreflightProblem = {
    path: "fulfillment_order",
    code: refusal.code,
    severity: "blocking",
    message: refusal.message,
    suggestion: refusal.suggestion,
  };
  return labelError(
    "NOT_FULFILLABLE",
    `${refusal.message} ${outcome} ${refusal.suggestion}`,
    `buyLabel: ${label.id} refused, ${refusal.code}`,
    { problems: [problem] },
  );
}

/** The spend guard: asks Shopify about the label's shipment right before anything is bought. */
async function guardSpend(deps: BuyDeps, label: LabelView): Promise<LabelError | null> {
  const guard = await getFulfillmentOrderGuard(deps.admin, label.fulfillmentOrderGid);
  if (!guard.ok) {
    if (guard.error.code === "NOT_FOUND") {
      return refuse(label, {
        code: "CANNOT_FULFILL",
        message: "This shipment is no longer in Shopify.",
        suggestion: "Open the order in Shopify to see what changed.",
      });
    }
    // Shopify could not say: nothing is bought on a guess.
    return fromShopifyError("buyLabel", guard.error);
  }
  const refusal = judgeSpend(label, guard.value);
  return refusal ? refuse(label, refusal) : null;
}

/**
 * Buys the label (exactly once) if Shopify would let its shipment be fulfilled, then writes its
 * tracking to a Shopify fulfillment. A label already bought is not bought again: its tracking is
 * sent if it is not in Shopify yet.
 */
export async function buyLabel(
  deps: BuyDeps,
  labelId: string,
  options: { notifyCustomer?: boolean; purchase?: PurchaseOptions } = {},
): Promise<Result<BoughtLabel, LabelError>> {
  const { db, shop } = deps;
  const label = await findLabel(db, shop, labelId);
  if (!label) return err(labelNotFound("buyLabel", shop, labelId));
  if (label.status === "draft" || label.status === "purchasing") {
    const refusal = await guardSpend(deps, label);
    if (refusal) return err(refusal);
  }
  const bought = await purchase(
    {
      db,
      shop,
      shipping: deps.shipping,
      staffMemberId: deps.staffMemberId ?? null,
      ...(deps.now ? { now: deps.now } : {}),
    },
    labelId,
    options.purchase,
  );
  if (!bought.ok) return bought;
  const written = await writeTracking(
    { db, shop, admin: deps.admin, staffMemberId: deps.staffMemberId ?? null, ...(deps.now ? { now: deps.now } : {}) },
    labelId,
    options.notifyCustomer === undefined ? {} : { notifyCustomer: options.notifyCustomer },
  );
  if (written.ok) return ok({ label: written.value, writeBackError: null });
  // The label is bought either way; what failed is only the tracking, which is retried.
  const latest = (await findLabel(db, shop, labelId)) ?? bought.value;
  return ok({ label: latest, writeBackError: written.error.message });
}
