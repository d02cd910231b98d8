import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { authenticateShopifyWebhook } from "../http/shopify-webhook.server";
import { logFor } from "../logger.server";
import { handleScopesUpdate } from "../webhooks/app-lifecycle.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, eventId, webhookId, payload } = await authenticateShopifyWebhook(request);
  const outcome = await handleScopesUpdate(db, { shop, topic, eventId, webhookId }, payload);
  // A malformed payload will not get better on redelivery: acknowledge it and log why.
  if (outcome.status === "processed" && !outcome.value.ok) {
    logFor({ shop, topic, webhookId }).warn(outcome.value.error.logMessage);
  }
  return new Response();
};
