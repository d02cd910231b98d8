import type { ActionFunctionArgs } from "@remix-run/node";

import db from "../db.server";
import { authenticate } from "../shopify.server";
import { handleOrderWebhook } from "../webhooks/order-webhooks.server";

// orders/cancelled and orders/updated (shopify.app.toml): an order with labels gets them
// re-checked (cancelled: drafts discarded, bought ones flagged; a new address: drafts redone).
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched.
  const { shop, topic, eventId, webhookId, payload } = await authenticate.webhook(request);
  const outcome = await handleOrderWebhook(db, { shop, topic, eventId, webhookId }, payload);
  // A malformed payload will not get better on redelivery: logged, and acknowledged.
  if (outcome.status === "processed" && !outcome.value.ok) console.warn(outcome.value.error.logMessage);
  return new Response();
};
