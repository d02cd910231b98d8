// POST /v1/labels/{id}/void and the carrier's later decision (contract.md, "POST
// /v1/labels/{id}/void"): who may void, the pending refund, the decision on the emulator's clock
// or by the control, the one credit to the balance, and the two events.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import type { LabelRecord } from "../state";
import { ProblemList } from "../validation";
import { toWire } from "./label-record";
import { findAnyLabel, findLabel } from "./labels";
import { authenticate, parseBody } from "./request-steps";
import { isError, respondError, respondJson, respondProblems } from "./responses";
import { emitEvent } from "./webhook-endpoints";

/** contract.md: a label can be voided within 30 days of its purchase. */
const VOID_WINDOW_MS = 30 * 86_400_000;
const VOID_OUTCOMES = ["refunded", "rejected"] as const;
export type VoidOutcome = (typeof VOID_OUTCOMES)[number];

type NotVoidableReason = "draft" | "scanned" | "too_old";

const NOT_VOIDABLE_MESSAGES: Record<NotVoidableReason, string> = {
  draft: "is a draft: drafts cost nothing, there is nothing to void",
  scanned: "has been scanned by the carrier and can no longer be voided",
  too_old: "was purchased more than 30 days ago and can no longer be voided",
};

function respondNotVoidable(ctx: RequestContext, label: LabelRecord, reason: NotVoidableReason): CoreResponse {
  // `reason` sits beside `code` in the error object, as the contract places it.
  return respondJson(ctx.requestId, 409, {
    error: { code: "NOT_VOIDABLE", message: `Label ${label.id} ${NOT_VOIDABLE_MESSAGES[reason]}`, reason },
  });
}

export function handleVoid(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const label = findLabel(core, ctx, auth.org);
  if (isError(label)) return label;
  const purchase = label.purchase;
  if (purchase === null) return respondNotVoidable(ctx, label, "draft");
  // Asked again: the same record, never a second refund.
  if (label.status === "void_pending" || label.status === "voided") {
    return respondJson(ctx.requestId, 200, toWire(core, label, ctx));
  }
  if (purchase.scanned) return respondNotVoidable(ctx, label, "scanned");
  const nowMs = core.now().getTime();
  if (nowMs - Date.parse(purchase.purchasedAt) > VOID_WINDOW_MS) return respondNotVoidable(ctx, label, "too_old");
  label.status = "void_pending";
  label.refund = {
    amountCents: purchase.chargedCents,
    status: "pending",
    requestedAt: core.now().toISOString(),
    decidedAt: null,
    reason: null,
  };
  core.scheduleVoidDecision(label.id, nowMs + core.state.voidDecisionMs);
  return respondJson(ctx.requestId, 200, toWire(core, label, ctx));
}

/**
 * The carrier's decision on a pending void, applied once: refunded (the balance gets the charge
 * back, label.voided) or rejected because a parcel was scanned (label.void_rejected). A label that
 * is no longer pending is left alone, so a decision can never credit twice.
 */
export function decideVoid(core: ShippingCore, label: LabelRecord, outcome: VoidOutcome, origin: string): boolean {
  const refund = label.refund;
  if (label.status !== "void_pending" || refund === null) return false;
  core.state.pendingVoids.delete(label.id);
  refund.decidedAt = core.now().toISOString();
  const org = core.state.organizations.get(label.orgId);
  if (org === undefined) throw new Error(`Label ${label.id} belongs to no known organization ${label.orgId}`);
  if (outcome === "refunded") {
    label.status = "voided";
    refund.status = "refunded";
    org.balanceCents += refund.amountCents;
    org.refunds.push({ labelId: label.id, amountCents: refund.amountCents, refundedAt: refund.decidedAt });
  } else {
    label.status = "purchased";
    refund.status = "rejected";
    refund.reason = "scanned";
  }
  const record = toWire(core, label, { req: { origin } });
  emitEvent(core, label.orgId, outcome === "refunded" ? "label.voided" : "label.void_rejected", { label: record });
  return true;
}

/** Every pending void whose decision time has come on the emulator's clock is refunded. */
export function decideDueVoids(core: ShippingCore): void {
  if (core.state.pendingVoids.size === 0) return;
  const nowMs = core.now().getTime();
  for (const [labelId, dueMs] of [...core.state.pendingVoids]) {
    if (dueMs > nowMs) continue;
    const label = core.state.labels.get(labelId);
    // Evicted from storage: nobody can ask about it any more.
    if (label === undefined) core.state.pendingVoids.delete(labelId);
    else decideVoid(core, label, "refunded", core.lastOrigin);
  }
}

/** POST /__emulator/labels/{id}/void_decision {outcome}: settles a pending void at once. */
export function handleControlVoidDecision(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const label = findAnyLabel(core, ctx);
  if (isError(label)) return label;
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const outcome = VOID_OUTCOMES.find((o) => o === body.outcome);
  if (outcome === undefined) {
    const problems = new ProblemList();
    problems.add("outcome", `must be one of ${VOID_OUTCOMES.join(", ")}`);
    return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  }
  if (!decideVoid(core, label, outcome, ctx.req.origin)) {
    return respondError(
      ctx.requestId,
      409,
      "NOT_VOID_PENDING",
      `Label ${label.id} has no pending void (${label.status})`,
    );
  }
  return respondJson(ctx.requestId, 200, toWire(core, label, ctx));
}

/** POST /__emulator/voids {decision_seconds}: how long the carrier takes for voids asked from now on. */
export function handleVoidSettings(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const seconds = body.decision_seconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
    return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "decision_seconds must be a number >= 0", [
      { field: "decision_seconds", message: "must be a number of seconds >= 0" },
    ]);
  }
  core.state.voidDecisionMs = seconds * 1000;
  return respondJson(ctx.requestId, 200, { decision_seconds: seconds });
}

/**
 * A parcel of the label was scanned (tracking beyond pre_transit): it cannot be voided any more,
 * and a void still pending is rejected now, so a void racing a scan ends in one state.
 */
export function recordScan(core: ShippingCore, label: LabelRecord, origin: string): void {
  if (label.purchase === null) return;
  label.purchase.scanned = true;
  decideVoid(core, label, "rejected", origin);
}
