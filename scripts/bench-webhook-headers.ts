// The headers of a Shopify webhook delivery, for the benches that send them (bench:webhooks from a
// thread of its own, which must load nothing else, and bench:fairness).

import { createHmac } from "node:crypto";

/** The headers Shopify sends with a webhook delivery, signed with the app's secret. */
export function signedWebhookHeaders(
  apiSecret: string,
  delivery: { shop: string; topic: string; body: string; eventId: string; triggeredAt: string; webhookId: string },
): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": "Shopify-Captain-Hook",
    "X-Shopify-Topic": delivery.topic,
    "X-Shopify-Hmac-Sha256": createHmac("sha256", apiSecret).update(delivery.body, "utf8").digest("base64"),
    "X-Shopify-Shop-Domain": delivery.shop,
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Webhook-Id": delivery.webhookId,
    "X-Shopify-Event-Id": delivery.eventId,
    "X-Shopify-Triggered-At": delivery.triggeredAt,
  };
}
