import { beforeEach, describe, expect, it, vi } from "vitest";

import { countJobs, enqueueTestJob } from "../../test/helpers/jobs";
import { routeArgs } from "../../test/helpers/route-args";
import { createWebhookRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as scopesUpdate } from "./webhooks.app.scopes_update";
import { action as uninstalled } from "./webhooks.app.uninstalled";

const OTHER_SHOP = "other-shop.myshopify.com";

async function callAction(action: (args: never) => Promise<Response>, request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request) as never);
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

const uninstalledRequest = (options: { hmac?: string; webhookId?: string; eventId?: string } = {}) =>
  createWebhookRequest({ topic: "app/uninstalled", path: "/webhooks/app/uninstalled", payload: { id: 1 }, ...options });

const scopesUpdateRequest = (current: string[], options: { hmac?: string; eventId?: string } = {}) =>
  createWebhookRequest({
    topic: "app/scopes_update",
    path: "/webhooks/app/scopes_update",
    payload: { id: 1, previous: ["read_orders"], current },
    ...options,
  });

const scopeOf = async (id: string) => (await db.session.findUniqueOrThrow({ where: { id } })).scope;

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

  it("stops the shop's queued and running jobs, and no other shop's", async () => {
    await enqueueTestJob(db, TEST_SHOP);
    await enqueueTestJob(db, TEST_SHOP, { runAt: new Date(Date.now() + 60_000), dedupeKey: "later" });
    await enqueueTestJob(db, OTHER_SHOP);
    expect((await callAction(uninstalled, uninstalledRequest())).status).toBe(200);
    expect(await countJobs(db, { shop: TEST_SHOP, status: ["queued", "running"] })).toBe(0);
    expect(await countJobs(db, { shop: TEST_SHOP, status: "cancelled" })).toBe(2);
    expect(await countJobs(db, { shop: OTHER_SHOP, status: "queued" })).toBe(1);
  });

  it("answers 401 for a badly signed request and deletes nothing", async () => {
    const response = await callAction(uninstalled, uninstalledRequest({ hmac: "bm90LXRoZS1zaWduYXR1cmU=" }));
    expect(response.status).toBe(401);
    expect(await db.session.count({ where: { shop: TEST_SHOP } })).toBe(2);
  });

  it("keeps the sessions of a reinstall when the uninstall before it is delivered again", async () => {
    const first = await callAction(uninstalled, uninstalledRequest({ eventId: "uninstall-1" }));
    await storeSession(TEST_SHOP, `offline_${TEST_SHOP}`);
    // A redelivery is a new HTTP request (new webhook id) for the same event.
    const redelivered = await callAction(uninstalled, uninstalledRequest({ eventId: "uninstall-1" }));
    expect([first.status, redelivered.status]).toEqual([200, 200]);
    expect(await db.session.findMany({ where: { shop: TEST_SHOP }, select: { id: true } })).toEqual([
      { id: `offline_${TEST_SHOP}` },
    ]);
  });

  it("deletes the sessions again for a later, different uninstall", async () => {
    await callAction(uninstalled, uninstalledRequest({ eventId: "uninstall-1" }));
    await storeSession(TEST_SHOP);
    const response = await callAction(uninstalled, uninstalledRequest({ eventId: "uninstall-2" }));
    expect(response.status).toBe(200);
    expect(await db.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });
});

describe("app/scopes_update webhook", () => {
  beforeEach(async () => {
    await storeSession(TEST_SHOP);
  });

  it("records the scopes the merchant granted on the shop's sessions", async () => {
    const response = await callAction(scopesUpdate, scopesUpdateRequest(["read_orders", "read_products"]));
    expect(response.status).toBe(200);
    expect(await scopeOf(`offline_${TEST_SHOP}`)).toBe("read_orders,read_products");
  });

  it("keeps the newer scopes when an older update is delivered again", async () => {
    await callAction(scopesUpdate, scopesUpdateRequest(["read_orders", "read_products"], { eventId: "older" }));
    await callAction(
      scopesUpdate,
      scopesUpdateRequest(["read_orders", "read_products", "read_locations"], { eventId: "newer" }),
    );
    const redelivered = await callAction(
      scopesUpdate,
      scopesUpdateRequest(["read_orders", "read_products"], { eventId: "older" }),
    );
    expect(redelivered.status).toBe(200);
    expect(await scopeOf(`offline_${TEST_SHOP}`)).toBe("read_orders,read_products,read_locations");
  });

  it("answers 401 for a badly signed request and changes nothing", async () => {
    const response = await callAction(scopesUpdate, scopesUpdateRequest([], { hmac: "AAAA" }));
    expect(response.status).toBe(401);
    expect(await scopeOf(`offline_${TEST_SHOP}`)).toBe("read_orders");
  });

  it("acknowledges a malformed payload once, logging why, and changes nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const request = createWebhookRequest({
      topic: "app/scopes_update",
      path: "/webhooks/app/scopes_update",
      payload: { current: "read_orders" },
    });
    const response = await callAction(scopesUpdate, request);
    expect(response.status).toBe(200);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`app/scopes_update payload for ${TEST_SHOP}`));
    expect(await scopeOf(`offline_${TEST_SHOP}`)).toBe("read_orders");
  });
});
