import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { listLabelsForReturn } from "~/labels/label-repository.server";
import { flagLabelAttention } from "~/labels/label-transitions.server";
import { parseReturnGid } from "~/shopify/ids";

// Shopify's returns/* webhooks (ADR 23). A requested or approved return needs nothing stored: the
// order page reads the order's returns when it opens. A return declined or cancelled after its
// label was bought leaves a label the customer may never use: it is flagged for the merchant to
// void (never voided on its own: the parcel may already be on its way).

const ReturnPayloadSchema = z.object({ admin_graphql_api_id: z.string() });

export type ReturnWebhookOutcome = { flagged: string[] } | { ignored: string };

export async function handleReturnWebhook(
  deps: { db: PrismaClient; shop: string; now?: Date },
  topic: string,
  payload: unknown,
): Promise<ReturnWebhookOutcome> {
  // Topics as the library names them (RETURNS_CANCEL for returns/cancel).
  if (topic !== "RETURNS_DECLINE" && topic !== "RETURNS_CANCEL") return { ignored: "nothing to do for this topic" };
  const parsed = ReturnPayloadSchema.safeParse(payload);
  const returnGid = parsed.success ? parseReturnGid(parsed.data.admin_graphql_api_id) : undefined;
  if (!returnGid) return { ignored: "no return id in the payload" };
  const flagged: string[] = [];
  for (const label of await listLabelsForReturn(deps.db, deps.shop, returnGid)) {
    if (await flagLabelAttention(deps.db, deps.shop, label.id, "return_closed", deps.now)) flagged.push(label.id);
  }
  return { flagged };
}
