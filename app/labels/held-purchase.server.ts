import type { PrismaClient } from "@prisma/client";

import { getShopSettings } from "~/settings/settings.server";

import { findLabel, type LabelView } from "./label-repository.server";
import { requestLabelVoid, type VoidDeps } from "./void-label.server";

// A label bought for a shipment Shopify held or cancelled in the instant between the spend guard
// and the purchase (Shopify offers no reservation to close that window): the write-back finds it
// and flags it "Bought for a held order" (write-tracking.server.ts). The merchant is told on the
// order page, the Labels list and the home page, with a one-click void; only a shop that turned
// it on in Settings has it voided on its own, through the one void (ADR 22), audited as such.

/** The audit note of a void made on the shop's setting, not by a person. */
export const AUTO_VOID_NOTE = "automatic: bought for a held order (Settings: void such labels on their own)";

/** Whether the label is flagged "Bought for a held order" and still bought (not voided yet). */
export function isBoughtWhileHeld(label: Pick<LabelView, "attention" | "status">): boolean {
  return (
    label.attention?.reason === "bought_while_held" && (label.status === "purchased" || label.status === "fulfilled")
  );
}

/**
 * Voids a label flagged "Bought for a held order" when the shop asked for it in Settings; does
 * nothing otherwise. Answers the label as it then stands, or null when nothing was asked.
 */
export async function voidHeldPurchaseIfAsked(
  deps: Omit<VoidDeps, "staffMemberId"> & { db: PrismaClient },
  labelId: string,
): Promise<LabelView | null> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label || !isBoughtWhileHeld(label)) return null;
  if (!(await getShopSettings(deps.db, deps.shop)).autoVoidHeldPurchases) return null;
  // Nobody clicked: the shop's setting authorized it, and the audit entry says so.
  const voided = await requestLabelVoid({ ...deps, staffMemberId: null }, labelId, { auditNote: AUTO_VOID_NOTE });
  return voided.ok ? voided.value : null;
}
