import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { err, ok, type Result } from "../utils/result";

/**
 * app/uninstalled: forget every session of the shop. deleteMany is a no-op the second time, so a
 * redelivered webhook (Shopify delivers at least once) is harmless.
 */
export async function deleteShopSessions(db: PrismaClient, shop: string): Promise<{ deleted: number }> {
  const { count } = await db.session.deleteMany({ where: { shop } });
  return { deleted: count };
}

const ScopesUpdatePayloadSchema = z.object({ current: z.array(z.string()) });

export type ScopesUpdateError = { code: "INVALID_PAYLOAD"; logMessage: string };

/** app/scopes_update: record the scopes the merchant granted on the shop's stored sessions. */
export async function recordGrantedScopes(
  db: PrismaClient,
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
