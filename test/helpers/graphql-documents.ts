import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

import { type DefinitionNode, type DocumentNode, type FragmentDefinitionNode, Kind, parse, visit } from "graphql";

import { ROOT } from "../setup/database";

// The `#graphql` documents in the app's source, for the tests that hold them to Shopify's schema
// (graphql-documents.test.ts) and to its query cost limit (query-cost.test.ts).

export type FoundDocument = { file: string; source: string };

function listSourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "types" ? [] : listSourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// A fragment is shared by interpolating its document (`${SOME_FRAGMENT}`); as codegen does, the
// interpolation is dropped here and the fragment is found by name among all documents.
export function findGraphqlDocuments(dir: string): FoundDocument[] {
  return listSourceFiles(dir).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/`#graphql([\s\S]*?)`/g)].map((match) => ({
      file: relative(ROOT, file),
      source: (match[1] ?? "").replace(/\$\{\s*[A-Z0-9_]+\s*\}/g, ""),
    }));
  });
}

export function collectFragments(found: FoundDocument[]): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { source } of found) {
    for (const definition of parse(source).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}

/** The document plus every fragment it spreads (transitively) that it does not define itself. */
export function withSpreadFragments(source: string, fragments: Map<string, FragmentDefinitionNode>): DocumentNode {
  const document = parse(source);
  const defined = new Set(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])),
  );
  const added: FragmentDefinitionNode[] = [];
  const addSpreads = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (defined.has(name) || !fragment) return;
        defined.add(name);
        added.push(fragment);
        addSpreads(fragment);
      },
    });
  document.definitions.forEach(addSpreads);
  return { ...document, definitions: [...document.definitions, ...added] };
}
