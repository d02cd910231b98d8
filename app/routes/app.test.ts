import { describe, expect, it } from "vitest";

import { mockTokenExchange, setupMockServer } from "../../test/helpers/msw";
import { routeArgs } from "../../test/helpers/route-args";
import {
  createAdminRequest,
  createDocumentRequest,
  createHostParam,
  createSessionToken,
} from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { loader as appLoader } from "./app";

setupMockServer();

async function callLoader<T>(loader: (args: never) => Promise<T>, request: Request): Promise<T | Response> {
  try {
    return await loader(routeArgs(request) as never);
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
    expect(result).toEqual({ apiKey: "test-api-key", appBridgeUrl: null, demo: false, phone: false });
    expect(exchanges).toHaveLength(1);
    const stored = await db.session.findMany({ where: { shop: TEST_SHOP } });
    expect(stored.map((s) => s.accessToken)).toEqual(["shpat_exchanged_offline_token"]);
  });

  it("renders a page load that carries the session token as id_token", async () => {
    mockTokenExchange();
    const result = await callLoader(appLoader, createDocumentRequest("/app"));
    expect(result).toEqual({ apiKey: "test-api-key", appBridgeUrl: null, demo: false, phone: false });
  });

  it("tells the screens a phone's page load came from a phone, so its lists render condensed from the start", async () => {
    mockTokenExchange();
    const request = createDocumentRequest("/app/orders");
    request.headers.set("sec-ch-ua-mobile", "?1");
    expect(await callLoader(appLoader, request)).toMatchObject({ phone: true });
  });

  it("bounces a page load without a session token to the session-token page, which reloads the same URL", async () => {
    const result = await callLoader(appLoader, createDocumentRequest("/app?tab=labels", { idToken: null }));
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(302);
    const host = createHostParam();
    const reload = `https://ship-orders.test/app?tab=labels&embedded=1&shop=${TEST_SHOP}&host=${host}`;
    const expected = new URLSearchParams({
      tab: "labels",
      embedded: "1",
      shop: TEST_SHOP,
      host,
      "shopify-reload": reload,
    });
    expect(response.headers.get("Location")).toBe(`/auth/session-token?${expected.toString()}`);
    expect(response.headers.has("X-Shopify-Retry-Invalid-Session-Request")).toBe(false);
  });

  it("answers a page load that names no shop with App Bridge alone, which asks the admin for the shop", async () => {
    const result = await callLoader(appLoader, createAdminRequest("/app", { token: null }));
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('data-api-key="test-api-key"');
    expect(page).toMatch(/<script [^>]*src="[^"]*app-bridge\.js"/);
    // Nothing of the app: no shop's data, no redirect anywhere.
    expect(page).not.toMatch(/window\.open/);
  });

  it("answers 401 and asks App Bridge to retry for a fetch whose token is signed with another secret", async () => {
    const forged = createSessionToken({ secret: "not-the-app-secret" });
    const result = await callLoader(appLoader, createAdminRequest("/app", { token: forged }));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
    expect((result as Response).headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
    expect(await db.session.count()).toBe(0);
  });

  it("answers 401 and asks App Bridge to retry for a fetch whose token has expired", async () => {
    const result = await callLoader(appLoader, createAdminRequest("/app", { expiresIn: -120 }));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
    expect((result as Response).headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
    expect(await db.session.count()).toBe(0);
  });
});
