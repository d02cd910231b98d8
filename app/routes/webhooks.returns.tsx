import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { verifyShopifyWebhook } from "../http/shopify-webhook.server";
import { logFor } from "../logger.server";
import { handleReturnWebhook } from "../webhooks/return-webhooks.server";

// returns/request, returns/approve, returns/decline and returns/cancel (shopify.app.toml): a
// return closed after its label was bought flags that label for the merchant (ADR 23).
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched.
  const { shop, topic, webhookId, payload } = await verifyShopifyWebhook(request);
  const outcome = await handleReturnWebhook({ db, shop }, topic, payload);
  logFor({ shop, topic, webhookId }).info({ outcome }, "return webhook handled");
  return new Response();
};
