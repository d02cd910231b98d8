import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import type { ShippingClient } from "~/shipping/client.server";
import { parseAmountCents } from "~/shipping/vocabulary";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { reportError } from "~/utils/error-report.server";
import { mapBounded } from "~/utils/map-bounded";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { cancelVoidedFulfillment } from "./cancel-voided-fulfillment.server";
import { fromShippingError, type LabelError, labelError, labelNotFound } from "./label-errors";
import {
  findLabel,
  findLabelByServiceId,
  type LabelView,
  type LabelVoidFacts,
  listUnsettledVoids,
  VOID_READ_BACK_AFTER_MS,
} from "./label-repository.server";
import {
  acceptVoid,
  claimVoid,
  planFulfillmentCancel,
  recordEarlyRefusal,
  recordVoidShopify,
  refundVoid,
  refuseVoid,
  releaseVoidClaim,
} from "./void-transitions.server";
import { completeWriteBack } from "./write-back-claims.server";
import { settleVoidedWriteBack, writeTracking } from "./write-tracking.server";

// Voiding a bought label and getting its money back (ADR 22), from any door (the order page, the
// Labels list, a bulk run, the admin extension):
// 1. checked before anything is sent: bought, within the service's 30 days, no parcel scanned;
// 2. one request at a time (the claim); the service answers a repeat with the same record and
//    never refunds twice, so a lost answer is settled by asking again;
// 3. once accepted, the Shopify fulfillment is cancelled, so its items are open again and a
//    replacement label can be made and fulfilled at once;
// 4. the carrier's decision arrives as an event (label.voided / label.void_rejected), or is read
//    back by the recovery job: refunded, the refund counts once in the shop's spend; refused (a
//    parcel was scanned), the label is bought again and its tracking goes back to Shopify.

/** The service's window for voids (contract.md). */
export const VOID_WINDOW_DAYS = 30;
const VOID_LEASE_MS = 60_000;

export type VoidDeps = {
  db: PrismaClient;
  shop: string;
  shipping: Pick<ShippingClient, "voidLabel">;
  admin: AdminGraphqlClient;
  staffMemberId?: string | null;
  now?: () => Date;
};

/** What settles a void once asked: no call to the service. */
export type VoidDecisionDeps = Omit<VoidDeps, "shipping">;

const refusal = (message: string, logMessage: string) => labelError("INVALID_STATE", message, logMessage);

/** What stops a void before it is asked; null when it may be asked. */
export function checkVoidable(label: LabelVoidFacts, now: Date): LabelError | null {
  if (label.status !== "purchased" && label.status !== "fulfilled") {
    return refusal(
      label.status === "draft" ? "Drafts cost nothing: discard it instead." : "Only a bought label can be voided.",
      `void: ${label.id} is ${label.status}`,
    );
  }
  // The contract's rule: no tracking status beyond pre_transit.
  if (label.tracking && label.tracking.status !== "pre_transit") {
    return refusal(
      "The carrier has already scanned this parcel, so it can't be voided.",
      `void: ${label.id} tracking ${label.tracking.status}`,
    );
  }
  if (label.purchasedAt && now.getTime() - label.purchasedAt.getTime() > VOID_WINDOW_DAYS * 86_400_000) {
    return refusal(
      `Labels can be voided for ${VOID_WINDOW_DAYS} days after purchase; this one is older.`,
      `void: ${label.id} bought ${label.purchasedAt.toISOString()}`,
    );
  }
  return null;
}

const NO_SERVICE_RECORD = "This label has no record at the shipping service.";

/**
 * Why "Void label" is not offered for this label now, in the merchant's words; null when it is.
 * For the screens that list many labels: the same rules `requestLabelVoid` checks before sending.
 */
export function describeVoidBlocker(label: LabelVoidFacts, now: Date): string | null {
  if (label.void?.status === "refunded") return "Already voided and refunded.";
  if (label.void && label.void.status !== "rejected") return "Already voided: its refund is pending.";
  if (label.void?.status === "rejected" && label.status !== "purchased" && label.status !== "fulfilled") {
    return "Only a bought label can be voided.";
  }
  return checkVoidable(label, now)?.message ?? (label.serviceLabelId ? null : NO_SERVICE_RECORD);
}

/** Asks the service to void the label. Ok with the label as it then stands (refund pending). */
export async function requestLabelVoid(
  deps: VoidDeps,
  labelId: string,
  /** Why it was asked, for the audit trail when no person asked (a shop's setting). */
  options: { auditNote?: string } = {},
): Promise<Result<LabelView, LabelError>> {
  const { db, shop } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const label = await findLabel(db, shop, labelId);
  if (!label) return err(labelNotFound("requestLabelVoid", shop, labelId));
  // Asked already (here or at another door): the same answer, never a second request.
  // A request still in flight elsewhere holds its claim; one whose process died (lease over) is
  // taken over by the claim below and asked again, which the service answers the same.
  const inFlight = label.void?.status === "requesting" && label.leaseUntil !== null && label.leaseUntil > now;
  if (label.void && label.void.status !== "rejected" && (label.void.status !== "requesting" || inFlight)) {
    return ok(label);
  }
  const refused = checkVoidable(label, now);
  if (refused) return err(refused);
  if (!label.serviceLabelId) return err(refusal(NO_SERVICE_RECORD, `void: ${labelId} has no service id`));

  const ref = { db, shop, labelId };
  const token = randomUUID();
  if (!(await claimVoid(ref, { token, leaseUntil: new Date(now.getTime() + VOID_LEASE_MS), now }))) {
    const current = await findLabel(db, shop, labelId);
    return current ? ok(current) : err(labelNotFound("requestLabelVoid", shop, labelId));
  }
  const asked = await deps.shipping.voidLabel(label.serviceLabelId);
  if (!asked.ok) {
    await releaseVoidClaim(ref, token);
    return err(fromShippingError("requestLabelVoid", asked.error));
  }
  const refundCents = asked.value.refundCents ?? label.chargedCents;
  await acceptVoid(ref, token, { refundCents, requestedAt: now });
  // Planned on the row as it is now: a write-back may have recorded its fulfillment while the
  // service was asked. One that lands later plans it itself (write-tracking.server.ts). A return
  // label's reverse delivery stays on the return in Shopify, which has no way to take a label off
  // it (ADR 23): only an outbound label's fulfillment is cancelled.
  await planFulfillmentCancel(ref);
  await recordAudit(db, {
    shop,
    action: "void",
    outcome: "ok",
    orderGid: label.orderGid,
    labelId,
    amountCents: refundCents,
    detail: `void asked for ${label.serviceLabelId}: refund pending${options.auditNote ? ` (${options.auditNote})` : ""}`,
    staffMemberId: deps.staffMemberId ?? null,
  });
  if (asked.value.status === "voided") await settleRefunded(deps, labelId, { refundCents, decidedAt: now });
  await cancelVoidedFulfillment(deps, labelId);
  const after = await findLabel(db, shop, labelId);
  return after ? ok(after) : err(labelNotFound("requestLabelVoid", shop, labelId));
}

/** One label's answer when several are voided at once. */
export type LabelVoidOutcome = {
  labelId: string;
  orderName: string;
  /**
   * `pending`: the service took the void (or had it already), the refund waits for the carrier;
   * `refunded`: refunded already; `refused`: not voided, `message` says why (nothing was sent
   * when the app's own checks refused it).
   */
  outcome: "pending" | "refunded" | "refused";
  refundCents: number | null;
  currency: string;
  message: string | null;
};

/**
 * What "Void labels" came to: per label of the shop, and how many ids named no label of the shop
 * (removed, or never its own). Those are only counted: an id the shop does not have is not echoed.
 */
export type LabelVoidOutcomes = { results: LabelVoidOutcome[]; notFound: number };

/** Labels one request may void: a page of the Labels list, or a bulk run's labels. */
export const MAX_LABELS_PER_VOID = 250;
// Each void is a call to the service and one to Shopify (the fulfillment cancel).
const VOIDS_IN_FLIGHT = 4;

/**
 * "Void labels" over a selection (the Labels list, a bulk run's page): each label through
 * `requestLabelVoid`, so each is checked, claimed and asked once exactly as from the order page.
 * One label's refusal never stops the others; the answer says per label what happened.
 */
export async function requestLabelVoids(deps: VoidDeps, labelIds: readonly string[]): Promise<LabelVoidOutcomes> {
  const unique = [...new Set(labelIds)].slice(0, MAX_LABELS_PER_VOID);
  const outcomes = await mapBounded(unique, VOIDS_IN_FLIGHT, async (labelId): Promise<LabelVoidOutcome | null> => {
    const result = await requestLabelVoid(deps, labelId);
    if (result.ok) {
      const label = result.value;
      return {
        labelId,
        orderName: label.orderName,
        outcome: label.void?.status === "refunded" ? "refunded" : "pending",
        refundCents: label.void?.refundCents ?? label.chargedCents,
        currency: label.currency,
        message: null,
      };
    }
    const label = result.error.code === "NOT_FOUND" ? null : await findLabel(deps.db, deps.shop, labelId);
    if (!label) return null;
    return {
      labelId,
      orderName: label.orderName,
      outcome: "refused",
      refundCents: null,
      currency: label.currency,
      message:
        result.error.fixable || result.error.code === "INVALID_STATE"
          ? result.error.message
          : // The service or Shopify failed: logged under a reference the merchant can quote.
            reportError(result.error, { level: "warn", context: { shop: deps.shop } }).message,
    };
  });
  const results = outcomes.filter((o): o is LabelVoidOutcome => o !== null);
  return { results, notFound: outcomes.length - results.length };
}

async function settleRefunded(
  deps: Pick<VoidDeps, "db" | "shop">,
  labelId: string,
  refunded: { refundCents: number | null; decidedAt: Date },
): Promise<void> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label) return;
  if (!(await refundVoid({ db: deps.db, shop: deps.shop, labelId }, refunded))) return;
  // A refund that outran the acceptance (the event before our answer): the fulfillment is still in
  // Shopify and nobody marked it to cancel yet.
  await planFulfillmentCancel({ db: deps.db, shop: deps.shop, labelId });
  // Counted once: only the caller whose transition happened writes the refund.
  await recordAudit(deps.db, {
    shop: deps.shop,
    action: "refund",
    outcome: "ok",
    orderGid: label.orderGid,
    labelId,
    amountCents: -(refunded.refundCents ?? label.void?.refundCents ?? label.chargedCents ?? 0),
    detail: `refund for ${label.serviceLabelId ?? labelId}`,
    staffMemberId: null,
  });
}

export type VoidDecision =
  { outcome: "refunded"; refundCents: number | null } | { outcome: "rejected"; reason: string | null };

/**
 * The carrier's decision on a void, from the service's event or a read-back: recorded once,
 * whoever brings it first. Refused, the label's tracking goes back to Shopify.
 */
export async function applyVoidDecision(
  deps: VoidDecisionDeps,
  serviceLabelId: string,
  decision: VoidDecision,
): Promise<Result<LabelView | null, LabelError>> {
  const { db, shop } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const label = await findLabelByServiceId(db, shop, serviceLabelId);
  if (!label) return ok(null);
  const ref = { db, shop, labelId: label.id };
  if (decision.outcome === "refunded") {
    await settleRefunded(deps, label.id, { refundCents: decision.refundCents, decidedAt: now });
    const cancelled = await cancelVoidedFulfillment(deps, label.id);
    if (!cancelled.ok) return cancelled;
  } else if (
    await refuseVoid(ref, { reason: decision.reason, decidedAt: now, fulfillmentOrderGid: label.fulfillmentOrderGid })
  ) {
    const restored = await restoreFulfillment(deps, label.id);
    if (!restored.ok) return restored;
  } else {
    await recordEarlyRefusal(ref, { reason: decision.reason, decidedAt: now });
  }
  return ok(await findLabel(db, shop, label.id));
}

/**
 * A refused void's parcel is moving: Shopify must hold its fulfillment again. Never cancelled:
 * the label is fulfilled as it was. Cancelled: its tracking is written back as a new fulfillment
 * (of what remains; a replacement that took the items meanwhile leaves the write-back failed, for
 * the merchant to see).
 */
async function restoreFulfillment(deps: VoidDecisionDeps, labelId: string): Promise<Result<void, LabelError>> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label || label.status !== "purchased") return ok(undefined);
  const ref = { shop: deps.shop, labelId };
  if (label.fulfillmentGid) {
    await completeWriteBack({ db: deps.db, ...ref }, label.fulfillmentGid);
    await recordVoidShopify(deps.db, ref, "restored");
    return ok(undefined);
  }
  await recordVoidShopify(deps.db, ref, "restore_pending");
  const written = await writeTracking({ db: deps.db, shop: deps.shop, admin: deps.admin }, labelId, {});
  if (!written.ok) return written;
  await recordVoidShopify(deps.db, ref, "restored");
  return ok(undefined);
}

/**
 * The recovery job's part (ADR 22): a void whose decision is overdue is read back from the service
 * (its event may be lost), and a cancel Shopify did not take is tried again. Answers how many
 * labels it settled.
 */
export async function settleOverdueVoids(
  deps: VoidDecisionDeps & { shipping: Pick<ShippingClient, "getLabel"> | null },
): Promise<number> {
  const now = (deps.now ?? (() => new Date()))();
  let settled = 0;
  for (const label of await listUnsettledVoids(deps.db, deps.shop, now)) {
    const overdue =
      label.void?.status === "pending" &&
      label.void.requestedAt !== null &&
      now.getTime() - label.void.requestedAt.getTime() > VOID_READ_BACK_AFTER_MS;
    if (overdue && label.serviceLabelId && deps.shipping) {
      const read = await deps.shipping.getLabel(label.serviceLabelId);
      if (!read.ok) continue;
      const refund = read.value.refund;
      const decision: VoidDecision | null =
        read.value.status === "voided"
          ? { outcome: "refunded", refundCents: refund ? parseAmountCents(refund.amount) : null }
          : refund?.status === "rejected"
            ? { outcome: "rejected", reason: refund.reason ?? null }
            : null;
      if (decision && (await applyVoidDecision(deps, label.serviceLabelId, decision)).ok) settled += 1;
      continue;
    }
    // A write-back in flight when the label was voided, whose writer died: its fulfillment may be
    // in Shopify without our record of it. Found, it is recorded and cancelled below.
    if (label.writeBack.status === "writing" && !label.fulfillmentGid) {
      const found = await settleVoidedWriteBack(deps, label.id);
      if (!found.ok) continue;
    }
    if ((await cancelVoidedFulfillment(deps, label.id)).ok) settled += 1;
  }
  return settled;
}
