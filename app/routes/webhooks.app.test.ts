import { beforeEach, describe, expect, it } from "vitest";

import { createWebhookRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as scopesUpdate } from "./webhooks.app.scopes_update";
import { action as uninstalled } from "./webhooks.app.uninstalled";

const OTHER_SHOP = "other-shop.myshopify.com";

async function callAction(action: (args: never) => Promise<Response>, request: Request): Promise<Response> {
  try {
    return await action({ request, params: {}, context: {} } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function storeSession(shop: string, id = `offline_${shop}`) {
  await db.session.create({
    data: { id, shop, state: "", isOnline: false, accessToken: "shpat_token", scope: "read_orders" },
  });
}

const uninstalledRequest = (options: { hmac?: string; webhookId?: string } = {}) =>
  createWebhookRequest({ topic: "app/uninstalled", path: "/webhooks/app/uninstalled", payload: { id: 1 }, ...options });

describe("app/uninstalled webhook", () => {
  beforeEach(async () => {
    await storeSession(TEST_SHOP);
    await storeSession(TEST_SHOP, `${TEST_SHOP}_42`);
    await storeSession(OTHER_SHOP);
  });

  it("deletes every session of the shop for a correctly signed request and answers 200", async () => {
    const response = await callAction(uninstalled, uninstalledRequest());
    expect(response.status).toBe(200);
    expect(await db.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await db.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });

  it("answers 401 for a badly signed request and deletes nothing", async () => {
    const response = await callAction(uninstalled, uninstalledRequest({ hmac: "bm90LXRoZS1zaWduYXR1cmU=" }));
    expect(response.status).toBe(401);
    expect(await db.session.count({ where: { shop: TEST_SHOP } })).toBe(2);
  });

  it("is harmless when the same webhook arrives twice", async () => {
    const first = await callAction(uninstalled, uninstalledRequest({ webhookId: "wh-1" }));
    const second = await callAction(uninstalled, uninstalledRequest({ webhookId: "wh-1" }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await db.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await db.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });
});

describe("app/scopes_update webhook", () => {
  it("records the scopes the merchant granted on the shop's sessions", async () => {
    await storeSession(TEST_SHOP);
    const request = createWebhookRequest({
      topic: "app/scopes_update",
      path: "/webhooks/app/scopes_update",
      payload: { id: 1, previous: ["read_orders"], current: ["read_orders", "read_products"] },
    });
    const response = await callAction(scopesUpdate, request);
    expect(response.status).toBe(200);
    const session = await db.session.findUniqueOrThrow({ where: { id: `offline_${TEST_SHOP}` } });
    expect(session.scope).toBe("read_orders,read_products");
  });

  it("answers 401 for a badly signed request and changes nothing", async () => {
    await storeSession(TEST_SHOP);
    const request = createWebhookRequest({
      topic: "app/scopes_update",
      path: "/webhooks/app/scopes_update",
      payload: { current: [] },
      hmac: "AAAA",
    });
    expect((await callAction(scopesUpdate, request)).status).toBe(401);
    const session = await db.session.findUniqueOrThrow({ where: { id: `offline_${TEST_SHOP}` } });
    expect(session.scope).toBe("read_orders");
  });
});
