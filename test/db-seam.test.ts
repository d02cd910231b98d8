import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

// ADR 26: what differs between SQLite and PostgreSQL is chosen in app/db/ (`byDatabase`, one entry
// for each database). Anywhere else in the app and its server, asking which database a client is
// on is a provider branch, and this test names it. Scripts may choose a database from their own
// flags (the benches' --postgres), but ask a client only through app/db/ too.
const ROOT = join(__dirname, "..");
const SEAM = join("app", "db");

type Rule = { readonly pattern: RegExp; readonly what: string };
const ASKING_A_CLIENT: readonly Rule[] = [
  { pattern: /_activeProvider/, what: "Prisma's private provider" },
  { pattern: /\bproviderOf\s*\(/, what: "a provider test" },
  { pattern: /\bdatabaseKindOf\s*\(/, what: "a database-kind test (use byDatabase)" },
];
const PROVIDER_BRANCHES: readonly Rule[] = [
  ...ASKING_A_CLIENT,
  {
    pattern: /["'](?:sqlite|postgresql)["']\s*[!=]==|[!=]==\s*["'](?:sqlite|postgresql)["']/,
    what: "a comparison with a provider's name",
  },
];

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "types") return [];
    if (statSync(path).isDirectory()) return listSources(path);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each line of `sources` (outside app/db/) that breaks one of `rules`. */
export function findProviderBranches(root: string, sources: readonly string[], rules = PROVIDER_BRANCHES): string[] {
  const found: string[] = [];
  for (const file of sources) {
    const path = relative(root, file);
    if (path.startsWith(SEAM + "/")) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, index) => {
        const branch = rules.find(({ pattern }) => pattern.test(line));
        if (branch) found.push(`${path}:${index + 1}: ${branch.what}`);
      });
  }
  return found;
}

describe("the database seam", () => {
  it("has no provider branch outside app/db/", () => {
    const sources = ["app", "server"].flatMap((dir) => listSources(join(ROOT, dir)));
    expect(sources.length).toBeGreaterThan(100);
    expect(findProviderBranches(ROOT, sources)).toEqual([]);
    expect(findProviderBranches(ROOT, listSources(join(ROOT, "scripts")), ASKING_A_CLIENT)).toEqual([]);
  });

  it("names a provider branch written outside app/db/", () => {
    // The rule itself, on this file's own sample lines: it must catch what it is there to catch.
    const sample = join(ROOT, "test", "fixtures", "provider-branch.sample.ts");
    expect(findProviderBranches(ROOT, [sample])).toEqual([
      "test/fixtures/provider-branch.sample.ts:2: Prisma's private provider",
      "test/fixtures/provider-branch.sample.ts:3: a provider test",
      "test/fixtures/provider-branch.sample.ts:4: a database-kind test (use byDatabase)",
      "test/fixtures/provider-branch.sample.ts:5: a comparison with a provider's name",
    ]);
  });
});
