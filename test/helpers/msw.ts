import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

import type { ShippingEmulator } from "../../emulator/shipping/emulator";
import type { ShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { TEST_ENV, TEST_SHOP } from "../setup/test-env";

export const server = setupServer();

/** Starts msw for this test file; any request without a handler fails the test instead of leaving the machine. */
export function setupMockServer() {
  beforeAll(() => {
    server.listen({ onUnhandledRequest: "error" });
    // Shopify's node adapter captured fetch at import time, before msw patched it.
    setAbstractFetchFunc((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export type TokenExchangeCall = { shop: string; subjectToken: string; requestedTokenType: string };

const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";
const EXCHANGED_SCOPES =
  "read_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_products,write_inventory,read_locations,write_fulfillments,read_returns,write_returns";

/** The `sub` claim of a session token (unverified: the app verified it before exchanging). */
function subjectOf(token: string | undefined): string {
  const payload = token?.split(".")[1] ?? "";
  try {
    return String((JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown }).sub ?? "");
  } catch {
    return "";
  }
}

/**
 * Answers Shopify's token exchange for the shop and records each call: an expiring offline access
 * token, or for an online request (a purchase asks who is buying) one whose user may do everything.
 */
export function mockTokenExchange(
  shop: string = TEST_SHOP,
  /** What the staff member may do (the online token's associated_user_scope); default everything. */
  staffScopes: string = EXCHANGED_SCOPES,
) {
  const calls: TokenExchangeCall[] = [];
  server.use(
    http.post(`https://${shop}/admin/oauth/access_token`, async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      calls.push({
        shop,
        subjectToken: body.subject_token ?? "",
        requestedTokenType: body.requested_token_type ?? "",
      });
      if (body.requested_token_type === ONLINE_TOKEN_TYPE) {
        // An online token for the staff member the session token names, with their permissions.
        return HttpResponse.json({
          access_token: "shpua_exchanged_online_token",
          scope: EXCHANGED_SCOPES,
          expires_in: 86_399,
          associated_user_scope: staffScopes,
          associated_user: { id: Number(subjectOf(body.subject_token)), account_owner: true, email_verified: true },
        });
      }
      return HttpResponse.json({
        access_token: "shpat_exchanged_offline_token",
        scope: EXCHANGED_SCOPES,
        expires_in: 3600,
        refresh_token: "shprt_refresh",
        refresh_token_expires_in: 7_776_000,
      });
    }),
  );
  return calls;
}

/** Answers Admin GraphQL for the shop by operation name. */
export function mockAdminGraphql(responses: Record<string, unknown>, shop: string = TEST_SHOP) {
  const seen: string[] = [];
  server.use(
    http.post(`https://${shop}/admin/api/2026-10/graphql.json`, async ({ request }) => {
      const body = (await request.json()) as { query?: string };
      const name = /(?:query|mutation)\s+(\w+)/.exec(body.query ?? "")?.[1] ?? "(anonymous)";
      seen.push(name);
      const response = responses[name];
      if (response === undefined) return HttpResponse.json({ errors: [{ message: `no mock for ${name}` }] });
      return HttpResponse.json(response);
    }),
  );
  return seen;
}

/**
 * Routes the app's Admin GraphQL calls for the shop to a Shopify emulator seeded for it, as the
 * demo does over HTTP. Returns the emulator for inspection (fulfillments, orders).
 */
export function routeAdminToEmulator(emulator: ShopifyAdminEmulator, shop: string = TEST_SHOP) {
  server.use(http.post(`https://${shop}/admin/api/:version/graphql.json`, ({ request }) => emulator.fetch(request)));
  return emulator;
}

/** Routes the app's shipping calls (SHIPPING_API_BASE_URL in tests) to a shipping emulator. */
export function routeShippingToEmulator(emulator: ShippingEmulator, baseUrl: string = TEST_ENV.SHIPPING_API_BASE_URL) {
  server.use(http.all(`${baseUrl}/*`, ({ request }) => emulator.fetch(request)));
  return emulator;
}
