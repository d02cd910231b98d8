import type { Env } from "~/env.server";
import { SHOPIFY_APP_BRIDGE_URL } from "~/shopify/app-bridge";

// The library's document headers name Shopify's hosts: Shopify's CDN preconnected, App Bridge and
// Polaris web components (`polaris.js`) preloaded from it, and only the shop's and Shopify's admin
// origins allowed to frame the app. This app renders Polaris React and never loads `polaris.js`
// (ADR 29), so its preload would only spend the first paint's bandwidth: the Link header keeps
// App Bridge alone. Where the hosts differ (the offline demo's emulated admin), the configured ones
// take their place; in production neither variable is set.
export function applyConfiguredHosts(
  headers: Headers,
  env: Pick<Env, "APP_BRIDGE_URL" | "SHOPIFY_ADMIN_ORIGIN">,
): void {
  if (headers.has("Link")) {
    const appBridge = env.APP_BRIDGE_URL ?? SHOPIFY_APP_BRIDGE_URL;
    const preconnect = env.APP_BRIDGE_URL ? "" : `<${new URL(SHOPIFY_APP_BRIDGE_URL).origin}>; rel="preconnect", `;
    headers.set("Link", `${preconnect}<${appBridge}>; rel="preload"; as="script"`);
  }
  const policy = headers.get("Content-Security-Policy");
  if (env.SHOPIFY_ADMIN_ORIGIN && policy?.startsWith("frame-ancestors ")) {
    const origin = new URL(env.SHOPIFY_ADMIN_ORIGIN).origin;
    headers.set("Content-Security-Policy", policy.replace("frame-ancestors ", `frame-ancestors ${origin} `));
  }
}
