// How long a running bulk run has left (ADR 20). Two floors bound it, and the pace so far
// refines it:
// - Shopify: each label bought spends the shop's rate limit (the spend guard's read, which the
//   first write-back reuses, and the fulfillment itself: about 21 points as Shopify counts actual cost),
//   restored at the shop's rate (100 points a second on Standard, 1,000 on Plus), less the
//   merchant's reserve the worker leaves in the bucket;
// - shipping: one purchase a label, BULK_SHIPPING_CONCURRENCY in flight.
// Before the first label is bought, the larger floor is the estimate; after, the pace so far,
// never below the floors (a run that started on a full bucket slows once it is spent).
//
// What is slow is said from what was measured (issue 40): once labels are bought, a pace well
// below what Shopify's restore rate allows means Shopify is not what holds the run back, so the
// shipping service is named, with the pace measured; a pace at Shopify's allowance names Shopify.

/** Calls to the shipping service in flight at once from one worker, over all bulk jobs. */
export const BULK_SHIPPING_CONCURRENCY = 4;

/** Shopify points one bought label spends (actual cost, measured at the emulator). */
export const SHOPIFY_POINTS_PER_LABEL = 21;
/** A purchase request's usual time at the shipping service. */
export const SHIPPING_CALL_SECONDS = 0.3;

/** A measured pace this much slower than a floor is not that floor's doing. */
export const SLOWER_THAN_FLOOR = 1.5;

export type RunEstimate = {
  seconds: number;
  /** What sets the pace: Shopify's rate limit for this store, or the shipping service. */
  limitedBy: "shopify" | "shipping";
  /**
   * Seconds a label took so far, when that is slower than the shipping service usually allows
   * (its purchases are what is slow); null before any label is bought or when it is not slow.
   */
  slowShippingSecondsPerLabel: number | null;
};

export function estimateRunSeconds(input: {
  remaining: number;
  done: number;
  elapsedSeconds: number;
  /** The shop's restore rate (points a second), as Shopify reports it; null when not known yet. */
  restoreRate: number | null;
  shippingConcurrency: number;
}): RunEstimate | null {
  if (input.remaining <= 0) return null;
  const shopifyFloor = input.restoreRate ? (input.remaining * SHOPIFY_POINTS_PER_LABEL) / input.restoreRate : 0;
  const shippingFloor = (input.remaining * SHIPPING_CALL_SECONDS) / input.shippingConcurrency;
  const perLabel = input.done > 0 ? input.elapsedSeconds / input.done : null;
  const pace = perLabel === null ? 0 : perLabel * input.remaining;
  const seconds = Math.round(Math.max(shopifyFloor, shippingFloor, pace));
  if (perLabel === null) {
    return {
      seconds,
      limitedBy: shopifyFloor >= shippingFloor ? "shopify" : "shipping",
      slowShippingSecondsPerLabel: null,
    };
  }
  // Measured: Shopify's allowance per label against the pace the run actually keeps.
  const shopifyPerLabel = input.restoreRate ? SHOPIFY_POINTS_PER_LABEL / input.restoreRate : 0;
  const shippingPerLabel = SHIPPING_CALL_SECONDS / input.shippingConcurrency;
  const limitedBy = perLabel > shopifyPerLabel * SLOWER_THAN_FLOOR ? "shipping" : "shopify";
  const slow = limitedBy === "shipping" && perLabel > shippingPerLabel * SLOWER_THAN_FLOOR;
  return { seconds, limitedBy, slowShippingSecondsPerLabel: slow ? Math.round(perLabel * 10) / 10 : null };
}
