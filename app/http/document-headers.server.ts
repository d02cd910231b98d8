import type { Env } from "~/env.server";

// The library's document headers name Shopify's hosts: App Bridge preloaded from Shopify's CDN,
// and only the shop's and Shopify's admin origins allowed to frame the app. Where those hosts
// differ (the offline demo's emulated admin), the configured ones take their place; in
// production neither variable is set and the headers stay exactly as the library wrote them.
export function applyConfiguredHosts(
  headers: Headers,
  env: Pick<Env, "APP_BRIDGE_URL" | "SHOPIFY_ADMIN_ORIGIN">,
): void {
  if (env.APP_BRIDGE_URL && headers.has("Link")) {
    headers.set("Link", `<${env.APP_BRIDGE_URL}>; rel="preload"; as="script";`);
  }
  const policy = headers.get("Content-Security-Policy");
  if (env.SHOPIFY_ADMIN_ORIGIN && policy?.startsWith("frame-ancestors ")) {
    const origin = new URL(env.SHOPIFY_ADMIN_ORIGIN).origin;
    headers.set("Content-Security-Policy", policy.replace("frame-ancestors ", `frame-ancestors ${origin} `));
  }
}
