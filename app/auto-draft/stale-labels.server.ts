import type { PrismaClient } from "@prisma/client";

import { discardDraft, type DiscardShippingPort } from "~/labels/discard-draft.server";
import { fromShopifyError, type LabelError } from "~/labels/label-errors";
import {
  type LabelAttention,
  listActiveLabelsForFulfillmentOrders,
  listActiveLabelsForOrders,
  type OutboundLabelView,
} from "~/labels/label-repository.server";
import {
  clearOnHold,
  flagLabelAttention,
  markDraftOnHold,
  releaseHeldPurchase,
} from "~/labels/label-transitions.server";
import { matchesPersonal } from "~/settings/personal-data-box.server";
import { shipToKeyOf } from "~/shipments/ship-to-key";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { getOrderCancellation } from "~/shopify/fulfillment-order-state";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";
import { getOrderForLabel, type ShopifyFulfillmentOrder, type ShopifyOrderForLabel } from "~/shopify/orders";
import { err, ok, type Result } from "~/utils/result";

import { clearAutoDraftOutcome, recordAutoDraftOutcome } from "./auto-draft-outcomes.server";
import { getAutoDraftSettings } from "./auto-draft-settings.server";

// After Shopify tells us an order or its fulfillment orders changed (cancelled, moved, merged,
// split, a new shipping address), the labels made for them are checked against what Shopify holds
// now. A draft that no longer fits is discarded (free: discardDraft asks the service first and
// never voids a bought label) and, with auto-drafts on, drafted again; a bought label is never
// dropped: it is flagged for the merchant, who decides (void it with the carrier, or ship it). A
// draft whose shipment Shopify put on hold is marked "On hold" until the hold is released.

export type RecheckDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** null: no readable API key; drafts that went stale are then left and reported. */
  shipping: DiscardShippingPort | null;
  /** Asks for a new automatic draft of a fulfillment order (the auto-draft job). */
  redraft: (fulfillmentOrderGid: FulfillmentOrderGid) => Promise<void>;
  now?: () => Date;
};

export type RecheckInput = {
  orderGids: readonly OrderGid[];
  /** Fulfillment orders Shopify named: their labels are checked, and any still open may be drafted anew. */
  fulfillmentOrderGids: readonly FulfillmentOrderGid[];
};

export type RecheckReport = {
  discarded: string[];
  /** Bought labels flagged for the merchant, and drafts marked on hold. */
  flagged: { labelId: string; reason: LabelAttention }[];
  /** Drafts whose shipment's hold was released: buyable again. */
  released: string[];
  redrafted: string[];
  unchanged: string[];
};

const OPEN_STATUSES = new Set(["OPEN", "IN_PROGRESS", "SCHEDULED", "ON_HOLD"]);
const BOUGHT = new Set(["purchasing", "purchased", "fulfilled"]);

const ADDRESS_CHANGED =
  "The shipping address changed after this draft was made, so the draft was discarded. Create the label again.";
const ITEMS_CHANGED =
  "The items of this shipment changed in Shopify after this draft was made, so the draft was discarded. Create the label again.";
const NO_KEY_TO_DISCARD =
  "This draft no longer matches the order in Shopify, but it could not be discarded: add your shipping API key in Settings, then discard it.";

type Verdict =
  | { kind: "fits" }
  | { kind: "gone"; attention: LabelAttention }
  | { kind: "changed"; attention: LabelAttention; message: string };

function judge(label: OutboundLabelView, cancelled: boolean, order: ShopifyOrderForLabel | null): Verdict {
  if (cancelled || !order) return { kind: "gone", attention: "order_cancelled" };
  const fo = order.fulfillmentOrders.find((f) => f.id === label.fulfillmentOrderGid);
  // Not shown any more (merged or moved away) or closed: it ships nothing now.
  if (!fo || !fo.status || !OPEN_STATUSES.has(fo.status)) {
    // A fulfilled label closes its fulfillment order: that is the normal end, not news.
    return label.status === "fulfilled" ? { kind: "fits" } : { kind: "gone", attention: "shipment_closed" };
  }
  const freshKey = shipToKeyOf(order, fo);
  if (label.shipToKey && freshKey && !matchesPersonal(label.shipToKey, freshKey)) {
    return { kind: "changed", attention: "address_changed", message: ADDRESS_CHANGED };
  }
  if (label.status === "draft" && !itemsStillFit(label, fo)) {
    return { kind: "changed", attention: "shipment_closed", message: ITEMS_CHANGED };
  }
  return { kind: "fits" };
}

function itemsStillFit(label: OutboundLabelView, fo: ShopifyFulfillmentOrder): boolean {
  const remaining = new Map(fo.lineItems.map((l) => [l.id, l.remainingQuantity]));
  return label.lineItems.every((line) => (remaining.get(line.id) ?? 0) >= line.quantity);
}

export async function recheckLabels(
  deps: RecheckDeps,
  input: RecheckInput,
): Promise<Result<RecheckReport, LabelError>> {
  const { db, shop } = deps;
  const report: RecheckReport = { discarded: [], flagged: [], released: [], redrafted: [], unchanged: [] };
  const named = await listActiveLabelsForFulfillmentOrders(db, shop, input.fulfillmentOrderGids);
  const orderGids = [...new Set([...input.orderGids, ...named.map((l) => l.orderGid)])];
  const labels = await listActiveLabelsForOrders(db, shop, orderGids);
  const autoDraft = await getAutoDraftSettings(db, shop);
  const redraft = async (fulfillmentOrderGid: FulfillmentOrderGid) => {
    if (!autoDraft.enabled || report.redrafted.includes(fulfillmentOrderGid)) return;
    await deps.redraft(fulfillmentOrderGid);
    report.redrafted.push(fulfillmentOrderGid);
  };

  for (const orderGid of orderGids) {
    const cancellation = await getOrderCancellation(deps.admin, orderGid);
    if (!cancellation.ok && cancellation.error.code !== "NOT_FOUND") {
      return err(fromShopifyError("recheckLabels", cancellation.error));
    }
    const cancelled = !cancellation.ok || cancellation.value.cancelled;
    let order: ShopifyOrderForLabel | null = null;
    if (!cancelled) {
      const read = await getOrderForLabel(deps.admin, orderGid);
      if (!read.ok && read.error.code !== "NOT_FOUND") return err(fromShopifyError("recheckLabels", read.error));
      order = read.ok ? read.value.order : null;
    }
    if (cancelled) {
      // A cancelled order needs no label: what auto-draft reported about it is moot.
      for (const fo of new Set(labels.filter((l) => l.orderGid === orderGid).map((l) => l.fulfillmentOrderGid))) {
        await clearAutoDraftOutcome(db, shop, fo);
      }
    }

    for (const label of labels.filter((l) => l.orderGid === orderGid)) {
      // Being created right now: its creator finishes first; a later delivery re-checks it.
      if (label.status === "creating") continue;
      if (label.status === "draft" && order) await markHold(deps, report, label, order);
      if (label.attention?.reason === "bought_while_held" && order) await releaseHeld(deps, report, label, order);
      const verdict = judge(label, cancelled, order);
      if (verdict.kind === "fits") {
        report.unchanged.push(label.id);
        continue;
      }
      if (BOUGHT.has(label.status)) {
        if (await flagLabelAttention(db, shop, label.id, verdict.attention, deps.now?.())) {
          report.flagged.push({ labelId: label.id, reason: verdict.attention });
        }
        continue;
      }
      const outcome = await discardStale(deps, label, verdict, order);
      if (!outcome.ok) return outcome;
      if (outcome.value === "bought") {
        if (await flagLabelAttention(db, shop, label.id, verdict.attention, deps.now?.())) {
          report.flagged.push({ labelId: label.id, reason: verdict.attention });
        }
        continue;
      }
      if (outcome.value === "kept") continue;
      report.discarded.push(label.id);
      if (verdict.kind === "changed") {
        if (autoDraft.enabled) await redraft(label.fulfillmentOrderGid);
        else if (order) {
          await recordAutoDraftOutcome(db, shop, {
            orderGid: order.id,
            orderName: order.name,
            fulfillmentOrderGid: label.fulfillmentOrderGid,
            status: "blocked",
            problems: [{ path: "label", message: verdict.message }],
          });
        }
      }
    }
  }

  // New fulfillment orders (the result of a move or split) and open ones without a label.
  const labelled = new Set(labels.map((l) => l.fulfillmentOrderGid));
  for (const fo of input.fulfillmentOrderGids) if (!labelled.has(fo)) await redraft(fo);
  return ok(report);
}

/**
 * A draft whose shipment Shopify holds reads "On hold" (buyLabel refuses it meanwhile); once the
 * hold is released it is a plain draft again, buyable.
 */
async function markHold(
  deps: RecheckDeps,
  report: RecheckReport,
  label: OutboundLabelView,
  order: ShopifyOrderForLabel,
) {
  const held = order.fulfillmentOrders.find((f) => f.id === label.fulfillmentOrderGid)?.status === "ON_HOLD";
  if (held && (await markDraftOnHold(deps.db, deps.shop, label.id, deps.now?.()))) {
    report.flagged.push({ labelId: label.id, reason: "on_hold" });
  } else if (!held && label.attention?.reason === "on_hold" && (await clearOnHold(deps.db, deps.shop, label.id))) {
    report.released.push(label.id);
  }
}

/**
 * A label bought for a shipment Shopify held in the instant of the purchase ("Bought for a held
 * order"): once Shopify lets the shipment go (the hold released, the order not cancelled), the
 * flag goes and its tracking is sent by the recovery job.
 */
async function releaseHeld(
  deps: RecheckDeps,
  report: RecheckReport,
  label: OutboundLabelView,
  order: ShopifyOrderForLabel,
) {
  const status = order.fulfillmentOrders.find((f) => f.id === label.fulfillmentOrderGid)?.status;
  if ((status === "OPEN" || status === "IN_PROGRESS") && (await releaseHeldPurchase(deps.db, deps.shop, label.id))) {
    report.released.push(label.id);
  }
}

/** "discarded", "bought" (the service says it was bought: saved as such, to be flagged) or "kept" (no key). */
async function discardStale(
  deps: RecheckDeps,
  label: OutboundLabelView,
  verdict: Exclude<Verdict, { kind: "fits" }>,
  order: ShopifyOrderForLabel | null,
): Promise<Result<"discarded" | "bought" | "kept", LabelError>> {
  if (!deps.shipping) {
    if (order) {
      await recordAutoDraftOutcome(deps.db, deps.shop, {
        orderGid: order.id,
        orderName: order.name,
        fulfillmentOrderGid: label.fulfillmentOrderGid,
        status: "blocked",
        problems: [{ path: "settings.apiKey", message: NO_KEY_TO_DISCARD }],
      });
    }
    return ok("kept");
  }
  const discarded = await discardDraft(
    { db: deps.db, shop: deps.shop, shipping: deps.shipping, ...(deps.now ? { now: deps.now } : {}) },
    label.id,
  );
  if (!discarded.ok) {
    // Bought or being bought meanwhile: the caller flags it instead.
    if (discarded.error.code === "INVALID_STATE") return ok("bought");
    return discarded;
  }
  if (!discarded.value.discarded) return ok("bought");
  if (verdict.kind === "gone") await clearAutoDraftOutcome(deps.db, deps.shop, label.fulfillmentOrderGid);
  return ok("discarded");
}
