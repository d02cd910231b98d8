import type { RunEstimate } from "~/bulk/bulk-run-eta";
import type { BulkItemStatus } from "~/bulk/bulk-runs.server";
import type { BulkRunItemView, BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { formatMinorUnits } from "~/utils/money";

// The words a bulk run's page uses for its states, shared by its parts.

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export const STATUS_TEXT: Record<BulkItemStatus, string> = {
  checking: "Checking",
  blocked: "Needs fixing",
  skipped: "Left out",
  ready: "Ready",
  queued: "Waiting",
  buying: "Buying",
  bought: "Bought",
  failed: "Failed",
  not_started: "Not started",
  not_fulfillable: "Not bought",
};

export function formatEstimate(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/**
 * The time left, and what sets its pace as measured: Shopify's limit for the store, or a shipping
 * service slower than usual (with the pace it keeps).
 */
export function describeEstimate(estimate: RunEstimate): string {
  const left = formatEstimate(estimate.seconds);
  if (estimate.limitedBy === "shopify") return `${left} (at the pace Shopify allows this store)`;
  const slow = estimate.slowShippingSecondsPerLabel;
  if (slow === null) return left;
  const pace = slow >= 1 ? `about ${Math.round(slow)} s a label` : `about ${slow.toFixed(1)} s a label`;
  return `${left} (the shipping service is answering slowly: ${pace}; Shopify would allow faster)`;
}

/** The page's title: what the run is doing, or how it ended (a run with failures did not just "buy labels"). */
export function describeRunTitle(run: Pick<BulkRunView, "status" | "progress">): string {
  switch (run.status) {
    case "checking":
      return "Checking the orders";
    case "review":
      return "Review and buy";
    case "running":
      return "Buying labels";
    case "stopped":
      return "Buying stopped";
    case "cancelled":
      return "Buying cancelled";
    case "done":
      if (run.progress.bought === 0) return "No labels bought";
      return run.progress.failed + run.progress.notFulfillable > 0 ? "Some labels not bought" : "Labels bought";
  }
}

/** "20 shipments from 18 orders": the header's count, saying why it differs from the orders selected. */
export function describeRunSize(run: Pick<BulkRunView, "items" | "orderCount">): string {
  const shipments = run.items.length;
  if (shipments === run.orderCount) return plural(shipments, "order");
  return `${plural(shipments, "shipment")} from ${plural(run.orderCount, "order")} (some orders ship from more than one location)`;
}

/** "#1001" or "#1001 · shipment 2 of 3": two shipments of one order can be told apart. */
export function describeShipment(item: Pick<BulkRunItemView, "orderName" | "shipment">): string {
  return item.shipment ? `${item.orderName} · shipment ${item.shipment.index} of ${item.shipment.of}` : item.orderName;
}

/**
 * How far buying has come, in whole percent. Items the run will not buy (cancelled, stopped)
 * count as not done, so a cancelled run never reads 100%.
 */
export function buyingPercent(progress: BulkRunView["progress"]): number {
  const settled = progress.bought + progress.failed + progress.notFulfillable;
  const all = settled + progress.remaining + progress.notStarted;
  return all === 0 ? 0 : Math.floor((settled / all) * 100);
}

/** "This run charged $84.12 for 7 labels (refunded since: $12.00)": counted from the labels bought. */
export function describeCharged(charged: BulkRunView["charged"]): string {
  if (charged.count === 0) return "This run charged nothing: no label was bought.";
  const refunded =
    charged.refundedCents > 0 ? ` (refunded since: ${formatMinorUnits(charged.refundedCents, charged.currency)})` : "";
  return `This run charged ${formatMinorUnits(charged.chargedCents, charged.currency)} for ${plural(charged.count, "label")}${refunded}.`;
}
