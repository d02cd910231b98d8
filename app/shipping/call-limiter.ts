import type { RequestSlots } from "./client.server";

// At most `limit` requests to the shipping service in flight from one process, whichever job
// makes them: the shipping client takes a slot per request (its `slots` option) and holds it only
// while the request is on the wire. A bulk run's jobs spend most of their time elsewhere (Shopify,
// the database, checking answers): with more jobs than slots, a slot a job leaves is taken by
// another job's request, so the service sees a steady `limit` requests at a time, and never more
// (its rate limit is per account).

export type CallLimiter = RequestSlots & { readonly limit: number };

export function createCallLimiter(limit: number): CallLimiter {
  if (!(limit >= 1)) throw new RangeError("a call limiter needs at least one slot");
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = async (): Promise<() => void> => {
    if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      // The slot passes straight to the next caller; only when nobody waits is it freed.
      if (next) next();
      else inFlight -= 1;
    };
  };
  return { limit, acquire };
}
