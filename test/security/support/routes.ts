import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { ROOT } from "../../setup/database";

// Every route of the app, found on disk the way React Router's flat routes find them (app/routes.ts):
// a module directly in app/routes (tests and dotfiles aside), or a folder's route.tsx. Each
// dimension of the security suite must cover each handler (loader, action) or say here why it
// does not apply, so a new route cannot slip past the suite unnoticed.

export const ROUTES_DIR = join(ROOT, "app/routes");

export type Handler = "loader" | "action";
export type RouteHandler = { route: string; file: string; handler: Handler; key: string };
export type Dimension = "isolation" | "auth" | "fuzz" | "secrets";

const isRouteModule = (name: string) => /\.(ts|tsx)$/.test(name) && !/\.test\./.test(name) && !name.startsWith(".");

export function listRouteFiles(): { route: string; file: string }[] {
  const routes: { route: string; file: string }[] = [];
  for (const name of readdirSync(ROUTES_DIR).sort()) {
    if (name.startsWith(".")) continue;
    const path = join(ROUTES_DIR, name);
    if (statSync(path).isDirectory()) {
      const entry = ["route.tsx", "route.ts"].map((f) => join(path, f)).find((f) => existsSync(f));
      if (entry) routes.push({ route: name, file: entry });
    } else if (isRouteModule(name)) {
      routes.push({ route: name.replace(/\.(ts|tsx)$/, ""), file: path });
    }
  }
  return routes;
}

/** Every loader and action, by importing each route module. */
export async function listRouteHandlers(): Promise<RouteHandler[]> {
  const handlers: RouteHandler[] = [];
  for (const { route, file } of listRouteFiles()) {
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    for (const handler of ["loader", "action"] as const) {
      if (typeof module[handler] === "function") {
        handlers.push({ route, file: relative(ROOT, file), handler, key: `${route}#${handler}` });
      }
    }
  }
  return handlers;
}

// What a dimension does not apply to, and why. Everything else must be covered by its test file.
export const NOT_APPLICABLE: Record<Dimension, Record<string, string>> = {
  isolation: {
    "_index#loader": "public: redirects to /app or the login page, reads no shop's data",
    "auth.login#loader": "public login form: reads no shop's data, takes no ids",
    "auth.login#action": "public login form: starts Shopify's OAuth for the shop typed in, writes nothing",
  },
  auth: {
    "_index#loader": "public by design (Shopify opens the app there): a redirect only",
    "auth.login#loader": "public by design: the login form itself",
    "auth.login#action": "public by design: redirects to Shopify's OAuth for the shop typed in",
    "healthz#loader": "public by design: a load balancer's health check, says only whether the database answers",
  },
  fuzz: {
    "healthz#loader": "takes no input at all",
    "auth.$#loader": "takes no input but the session token (the auth checks fuzz nothing there)",
    "app#loader": "takes no input but the session token",
  },
  secrets: {},
};

export const NO_SESSION_TOKEN = new Set(["_index", "auth.login", "healthz"]);

/**
 * The keys a dimension must implement: every handler not listed as not applicable. Returns the
 * differences against what the test file implements, for one equality assertion.
 */
export async function coverageGaps(dimension: Dimension, implemented: Iterable<string>) {
  const all = await listRouteHandlers();
  const keys = new Set(all.map((h) => h.key));
  const notApplicable = NOT_APPLICABLE[dimension];
  const done = new Set(implemented);
  return {
    missing: [...keys].filter((k) => !(k in notApplicable) && !done.has(k)).sort(),
    stale: [...done, ...Object.keys(notApplicable)].filter((k) => !keys.has(k)).sort(),
    both: [...done].filter((k) => k in notApplicable).sort(),
  };
}
