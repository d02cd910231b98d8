import type { PrismaClient } from "@prisma/client";

import { voidHeldPurchaseIfAsked } from "~/labels/held-purchase.server";
import { fromShopifyError, type LabelError, labelError } from "~/labels/label-errors";
import { findLabel, type LabelView, type ReturnLabelView } from "~/labels/label-repository.server";
import { purchase, type PurchaseOptions, type PurchaseShippingPort } from "~/labels/purchase.server";
import { writeTracking } from "~/labels/write-tracking.server";
import { matchesPersonal } from "~/settings/personal-data-box.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { KnownPreflightProblem, PreflightCode } from "~/shipping/preflight";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { type FulfillmentOrderGuard, getFulfillmentOrderGuard } from "~/shopify/fulfillment-order-state";
import { readOrderReturns, type ShopifyOrderReturns } from "~/shopify/returns";
import { ok, type Result } from "~/utils/result";

import { shipToKeyOf } from "./ship-to-key";

// The pipeline's last step (load → check → draft → BUY), the one way every door spends: the order
// page, the extension and bulk runs. The exactly-once purchase (ADR 5) asks the spend guard right
// before its request: is this shipment still one Shopify would let us fulfil (not on hold, not
// cancelled or closed, still going where the draft was made for)? Then the tracking to Shopify.
// The recovery job's purchases pass the same guard.

export type BuyDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /**
   * The purchase's calls; with `voidLabel` too, a label bought for a shipment Shopify held in the
   * instant of the purchase is voided at once when the shop asked for it in Settings.
   */
  shipping: PurchaseShippingPort & Partial<Pick<ShippingClient, "voidLabel">>;
  /** Who let this purchase happen, for the audit trail; null for jobs acting on their own. */
  staffMemberId?: string | null;
  /** purchase()'s last check before its request leaves (a bulk run's cancel). */
  beforeRequest?: (label: LabelView) => Promise<string | null>;
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

/** A line the label ships that Shopify no longer has that many of left to ship (fulfilled, moved). */
function itemsGone(label: Pick<LabelView, "lineItems">, remaining: FulfillmentOrderGuard["remaining"]): boolean {
  return label.lineItems.some((line) => {
    const left = remaining.byLine.get(line.id);
    // A line past the first page read is not judged: the write-back caps to what remains.
    if (left === undefined) return remaining.complete;
    return left < line.quantity;
  });
}

/** Why Shopify would not let this label's shipment be fulfilled now; null when it would. */
export function judgeSpend(
  label: Pick<LabelView, "shipToKey" | "lineItems">,
  guard: FulfillmentOrderGuard,
): Refusal | null {
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
  if (itemsGone(label, guard.remaining)) {
    return {
      code: "ITEMS_CHANGED",
      message: "Some items of this draft were fulfilled or moved in Shopify after it was made.",
      suggestion: "Discard the draft and create the label again for what is left to ship.",
    };
  }
  const now = shipToKeyOf({ shippingAddress: guard.orderShippingAddress }, { destination: guard.destination });
  if (label.shipToKey && now && !matchesPersonal(label.shipToKey, now)) {
    return {
      code: "ADDRESS_CHANGED",
      message: "The order's shipping address changed after this draft was made.",
      suggestion: "Discard the draft and create the label again for the new address.",
    };
  }
  return null;
}

function refuse(label: LabelView, refusal: Refusal): LabelError {
  const problem: KnownPreflightProblem = {
    path: "fulfillment_order",
    code: refusal.code,
    severity: "blocking",
    message: refusal.message,
    suggestion: refusal.suggestion,
  };
  return labelError(
    "NOT_FULFILLABLE",
    `${refusal.message} Nothing was bought. ${refusal.suggestion}`,
    `spend guard: ${label.id} refused, ${refusal.code}`,
    { problems: [problem] },
  );
}

/**
 * The spend guard, for purchase()'s beforeSpend: asks Shopify about the label's shipment right
 * before the purchase request, after the claim (so a purchase a takeover finds already charged is
 * saved, never refused). Without a way to ask Shopify, nothing is bought.
 */
export function createSpendGuard(
  admin: AdminGraphqlClient | null,
  /** Told what Shopify said when it let the purchase go (the write-back reuses it). */
  onCleared?: (guard: FulfillmentOrderGuard) => void,
): (label: LabelView) => Promise<LabelError | null> {
  return async (label) => {
    if (!admin) {
      return labelError(
        "SHOPIFY_ERROR",
        "Shopify did not answer whether this shipment can still be fulfilled, so nothing was bought. Try again.",
        `spend guard: no Admin API for ${label.id}`,
      );
    }
    if (label.kind === "return") return guardReturnSpend(admin, label);
    const guard = await getFulfillmentOrderGuard(admin, label.fulfillmentOrderGid);
    if (!guard.ok) {
      if (guard.error.code === "NOT_FOUND") {
        return refuse(label, {
          code: "CANNOT_FULFILL",
          message: "This shipment is no longer in Shopify.",
          suggestion: "Open the order in Shopify to see what changed.",
        });
      }
      // Shopify could not say: nothing is bought on a guess.
      return fromShopifyError("spend guard", guard.error);
    }
    const refusal = judgeSpend(label, guard.value);
    if (refusal) return refuse(label, refusal);
    onCleared?.(guard.value);
    return null;
  };
}

/** Why Shopify would not take this return label now; null when it would (ADR 23). */
export function judgeReturnSpend(
  label: Pick<ReturnLabelView, "returnGid" | "fulfillmentOrderGid">,
  returns: ShopifyOrderReturns,
): Refusal | null {
  const ret = returns.returns.find((r) => r.id === label.returnGid);
  const look = "Open the return in Shopify to see what changed.";
  if (!ret)
    return { code: "CANNOT_FULFILL", message: "This return is no longer on the order in Shopify.", suggestion: look };
  if (ret.status !== "OPEN") {
    const state = ret.status ? ret.status.toLowerCase() : "in a state this app doesn't know";
    return {
      code: "CANNOT_FULFILL",
      message:
        ret.status === "REQUESTED"
          ? `Return ${ret.name} is still a request in Shopify: approve it first.`
          : `Return ${ret.name} is ${state} in Shopify, so it takes no return label.`,
      suggestion: ret.status === "REQUESTED" ? "Approve the return, then buy the label." : look,
    };
  }
  const rfo = ret.reverseFulfillmentOrders.find((r) => r.id === label.fulfillmentOrderGid);
  if (!rfo || rfo.status !== "OPEN") {
    return { code: "CANNOT_FULFILL", message: `Return ${ret.name} has nothing left to send back.`, suggestion: look };
  }
  if (rfo.reverseDeliveries.some((d) => d.labelUrl !== null || d.trackingNumber !== null)) {
    return {
      code: "CANNOT_FULFILL",
      message: `Return ${ret.name} already has a return label in Shopify.`,
      suggestion: "Use that label, or remove it in Shopify first.",
    };
  }
  return null;
}

async function guardReturnSpend(admin: AdminGraphqlClient, label: ReturnLabelView): Promise<LabelError | null> {
  const returns = await readOrderReturns(admin, label.orderGid);
  if (!returns.ok) {
    if (returns.error.code === "NOT_FOUND") {
      return refuse(label, {
        code: "CANNOT_FULFILL",
        message: "This order is no longer in Shopify.",
        suggestion: "Open the order in Shopify to see what changed.",
      });
    }
    return fromShopifyError("spend guard", returns.error);
  }
  const refusal = judgeReturnSpend(label, returns.value);
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
  // What the guard saw when it let the purchase go: its first write-back need not read it again.
  const cleared: { remaining?: FulfillmentOrderGuard["remaining"] } = {};
  const bought = await purchase(
    {
      db,
      shop,
      shipping: deps.shipping,
      staffMemberId: deps.staffMemberId ?? null,
      beforeSpend: createSpendGuard(deps.admin, (guard) => (cleared.remaining = guard.remaining)),
      ...(deps.beforeRequest ? { beforeRequest: deps.beforeRequest } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    },
    labelId,
    options.purchase,
  );
  if (!bought.ok) return bought;
  const remainingAtPurchase = cleared.remaining;
  const written = await writeTracking(
    { db, shop, admin: deps.admin, staffMemberId: deps.staffMemberId ?? null, ...(deps.now ? { now: deps.now } : {}) },
    labelId,
    {
      ...(options.notifyCustomer === undefined ? {} : { notifyCustomer: options.notifyCustomer }),
      ...(remainingAtPurchase ? { remainingAtPurchase } : {}),
    },
  );
  if (written.ok) return ok({ label: written.value, writeBackError: null });
  // Held or cancelled in Shopify in the instant of the purchase: flagged by the write-back, and
  // voided now if the shop turned that on (otherwise the merchant voids it in one click).
  const voidLabel = deps.shipping.voidLabel?.bind(deps.shipping);
  const autoVoided = voidLabel
    ? await voidHeldPurchaseIfAsked(
        { db, shop, admin: deps.admin, shipping: { voidLabel }, ...(deps.now ? { now: deps.now } : {}) },
        labelId,
      )
    : null;
  // The label is bought either way; what failed is only the tracking, which is retried.
  const latest = autoVoided ?? (await findLabel(db, shop, labelId)) ?? bought.value;
  return ok({
    label: latest,
    writeBackError: autoVoided
      ? `${written.error.message} It was voided on its own, as Settings asks: the charge goes back to your shipping balance once the carrier confirms.`
      : written.error.message,
  });
}
