import { GraphqlQueryError, HttpResponseError } from "@shopify/shopify-api";

/**
 * The one shape every Shopify adapter takes: a function that answers a GraphQL document with a
 * fetch Response whose JSON is `{ data, errors?, extensions? }`. The emulator and tests provide it
 * directly; in the app it wraps `admin.graphql`.
 */
export type AdminGraphqlClient = (
  query: string,
  options?: { variables?: Record<string, unknown> },
) => Promise<Response>;

type RemixAdminGraphql = (query: string, options?: { variables?: Record<string, unknown> }) => Promise<Response>;

/**
 * `admin.graphql` throws when Shopify's answer carries `errors`, even alongside partial `data`
 * (protected customer data not approved, throttling). Adapters must see those answers as data so
 * they can report them as typed problems, so the thrown body is turned back into a Response.
 * Anything else (network failure, 5xx) is answered as a 502 with the message, never thrown.
 */
export function toAdminGraphqlClient(graphql: RemixAdminGraphql): AdminGraphqlClient {
  return async (query, options) => {
    try {
      return await graphql(query, options);
    } catch (thrown) {
      if (thrown instanceof GraphqlQueryError) return Response.json(normalizeErrorBody(thrown));
      if (thrown instanceof HttpResponseError) {
        return Response.json(
          { errors: [{ message: thrown.message, extensions: { code: `HTTP_${thrown.response.code}` } }] },
          { status: thrown.response.code },
        );
      }
      if (thrown instanceof Response) throw thrown; // auth responses from the library must reach Remix
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      return Response.json({ errors: [{ message, extensions: { code: "NETWORK_ERROR" } }] }, { status: 502 });
    }
  };
}

// The client nests GraphQL errors as `{ graphQLErrors: [...] }`; put them back where Shopify sent them.
function normalizeErrorBody(error: GraphqlQueryError): Record<string, unknown> {
  const body: Record<string, unknown> = error.body ?? {};
  const raw = body.errors;
  const nested =
    raw && typeof raw === "object" && "graphQLErrors" in raw ? (raw as { graphQLErrors: unknown }).graphQLErrors : raw;
  const errors = Array.isArray(nested) && nested.length > 0 ? nested : [{ message: error.message }];
  return { data: body.data ?? null, errors, ...(body.extensions ? { extensions: body.extensions } : {}) };
}
