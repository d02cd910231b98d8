import type { ShippingClient } from "./client.server";

// At most `limit` calls to the shipping service in flight from one process, whichever job makes
// them. A bulk run's jobs spend part of their time elsewhere (Shopify, the database): with more
// jobs than call slots, a slot a job leaves for that work is taken by another job's call, so the
// service sees a steady `limit` calls at a time, and never more (its rate limit is per account).

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

/** The same client, its calls to the service going through `limiter`. */
export function limitShippingCalls(client: ShippingClient, limiter: CallLimiter): ShippingClient {
  const limited = {} as ShippingClient;
  for (const key of Object.keys(client) as (keyof ShippingClient)[]) {
    const method = client[key] as (...args: unknown[]) => Promise<unknown>;
    (limited as Record<string, unknown>)[key] = (...args: unknown[]) => limiter.run(() => method.apply(client, args));
  }
  return limited;
}
