// The environment every test process sees (also used by tests that build signed requests).
export const TEST_ENV = {
  NODE_ENV: "test",
  SHOPIFY_API_KEY: "test-api-key",
  SHOPIFY_API_SECRET: "test-api-secret",
  SHOPIFY_APP_URL: "https://ship-orders.test",
  SCOPES:
    "read_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_products,write_inventory,read_locations,write_fulfillments,read_returns,write_returns",
  SHIPPING_API_BASE_URL: "http://shipping.test",
  // A stalled worker's job is taken over within a test's patience (pg-boss, PostgreSQL).
  PG_BOSS_SUPERVISE_SECONDS: "1",
  APP_ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
} as const;

export const TEST_SHOP = "test-shop.myshopify.com";
