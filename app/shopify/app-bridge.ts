/** Where production loads App Bridge: Shopify's CDN (the demo configures its stand-in instead). */
export const SHOPIFY_APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
