import type { FulfillmentGid, ReverseDeliveryGid } from "~/shopify/ids";

import { apply, type Ref } from "./label-transitions.server";

// The write-back's own claim: a label stays `purchased` while its tracking is written to Shopify,
// and this claim (token and lease on the write-back columns) keeps two writers from both creating
// a fulfillment for it.

/**
 * Claims the write-back: not yet done, and not owned by a writer whose lease still runs. `first`
 * claims it only if no writer ever has: then no fulfillment of this label can be in Shopify yet.
 */
export async function claimWriteBack(
  ref: Ref,
  claim: { token: string; leaseUntil: Date; now: Date; first?: boolean },
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: {
      id: ref.labelId,
      shop: ref.shop,
      status: "purchased",
      fulfillmentGid: null,
      ...(claim.first
        ? { writeBackStatus: { in: ["none", "pending"] }, writeBackAttempts: 0 }
        : {
            OR: [
              { writeBackStatus: { in: ["none", "pending", "failed"] } },
              { writeBackStatus: "writing", writeBackLeaseUntil: { lt: claim.now } },
            ],
          }),
    },
    data: {
      writeBackStatus: "writing",
      writeBackToken: claim.token,
      writeBackLeaseUntil: claim.leaseUntil,
      writeBackAttempts: { increment: 1 },
    },
  });
  return result.count === 1;
}

/**
 * Records the fulfillment (a return label's reverse delivery) that carries the label's tracking.
 * Shopify holding it is a fact, so any writer may record it (no token); false when one was
 * recorded already.
 */
export function completeWriteBack(ref: Ref, fulfillmentGid: FulfillmentGid | ReverseDeliveryGid): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "completeWriteBack",
    { fulfillmentGid: null },
    {
      fulfillmentGid,
      writeBackStatus: "done",
      writeBackLastError: null,
      writeBackToken: null,
      writeBackLeaseUntil: null,
    },
  );
}

/**
 * The writer gives the write-back up: `pending` (the recovery job retries it) or `failed`
 * (Shopify refused it; the merchant must act). Only the writer that owns it may.
 */
export async function releaseWriteBack(
  ref: Ref,
  token: string,
  outcome: { status: "pending" | "failed"; error: string },
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, status: "purchased", writeBackStatus: "writing", writeBackToken: token },
    data: {
      writeBackStatus: outcome.status,
      writeBackLastError: outcome.error,
      writeBackToken: null,
      writeBackLeaseUntil: null,
    },
  });
  return result.count === 1;
}
