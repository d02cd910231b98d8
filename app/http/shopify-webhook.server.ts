import { getEnv } from "~/env.server";
import { authenticate } from "~/shopify.server";
import { createShopifyWebhookVerifier } from "~/shopify/webhook-request.server";

/**
 * Shopify's two checks of a webhook delivery, side by side here so every route takes one of them:
 * `verifyShopifyWebhook`, authenticate.webhook's own check (HMAC of the raw body, Shopify's
 * headers) without loading the shop's offline session, for the busy topics that only record the
 * delivery (orders, fulfillment orders, returns); and `authenticateShopifyWebhook`, that check and
 * then the library's, for the topics that need the session (app lifecycle, compliance).
 */
export const verifyShopifyWebhook = createShopifyWebhookVerifier({ apiSecretKey: getEnv().SHOPIFY_API_SECRET });

/**
 * `authenticate.webhook` (HMAC, headers, the shop's offline session), behind `verifyShopifyWebhook`
 * so that every Shopify webhook route, served through React Router or directly (ADR 24), accepts
 * exactly the same deliveries: one function decides what a valid HMAC is. Its answers are the library's (405, 400, 401), and one is fixed:
 * a correctly signed body that is not JSON, on which the library throws a SyntaxError (a 500
 * Shopify would retry for two days), is a 400.
 */
export async function authenticateShopifyWebhook(request: Request): ReturnType<typeof authenticate.webhook> {
  // Throws the refusal; the library then reads the body again from the original.
  await verifyShopifyWebhook(request.clone());
  try {
    return await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof SyntaxError) throw new Response(undefined, { status: 400, statusText: "Bad Request" });
    throw thrown;
  }
}
