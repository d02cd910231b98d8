// The two Shopify endpoints the checks call, with plain fetch: the script runs outside the app
// (no React Router, no session storage) and must say exactly what Shopify answered.

/** The Admin API version the app uses (app/shopify.server.ts). */
export const ADMIN_API_VERSION = "2026-10";

const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const TIMEOUT_MS = 15_000;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface StoreConnection {
  readonly adminOrigin: string;
  readonly fetch: FetchLike;
}

export type HttpAnswer = { ok: true; status: number; body: unknown } | { ok: false; problem: string };

async function postJson(
  connection: StoreConnection,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await connection.fetch(`${connection.adminOrigin}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, problem: `no answer from ${connection.adminOrigin}${path}: ${String(error)}` };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the message.
  }
  return { ok: true, status: response.status, body: parsed };
}

/** Token exchange for an online access token, as the app's spend guard makes it. */
export function exchangeForOnlineToken(
  connection: StoreConnection,
  app: { apiKey: string; apiSecret: string },
  sessionToken: string,
): Promise<HttpAnswer> {
  return postJson(connection, "/admin/oauth/access_token", {
    client_id: app.apiKey,
    client_secret: app.apiSecret,
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: sessionToken,
    subject_token_type: ID_TOKEN_TYPE,
    requested_token_type: ONLINE_TOKEN_TYPE,
  });
}

export type GraphqlAnswer = { ok: true; data: Record<string, unknown> } | { ok: false; problem: string };

/** One Admin GraphQL call; any `errors`, HTTP failure or missing `data` is a problem. */
export async function adminGraphql(
  connection: StoreConnection,
  accessToken: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<GraphqlAnswer> {
  const answer = await postJson(
    connection,
    `/admin/api/${ADMIN_API_VERSION}/graphql.json`,
    { query, variables },
    { "X-Shopify-Access-Token": accessToken },
  );
  if (!answer.ok) return answer;
  const body = answer.body as { data?: unknown; errors?: unknown } | string;
  if (answer.status !== 200 || typeof body !== "object" || body === null) {
    return { ok: false, problem: `Admin API answered HTTP ${answer.status}: ${JSON.stringify(body).slice(0, 300)}` };
  }
  if (body.errors) return { ok: false, problem: `Admin API errors: ${JSON.stringify(body.errors).slice(0, 500)}` };
  if (typeof body.data !== "object" || body.data === null) return { ok: false, problem: "Admin API answered no data" };
  return { ok: true, data: body.data as Record<string, unknown> };
}

/** A GID from a GID or a bare number. */
export const toGid = (type: string, id: string) => (id.startsWith("gid://") ? id : `gid://shopify/${type}/${id}`);
