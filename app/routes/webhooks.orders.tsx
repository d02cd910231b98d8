import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { verifyShopifyWebhook } from "../http/shopify-webhook.server";
import { logFor } from "../logger.server";
import { handleOrderWebhook } from "../webhooks/order-webhooks.server";

// orders/cancelled and orders/updated (shopify.app.toml): an order with labels gets them
// re-checked (cancelled: drafts discarded, bought ones flagged; a new address: drafts redone).
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched. The
  // shop's session is not loaded: the worker's job does that when it calls Shopify.
  const { shop, topic, eventId, webhookId, payload } = await verifyShopifyWebhook(request);
  const outcome = await handleOrderWebhook(db, { shop, topic, eventId, webhookId }, payload);
  // A malformed payload will not get better on redelivery: logged, and acknowledged.
  if (outcome.status === "processed" && !outcome.value.ok) {
    logFor({ shop, topic, webhookId }).warn(outcome.value.error.logMessage);
  }
  return new Response();
};
