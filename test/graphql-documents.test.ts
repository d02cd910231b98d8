import { readFileSync } from "node:fs";
import { join } from "node:path";

import {
  buildClientSchema,
  type GraphQLSchema,
  type IntrospectionQuery,
  Kind,
  NoDeprecatedCustomRule,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";

import { collectFragments, findGraphqlDocuments, withSpreadFragments } from "./helpers/graphql-documents";
import { ROOT } from "./setup/database";

// Every GraphQL document the app sends is checked against Shopify's real Admin schema for the
// API version we pin, with deprecated fields refused: a document Shopify would reject, or one
// that will break at the next version, fails here instead of in a merchant's store.
const SCHEMA_PATH = join(ROOT, "app/types/admin-2026-10.schema.json");

let schema: GraphQLSchema;
const documents = findGraphqlDocuments(join(ROOT, "app"));
const fragments = collectFragments(documents);
const operations = documents.filter(({ source }) =>
  parse(source).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION),
);

beforeAll(() => {
  const json = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as { data: IntrospectionQuery };
  schema = buildClientSchema(json.data);
});

describe("GraphQL documents in app/", () => {
  it("finds the app's documents", () => {
    expect(documents.length).toBeGreaterThan(0);
  });

  it("names every operation, once across the app", () => {
    const names = operations.flatMap(({ source }) =>
      parse(source).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? ""] : [])),
    );
    expect(names).not.toContain("");
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(operations.map((d) => [d.file, d.source.trim().split("\n")[0] ?? "", d.source] as const))(
    "%s: %s is valid against the Admin 2026-10 schema with no deprecated fields",
    (_file, _firstLine, source) => {
      const document = withSpreadFragments(source, fragments);
      const problems = validate(schema, document, [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message);
      expect(problems).toEqual([]);
    },
  );

  it("uses every shared fragment in some operation", () => {
    const spread = new Set(
      operations.flatMap(({ source }) =>
        withSpreadFragments(source, fragments).definitions.flatMap((d) =>
          d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [],
        ),
      ),
    );
    expect([...fragments.keys()].filter((name) => !spread.has(name))).toEqual([]);
  });

  it("refuses a deprecated field, so the check can fail", () => {
    const problems = validate(schema, parse("query Deprecated { shop { billingAddress { city } } }"), [
      NoDeprecatedCustomRule,
    ]);
    expect(problems.map((e) => e.message).join()).toMatch(/deprecated/);
  });

  it("refuses an unknown field, so the check can fail", () => {
    const problems = validate(schema, parse("query Unknown { shop { weightInGrams } }"));
    expect(problems.length).toBeGreaterThan(0);
  });
});
