import { describe, expect, it } from "vitest";

import { callApi, errorOf, fieldPaths, setUpEmulatorServer } from "./test-support";

const server = setUpEmulatorServer();
const EVENTS = ["label.purchased", "label.tracking_updated"];

const register = (body: unknown, key?: string | null) =>
  callApi(server.url(), "POST", "/v1/webhook_endpoints", { body, key });
const list = (key?: string) => callApi(server.url(), "GET", "/v1/webhook_endpoints", { key });
const remove = (id: unknown, key?: string) =>
  callApi(server.url(), "DELETE", `/v1/webhook_endpoints/${String(id)}`, { key });

describe("webhook endpoint registration", () => {
  it("answers 201 with the endpoint and its secret, and lists it afterwards without the secret", async () => {
    const created = await register({ url: "https://app.example/webhooks/shipping/abc", events: EVENTS });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-z]+$/),
      url: "https://app.example/webhooks/shipping/abc",
      events: EVENTS,
      secret: expect.stringMatching(/^whsec_[0-9a-z]{16,}$/),
      request_id: expect.stringMatching(/^req_/),
    });
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body.webhook_endpoints).toEqual([
      { id: created.body.id, url: "https://app.example/webhooks/shipping/abc", events: EVENTS },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
  });

  it("gives each endpoint its own secret", async () => {
    const first = await register({ url: "https://app.example/a", events: EVENTS });
    const second = await register({ url: "https://app.example/a", events: EVENTS });
    expect(first.body.secret).not.toBe(second.body.secret);
    expect(first.body.id).not.toBe(second.body.id);
  });

  it("deletes an endpoint with 204, after which it is gone and a second delete is 404", async () => {
    const created = await register({ url: "https://app.example/a", events: ["label.purchased"] });
    const deleted = await remove(created.body.id);
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await list()).body.webhook_endpoints).toEqual([]);
    const again = await remove(created.body.id);
    expect(again.status).toBe(404);
    expect(errorOf(again).code).toBe("NOT_FOUND");
  });

  it("keeps each organization's endpoints to itself: not listed, and 404 on delete, for another organization", async () => {
    const created = await register({ url: "https://app.example/a", events: EVENTS });
    expect((await list("sk_live_other")).body.webhook_endpoints).toEqual([]);
    const foreign = await remove(created.body.id, "sk_live_other");
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign).code).toBe("NOT_FOUND");
    expect((await list()).body.webhook_endpoints).toHaveLength(1);
  });

  it("answers 404 for an unknown endpoint id", async () => {
    expect((await remove("we_nothing")).status).toBe(404);
  });

  it.each([
    "https://app.example/webhooks/shipping/x",
    "https://203.0.113.9:8443/hook",
    "http://127.0.0.1:3000/webhooks/shipping/x",
    "http://127.45.6.7/hook",
    "http://localhost:3000/hook",
    "http://LOCALHOST/hook",
    "http://[::1]:3000/hook",
  ])("accepts %s", async (url) => {
    expect((await register({ url, events: EVENTS })).status).toBe(201);
  });

  it.each([
    "http://app.example/webhooks/shipping/x",
    "http://10.0.0.5/hook",
    "http://128.0.0.1/hook",
    "http://localhost.example.com/hook",
    "http://[::2]/hook",
    "ftp://app.example/hook",
    "app.example/hook",
    "",
  ])("refuses %j with 400 VALIDATION_FAILED on url", async (url) => {
    const res = await register({ url, events: EVENTS });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(["url"]);
  });

  it("requires url, and lists every problem of the body at once", async () => {
    const res = await register({ events: ["label.refunded"] });
    expect(res.status).toBe(400);
    expect(fieldPaths(res)).toEqual(["url", "events[0]"]);
  });

  it.each([
    [{ events: ["label.purchased", "label.shipped"] }, ["events[1]"]],
    [{ events: [] }, ["events"]],
    [{ events: "label.purchased" }, ["events"]],
    [{}, ["events"]],
  ])("refuses events %j", async (extra, paths) => {
    const res = await register({ url: "https://app.example/a", ...extra });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(paths);
  });

  it("keeps a repeated event type once", async () => {
    const res = await register({ url: "https://app.example/a", events: ["label.purchased", "label.purchased"] });
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual(["label.purchased"]);
  });

  it("allows 16 endpoints per organization, then answers 403 WEBHOOK_ENDPOINT_LIMIT_REACHED until one is deleted", async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await register({ url: `https://app.example/hook/${i}`, events: EVENTS });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const over = await register({ url: "https://app.example/hook/16", events: EVENTS });
    expect(over.status).toBe(403);
    expect(errorOf(over).code).toBe("WEBHOOK_ENDPOINT_LIMIT_REACHED");
    expect((await list()).body.webhook_endpoints).toHaveLength(16);
    // The limit is per organization: another one still registers.
    expect((await register({ url: "https://other.example/hook", events: EVENTS }, "sk_live_other")).status).toBe(201);
    await remove(ids[0]);
    expect((await register({ url: "https://app.example/hook/16", events: EVENTS })).status).toBe(201);
  });

  it("authenticates like every other call: 401 without a key, 400 NO_ORGANIZATION for a key without one", async () => {
    const anonymous = await register({ url: "https://app.example/a", events: EVENTS }, null);
    expect(anonymous.status).toBe(401);
    expect(errorOf(anonymous).code).toBe("UNAUTHENTICATED");
    expect((await callApi(server.url(), "GET", "/v1/webhook_endpoints", { key: null })).status).toBe(401);
    expect((await callApi(server.url(), "DELETE", "/v1/webhook_endpoints/we_x", { key: null })).status).toBe(401);
    const noOrg = await register({ url: "https://app.example/a", events: EVENTS }, "sk_live_noorg");
    expect(noOrg.status).toBe(400);
    expect(errorOf(noOrg).code).toBe("NO_ORGANIZATION");
  });

  it("forgets every endpoint on reset", async () => {
    await register({ url: "https://app.example/a", events: EVENTS });
    await fetch(`${server.url()}/__emulator/reset`, { method: "POST" });
    expect((await list()).body.webhook_endpoints).toEqual([]);
  });
});
