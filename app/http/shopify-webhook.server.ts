import { authenticate } from "~/shopify.server";

/**
 * `authenticate.webhook` (HMAC, headers, the shop's offline session), with one answer fixed: a
 * correctly signed body that is not JSON makes the library throw a SyntaxError, a 500 that
 * Shopify would retry for two days. It is a 400, like the app's own check answers it
 * (app/shopify/webhook-request.server.ts).
 */
export async function authenticateShopifyWebhook(request: Request): ReturnType<typeof authenticate.webhook> {
  try {
    return await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof SyntaxError) throw new Response(undefined, { status: 400, statusText: "Bad Request" });
    throw thrown;
  }
}
