// Shared set-up for tests that run bulk runs through the real job worker: a worker "process"
// inside the test process that can be killed the way SIGKILL kills one. Not a test file itself.
//
// A killed process does nothing more: no answer it was waiting for reaches it, no write it had
// not sent is sent, and the jobs it holds stay "running" under its claim until their lease ends.
// Here every call the worker makes (database, shipping service, Shopify) goes through a switch:
// once it is off, each call in flight or made later never settles, so the worker's code stops
// wherever it was, exactly as if its process were gone. What the service or the database did
// before the kill stays done (a charge whose answer never arrived is still a charge).
import type { PrismaClient } from "@prisma/client";

import type { FetchLike } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

export type KillSwitch = {
  readonly killed: boolean;
  kill(): void;
  /** Runs `work` unless killed; its outcome is passed on only if the switch is still on when it settles. */
  gate<T>(work: () => PromiseLike<T>): Promise<T>;
};

export function createKillSwitch(): KillSwitch {
  let killed = false;
  const never = <T>() => new Promise<T>(() => {});
  return {
    get killed() {
      return killed;
    },
    kill() {
      killed = true;
    },
    gate<T>(work: () => PromiseLike<T>): Promise<T> {
      if (killed) return never<T>();
      return new Promise<T>((resolve, reject) => {
        work().then(
          (value) => {
            if (!killed) resolve(value);
          },
          (error: unknown) => {
            if (!killed) reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
  };
}

const isDelegate = (value: unknown): value is object =>
  typeof value === "object" && value !== null && typeof (value as { findMany?: unknown }).findMany === "function";

/** The process's database client: every model call and transaction goes through the switch. */
export function killableDb(real: PrismaClient, process: KillSwitch): PrismaClient {
  const gateMethods = (delegate: object) =>
    new Proxy(delegate, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) =>
          process.gate(() => (value as (...a: unknown[]) => PromiseLike<unknown>).apply(target, args));
      },
    });
  const wrap = <C extends object>(client: C): C =>
    new Proxy(client, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (prop === "$transaction" && typeof value === "function") {
          const transaction = value as (arg: unknown, ...rest: unknown[]) => PromiseLike<unknown>;
          return (arg: unknown, ...rest: unknown[]) =>
            process.gate(() =>
              typeof arg === "function"
                ? transaction.call(target, (tx: object) => (arg as (t: object) => unknown)(wrap(tx)), ...rest)
                : transaction.call(target, arg, ...rest),
            );
        }
        if (isDelegate(value)) return gateMethods(value);
        if (typeof prop === "string" && /^\$(queryRaw|executeRaw)/.test(prop) && typeof value === "function") {
          return (...args: unknown[]) =>
            process.gate(() => (value as (...a: unknown[]) => PromiseLike<unknown>).apply(target, args));
        }
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return wrap(real);
}

export function killableFetch(fetch: FetchLike, process: KillSwitch): FetchLike {
  return (input, init) => process.gate(() => fetch(input, init));
}

export function killableAdmin(admin: AdminGraphqlClient, process: KillSwitch): AdminGraphqlClient {
  return (query, options) => process.gate(() => admin(query, options));
}

/** "POST /v1/labels/{id}/purchase": a request as the shipping emulator's fault keys name it. */
export function shippingEndpointOf(input: string | URL | Request, init?: RequestInit): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  return `${method.toUpperCase()} ${url.pathname.replace(/^\/v1\/labels\/[^/]+/, "/v1/labels/{id}")}`;
}

export type ShippingExchange = {
  endpoint: string;
  /** The HTTP status, or 0 when no answer came (a dropped connection, an answer lost after the charge). */
  status: number;
};

/** A fetch in front of the service that reports every exchange (after it happened) to `onExchange`. */
export function observingFetch(fetch: FetchLike, onExchange: (exchange: ShippingExchange) => void): FetchLike {
  return async (input, init) => {
    const endpoint = shippingEndpointOf(input, init);
    try {
      const response = await fetch(input, init);
      onExchange({ endpoint, status: response.status });
      return response;
    } catch (error) {
      onExchange({ endpoint, status: 0 });
      throw error;
    }
  };
}

/** A Shopify Admin handler that reports whether each answer was THROTTLED. */
export function observingAdmin(admin: AdminGraphqlClient, onAnswer: (throttled: boolean) => void): AdminGraphqlClient {
  return async (query, options) => {
    const response = await admin(query, options);
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { errors?: unknown } | null;
    const throttled =
      Array.isArray(body?.errors) &&
      body.errors.some(
        (e: unknown) => (e as { extensions?: { code?: unknown } } | null)?.extensions?.code === "THROTTLED",
      );
    onAnswer(throttled);
    return response;
  };
}

/** Polls `condition` on real timers (a faked Date does not shorten or stretch the wait). */
export async function waitFor<T>(
  condition: () => Promise<T | null | undefined | false>,
  what: string,
  options: { timeoutMs: number; intervalMs?: number; describe?: () => Promise<string> | string },
): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (performance.now() - started > options.timeoutMs) {
      const detail = options.describe ? `\n${await options.describe()}` : "";
      throw new Error(`timed out after ${options.timeoutMs} ms waiting until ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
