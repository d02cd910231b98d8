import { describe, expect, it } from "vitest";

import { applyConfiguredHosts } from "./document-headers.server";

// As `@shopify/shopify-app-react-router` writes them for an embedded document.
const shopifyHeaders = () =>
  new Headers({
    Link: '<https://cdn.shopify.com>; rel="preconnect", <https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script", <https://cdn.shopify.com/shopifycloud/polaris.js>; rel="preload"; as="script"',
    "Content-Security-Policy": "frame-ancestors https://demo-shop.myshopify.com https://admin.shopify.com;",
  });

describe("document headers", () => {
  it("preload App Bridge from Shopify's CDN and not polaris.js, which the app never loads", () => {
    const headers = shopifyHeaders();
    applyConfiguredHosts(headers, {});
    expect(headers.get("Link")).toBe(
      '<https://cdn.shopify.com>; rel="preconnect", <https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script"',
    );
    expect(headers.get("Content-Security-Policy")).toBe(shopifyHeaders().get("Content-Security-Policy"));
  });

  it("preload App Bridge from the configured host and let the configured admin frame the app", () => {
    const headers = shopifyHeaders();
    applyConfiguredHosts(headers, {
      APP_BRIDGE_URL: "http://127.0.0.1:4545/app-bridge.js",
      SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4545/admin",
    });
    expect(headers.get("Link")).toBe('<http://127.0.0.1:4545/app-bridge.js>; rel="preload"; as="script"');
    expect(headers.get("Content-Security-Policy")).toBe(
      "frame-ancestors http://127.0.0.1:4545 https://demo-shop.myshopify.com https://admin.shopify.com;",
    );
  });

  it("add no Link header where the library wrote none (a request without a shop)", () => {
    const headers = new Headers();
    applyConfiguredHosts(headers, {});
    expect(headers.has("Link")).toBe(false);
  });
});
