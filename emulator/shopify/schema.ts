import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

// The emulator answers with Shopify's real Admin 2026-10 schema (the introspection JSON that
// `npm run setup` puts in app/types), so a document Shopify would refuse is refused here too.
// It is data, not app code: reading it keeps the emulator independent of the app's own types.
export const ADMIN_API_VERSION = "2026-10";

const DEFAULT_SCHEMA_PATH = fileURLToPath(
  new URL(`../../app/types/admin-${ADMIN_API_VERSION}.schema.json`, import.meta.url),
);

/** Where the schema is read from (SHOPIFY_ADMIN_SCHEMA_PATH overrides, for tests). */
export const adminSchemaPath = () => process.env.SHOPIFY_ADMIN_SCHEMA_PATH ?? DEFAULT_SCHEMA_PATH;

let cached: { path: string; schema: GraphQLSchema } | undefined;

// Building the schema from the 11 MB JSON takes about half a second: do it once per process.
export function loadAdminSchema(path: string = adminSchemaPath()): GraphQLSchema {
  if (cached && cached.path === path) return cached.schema;
  let json: { data?: IntrospectionQuery } & Partial<IntrospectionQuery>;
  try {
    json = JSON.parse(readFileSync(path, "utf8")) as typeof json;
  } catch (error) {
    throw new Error(`Shopify Admin schema not found at ${path}; run \`npm run setup\` to fetch it (${String(error)})`);
  }
  const introspection = json.data ?? (json as IntrospectionQuery);
  const schema = buildClientSchema(introspection, { assumeValid: true });
  cached = { path, schema };
  return schema;
}
