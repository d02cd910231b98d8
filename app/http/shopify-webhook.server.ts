import { authenticate, verifyWebhook } from "~/shopify.server";

/**
 * `authenticate.webhook` (HMAC, headers, the shop's offline session), behind the app's own check
 * (`verifyWebhook`, app/shopify/webhook-request.server.ts) so that every Shopify webhook route,
 * served through React Router or directly (ADR 24), accepts exactly the same deliveries: one function
 * decides what a valid HMAC is. Its answers are the library's (405, 400, 401), and one is fixed:
 * a correctly signed body that is not JSON, on which the library throws a SyntaxError (a 500
 * Shopify would retry for two days), is a 400.
 */
export async function authenticateShopifyWebhook(request: Request): ReturnType<typeof authenticate.webhook> {
  // Throws the refusal; the library then reads the body again from the original.
  await verifyWebhook(request.clone());
  try {
    return await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof SyntaxError) throw new Response(undefined, { status: 400, statusText: "Bad Request" });
    throw thrown;
  }
}
