import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { setShippingApiKey } from "~/settings/settings.server";

import { mockAdminGraphql, mockTokenExchange, server, setupMockServer } from "../../test/helpers/msw";
import {
  createAdminRequest,
  createDocumentRequest,
  createHostParam,
  createSessionToken,
} from "../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { requireShopContext } from "./shop-context.server";

setupMockServer();

const SHIPPING_KEY = "sk_test_shop_key_1234";

async function thrownBy(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a thrown Response");
}

/** Records the Authorization header the shipping service receives. */
function mockShippingService() {
  const authorizations: (string | null)[] = [];
  server.use(
    http.get(`${TEST_ENV.SHIPPING_API_BASE_URL}/v1/labels/:id`, ({ request }) => {
      authorizations.push(request.headers.get("Authorization"));
      return HttpResponse.json({ error: { type: "not_found", message: "No such label" } }, { status: 404 });
    }),
  );
  return authorizations;
}

describe("requireShopContext", () => {
  it("gives the route the shop, its session, the staff member and an Admin client for that shop", async () => {
    mockTokenExchange();
    mockAdminGraphql({
      ShopOverview: { data: { shop: { name: "Test Shop" } } },
    });
    const context = await requireShopContext(createAdminRequest("/app", { userId: "7001" }));
    expect(context.shop).toBe(TEST_SHOP);
    expect(context.session).toMatchObject({ shop: TEST_SHOP, accessToken: "shpat_exchanged_offline_token" });
    expect(context.staffMemberId).toBe("7001");
    expect(context.db).toBe(db);
    const answer = await context.admin("query ShopOverview { shop { name } }");
    expect(await answer.json()).toMatchObject({ data: { shop: { name: "Test Shop" } } });
  });

  it("has no staff member when the session token names none", async () => {
    mockTokenExchange();
    const context = await requireShopContext(createAdminRequest("/app", { userId: null }));
    expect(context.staffMemberId).toBeNull();
  });

  it("lets the library's 401 with the retry header through for a token it cannot verify", async () => {
    const forged = createSessionToken({ secret: "not-the-app-secret" });
    const response = await thrownBy(requireShopContext(createAdminRequest("/app", { token: forged })));
    expect(response.status).toBe(401);
    expect(response.headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
  });

  it("does not ask for the shipping key until the route asks for the shipping client", async () => {
    mockTokenExchange();
    const context = await requireShopContext(createAdminRequest("/app/settings"));
    expect(context.shop).toBe(TEST_SHOP);
    const response = await thrownBy(context.requireShipping());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${TEST_ENV.SHOPIFY_APP_URL}/app/settings`);
  });

  it("sends a page load without a shipping key to Settings with the admin's shop, host and embedded flag", async () => {
    mockTokenExchange();
    const context = await requireShopContext(createDocumentRequest("/app/labels"));
    const response = await thrownBy(context.requireShipping());
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location") ?? "");
    expect(location.origin + location.pathname).toBe(`${TEST_ENV.SHOPIFY_APP_URL}/app/settings`);
    expect(location.searchParams.get("shop")).toBe(TEST_SHOP);
    expect(location.searchParams.get("host")).toBe(createHostParam());
    expect(location.searchParams.get("embedded")).toBe("1");
  });

  it("builds the shipping client once, with the shop's own API key", async () => {
    mockTokenExchange();
    const authorizations = mockShippingService();
    await setShippingApiKey(db, TEST_SHOP, SHIPPING_KEY);
    const context = await requireShopContext(createAdminRequest("/app/labels"));
    const shipping = await context.requireShipping();
    expect(await context.requireShipping()).toBe(shipping);
    await shipping.getLabel("lbl_missing");
    expect(authorizations).toEqual([`Bearer ${SHIPPING_KEY}`]);
  });
});
