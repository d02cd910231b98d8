import type { z } from "zod";

// Ties a hand-written zod schema to the type graphql-codegen generates for the document it parses
// (app/types/admin.generated.d.ts, from the documents in the *.graphql.ts files), so the two
// cannot drift apart unnoticed: the typecheck fails when a document selects a field its schema
// doesn't read, when a schema reads a field its document doesn't select, or when a schema would
// refuse a value the document's type allows (a null, say). zod stays the check at run time: the
// generated types only say what Shopify should send, and a response is data from outside.

/**
 * A generated response type as the wire carries it, for the comparison. Every selected field is
 * there (GraphQL sends null, never omits a field; codegen marks nullable fields optional only for
 * convenience), and Shopify's enums are widened to strings, because the schemas take enums as
 * plain strings on purpose: readEnum checks them while mapping, so a value added in a later API
 * version is a problem on one field, not a failed order.
 */
export type WireOf<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? WireOf<U>[]
    : T extends object
      ? { [K in keyof T]-?: WireOf<T[K]> }
      : T;

/**
 * Every field path of a response type, e.g. "order.lineItems.nodes.id" (a list adds no segment).
 * `any` (what a schema's input is while the compiler still infers it) has none, instead of endless.
 */
type FieldPaths<T, Prefix extends string = ""> = 0 extends 1 & T
  ? never
  : T extends readonly (infer U)[]
    ? FieldPaths<U, Prefix>
    : T extends object
      ? { [K in keyof T & string]-?: `${Prefix}${K}` | FieldPaths<T[K], `${Prefix}${K}.`> }[keyof T & string]
      : never;

// Each difference is a property named for itself, so a failed check reads as its reason in the
// compiler's message ("is missing the following properties: 'skips order.email, …'").
type DocumentMismatch<Generated, Input> = {
  [P in Exclude<FieldPaths<Input>, FieldPaths<Generated>> as `reads ${P}, which the document doesn't select`]: P;
} & {
  [P in Exclude<FieldPaths<Generated>, FieldPaths<Input>> as `skips ${P}, which the document selects`]: P;
} & ([WireOf<Generated>] extends [Input] ? unknown : { "refuses a value the document's type allows": true });

type MatchesDocument<Generated, Input> = [keyof DocumentMismatch<Generated, Input>] extends [never]
  ? unknown
  : DocumentMismatch<Generated, Input>;

/**
 * Returns the schema unchanged, once the typecheck has compared it with the type codegen
 * generated for its document or fragment: `schemaFor<OrderForLabelQuery>()(z.object({ … }))`.
 * A schema shared by several documents is checked against the union of their types.
 */
export function schemaFor<Generated>() {
  return <S extends z.ZodType>(schema: S & MatchesDocument<Generated, z.input<S>>): S => schema;
}
