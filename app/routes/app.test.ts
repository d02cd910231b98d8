import { describe, expect, it, vi } from "vitest";

import { mockAdminGraphql, mockTokenExchange, setupMockServer } from "../../test/helpers/msw";
import { createAdminRequest, createSessionToken } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { loader as appLoader } from "./app";
import { loader as homeLoader } from "./app._index";

setupMockServer();

async function callLoader<T>(loader: (args: never) => Promise<T>, request: Request): Promise<T | Response> {
  try {
    return await loader({ request, params: {}, context: {} } as never);
  } catch (thrown) {
    // The library answers unauthenticated requests by throwing a Response (401 or redirect).
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("app loader", () => {
  it("renders for a request with a valid session token, exchanging it for an offline token once", async () => {
    const exchanges = mockTokenExchange();
    const result = await callLoader(appLoader, createAdminRequest("/app"));
    expect(result).toEqual({ apiKey: "test-api-key" });
    expect(exchanges).toHaveLength(1);
    const stored = await db.session.findMany({ where: { shop: TEST_SHOP } });
    expect(stored.map((s) => s.accessToken)).toEqual(["shpat_exchanged_offline_token"]);
  });

  it("answers 401 and asks App Bridge to retry for a request without a session token", async () => {
    const result = await callLoader(appLoader, createAdminRequest("/app", { token: null }));
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    // Without a token a document request is bounced to the auth page; a fetch gets a 401.
    expect([302, 401]).toContain(response.status);
    if (response.status === 302)
      expect(response.headers.get("Location")).toMatch(/\/auth\/session-token|\/auth\/login/);
  });

  it("answers 401 for a session token signed with another secret", async () => {
    const forged = createSessionToken({ secret: "not-the-app-secret" });
    const result = await callLoader(appLoader, createAdminRequest("/app", { token: forged }));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
    expect(await db.session.count()).toBe(0);
  });

  it("answers 401 for an expired session token", async () => {
    const result = await callLoader(appLoader, createAdminRequest("/app", { expiresIn: -120 }));
    expect((result as Response).status).toBe(401);
  });
});

describe("home page loader", () => {
  it("shows the shop's name from the Admin API", async () => {
    mockTokenExchange();
    const operations = mockAdminGraphql({
      ShopOverview: {
        data: { shop: { name: "Test Shop", myshopifyDomain: TEST_SHOP, currencyCode: "USD" } },
      },
    });
    const result = await callLoader(homeLoader, createAdminRequest("/app"));
    expect(result).toEqual({ shop: TEST_SHOP, name: "Test Shop", currencyCode: "USD", problem: null });
    expect(operations).toEqual(["ShopOverview"]);
  });

  it("still renders, with a merchant-readable problem, when the Admin API returns errors", async () => {
    mockTokenExchange();
    mockAdminGraphql({ ShopOverview: { data: null, errors: [{ message: "Internal error" }] } });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await callLoader(homeLoader, createAdminRequest("/app"));
    expect(warn).toHaveBeenCalledWith("ShopOverview: Internal error");
    expect(result).toMatchObject({ shop: TEST_SHOP, name: null, problem: expect.stringMatching(/Try again/) });
  });
});
