// Shopify's print actions load their `src` as a URL: the admin's preview fetches it like a page,
// so the request may carry no Authorization header. The session token then travels as the
// `id_token` query parameter, the name Shopify's admin uses for it on embedded page loads. This
// moves it into the bearer header the extension API reads, so the token is verified exactly as a
// bearer one is (signature, audience, expiry, shop) by `authenticate.admin`.

export const ID_TOKEN_PARAM = "id_token";

/**
 * The request with `?id_token=` as its `Authorization: Bearer` header, when it has no bearer token
 * of its own; otherwise the request as it came (a header wins over the query, as in the library).
 */
export function withQuerySessionToken(request: Request): Request {
  if (/^Bearer\s+\S+/i.test(request.headers.get("Authorization") ?? "")) return request;
  const token = new URL(request.url).searchParams.get(ID_TOKEN_PARAM)?.trim();
  if (!token) return request;
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return new Request(request, { headers });
}
