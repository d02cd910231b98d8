import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { cliBundleEntries } from "../scripts/extension-bundle-entries";

const tomlOf = (name: string) =>
  readFileSync(join(process.cwd(), "extensions", name, "shopify.extension.toml"), "utf8");

describe("the extension size script's bundles", () => {
  it("bundles every target module of an extension into its one main file, as the Shopify CLI does", () => {
    const entries = cliBundleEntries(tomlOf("order-label-action"));

    expect(entries).toHaveLength(1);
    const [main] = entries;
    expect(main?.targets).toEqual(["admin.order-details.action.render", "admin.order-details.action.should-render"]);
    expect(main?.contents).toContain('from "./src/ActionExtension.tsx"');
    expect(main?.contents).toContain('from "./src/ShouldRender.ts"');
    expect(main?.contents).toContain('shopify.extend("admin.order-details.action.should-render"');
  });

  it("measures every extension with each of its targets", () => {
    for (const name of ["order-label-action", "bulk-label-action", "order-label-print", "bulk-label-print"]) {
      const declared = [...tomlOf(name).matchAll(/^\s*target\s*=\s*"([^"]+)"/gm)].map((match) => match[1]);
      expect(cliBundleEntries(tomlOf(name)).flatMap((entry) => entry.targets)).toEqual(declared);
    }
  });

  it("bundles a should_render sub-table as a file of its own, registered for the should-render target", () => {
    const toml = [
      "[[extensions]]",
      'handle = "x"',
      "[[extensions.targeting]]",
      'module = "./src/Action.tsx"',
      'target = "admin.order-details.action.render"',
      "",
      "[extensions.targeting.should_render]",
      'module = "./src/condition.ts"',
    ].join("\n");

    const entries = cliBundleEntries(toml);

    expect(entries.map((entry) => [entry.file, entry.targets])).toEqual([
      ["main", ["admin.order-details.action.render"]],
      ["should_render", ["admin.order-details.action.should-render"]],
    ]);
    expect(entries[0]?.contents).not.toContain("condition");
    expect(entries[1]?.contents).toContain('import shouldRender from "./src/condition.ts"');
  });
});
