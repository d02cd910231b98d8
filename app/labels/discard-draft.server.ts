import type { PrismaClient } from "@prisma/client";

import type { ShippingClient } from "~/shipping/client.server";
import { PurchasedLabelSchema } from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import { type LabelError, labelError, labelNotFound } from "./label-errors";
import { findLabel, type LabelView } from "./label-repository.server";
import { voidDraft } from "./label-transitions.server";
import { recordConfirmedPurchase } from "./purchase.server";

// Discarding a draft: the label record's draft → voided, which frees its fulfillment order for a
// new draft. Never for a label the service says was bought.

export type DiscardShippingPort = Pick<ShippingClient, "getLabel">;

export type DiscardDeps = {
  db: PrismaClient;
  shop: string;
  shipping: DiscardShippingPort;
  staffMemberId?: string | null;
  now?: () => Date;
};

/**
 * Voids a label that was never bought, freeing its fulfillment order for a new draft. The
 * service is asked first: a label it reports bought (elsewhere, or by an attempt whose answer
 * was lost) is saved as bought, never voided. `discarded: false` then says why in the label.
 */
export async function discardDraft(
  deps: DiscardDeps,
  labelId: string,
): Promise<Result<{ label: LabelView; discarded: boolean }, LabelError>> {
  const { db, shop } = deps;
  const label = await findLabel(db, shop, labelId);
  if (!label) return err(labelNotFound("discardDraft", shop, labelId));
  if (label.status === "voided") return ok({ label, discarded: true });
  if (label.status !== "draft" || !label.serviceLabelId) {
    return err(
      labelError(
        "INVALID_STATE",
        label.status === "purchasing"
          ? "This label is being bought right now and cannot be discarded."
          : label.status === "purchased" || label.status === "fulfilled"
            ? "This label was bought; it cannot be discarded."
            : "Only a draft label can be discarded.",
        `discardDraft: ${labelId} is ${label.status}`,
      ),
    );
  }
  const ref = { db, shop, labelId };
  const record = await deps.shipping.getLabel(label.serviceLabelId);
  // Only the service saying "draft" frees the fulfillment order: a 404 may come from a
  // misrouted host or another organization's key as much as from a label that never existed.
  if (!record.ok) {
    return err(
      labelError(
        "SHIPPING_ERROR",
        "We could not confirm with the shipping service that this label was never bought, so it was kept. Try again in a moment.",
        `discardDraft ${labelId}: ${record.error.logMessage}`,
        { shipping: record.error },
      ),
    );
  }
  if (record.value.status !== "draft") {
    const bought = PurchasedLabelSchema.safeParse(record.value);
    if (!bought.success) {
      return err(
        labelError(
          "INVALID_STATE",
          "The shipping service reports this label as no longer a draft, so it was kept.",
          `discardDraft ${labelId}: service status ${record.value.status} without label data`,
        ),
      );
    }
    await recordConfirmedPurchase(deps, label, bought.data, {
      outcome: "recovered",
      note: "found bought at the service when discarding the draft",
    });
  } else {
    await voidDraft(ref);
  }
  const now = await findLabel(db, shop, labelId);
  if (!now) return err(labelNotFound("discardDraft", shop, labelId));
  return ok({ label: now, discarded: now.status === "voided" });
}
