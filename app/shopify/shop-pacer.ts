import { Mutex } from "async-mutex";

import { delay } from "~/utils/delay";

// Pacing the worker's Shopify calls for one shop (ADR 20). Shopify's rate limit is a leaky bucket
// per app and store; every answer reports it in `extensions.cost.throttleStatus`. The worker's
// calls wait here until the bucket (as last reported, restored since at the shop's rate, less the
// requested cost of the calls still in flight) holds the call's requested cost plus a reserve
// left for the merchant's pages. Pages do not wait here: they only teach the pacer what Shopify
// reported. Several worker processes share a shop's bucket without talking to each other: each
// learns the bucket from every answer, so when one spends, the other's next answer shows it.

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };

/** What one answer said about the call and the bucket (`extensions.cost`). */
export type CallCost = { requestedQueryCost: number | null; throttleStatus: ThrottleStatus | null };

/**
 * The share of the bucket background calls leave for the merchant's pages. The Orders page asks
 * for about 480 points (its list of 20 orders, ADR 16) and the run page for a few; on Standard
 * (2,000 points) 30% is 600: one page load always finds what it asks for, and the bucket refills
 * it in 6 s at 100 points a second, about as often as a merchant loads a page. Larger plans keep
 * the same share: a reserve costs a run only the bucket's start (600 points on Standard is 6 s).
 */
export const MERCHANT_RESERVE_FRACTION = 0.3;

// What an operation not seen yet may ask: no document of the app asks for more
// (test/query-cost.test.ts keeps each at or below 500 of Shopify's 1,000-point limit).
const UNKNOWN_OPERATION_COST = 500;
// While the bucket is unknown, one call goes first and the rest wait for its answer.
const FIRST_ANSWER_POLL_MS = 50;

export interface ShopPacer {
  /**
   * Waits for the bucket to hold the operation's requested cost plus the merchant's reserve, then
   * counts the call as in flight. Call the answer's `done` with what Shopify reported (or null).
   */
  acquire(operation: string): Promise<(cost: CallCost | null) => void>;
  /** Learns from an answer the worker did not pace (a page's call). */
  learn(cost: CallCost, operation?: string): void;
  /** The bucket as the pacer estimates it now; null before any answer. */
  estimate(): ThrottleStatus | null;
  /**
   * What background calls may take now without waiting: the bucket as estimated, less the calls
   * in flight and the merchant's reserve; null before any answer.
   */
  spare(): number | null;
}

export type ShopPacerOptions = {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  reserveFraction?: number;
};

export function createShopPacer(options: ShopPacerOptions = {}): ShopPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? delay;
  const reserveFraction = options.reserveFraction ?? MERCHANT_RESERVE_FRACTION;
  // Waiters are served in arrival order: only the first sleeps, the others wait behind it.
  const queue = new Mutex();
  const costs = new Map<string, number>();
  let bucket: (ThrottleStatus & { at: number }) | null = null;
  let inFlight = 0;

  const available = () => {
    if (!bucket) return 0;
    // Shopify took the calls in flight from the bucket when they arrived, and it refills from there.
    const restored = (Math.max(0, now() - bucket.at) / 1000) * bucket.restoreRate;
    return Math.min(bucket.maximumAvailable, bucket.currentlyAvailable - inFlight + restored);
  };
  const reserveOf = (known: ThrottleStatus) => Math.ceil(known.maximumAvailable * reserveFraction);
  const learn = (cost: CallCost, operation?: string) => {
    if (operation && cost.requestedQueryCost !== null) costs.set(operation, cost.requestedQueryCost);
    if (cost.throttleStatus) bucket = { ...cost.throttleStatus, at: now() };
  };

  return {
    learn,
    estimate: () =>
      bucket && {
        maximumAvailable: bucket.maximumAvailable,
        restoreRate: bucket.restoreRate,
        currentlyAvailable: Math.max(0, Math.floor(available())),
      },
    spare: () => bucket && available() - reserveOf(bucket),
    async acquire(operation) {
      const cost = costs.get(operation) ?? UNKNOWN_OPERATION_COST;
      await queue.runExclusive(async () => {
        for (;;) {
          if (!bucket) {
            if (inFlight === 0) break;
            await sleep(FIRST_ANSWER_POLL_MS);
            continue;
          }
          // A call that asks for more than the bucket less the reserve waits for a full bucket.
          const needed = Math.min(bucket.maximumAvailable, cost + reserveOf(bucket));
          const missing = needed - available();
          if (missing <= 0) break;
          await sleep(Math.ceil((missing / bucket.restoreRate) * 1000));
        }
        inFlight += cost;
      });
      let done = false;
      return (answer) => {
        if (done) return;
        done = true;
        inFlight -= cost;
        if (answer) learn(answer, operation);
      };
    },
  };
}
