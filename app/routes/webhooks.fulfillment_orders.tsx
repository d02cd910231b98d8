import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { verifyShopifyWebhook } from "../http/shopify-webhook.server";
import { logFor } from "../logger.server";
import { handleFulfillmentOrderWebhook } from "../webhooks/order-webhooks.server";

// fulfillment_orders/* (shopify.app.toml): ready to ship → an auto-draft job; cancelled, moved,
// merged or split → a re-check of their labels. Acknowledged as soon as the job is stored.
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched. The
  // shop's session is not loaded: the worker's job does that when it calls Shopify.
  const { shop, topic, eventId, webhookId, payload } = await verifyShopifyWebhook(request);
  const outcome = await handleFulfillmentOrderWebhook(db, { shop, topic, eventId, webhookId }, payload);
  // A malformed payload will not get better on redelivery: logged, and acknowledged.
  if (outcome.status === "processed" && !outcome.value.ok) {
    logFor({ shop, topic, webhookId }).warn(outcome.value.error.logMessage);
  }
  return new Response();
};
