// Shared set-up for the label tests: both emulators in-process, the seeded order fetched through
// the real adapters. Not a test file itself.
import { createShippingClient, type ShippingClient } from "~/shipping/client.server";
import type { OrderGid } from "~/shopify/ids";
import { getOrderForLabel, type ShopifyOrderForLabel } from "~/shopify/orders";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";

import { createShippingEmulator, type ShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../emulator/shopify/emulator";

export const SHIPPING_BASE_URL = "http://shipping.test";
export const DEMO_ORG = "org_demo";

export function createEmulators(): { shipping: ShippingEmulator; shopify: ShopifyAdminEmulator } {
  return { shipping: createShippingEmulator(), shopify: createShopifyAdminEmulator() };
}

export function createTestShippingClient(shipping: ShippingEmulator, apiKey = "sk_live_demo"): ShippingClient {
  return createShippingClient({
    baseUrl: SHIPPING_BASE_URL,
    apiKey,
    fetch: shipping.fetch,
    sleep: async () => {},
    timeoutMs: 5_000,
  });
}

export async function loadSeededOrder(
  shopify: ShopifyAdminEmulator,
  name: string,
): Promise<{ order: ShopifyOrderForLabel; shop: ShopifyShopAndLocations }> {
  const record = shopify.findOrderByName(name);
  if (!record) throw new Error(`no seeded order ${name}`);
  const order = await getOrderForLabel(shopify.graphql, record.id as OrderGid);
  if (!order.ok) throw new Error(`getOrderForLabel ${name}: ${order.error.logMessage}`);
  const shop = await getShopAndLocations(shopify.graphql);
  if (!shop.ok) throw new Error(`getShopAndLocations: ${shop.error.logMessage}`);
  return { order: order.value.order, shop: shop.value };
}

import type { PrismaClient } from "@prisma/client";

import type { Rate } from "~/shipping/schemas";

import { createDraft, quoteLabel } from "./create-draft.server";
import { prefillLabelRequest } from "./prefill";
import type { PurchaseShippingPort } from "./purchase.server";
import { DEFAULT_LABEL_SETTINGS, type LabelSettings } from "./settings";

export const TEST_LABEL_SHOP = "demo-shop.myshopify.com";

/** Seeded order → prefill → quote → draft, through the real adapters and both emulators. */
export async function draftSeededOrder(
  db: PrismaClient,
  emulators: { shipping: ShippingEmulator; shopify: ShopifyAdminEmulator },
  name: string,
  options: { settings?: LabelSettings; pickRate?: (rates: Rate[]) => Rate | undefined; client?: ShippingClient } = {},
) {
  const { order, shop } = await loadSeededOrder(emulators.shopify, name);
  const prefilled = prefillLabelRequest(order, options.settings ?? DEFAULT_LABEL_SETTINGS, {
    shop: shop.shop,
    locations: shop.locations,
  });
  const blocking = prefilled.problems.filter((p) => p.severity === "blocking");
  if (blocking.length > 0 || !prefilled.fulfillmentOrderId) {
    throw new Error(`${name} prefill blocked: ${blocking.map((p) => p.code).join(", ")}`);
  }
  const client = options.client ?? createTestShippingClient(emulators.shipping);
  const quoted = await quoteLabel(client, prefilled.request);
  if (!quoted.ok) throw new Error(`${name} quote: ${quoted.error.logMessage}`);
  const rate = (options.pickRate ?? ((rates) => rates[0]))(quoted.value.rates);
  if (!rate) throw new Error(`${name}: no rate among ${quoted.value.rates.map((r) => r.service_code).join(", ")}`);
  const draft = await createDraft(
    { db, shop: TEST_LABEL_SHOP, shipping: client },
    {
      orderGid: order.id,
      orderName: order.name,
      fulfillmentOrderGid: prefilled.fulfillmentOrderId,
      request: prefilled.request,
      quote: rate,
      products: prefilled.products,
    },
  );
  if (!draft.ok) throw new Error(`${name} draft: ${draft.error.logMessage}`);
  return { order, prefilled, rate, draft: draft.value, client };
}

/** A shipping port whose process dies right after the service charged: nothing after the call runs. */
export function crashAfterCharge(client: ShippingClient): PurchaseShippingPort {
  return {
    getLabel: (id) => client.getLabel(id),
    purchaseLabel: async (id) => {
      await client.purchaseLabel(id);
      throw new Error("process crashed");
    },
  };
}
