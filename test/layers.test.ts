import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

import { describe, expect, it } from "vitest";

// The app's folders in layers (README, "Architecture"): a module imports only from its own layer
// or below, so no import runs back up a layer. Tests are left out: a test may reach anywhere.
const LAYERS: readonly (readonly string[])[] = [
  // Infrastructure: the database seam and the job queue (port, adapters, worker loop) know no
  // capability.
  ["utils", "db", "queue"],
  ["shipping", "shopify"],
  ["settings"],
  ["labels"],
  ["shipments"],
  ["auto-draft", "bulk"],
  ["privacy"],
  // The wiring: job definitions and webhook handlers call the use cases below them.
  ["jobs", "webhooks"],
  ["http", "extension-api"],
  // The screens: each route folder holds its route and that screen's own loaders and actions.
  ["components", "routes"],
];

const APP = join(__dirname, "..", "app");

function layerOf(folder: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(folder));
  return index;
}

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The file an app import names (~/x or a relative path), or null for a package. */
function resolveImport(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return join(APP, specifier.slice(2));
  if (specifier.startsWith(".")) return normalize(join(dirname(file), specifier));
  return null;
}

/** The folder directly under `dir` that `path` sits in, or null when it is not below `dir`. */
function topFolderUnder(dir: string, path: string): string | null {
  const parts = relative(dir, path).split("/");
  return parts.length > 1 && parts[0] !== ".." ? (parts[0] ?? null) : null;
}

/** The app folder an import names ("labels" for ~/labels/x or ../labels/x), or null outside app folders. */
function importedFolder(file: string, specifier: string): string | null {
  const target = resolveImport(file, specifier);
  return target ? topFolderUnder(APP, target) : null;
}

const ROUTES = join(APP, "routes");

/** app/routes' folders: a screen each (React Router's flat routes read its `route.tsx`). */
function listRouteFolders(): string[] {
  return readdirSync(ROUTES).filter((name) => statSync(join(ROUTES, name)).isDirectory());
}

/** The route folder a file sits in or an import names, or null. */
const routeFolderOf = (path: string) => topFolderUnder(ROUTES, path);

describe("the app's layers", () => {
  it("puts every app folder in a layer", () => {
    const folders = readdirSync(APP).filter((name) => statSync(join(APP, name)).isDirectory() && name !== "types");
    expect(folders.filter((folder) => layerOf(folder) === -1)).toEqual([]);
  });

  it("has no import that runs back up a layer", () => {
    const upward: string[] = [];
    for (const file of listSources(APP)) {
      const own = relative(APP, file).split("/")[0] ?? "";
      if (layerOf(own) === -1) continue; // app/*.ts at the root: the one-of-each modules
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/from\s+["']([^"']+)["']/g)) {
        const folder = importedFolder(file, match[1] ?? "");
        if (folder && layerOf(folder) > layerOf(own)) upward.push(`${relative(APP, file)} → ${match[1]}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("gives every route folder its route module", () => {
    const without = listRouteFolders().filter(
      (folder) => !["route.tsx", "route.ts"].some((name) => readdirSync(join(ROUTES, folder)).includes(name)),
    );
    expect(without).toEqual([]);
  });

  // A screen's server code is its own: only routes and components reach into a route folder, and
  // another screen only for what it does as that one does (the Orders list's rows to start a bulk
  // run and to poll for changes, a bulk run's labels to print them, the order page's purchase for
  // scan to ship, its label summary for the order's returns section).
  it("keeps each route folder's modules to its screen", () => {
    const SHARED: Record<string, readonly string[]> = {
      "app.orders._index": ["app.bulk.tsx", "app.orders-version.ts"],
      "app.bulk.$runId": ["app.bulk.$runId.print.tsx"],
      "app.orders.$orderId": [
        "app._index/scan-to-ship.server.ts",
        "app.orders.$orderId.returns/order-returns.server.ts",
      ],
    };
    const reaches: string[] = [];
    for (const file of listSources(APP)) {
      const own = relative(APP, file).split("/")[0] ?? "";
      const ownFolder = routeFolderOf(file);
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/from\s+["']([^"']+)["']/g)) {
        const target = resolveImport(file, match[1] ?? "");
        const folder = target ? routeFolderOf(target) : null;
        if (!folder || folder === ownFolder || own === "components") continue;
        if (SHARED[folder]?.includes(relative(ROUTES, file))) continue;
        reaches.push(`${relative(APP, file)} → ${match[1]}`);
      }
    }
    expect(reaches).toEqual([]);
  });
});
