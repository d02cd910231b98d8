import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { ROOT } from "../../setup/database";
import { listRouteFiles } from "./routes";

// What the browser can be sent: the modules reachable from the app's root and route modules
// without going through a `.server` module. React Router drops a route's loader and action (and what
// only they import) from the client build, and refuses to build when client code reaches a
// `.server` module; so the client graph is the route modules plus every non-`.server` module they
// (transitively) import. Regex-based: the app's imports are plain static ones.

const APP = join(ROOT, "app");
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolveModule(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

export type ClientModule = {
  file: string;
  isRoute: boolean;
  source: string;
  imports: { specifier: string; file: string | null; typeOnly: boolean }[];
};

function readModule(file: string, isRoute: boolean): ClientModule {
  const source = readFileSync(file, "utf8");
  const imports: ClientModule["imports"] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[3] ?? "";
    imports.push({ specifier, file: resolveModule(file, specifier), typeOnly: Boolean(match[2]) });
  }
  for (const match of source.matchAll(DYNAMIC_IMPORT)) {
    const specifier = match[1] ?? "";
    imports.push({ specifier, file: resolveModule(file, specifier), typeOnly: false });
  }
  return { file, isRoute, source, imports };
}

const isServerModule = (file: string) => /\.server(\.|\/)/.test(relative(APP, file)) || /\.server$/.test(file);

/** The client graph, with each module's imports. */
export function clientModules(): ClientModule[] {
  const routes = new Set(listRouteFiles().map((r) => r.file));
  const entries = [join(APP, "root.tsx"), ...routes];
  const entryClient = join(APP, "entry.client.tsx");
  if (existsSync(entryClient)) entries.push(entryClient);
  const seen = new Map<string, ClientModule>();
  const queue = entries.map((file) => readModule(file, routes.has(file)));
  for (const module of queue) seen.set(module.file, module);
  while (queue.length > 0) {
    const module = queue.shift() as ClientModule;
    for (const imported of module.imports) {
      if (!imported.file || imported.typeOnly || isServerModule(imported.file) || seen.has(imported.file)) continue;
      if (!imported.file.startsWith(APP)) continue;
      const next = readModule(imported.file, false);
      seen.set(next.file, next);
      queue.push(next);
    }
  }
  return [...seen.values()];
}

/** Files of a Vite client build, if one was made (`npm run build`): build/client. */
export function clientBuildFiles(): string[] {
  const dir = join(ROOT, "build/client");
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(dir);
  return files;
}

export { isServerModule };
