import { readFileSync } from "node:fs";

import { getNamedType, type GraphQLNamedType, type GraphQLOutputType, isObjectType } from "graphql";

import { adminSchemaPath } from "./schema";

// Access scopes as Shopify checks them: the schema's introspection carries each field's and each
// type's `requiredAccess` ("`read_returns` access scope or `read_marketplace_returns` access
// scope."), which graphql-js drops when it builds the schema. A field the app's scopes do not
// cover resolves to null with an ACCESS_DENIED error, next to the rest of the data.

interface IntrospectionWithAccess {
  data?: { __schema: { types: RawType[] } };
  __schema?: { types: RawType[] };
}
interface RawType {
  name: string;
  requiredAccess?: string | null;
  fields?: { name: string; requiredAccess?: string | null }[] | null;
}

/** requiredAccess texts by "Type" and "Type.field". */
export type AccessRequirements = ReadonlyMap<string, string>;

let cached: { path: string; requirements: AccessRequirements } | undefined;

export function loadAccessRequirements(path: string = adminSchemaPath()): AccessRequirements {
  if (cached && cached.path === path) return cached.requirements;
  const json = JSON.parse(readFileSync(path, "utf8")) as IntrospectionWithAccess;
  const types = (json.data?.__schema ?? json.__schema)?.types ?? [];
  const requirements = new Map<string, string>();
  for (const type of types) {
    if (type.requiredAccess) requirements.set(type.name, type.requiredAccess);
    for (const field of type.fields ?? []) {
      if (field.requiredAccess) requirements.set(`${type.name}.${field.name}`, field.requiredAccess);
    }
  }
  cached = { path, requirements };
  return requirements;
}

/**
 * The scopes a requirement accepts, any one of them: the backticked names before "Also:" (what
 * follows is about the staff member or the shop, which the emulator does not check). Empty when
 * the text names no scope ("Only accessible by supported access tokens…").
 */
export function scopesAccepted(requiredAccess: string): string[] {
  const head = requiredAccess.split("Also:")[0] ?? "";
  return [...head.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? "").filter((s) => /^(read|write)_/.test(s));
}

/** What a set of granted scopes allows: a write scope implies its read scope, as on Shopify. */
export function grantedScopes(scopes: readonly string[]): ReadonlySet<string> {
  const granted = new Set(scopes);
  for (const scope of scopes) if (scope.startsWith("write_")) granted.add(`read_${scope.slice("write_".length)}`);
  return granted;
}

// A connection (or its edge) needs what its nodes need: Order.returns is a ReturnConnection.
function nodeTypeOf(type: GraphQLNamedType): GraphQLNamedType {
  if (!isObjectType(type) || !/(Connection|Edge)$/.test(type.name)) return type;
  const inner = type.getFields().nodes ?? type.getFields().node;
  return inner ? nodeTypeOf(getNamedType(inner.type)) : type;
}

/**
 * Checks fields against the app's scopes: `denied(parent type, field, its type)` answers the
 * requirement a field fails (its own, else its type's), or null when the scopes meet it or it
 * names no scope. Memoized per field: the answer depends on nothing else.
 */
export function createAccessCheck(requirements: AccessRequirements, scopes: readonly string[]) {
  const granted = grantedScopes(scopes);
  const known = new Map<string, string | null>();
  return {
    denied(parentTypeName: string, fieldName: string, returnType: GraphQLOutputType): string | null {
      const key = `${parentTypeName}.${fieldName}`;
      const cachedAnswer = known.get(key);
      if (cachedAnswer !== undefined) return cachedAnswer;
      const required = requirements.get(key) ?? requirements.get(nodeTypeOf(getNamedType(returnType)).name) ?? null;
      const accepted = required === null ? [] : scopesAccepted(required);
      const answer = accepted.length > 0 && !accepted.some((scope) => granted.has(scope)) ? required : null;
      known.set(key, answer);
      return answer;
    },
  };
}
export type AccessCheck = ReturnType<typeof createAccessCheck>;

/** The error Shopify answers for a field the app's scopes do not reach. */
export function accessDeniedMessage(fieldName: string, requiredAccess: string): string {
  return `Access denied for ${fieldName} field. Required access: ${requiredAccess}`;
}
