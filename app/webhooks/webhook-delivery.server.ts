import type { Prisma, PrismaClient } from "@prisma/client";

import { isUniqueViolation } from "~/utils/prisma-errors";

/** What `authenticate.webhook` tells us about one delivery. */
export type WebhookDelivery = {
  readonly shop: string;
  readonly topic: string;
  /** X-Shopify-Event-Id: the same on every delivery of one event. */
  readonly eventId?: string | undefined;
  /** X-Shopify-Webhook-Id: the fallback key when no event id is sent. */
  readonly webhookId: string;
};

export type DeliveryOutcome<T> = { readonly status: "processed"; readonly value: T } | { readonly status: "duplicate" };

/** Shopify marks a redelivery with the event id of the first delivery; older senders only with the webhook id. */
export function toEventKey(delivery: WebhookDelivery): string {
  return delivery.eventId || delivery.webhookId;
}

// Prisma rolls an interactive transaction back only when its callback throws. Only the delivery
// row's conflict becomes this, so a unique violation inside the effect still fails the webhook
// (and Shopify retries it) instead of passing for a duplicate.
class DuplicateDelivery extends Error {}

/**
 * Runs `effect` for the first delivery of a webhook event and skips every redelivery.
 *
 * Shopify delivers at least once, so a redelivery can arrive after the shop has moved on (an
 * uninstall redelivered after a reinstall). The delivery row and the effect commit in one
 * transaction: a crash in between rolls both back and the redelivery runs the effect, and a
 * redelivery racing the first one fails on the unique (shop, topic, eventKey) before its effect runs.
 */
export async function processDeliveryOnce<T>(
  db: PrismaClient,
  delivery: WebhookDelivery,
  effect: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<DeliveryOutcome<T>> {
  try {
    return await db.$transaction(async (tx) => {
      await tx.webhookDelivery
        .create({ data: { shop: delivery.shop, topic: delivery.topic, eventKey: toEventKey(delivery) } })
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? new DuplicateDelivery() : error;
        });
      return { status: "processed" as const, value: await effect(tx) };
    });
  } catch (error) {
    if (error instanceof DuplicateDelivery) return { status: "duplicate" };
    throw error;
  }
}
