import { describe, expect, it } from "vitest";

import { applyConfiguredHosts } from "./document-headers.server";

const shopifyHeaders = () =>
  new Headers({
    Link: '<https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script";',
    "Content-Security-Policy": "frame-ancestors https://demo-shop.myshopify.com https://admin.shopify.com;",
  });

describe("document headers", () => {
  it("stay exactly as Shopify's library wrote them when no host is configured", () => {
    const headers = shopifyHeaders();
    applyConfiguredHosts(headers, {});
    expect(Object.fromEntries(headers)).toEqual(Object.fromEntries(shopifyHeaders()));
  });

  it("preload App Bridge from the configured host and let the configured admin frame the app", () => {
    const headers = shopifyHeaders();
    applyConfiguredHosts(headers, {
      APP_BRIDGE_URL: "http://127.0.0.1:4545/app-bridge.js",
      SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4545/admin",
    });
    expect(headers.get("Link")).toBe('<http://127.0.0.1:4545/app-bridge.js>; rel="preload"; as="script";');
    expect(headers.get("Content-Security-Policy")).toBe(
      "frame-ancestors http://127.0.0.1:4545 https://demo-shop.myshopify.com https://admin.shopify.com;",
    );
  });
});
