import { AsyncLocalStorage } from "node:async_hooks";

// Who is acting, and why, for the request or job being served: the personal-data access log
// (app/labels/personal-data-access.server.ts) names them on every read that opens a customer's
// ship-to details. The app's server opens one per request (server/app-server.ts), the worker one
// per job (app/queue/job-worker.server.ts); the shop context names the staff member once the
// session token is verified (app/http/shop-context.server.ts). Outside any (a script, a test
// calling a function directly) a read is still logged, as unattributed.

export type AccessContext = {
  /** `staff:<Shopify user id>`, `shop:<domain>` (a session token naming no user), `job:<name>`, `webhook`. */
  actor: string;
  /** Why: the route (`GET /app/orders/:id`) or the job's name. */
  purpose: string;
};

// One store per process even when the server's own modules and the app's build each bundle a
// copy of this file: the server opens the context, the build's loaders read it.
const KEY = Symbol.for("ship-orders.access-context");
type Store = AccessContext & { readonly seen: Set<string> };
const storage: AsyncLocalStorage<Store> = ((globalThis as unknown as Record<symbol, unknown>)[KEY] ??=
  new AsyncLocalStorage<Store>()) as AsyncLocalStorage<Store>;

/** Runs `fn` with `context` as who is acting and why, for everything it awaits. */
export function runWithAccessContext<T>(context: AccessContext, fn: () => T): T {
  return storage.run({ ...context, seen: new Set() }, fn);
}

/** The current request's or job's actor and purpose, if one was opened. */
export function currentAccessContext(): Readonly<AccessContext> | null {
  const store = storage.getStore();
  return store ? { actor: store.actor, purpose: store.purpose } : null;
}

/**
 * Runs `write` unless the current request or job already ran one for `key` (outside any, always):
 * the same read of the same orders, repeated within one request or job, is logged once.
 */
export async function onceInAccessContext(key: string, write: () => Promise<unknown>): Promise<void> {
  const store = storage.getStore();
  if (store?.seen.has(key)) return;
  await write();
  store?.seen.add(key);
}

/** Names who acts for the rest of the current request (once its session token is verified). */
export function nameAccessActor(actor: string): void {
  const store = storage.getStore();
  if (store) store.actor = actor;
}

/** The purpose of an HTTP request: its method and path, with ids and queries left out. */
export function purposeOfRequest(method: string, url: string): string {
  const path = new URL(url, "http://app.invalid").pathname
    .split("/")
    .map((part) => (/\d/.test(part) ? ":id" : part))
    .join("/");
  return `${method.toUpperCase()} ${path}`;
}
