// Webhook deliveries as Shopify sends them, for the scripts that send them (bench:webhooks from a
// thread of its own, which must load nothing else, bench:fairness and test:chaos).

import { createHmac } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { performance } from "node:perf_hooks";

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

export type SignedDelivery = { url: string; headers: Record<string, string>; body: string };
/** `ms` runs to the answer's headers (or the failure); `status` 0 when there was no answer. */
export type DeliveryAnswer = { status: number; ms: number; error: string | null };

// Shopify delivers from a fleet of senders, so a deployed app's load balancer sees requests spread
// over many connections. One client reusing its most recent free connection (fetch's pool does)
// would send most deliveries down two or three of them, and the demo's proxy, which balances by
// connection as a TCP load balancer does, would then load one web process twice as much as the
// other. This agent takes its least recently used free connection, so every open one carries its
// share; it opens more when all are busy.
const senderAgent = new HttpAgent({ keepAlive: true, scheduling: "fifo" });

/** Sends one delivery and waits for Shopify's 5 s at most; never throws. */
export function postDelivery(delivery: SignedDelivery, timeoutMs = 5_000): Promise<DeliveryAnswer> {
  const sentAt = performance.now();
  let answeredMs: number | null = null;
  return new Promise((done) => {
    const finish = (status: number, error: string | null) =>
      done({ status, ms: answeredMs ?? performance.now() - sentAt, error });
    const request = httpRequest(
      delivery.url,
      {
        method: "POST",
        agent: senderAgent,
        headers: { ...delivery.headers, "content-length": String(Buffer.byteLength(delivery.body)) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        answeredMs = performance.now() - sentAt;
        // Shopify reads only the status; reading the rest frees the connection.
        response.resume();
        response.once("end", () => finish(response.statusCode ?? 0, null));
        response.once("error", (error) => finish(0, error.message));
      },
    );
    request.once("error", (error) => {
      const timedOut = error.name === "AbortError" || error.name === "TimeoutError";
      finish(0, timedOut ? `no answer in ${timeoutMs / 1000} s` : error.message);
    });
    request.end(delivery.body);
  });
}
