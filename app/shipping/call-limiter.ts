import type { FetchLike } from "./client.server";

// At most `limit` requests to the shipping service in flight from one process, whichever job
// makes them. A bulk run's jobs spend part of their time elsewhere (Shopify, the database): with
// more jobs than slots, a slot a job leaves for that work is taken by another job's request, so
// the service sees a steady `limit` requests at a time, and never more (its rate limit is per
// account).

export type CallLimiter = {
  readonly limit: number;
  run<T>(call: () => Promise<T>): Promise<T>;
};

export function createCallLimiter(limit: number): CallLimiter {
  if (!(limit >= 1)) throw new RangeError("a call limiter needs at least one slot");
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  return {
    limit,
    async run<T>(call: () => Promise<T>): Promise<T> {
      if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else inFlight += 1;
      try {
        return await call();
      } finally {
        const next = waiting.shift();
        // The slot passes straight to the next caller; only when nobody waits is it freed.
        if (next) next();
        else inFlight -= 1;
      }
    },
  };
}

/**
 * `fetch` with each request to the service holding one of `limiter`'s slots until its answer's
 * headers arrive. Only the wire time counts: building and checking a request, reading and checking
 * its answer, and a retry's Retry-After wait all happen outside the slot, so a slot never idles
 * while its job does other work.
 */
export function limitFetch(fetch: FetchLike, limiter: CallLimiter): FetchLike {
  return (input, init) => limiter.run(() => fetch(input, init));
}
