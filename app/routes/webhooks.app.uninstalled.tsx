import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { authenticateShopifyWebhook } from "../http/shopify-webhook.server";
import { handleAppUninstalled } from "../webhooks/app-lifecycle.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched.
  const { shop, topic, eventId, webhookId } = await authenticateShopifyWebhook(request);
  // A redelivery is acknowledged like the first delivery: Shopify only needs the 200.
  await handleAppUninstalled(db, { shop, topic, eventId, webhookId });
  return new Response();
};
