import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { authenticateShopifyWebhook } from "../http/shopify-webhook.server";
import { logFor } from "../logger.server";
import { handleComplianceWebhook } from "../webhooks/compliance.server";

// customers/data_request, customers/redact and shop/redact (`compliance_topics` in shopify.app.toml).
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC (Shopify requires it) and 400 for missing headers, before anything is touched.
  const { shop, topic, eventId, webhookId, payload } = await authenticateShopifyWebhook(request);
  const outcome = await handleComplianceWebhook(db, { shop, topic, eventId, webhookId }, payload);
  if (outcome.status === "processed" && !outcome.value.ok) {
    logFor({ shop, topic, webhookId }).warn(outcome.value.error.logMessage);
  }
  return new Response();
};
