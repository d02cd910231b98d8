import { Semaphore } from "async-mutex";

import type { RequestSlots } from "./client.server";

// At most `limit` requests to the shipping service in flight from one process, whichever job
// makes them: the shipping client takes a slot per request (its `slots` option) and holds it only
// while the request is on the wire. A bulk run's jobs spend most of their time elsewhere (Shopify,
// the database, checking answers): with more jobs than slots, a slot a job leaves is taken by
// another job's request, so the service sees a steady `limit` requests at a time, and never more
// (its rate limit is per account).
//
// async-mutex's Semaphore is the queue (ADR 18): it hands each caller its own release, which does
// nothing when called twice, serves waiters in arrival order, and gives a freed slot straight to
// the first waiter, so a newcomer never overtakes a request already waiting.

export type CallLimiter = RequestSlots & { readonly limit: number };

export function createCallLimiter(limit: number): CallLimiter {
  if (!(limit >= 1)) throw new RangeError("a call limiter needs at least one slot");
  const slots = new Semaphore(limit);
  const acquire = async (): Promise<() => void> => {
    const [, release] = await slots.acquire();
    return release;
  };
  return { limit, acquire };
}
