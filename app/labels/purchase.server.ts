import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import type { PurchaseOutcome, ShippingClient } from "~/shipping/client.server";
import type { ShippingError } from "~/shipping/errors";
import { type PurchasedLabel, PurchasedLabelSchema } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { delay } from "~/utils/delay";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { fromShippingError, type LabelError, labelError, labelNotFound } from "./label-errors";
import { findLabel, type LabelView, listStuckPurchaseIds } from "./label-repository.server";
import { claimPurchase, endPurchaseLease, returnToDraft, savePurchased } from "./label-transitions.server";

// Buying a label exactly once, whatever happens: retries, double clicks, two processes, a lost
// response, a crash between the charge and our database write, a caller slower than its lease.
// See docs/decisions/0005-exactly-once-purchase-and-write-back.md.
//
// 1. Claim: a conditional update moves the label from draft (or from purchasing whose lease
//    ran out) to purchasing, owned by a fresh token. Only one caller wins it.
// 2. A takeover reads the label from the service first. If the read fails, nothing is bought:
//    the label stays purchasing until the service can say what it is.
// 3. Buy, within a deadline before the lease ends: no call outlives the lease that guards it.
//    The client turns a lost answer into a read-back and 409 ALREADY_PURCHASED into the bought
//    label; the service never charges a label twice.
// 4. Save what the service confirmed, with its audit entry, in one transaction. A refusal
//    returns the label to draft; an unknown outcome leaves it purchasing, lease ended.

export type PurchaseShippingPort = Pick<ShippingClient, "purchaseLabel" | "getLabel">;

export type PurchaseDeps = {
  db: PrismaClient;
  shop: string;
  shipping: PurchaseShippingPort;
  /** Who clicked Buy (the session token's `sub`), for the audit trail; null for jobs. */
  staffMemberId?: string | null;
  /**
   * Asked as the claim is taken, its answer awaited right before the purchase request is sent:
   * after a takeover's read-back found the label still a draft, so nothing was charged yet. A
   * refusal returns the label to draft and is the answer (the spend guard: Shopify must let the
   * shipment be fulfilled, app/shipments/buy-label.server.ts). Every purchase made for a merchant
   * passes one. A label a takeover finds already charged is saved, whatever it answers.
   */
  beforeSpend?: (label: LabelView) => Promise<LabelError | null>;
  /**
   * Asked once the purchase request holds its shipping slot, right before it leaves (and again
   * before a repeat after 429): a reason withholds it, nothing is sent and the label goes back
   * to draft. A bulk run's "Cancel the rest" is honoured here, however long the slot took.
   */
  beforeRequest?: (label: LabelView) => Promise<string | null>;
  /** Lease timestamps; the shipping client measures deadlines on the same clock. */
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
};

export type PurchaseOptions = {
  /** How long an attempt owns the label before another caller may take it over. */
  leaseMs?: number;
  /** How long a caller that lost the claim waits for the winner's result. */
  waitMs?: number;
  pollMs?: number;
};

export const PURCHASE_LEASE_MS = 2 * 60_000;
// After an unknown outcome, how long a request still in flight gets to land before another
// caller may take the label over and read it back.
export const UNKNOWN_OUTCOME_QUIET_MS = 15_000;
// The shipping calls must end this long before the lease does, leaving time to save.
export const LEASE_SAFETY_MS = 10_000;
const DEFAULT_WAIT_MS = 10_000;
const DEFAULT_POLL_MS = 50;

type Bought = { outcome: PurchaseOutcome; recovered: boolean };

const cannotBuy = (label: LabelView, operation: string): LabelError | null => {
  const why: Partial<Record<LabelView["status"], string>> = {
    creating: "This label is still being created. Try again in a moment.",
    voided: "This label was discarded. Create a new one.",
    failed: "This label could not be created. Create a new one.",
  };
  const message = why[label.status];
  if (message) return labelError("INVALID_STATE", message, `${operation}: ${label.id} is ${label.status}`);
  if (!label.serviceLabelId) {
    return labelError(
      "INVALID_STATE",
      "This label cannot be bought; create a new one.",
      `${operation}: ${label.id} has no service label`,
    );
  }
  return null;
};

export async function purchase(
  deps: PurchaseDeps,
  labelId: string,
  options: PurchaseOptions = {},
): Promise<Result<LabelView, LabelError>> {
  const { db, shop } = deps;
  const now = deps.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? PURCHASE_LEASE_MS;

  const label = await findLabel(db, shop, labelId);
  if (!label) return err(labelNotFound("purchase", shop, labelId));
  if (label.status === "purchased" || label.status === "fulfilled") return ok(label);
  const refused = cannotBuy(label, "purchase");
  if (refused || !label.serviceLabelId) return err(refused ?? labelNotFound("purchase", shop, labelId));
  const serviceLabelId = label.serviceLabelId;

  // Shopify is asked while the claim is taken (its answer is awaited right before the request):
  // the guard's round trip is not added to every purchase's time.
  const asked = deps.beforeSpend ? deps.beforeSpend(label) : null;
  // An attempt that loses the claim returns without the answer; its failure is nobody's then.
  asked?.catch(() => null);
  const token = randomUUID();
  const claimedAt = now();
  const ref = { db, shop, labelId };
  const claimed = await claimPurchase(ref, {
    token,
    now: claimedAt,
    leaseUntil: new Date(claimedAt.getTime() + leaseMs),
  });
  if (!claimed) return waitForOtherAttempt(deps, labelId, options);
  const deadline = claimedAt.getTime() + leaseMs - Math.min(LEASE_SAFETY_MS, leaseMs / 4);

  // Taking over an attempt that never finished: it may have been charged. Only the service
  // can say, so nothing is bought until it has.
  if (claimed === "purchasing") {
    const settled = await settleFromService(deps, label, token, serviceLabelId, deadline);
    if (settled !== "draft") return settled;
    // Still a draft at the service: the earlier attempt was never charged.
  }

  const refusal = asked ? await asked : null;
  if (refusal) {
    await returnToDraft(ref, token, refusal.logMessage);
    return err(refusal);
  }
  const { beforeRequest } = deps;
  const result = await deps.shipping.purchaseLabel(serviceLabelId, {
    deadline,
    ...(beforeRequest ? { beforeSend: () => beforeRequest(label) } : {}),
  });
  if (result.ok) {
    return save(deps, label, token, { outcome: result.value, recovered: result.value.alreadyPurchased });
  }
  if (result.error.outcomeUnknown) return outcomeUnknown(deps, label, token, result.error);
  // A takeover's refusal (a 429, say) does not mean the label is uncharged: the attempt taken over
  // may have reached the service after our read-back. Asked again before anything is said.
  if (claimed === "purchasing") {
    const settled = await settleFromService(
      deps,
      label,
      token,
      serviceLabelId,
      deadline,
      ` after ${result.error.code}`,
    );
    if (settled !== "draft") return settled;
  }
  return refusedByService(deps, label, token, result.error);
}

/**
 * What the service says of a label whose purchase we own but another attempt may have made:
 * bought is saved as bought, unreadable stays purchasing (outcome unknown), and "draft" is left to
 * the caller: nothing was charged.
 */
async function settleFromService(
  deps: PurchaseDeps,
  label: LabelView,
  token: string,
  serviceLabelId: string,
  deadline: number,
  when = "",
): Promise<Result<LabelView, LabelError> | "draft"> {
  const readBack = await deps.shipping.getLabel(serviceLabelId, { deadline });
  if (!readBack.ok) return outcomeUnknown(deps, label, token, readBack.error);
  if (readBack.value.status === "draft") return "draft";
  const purchased = PurchasedLabelSchema.safeParse(readBack.value);
  if (!purchased.success) {
    return outcomeUnknown(deps, label, token, {
      code: "INVALID_RESPONSE",
      requestId: null,
      logMessage: `read back ${serviceLabelId} as ${readBack.value.status} without label data${when}`,
    });
  }
  return save(deps, label, token, { outcome: { ...purchased.data, alreadyPurchased: true }, recovered: true });
}

function describeCharge(note: string | null, chargedCents: number | null, quotedCents: number | null) {
  const notes = [
    note,
    chargedCents !== null && quotedCents !== null && chargedCents !== quotedCents
      ? `charged ${chargedCents} differs from quoted ${quotedCents}`
      : null,
  ].filter(Boolean);
  return notes.length ? notes.join("; ") : null;
}

/**
 * Records a purchase the service confirmed, with the audit entry of its charge, in one
 * transaction. False when it was recorded already (by another caller). Throws when the
 * database fails: callers decide what the merchant hears.
 */
export async function recordConfirmedPurchase(
  deps: Pick<PurchaseDeps, "db" | "shop" | "now" | "staffMemberId">,
  label: LabelView,
  purchased: PurchasedLabel,
  audit: { outcome: "ok" | "recovered"; note: string | null },
): Promise<boolean> {
  const chargedCents = parseAmountCents(purchased.charged ?? purchased.rate.amount);
  return savePurchased(
    { db: deps.db, shop: deps.shop, labelId: label.id },
    label.serviceLabelId ?? purchased.id,
    {
      chargedCents,
      chargeMismatch: chargedCents !== null && label.quotedCents !== null && chargedCents !== label.quotedCents,
      currency: purchased.rate.currency,
      carrier: purchased.rate.carrier,
      serviceCode: purchased.rate.service_code,
      serviceName: purchased.rate.service ?? null,
      trackingNumbers: purchased.tracking_numbers,
      trackingUrl: purchased.tracking_url ?? null,
      labelUrl: purchased.label_url,
      labelFormat: purchased.label_format ?? null,
      packageCount: purchased.package_count ?? null,
      requestId: purchased.request_id ?? null,
      purchasedAt: (deps.now ?? (() => new Date()))(),
    },
    {
      outcome: audit.outcome,
      orderGid: label.orderGid,
      amountCents: chargedCents,
      currency: purchased.rate.currency,
      requestId: purchased.request_id ?? null,
      detail: describeCharge(audit.note, chargedCents, label.quotedCents),
      staffMemberId: deps.staffMemberId ?? null,
    },
  );
}

/**
 * Saves a purchase the service confirmed. If another caller saved it first (ours was taken
 * over), theirs stands; either way the answer is the label as it now is, bought.
 */
async function save(
  deps: PurchaseDeps,
  label: LabelView,
  token: string,
  bought: Bought,
): Promise<Result<LabelView, LabelError>> {
  const { outcome } = bought;
  try {
    await recordConfirmedPurchase(deps, label, outcome, {
      outcome: bought.recovered ? "recovered" : "ok",
      note: outcome.alreadyPurchased ? "read back from the service (answer lost or already bought)" : null,
    });
  } catch (error) {
    // The service bought it but we could not write that down. The label stays purchasing with
    // its lease ended, so the next call or the recovery job reads it back and saves it: it is
    // never bought again, and the merchant is told so instead of seeing a crash.
    const reason = `saving purchase failed: ${error instanceof Error ? error.message : String(error)}`;
    await endPurchaseLease({ db: deps.db, shop: deps.shop, labelId: label.id }, token, reason, quietUntil(deps)).catch(
      () => false,
    );
    return err(
      labelError(
        "PURCHASE_OUTCOME_UNKNOWN",
        "The label was bought, but it is not shown here yet. It will appear shortly and will not be charged again.",
        `purchase ${label.id}: ${reason}`,
      ),
    );
  }
  return answerWithCurrentState(deps, label.id, "purchase");
}

/** An attempt that bought nothing, or may have: audited either way, never as a charge. */
function auditFailedAttempt(
  deps: PurchaseDeps,
  label: LabelView,
  outcome: "error" | "unknown",
  error: Pick<ShippingError, "code" | "logMessage" | "requestId">,
): Promise<void> {
  return recordAudit(deps.db, {
    shop: deps.shop,
    action: "purchase",
    outcome,
    orderGid: label.orderGid,
    labelId: label.id,
    requestId: error.requestId,
    detail: `${error.code}: ${error.logMessage}`,
    staffMemberId: deps.staffMemberId ?? null,
  });
}

/** The service may have bought it: stay purchasing, lease ended, until the service says. */
async function outcomeUnknown(
  deps: PurchaseDeps,
  label: LabelView,
  token: string,
  error: Pick<ShippingError, "code" | "logMessage" | "requestId">,
): Promise<Result<LabelView, LabelError>> {
  // The state first: if the audit write failed after it, the label would still be safe.
  await endPurchaseLease(
    { db: deps.db, shop: deps.shop, labelId: label.id },
    token,
    error.logMessage,
    quietUntil(deps),
  );
  await auditFailedAttempt(deps, label, "unknown", error);
  return err(
    labelError(
      "PURCHASE_OUTCOME_UNKNOWN",
      "We could not confirm the purchase with the shipping service. Try again in a moment: the label will not be charged twice.",
      `purchase ${label.id}: ${error.logMessage}`,
    ),
  );
}

/** The service refused the purchase (balance, validation, busy): nothing was charged. */
async function refusedByService(
  deps: PurchaseDeps,
  label: LabelView,
  token: string,
  error: ShippingError,
): Promise<Result<LabelView, LabelError>> {
  // The state first: a failed audit write must not leave a refused label claimable as unknown.
  await returnToDraft({ db: deps.db, shop: deps.shop, labelId: label.id }, token, error.logMessage);
  await auditFailedAttempt(deps, label, "error", error);
  return err(fromShippingError("purchase", error));
}

function quietUntil(deps: Pick<PurchaseDeps, "now">): Date {
  return new Date((deps.now ?? (() => new Date()))().getTime() + UNKNOWN_OUTCOME_QUIET_MS);
}

/** The label as it now is: ok only when it is bought, otherwise an error naming its state. */
async function answerWithCurrentState(
  deps: PurchaseDeps,
  labelId: string,
  operation: string,
): Promise<Result<LabelView, LabelError>> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label) return err(labelNotFound(operation, deps.shop, labelId));
  if (label.status === "purchased" || label.status === "fulfilled") return ok(label);
  if (label.status === "purchasing" && label.lastError !== null) {
    // No attempt is running: the last one ended without an answer, and the quiet period for a
    // request still in flight has not passed. Nothing changes by waiting here; say when.
    const seconds = Math.max(1, Math.ceil(((label.leaseUntil?.getTime() ?? 0) - Date.now()) / 1000));
    return err(
      labelError(
        "PURCHASE_OUTCOME_UNKNOWN",
        `We are still confirming with the shipping service whether this label was bought. Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}: it will not be charged twice.`,
        `${operation}: ${labelId} is in its quiet period after an unknown outcome (${label.lastError})`,
      ),
    );
  }
  if (label.status === "purchasing") {
    return err(
      labelError(
        "PURCHASE_IN_PROGRESS",
        "This label is being bought right now; it will not be charged twice.",
        `${operation}: ${labelId} is owned by another attempt`,
      ),
    );
  }
  if (label.status === "draft") {
    return err(
      labelError(
        "INVALID_STATE",
        label.lastError
          ? "The purchase failed; check the label and try again."
          : "The label was not bought. Try again.",
        `${operation}: ${labelId} ended as draft${label.lastError ? ` (${label.lastError})` : ""}`,
      ),
    );
  }
  return err(
    cannotBuy(label, operation) ??
      labelError("INVALID_STATE", "This label cannot be bought.", `${operation}: ${labelId} is ${label.status}`),
  );
}

async function waitForOtherAttempt(
  deps: PurchaseDeps,
  labelId: string,
  options: PurchaseOptions,
): Promise<Result<LabelView, LabelError>> {
  const sleep = deps.sleep ?? delay;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  for (let waited = 0; ; waited += pollMs) {
    const answer = await answerWithCurrentState(deps, labelId, "purchase");
    // Only a purchase still running is worth waiting for; any other state answers at once.
    if (answer.ok || answer.error.code !== "PURCHASE_IN_PROGRESS" || waited >= waitMs) return answer;
    await sleep(pollMs);
  }
}

/** For a job: finishes purchases whose attempt died or ended unknown, without charging again. */
export async function recoverStuckPurchases(deps: PurchaseDeps, options: PurchaseOptions = {}): Promise<LabelView[]> {
  const now = (deps.now ?? (() => new Date()))();
  const recovered: LabelView[] = [];
  for (const id of await listStuckPurchaseIds(deps.db, deps.shop, now)) {
    const result = await purchase(deps, id, { ...options, waitMs: 0 });
    if (result.ok) recovered.push(result.value);
  }
  return recovered;
}
