import type { ActionFunctionArgs } from "@remix-run/node";

import { logFor } from "../logger.server";
import { verifyWebhook } from "../shopify.server";

// returns/request, returns/approve, returns/decline and returns/cancel (shopify.app.toml). For now
// the door only: a signed delivery is acknowledged; what a return means for return labels is the
// use case's to decide when it is added.
export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched.
  const { shop, topic, webhookId } = await verifyWebhook(request);
  logFor({ shop, topic, webhookId }).info("return webhook acknowledged");
  return new Response();
};
