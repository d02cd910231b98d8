import type { PrismaClient } from "@prisma/client";

import type { FulfillmentGid, ReverseDeliveryGid } from "~/shopify/ids";
import { isUniqueViolation } from "~/utils/prisma-errors";

import { activeKeyFor } from "./label-repository.server";
import { apply, type Ref } from "./label-transitions.server";

// The writes of a bought label's void (ADR 22), each a conditional update like every other label
// transition (ADR 5): a caller that lost a race changes nothing.
//
// The claim is `refundStatus = requesting` with a token and a lease (the purchase's columns, free
// once a label is bought): one request to the service at a time. Its acceptance moves the label to
// `void_pending` and frees the fulfillment order's active slot, so a replacement label can be made
// at once. The decision moves it to `voided` (refunded) or back to `purchased` (refused).

const BOUGHT = ["purchased", "fulfilled"];

/** Takes the void request for `token` until `leaseUntil`; false when another holds it or it was asked. */
export async function claimVoid(ref: Ref, claim: { token: string; leaseUntil: Date; now: Date }): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: {
      id: ref.labelId,
      shop: ref.shop,
      status: { in: BOUGHT },
      OR: [{ refundStatus: null }, { refundStatus: "requesting", leaseUntil: { lt: claim.now } }],
    },
    data: { refundStatus: "requesting", claimToken: claim.token, leaseUntil: claim.leaseUntil },
  });
  return result.count === 1;
}

/** The service did not take the request: the label is as before, and may be voided again. */
export async function releaseVoidClaim(ref: Ref, token: string): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, refundStatus: "requesting", claimToken: token },
    data: { refundStatus: null, claimToken: null, leaseUntil: null },
  });
  return result.count === 1;
}

/**
 * The service accepted the void: refund pending, the slot free. Its fulfillment is marked to cancel
 * by `planFulfillmentCancel`, which reads the row as it is then, not as the caller read it.
 */
export function acceptVoid(
  ref: Ref,
  token: string,
  accepted: { refundCents: number | null; requestedAt: Date },
): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "acceptVoid",
    { refundStatus: "requesting", claimToken: token },
    {
      refundStatus: "pending",
      refundCents: accepted.refundCents,
      voidRequestedAt: accepted.requestedAt,
      activeKey: null,
      claimToken: null,
      leaseUntil: null,
      voidShopifyStatus: null,
    },
  );
}

const VOIDED = ["void_pending", "voided"];

/**
 * Marks a voided outbound label's recorded fulfillment to cancel, once. Called by the void after its
 * acceptance and by the write-back that records a fulfillment after it: whichever lands second
 * finds both the void and the fulfillment in the row, so one of them always marks it.
 */
export async function planFulfillmentCancel(ref: Ref): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: {
      id: ref.labelId,
      shop: ref.shop,
      kind: "outbound",
      status: { in: VOIDED },
      fulfillmentGid: { not: null },
      // Never over a cancel already planned, done or refused.
      OR: [{ voidShopifyStatus: null }, { voidShopifyStatus: "restored" }],
    },
    data: { voidShopifyStatus: "cancel_pending" },
  });
  return result.count === 1;
}

/**
 * A write-back that lands after the void (its fulfillment or reverse delivery created while the
 * void was asked): Shopify holds it, so it is recorded on the voided label like any write-back,
 * for the cancel to find. False when one was recorded already.
 */
export async function recordVoidedWriteBack(
  ref: Ref,
  fulfillmentGid: FulfillmentGid | ReverseDeliveryGid,
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, status: { in: VOIDED }, fulfillmentGid: null },
    data: {
      fulfillmentGid,
      writeBackStatus: "done",
      writeBackLastError: null,
      writeBackToken: null,
      writeBackLeaseUntil: null,
    },
  });
  return result.count === 1;
}

/**
 * A write-back that was in flight when the label was voided and whose writer died: none of this
 * label's tracking is in Shopify (the search found none), so nothing is left to write or cancel.
 */
export async function dropVoidedWriteBack(ref: Ref, now: Date): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: {
      id: ref.labelId,
      shop: ref.shop,
      status: { in: VOIDED },
      fulfillmentGid: null,
      writeBackStatus: "writing",
      writeBackLeaseUntil: { lt: now },
    },
    data: { writeBackStatus: "none", writeBackToken: null, writeBackLeaseUntil: null },
  });
  return result.count === 1;
}

/** The carrier refunded it; true only for the one caller that recorded it (credited once). */
export function refundVoid(ref: Ref, refunded: { refundCents: number | null; decidedAt: Date }): Promise<boolean> {
  return apply(
    ref.db,
    ref,
    "refundVoid",
    { refundStatus: { in: ["pending", "requesting"] } },
    {
      refundStatus: "refunded",
      ...(refunded.refundCents === null ? {} : { refundCents: refunded.refundCents }),
      voidDecidedAt: refunded.decidedAt,
      activeKey: null,
      claimToken: null,
      leaseUntil: null,
    },
  );
}

/**
 * The carrier refused it (a parcel was scanned): the label is bought again. It takes its
 * fulfillment order's slot back unless a replacement holds it meanwhile. True only for the one
 * caller that recorded it.
 */
export async function refuseVoid(
  ref: Ref,
  refused: { reason: string | null; decidedAt: Date; fulfillmentOrderGid: Parameters<typeof activeKeyFor>[1] },
): Promise<boolean> {
  const moved = await apply(
    ref.db,
    ref,
    "refuseVoid",
    { refundStatus: { in: ["pending", "requesting"] } },
    { refundStatus: "rejected", voidRefusal: refused.reason, voidDecidedAt: refused.decidedAt },
  );
  if (!moved) return false;
  try {
    await ref.db.label.updateMany({
      where: { id: ref.labelId, shop: ref.shop, activeKey: null },
      data: { activeKey: activeKeyFor(ref.shop, refused.fulfillmentOrderGid) },
    });
  } catch (error) {
    // A replacement label holds the slot: this one stays bought, outside it.
    if (!isUniqueViolation(error)) throw error;
  }
  return true;
}

/**
 * A refusal that arrives before the acceptance was recorded (the event outran the answer): kept
 * on the still-bought label, whose fulfillment was never cancelled.
 */
export async function recordEarlyRefusal(
  ref: Ref,
  refused: { reason: string | null; decidedAt: Date },
): Promise<boolean> {
  const result = await ref.db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop, status: { in: BOUGHT }, refundStatus: "requesting" },
    data: {
      refundStatus: "rejected",
      voidRefusal: refused.reason,
      voidDecidedAt: refused.decidedAt,
      claimToken: null,
      leaseUntil: null,
    },
  });
  return result.count === 1;
}

/** Where the voided label's Shopify fulfillment stands (see LabelView.void.shopify). */
export async function recordVoidShopify(
  db: PrismaClient,
  ref: Omit<Ref, "db">,
  status: "cancel_pending" | "cancelled" | "cancel_failed" | "restore_pending" | "restored",
  fulfillment?: { cancelled: FulfillmentGid },
): Promise<void> {
  await db.label.updateMany({
    where: { id: ref.labelId, shop: ref.shop },
    data: {
      voidShopifyStatus: status,
      // The tracking goes back to Shopify through the write-back, which takes a pending one.
      ...(status === "restore_pending" ? { writeBackStatus: "pending" } : {}),
      ...(fulfillment
        ? {
            cancelledFulfillmentGid: fulfillment.cancelled,
            fulfillmentGid: null,
            writeBackStatus: "none",
          }
        : {}),
    },
  });
}
