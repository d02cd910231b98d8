import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { installShopFetchRouting, routeShopFetch, routeShopsFetch } from "../scripts/demo-fetch-routing";

// A loopback server that answers with what it received.
async function startEcho(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the demo's fetch routing preload", () => {
  const servers: Server[] = [];
  afterEach(() => {
    servers.splice(0).forEach((s) => s.close());
  });

  it("sends requests for the demo shop's host to the emulator, path, query and body kept", async () => {
    const emulator = await startEcho();
    servers.push(emulator.server);
    const routed = routeShopFetch(globalThis.fetch, "demo-shop.myshopify.com", emulator.url);
    const response = await routed("https://demo-shop.myshopify.com/admin/oauth/access_token?x=1", {
      method: "POST",
      body: "{}",
    });
    expect(await response.json()).toEqual({ method: "POST", url: "/admin/oauth/access_token?x=1", body: "{}" });
    const fromRequest = await routed(
      new Request("https://demo-shop.myshopify.com/admin/api/2026-10/graphql.json", { method: "POST", body: "q" }),
    );
    expect(await fromRequest.json()).toMatchObject({ url: "/admin/api/2026-10/graphql.json", body: "q" });
  });

  it("leaves every other host alone", async () => {
    const seen: string[] = [];
    const base: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : input.toString());
      return new Response("ok");
    };
    const routed = routeShopFetch(base, "demo-shop.myshopify.com", "http://127.0.0.1:1");
    await routed("http://127.0.0.1:4010/labels");
    await routed("https://other-shop.myshopify.com/admin/api/2026-10/graphql.json");
    expect(seen).toEqual([
      "http://127.0.0.1:4010/labels",
      "https://other-shop.myshopify.com/admin/api/2026-10/graphql.json",
    ]);
  });

  it("sends each of several shops to its own emulator", async () => {
    const seen: string[] = [];
    const base: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : input.toString());
      return new Response("ok");
    };
    const routed = routeShopsFetch(base, {
      "shop-a.myshopify.com": "http://127.0.0.1:4601",
      "shop-b.myshopify.com": "http://127.0.0.1:4602",
    });
    await routed("https://shop-b.myshopify.com/admin/oauth/access_token");
    await routed("https://shop-a.myshopify.com/admin/api/2026-10/graphql.json?x=1");
    await routed("https://shop-c.myshopify.com/admin/api/2026-10/graphql.json");
    expect(seen).toEqual([
      "http://127.0.0.1:4602/admin/oauth/access_token",
      "http://127.0.0.1:4601/admin/api/2026-10/graphql.json?x=1",
      "https://shop-c.myshopify.com/admin/api/2026-10/graphql.json",
    ]);
  });

  it("installs only when the demo asks for it, and never with NODE_ENV=production", () => {
    const original = globalThis.fetch;
    try {
      expect(installShopFetchRouting({})).toBe(false);
      expect(globalThis.fetch).toBe(original);
      expect(() =>
        installShopFetchRouting({
          NODE_ENV: "production",
          DEMO_ROUTE_SHOP: "demo-shop.myshopify.com",
          DEMO_ROUTE_SHOPIFY_EMULATOR_URL: "http://127.0.0.1:4545",
        }),
      ).toThrow(/production/);
    } finally {
      globalThis.fetch = original;
    }
  });
});
