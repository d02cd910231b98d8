import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { stopShopJobs } from "../queue/queue.server";
import { err, ok, type Result } from "../utils/result";
import { type DeliveryOutcome, processDeliveryOnce, type WebhookDelivery } from "./webhook-delivery.server";

/** app/uninstalled: forget every session of the shop and stop its jobs. */
export async function deleteShopSessions(db: Prisma.TransactionClient, shop: string): Promise<{ deleted: number }> {
  const { count } = await db.session.deleteMany({ where: { shop } });
  await stopShopJobs(db, shop);
  return { deleted: count };
}

/**
 * The whole app/uninstalled use case. Deleting is repeatable, but a redelivery can arrive after
 * the merchant reinstalled: it must not delete the new sessions, so each event runs once.
 */
export async function handleAppUninstalled(
  db: PrismaClient,
  delivery: WebhookDelivery,
): Promise<DeliveryOutcome<{ deleted: number }>> {
  return processDeliveryOnce(db, delivery, (tx) => deleteShopSessions(tx, delivery.shop));
}

const ScopesUpdatePayloadSchema = z.object({ current: z.array(z.string()) });

export type ScopesUpdateError = { code: "INVALID_PAYLOAD"; logMessage: string };

/** app/scopes_update: record the scopes the merchant granted on the shop's stored sessions. */
export async function recordGrantedScopes(
  db: Prisma.TransactionClient,
  shop: string,
  payload: unknown,
): Promise<Result<{ updated: number }, ScopesUpdateError>> {
  const parsed = ScopesUpdatePayloadSchema.safeParse(payload);
  if (!parsed.success) {
    return err({
      code: "INVALID_PAYLOAD",
      logMessage: `app/scopes_update payload for ${shop}: ${parsed.error.message}`,
    });
  }
  const { count } = await db.session.updateMany({ where: { shop }, data: { scope: parsed.data.current.join(",") } });
  return ok({ updated: count });
}

/**
 * The whole app/scopes_update use case. Each event runs once: a redelivered older update would
 * otherwise overwrite the scopes a newer one recorded. A malformed payload is recorded as
 * delivered too, since it will not get better on redelivery.
 */
export async function handleScopesUpdate(
  db: PrismaClient,
  delivery: WebhookDelivery,
  payload: unknown,
): Promise<DeliveryOutcome<Result<{ updated: number }, ScopesUpdateError>>> {
  return processDeliveryOnce(db, delivery, (tx) => recordGrantedScopes(tx, delivery.shop, payload));
}
