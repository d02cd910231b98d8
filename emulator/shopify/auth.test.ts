import { afterEach, describe, expect, it } from "vitest";

import { createOAuthServer, signSessionToken, verifySessionToken } from "./auth";
import { type ShopifyAdminEmulatorServer, startShopifyAdminEmulatorServer } from "./server";

const app = { apiKey: "demo-key", apiSecret: "demo-secret", scopes: ["read_orders", "read_locations"] };
const shop = "demo-shop.myshopify.com";
const exchange = (subjectToken: string, extra: Record<string, string> = {}) => ({
  client_id: app.apiKey,
  client_secret: app.apiSecret,
  grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
  subject_token: subjectToken,
  subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
  requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
  expiring: "1",
  ...extra,
});

describe("session tokens", () => {
  it("carry Shopify's claims and expire about a minute after they are minted", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    const token = signSessionToken(app, shop, { now });
    const check = verifySessionToken(app, token, shop, now);
    expect(check.ok && check.claims).toMatchObject({
      iss: `https://${shop}/admin`,
      dest: `https://${shop}`,
      aud: app.apiKey,
      iat: now / 1000,
      nbf: now / 1000,
      exp: now / 1000 + 60,
    });
    expect(verifySessionToken(app, token, shop, now + 5 * 60_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("are refused when signed with another secret, for another app or another shop", () => {
    expect(verifySessionToken(app, signSessionToken({ ...app, apiSecret: "other" }, shop), shop).ok).toBe(false);
    expect(verifySessionToken(app, signSessionToken({ ...app, apiKey: "other" }, shop), shop)).toMatchObject({
      reason: "audience is not this app",
    });
    expect(verifySessionToken(app, signSessionToken(app, "other.myshopify.com"), shop).ok).toBe(false);
  });
});

describe("token exchange", () => {
  it("swaps a valid session token for an expiring offline access token that GraphQL accepts", () => {
    const oauth = createOAuthServer(app, shop);
    const answer = oauth.handleAccessTokenRequest(exchange(signSessionToken(app, shop)));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      access_token: expect.stringMatching(/^shpat_/),
      scope: "read_orders,read_locations",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7776000,
    });
    expect(oauth.isValidAccessToken(String(answer.body.access_token))).toBe(true);
    expect(oauth.isValidAccessToken("shpat_made_up")).toBe(false);
  });

  it("answers invalid_subject_token for a token signed with the wrong secret", () => {
    const oauth = createOAuthServer(app, shop);
    const forged = signSessionToken({ ...app, apiSecret: "not-the-secret" }, shop);
    const answer = oauth.handleAccessTokenRequest(exchange(forged));
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_subject_token" } });
  });

  it("answers invalid_client for a wrong client secret", () => {
    const oauth = createOAuthServer(app, shop);
    const answer = oauth.handleAccessTokenRequest({ ...exchange(signSessionToken(app, shop)), client_secret: "x" });
    expect(answer).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("issues an online token whose user scope is cut down to the staff member's permissions", () => {
    const oauth = createOAuthServer(
      { ...app, scopes: ["read_orders", "write_merchant_managed_fulfillment_orders", "read_locations"] },
      shop,
    );
    oauth.setStaffMember({
      id: "501",
      firstName: "Sam",
      lastName: "Packer",
      email: "sam@example.com",
      accountOwner: false,
      permissions: ["orders"],
    });
    const online = { requested_token_type: "urn:shopify:params:oauth:token-type:online-access-token" };
    const clerk = oauth.handleAccessTokenRequest(exchange(signSessionToken(app, shop, { userId: "501" }), online));
    expect(clerk.body).toMatchObject({
      scope: "read_orders,write_merchant_managed_fulfillment_orders,read_locations",
      associated_user_scope: "read_orders",
      associated_user: { id: 501, first_name: "Sam", account_owner: false },
    });
    const owner = oauth.handleAccessTokenRequest(exchange(signSessionToken(app, shop, { userId: "777" }), online));
    expect(owner.body).toMatchObject({
      associated_user_scope: "read_orders,write_merchant_managed_fulfillment_orders,read_locations",
      associated_user: { id: 777, account_owner: true },
    });
  });

  it("refreshes an expiring token once with its refresh token", () => {
    const oauth = createOAuthServer(app, shop);
    const first = oauth.handleAccessTokenRequest(exchange(signSessionToken(app, shop)));
    const refresh = { client_id: app.apiKey, client_secret: app.apiSecret, grant_type: "refresh_token" };
    const again = oauth.handleAccessTokenRequest({ ...refresh, refresh_token: String(first.body.refresh_token) });
    expect(again.status).toBe(200);
    const reused = oauth.handleAccessTokenRequest({ ...refresh, refresh_token: String(first.body.refresh_token) });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});

describe("the emulated admin over HTTP", () => {
  let running: ShopifyAdminEmulatorServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("mints session tokens for the app's origin, exchanges them, and requires the issued token for GraphQL", async () => {
    running = await startShopifyAdminEmulatorServer({ app: { ...app, appUrl: "http://127.0.0.1:3999" } });
    const minted = await fetch(`${running.url}/admin/session-token?shop=${shop}&api_key=${app.apiKey}`);
    expect(minted.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3999");
    const { token } = (await minted.json()) as { token: string };
    expect(verifySessionToken(app, token, shop).ok).toBe(true);

    const graphql = (accessToken: string) =>
      fetch(`${running?.url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": accessToken },
        body: JSON.stringify({ query: "{ shop { name } }" }),
      });
    expect((await graphql("shpat_unknown")).status).toBe(401);

    const exchanged = await fetch(`${running.url}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(exchange(token)),
    });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const answer = await graphql(access_token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { shop: { name: "Harbor & Pine Goods" } } });
  });

  it("serves an admin page that frames the app with shop, host, embedded and a fresh id_token", async () => {
    running = await startShopifyAdminEmulatorServer({ app: { ...app, appUrl: "http://127.0.0.1:3999" } });
    expect(running.adminUrl).toBe(`${running.url}/store/demo-shop/apps/ship-orders`);
    const html = await (await fetch(`${running.url}/admin`)).text();
    const src = /<iframe[^>]* src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const url = new URL(src);
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:3999/app");
    expect(url.searchParams.get("embedded")).toBe("1");
    expect(url.searchParams.get("shop")).toBe(shop);
    expect(Buffer.from(url.searchParams.get("host") ?? "", "base64").toString()).toBe(
      "admin.shopify.com/store/demo-shop",
    );
    expect(verifySessionToken(app, url.searchParams.get("id_token") ?? "", shop).ok).toBe(true);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/i);

    const standIn = await fetch(`${running.url}/app-bridge.js`);
    expect(standIn.headers.get("content-type")).toMatch(/javascript/);
    expect(await standIn.text()).toContain("shopify:navigate");
  });
});
