import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { ActionFunction, LoaderFunction, ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { collectWebhookActions, createAppServer } from "./app-server";

// A build of three resource routes, as `react-router build` lays one out: what reaches a route's
// action, and through which door, is what these tests look at.
const seen: { path: string; body: string; via: string }[] = [];
const record =
  (via: string): ActionFunction =>
  async ({ request }) => {
    seen.push({ path: new URL(request.url).pathname, body: await request.text(), via });
    const status = Number(request.headers.get("x-answer") ?? 200);
    if (status === 500) throw new Error("the action failed");
    if (status !== 200) throw new Response(undefined, { status });
    return new Response("recorded");
  };
const route = (id: string, path: string, module: { action?: ActionFunction; loader?: LoaderFunction }) => ({
  id,
  parentId: "root",
  path,
  module,
});
const build = {
  mode: "production",
  basename: "/",
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
  entry: { module: { default: () => new Response("document") } },
  routes: {
    root: { id: "root", path: "", module: {} },
    "routes/webhooks.orders": route("routes/webhooks.orders", "webhooks/orders", { action: record("direct") }),
    "routes/webhooks.shipping.$endpoint": route("routes/webhooks.shipping.$endpoint", "webhooks/shipping/:endpoint", {
      action: record("router"),
    }),
    "routes/healthz": route("routes/healthz", "healthz", { loader: () => new Response("ok") }),
    // Nested: its path is relative to its parent's, so it is not taken for /webhooks/nested.
    "routes/webhooks.layout.nested": {
      ...route("routes/webhooks.layout.nested", "webhooks/nested", { action: record("router") }),
      parentId: "routes/healthz",
    },
  },
} as unknown as ServerBuild;

let baseUrl = "";
let clientDir = "";
let close = () => {};
beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), "app-server-"));
  writeFileSync(join(clientDir, "favicon.ico"), "icon");
  const server = createAppServer({ build, clientDir, mode: "production", origin: "localhost" });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe("the app's server", () => {
  it("takes the webhook routes without parameters straight to their action, and no other route", () => {
    expect([...collectWebhookActions(build).keys()]).toEqual(["/webhooks/orders"]);
  });

  it("hands a webhook's raw body and headers to its route's action and answers what it answers", async () => {
    seen.length = 0;
    const body = JSON.stringify({ id: 1, note: "é" });
    const answer = await fetch(`${baseUrl}/webhooks/orders?x=1`, { method: "POST", body });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("recorded");
    expect(seen).toEqual([{ path: "/webhooks/orders", body, via: "direct" }]);
  });

  it("answers a thrown Response as it is, and any other failure with a 500", async () => {
    const refused = await fetch(`${baseUrl}/webhooks/orders`, {
      method: "POST",
      body: "{}",
      headers: { "x-answer": "401" },
    });
    expect(refused.status).toBe(401);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await fetch(`${baseUrl}/webhooks/orders`, {
      method: "POST",
      body: "{}",
      headers: { "x-answer": "500" },
    });
    expect(failed.status).toBe(500);
    expect(String(logged.mock.calls[0]?.[0])).toContain("the action failed");
  });

  it("refuses a webhook body over 5 MB with 413 without calling the action", async () => {
    seen.length = 0;
    const answer = await fetch(`${baseUrl}/webhooks/orders`, { method: "POST", body: "x".repeat(5 * 1024 * 1024 + 1) });
    expect(answer.status).toBe(413);
    expect(seen).toEqual([]);
  });

  it("leaves a webhook route with parameters, and everything else, to React Router", async () => {
    seen.length = 0;
    const event = await fetch(`${baseUrl}/webhooks/shipping/ep_1`, { method: "POST", body: "{}" });
    expect(event.status).toBe(200);
    expect(seen.map((s) => s.via)).toEqual(["router"]);
    expect(await (await fetch(`${baseUrl}/healthz`)).text()).toBe("ok");
    expect(await (await fetch(`${baseUrl}/favicon.ico`)).text()).toBe("icon");
  });
});
