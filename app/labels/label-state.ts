// How a label's state reads to the merchant, in one place for the Orders list and the order page.
// Pure: takes the fields of a LabelView it needs, so the browser can use it too.

// A label's states and its write-back's states: declared here, in a module the browser can load,
// and used by the label repository (the only writer) and the screens alike.
export const LABEL_STATUSES = [
  "creating",
  "draft",
  "purchasing",
  "purchased",
  "fulfilled",
  "failed",
  // A bought label the service agreed to void: its refund is pending the carrier's decision.
  "void_pending",
  "voided",
] as const;
export type LabelStatus = (typeof LABEL_STATUSES)[number];
export const WRITE_BACK_STATUSES = ["none", "pending", "writing", "done", "failed"] as const;
export type WriteBackStatus = (typeof WRITE_BACK_STATUSES)[number];

/** The statuses that hold a fulfillment order's one active label. */
export const ACTIVE_STATUSES = [
  "creating",
  "draft",
  "purchasing",
  "purchased",
  "fulfilled",
] as const satisfies readonly LabelStatus[];

export type LabelProgress =
  "none" | "draft" | "on_hold" | "buying" | "bought" | "tracking_pending" | "write_back_failed";

export type LabelStateInput = {
  status: LabelStatus;
  writeBack: { status: WriteBackStatus };
  /** A draft whose shipment Shopify put on hold reads "On hold" (it cannot be bought meanwhile). */
  attention?: { reason: string } | null;
};

/** Where a fulfillment order's active label stands, from "no label" to "tracking in Shopify". */
export function describeLabelProgress(label: LabelStateInput | null | undefined): LabelProgress {
  if (!label) return "none";
  switch (label.status) {
    case "creating":
    case "draft":
      return label.attention?.reason === "on_hold" ? "on_hold" : "draft";
    case "purchasing":
      return "buying";
    case "fulfilled":
      return "bought";
    case "purchased":
      if (label.writeBack.status === "failed") return "write_back_failed";
      return label.writeBack.status === "done" ? "bought" : "tracking_pending";
    default:
      return "none";
  }
}

// The order the list sorts an order's labels by: the one that needs the merchant most comes first.
const URGENCY: Record<LabelProgress, number> = {
  write_back_failed: 0,
  buying: 1,
  tracking_pending: 2,
  on_hold: 3,
  draft: 4,
  none: 5,
  bought: 6,
};

/** One state for an order with several labels (a split order): the one that needs attention. */
export function summarizeLabelProgress(states: readonly LabelProgress[]): LabelProgress {
  return [...states].sort((a, b) => URGENCY[a] - URGENCY[b])[0] ?? "none";
}

export const LABEL_PROGRESS_TEXT: Record<LabelProgress, string> = {
  none: "No label",
  draft: "Draft",
  on_hold: "On hold",
  buying: "Buying…",
  bought: "Bought",
  tracking_pending: "Tracking pending",
  write_back_failed: "Tracking not in Shopify",
};

/**
 * Something happened to the order after its label was bought that the merchant must act on:
 * the order was cancelled, its shipping address changed, or the shipment was closed in Shopify
 * (moved, merged) before the tracking was written back: never cleared silently. And a draft's
 * "on_hold" while Shopify holds its shipment, which goes by itself once the hold is released or
 * the label is bought.
 */
export const LABEL_ATTENTIONS = [
  "order_cancelled",
  "address_changed",
  "shipment_closed",
  "on_hold",
  "return_closed",
  // Shopify held the shipment (or the order was cancelled) in the instant between the spend guard
  // and the purchase: the label was charged and Shopify will not take its tracking (issue 40).
  "bought_while_held",
] as const;
export type LabelAttention = (typeof LABEL_ATTENTIONS)[number];

export const LABEL_ATTENTION_TEXT: Record<LabelAttention, string> = {
  order_cancelled:
    "The order was cancelled after its label was bought. Void the label with the carrier, or ship it anyway.",
  address_changed: "The shipping address changed after the label was bought: the label shows the old address.",
  shipment_closed:
    "Shopify closed this shipment (moved or merged) after its label was bought, so its tracking was not added.",
  on_hold:
    "Shopify put this shipment on hold after its draft was made: the label cannot be bought until the hold is released in Shopify.",
  return_closed:
    "The return was declined or cancelled in Shopify after its label was bought. Void the label if the customer will not send the parcel.",
  bought_while_held:
    "Shopify put this shipment on hold (or the order was cancelled) in the moment the label was bought, so it was charged but Shopify will not take its tracking. Void it to get the charge back, or release the hold in Shopify: the tracking is then sent.",
};

/** The name of the flag `bought_while_held`, on the order page, the Labels list and the home page. */
export const BOUGHT_WHILE_HELD_TITLE = "Bought for a held order";

/**
 * The flags whose label the merchant most likely wants voided: charged for a shipment Shopify will
 * not let go out. Their banner offers the void in one click, naming the refund.
 */
export const VOID_SUGGESTED_ATTENTIONS: readonly LabelAttention[] = ["bought_while_held", "order_cancelled"];

/** The shipping service's parcel statuses, as the merchant reads them. */
export const TRACKING_STATUS_TEXT: Record<string, string> = {
  pre_transit: "Label created",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  attempted_delivery: "Delivery attempted",
  exception: "Delayed",
  returned: "Returned to sender",
};

/**
 * Bought labels that wait for the merchant after purchase, each a Labels list filter and a tile
 * of the home page (label-needs.server.ts holds the one definition both read): a parcel the carrier
 * reports delayed, tracking that did not reach Shopify, and a label bought for a shipment Shopify
 * held or cancelled in the instant of the purchase.
 */
export const LABEL_NEEDS = ["tracking_exception", "write_back_failed", "bought_while_held"] as const;
export type LabelNeed = (typeof LABEL_NEEDS)[number];
