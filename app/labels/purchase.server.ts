import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import type { PurchaseOutcome, ShippingClient } from "~/shipping/client.server";
import { parseAmountCents, PurchasedLabelSchema } from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { fromShippingError, type LabelError, labelError } from "./label-errors";
import { appendRequestId, findLabel, type LabelView, toLabelView } from "./label-store.server";

// Buying a label exactly once, whatever happens: retries, double clicks, two processes, a lost
// response, a crash between the charge and our database write. See
// docs/decisions/0005-exactly-once-purchase-and-write-back.md.
//
// 1. Claim: a conditional update moves the label from draft (or from purchasing whose lease
//    expired) to purchasing with a fresh attempt id. Only one caller can win it.
// 2. A takeover of an expired attempt first reads the label from the service: if the crashed
//    attempt bought it, that purchase is saved and nothing is bought again.
// 3. Buy: the client turns a lost response into a read-back and 409 ALREADY_PURCHASED into the
//    bought label; the service never charges a label twice.
// 4. Save, conditional on still owning the attempt; record the charge in the audit trail.

export type PurchaseShippingPort = Pick<ShippingClient, "purchaseLabel" | "getLabel">;

export type PurchaseDeps = {
  db: PrismaClient;
  shop: string;
  shipping: PurchaseShippingPort;
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

const DEFAULT_LEASE_MS = 2 * 60_000;
const DEFAULT_WAIT_MS = 10_000;
const DEFAULT_POLL_MS = 50;

type Bought = { outcome: PurchaseOutcome; recovered: boolean };

export async function purchase(
  deps: PurchaseDeps,
  labelId: string,
  options: PurchaseOptions = {},
): Promise<Result<LabelView, LabelError>> {
  const { db, shop } = deps;
  const now = deps.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;

  const label = await findLabel(db, shop, labelId);
  if (!label)
    return err(labelError("NOT_FOUND", "This label no longer exists.", `purchase: no label ${labelId} for ${shop}`));
  if (label.status === "purchased" || label.status === "fulfilled") return ok(label);
  if ((label.status !== "draft" && label.status !== "purchasing") || !label.serviceLabelId) {
    return err(
      labelError(
        "INVALID_STATE",
        "This label cannot be bought; create a new one.",
        `purchase: ${labelId} is ${label.status}`,
      ),
    );
  }
  const serviceLabelId = label.serviceLabelId;

  const attemptId = randomUUID();
  const claimedAt = now();
  const claim = await db.label.updateMany({
    where: {
      id: labelId,
      shop,
      OR: [{ status: "draft" }, { status: "purchasing", leaseUntil: { lt: claimedAt } }],
    },
    data: {
      status: "purchasing",
      claimToken: attemptId,
      leaseUntil: new Date(claimedAt.getTime() + leaseMs),
    },
  });
  if (claim.count === 0) return waitForOtherAttempt(deps, labelId, options);

  // Taking over from an attempt that never finished: it may have been charged already.
  const takeover = label.status === "purchasing";
  let bought: Bought | null = null;
  if (takeover) {
    const readBack = await deps.shipping.getLabel(serviceLabelId);
    if (readBack.ok && readBack.value.status !== "draft") {
      const purchased = PurchasedLabelSchema.safeParse(readBack.value);
      if (purchased.success) bought = { outcome: { ...purchased.data, alreadyPurchased: true }, recovered: true };
    }
    // A failed read falls through to the purchase call, which is safe: a bought label answers 409.
  }

  if (!bought) {
    const result = await deps.shipping.purchaseLabel(serviceLabelId);
    if (!result.ok) return failAttempt(deps, label, attemptId, result.error);
    bought = { outcome: result.value, recovered: takeover && result.value.alreadyPurchased };
  }
  return savePurchase(deps, label, attemptId, bought);
}

async function savePurchase(
  deps: PurchaseDeps,
  label: LabelView,
  attemptId: string,
  bought: Bought,
): Promise<Result<LabelView, LabelError>> {
  const { db, shop } = deps;
  const { outcome } = bought;
  const chargedCents = parseAmountCents(outcome.charged ?? outcome.rate.amount);
  const chargeMismatch = chargedCents !== null && label.quotedCents !== null && chargedCents !== label.quotedCents;
  const current = await db.label.findFirst({ where: { id: label.id, shop } });
  const saved = await db.label.updateMany({
    where: { id: label.id, shop, status: "purchasing", claimToken: attemptId },
    data: {
      status: "purchased",
      chargedCents,
      chargeMismatch,
      currency: outcome.rate.currency,
      carrier: outcome.rate.carrier,
      serviceCode: outcome.rate.service_code,
      serviceName: outcome.rate.service ?? label.serviceName,
      trackingNumbers: JSON.stringify(outcome.tracking_numbers),
      trackingUrl: outcome.tracking_url ?? null,
      labelUrl: outcome.label_url,
      labelFormat: outcome.label_format ?? label.labelFormat,
      packageCount: outcome.package_count ?? label.packageCount,
      requestIds: appendRequestId(current?.requestIds ?? "[]", outcome.request_id),
      purchasedAt: deps.now?.() ?? new Date(),
      leaseUntil: null,
      lastError: null,
      writeBackStatus: "pending",
    },
  });
  if (saved.count === 1) {
    await recordAudit(db, {
      shop,
      action: "purchase",
      outcome: bought.recovered ? "recovered" : "ok",
      orderGid: label.orderGid,
      labelId: label.id,
      amountCents: chargedCents,
      currency: outcome.rate.currency,
      requestId: outcome.request_id ?? null,
      detail:
        [
          outcome.alreadyPurchased ? "read back from the service (answer lost or already bought)" : null,
          chargeMismatch ? `charged ${chargedCents} differs from quoted ${label.quotedCents}` : null,
        ]
          .filter(Boolean)
          .join("; ") || null,
    });
  }
  // Lost the attempt meanwhile (our lease expired and another caller saved it): theirs stands.
  const row = await db.label.findFirst({ where: { id: label.id, shop } });
  if (!row)
    return err(
      labelError("NOT_FOUND", "This label no longer exists.", `purchase: ${label.id} vanished after purchase`),
    );
  return ok(toLabelView(row));
}

async function failAttempt(
  deps: PurchaseDeps,
  label: LabelView,
  attemptId: string,
  error: Parameters<typeof fromShippingError>[1],
): Promise<Result<LabelView, LabelError>> {
  const { db, shop } = deps;
  await recordAudit(db, {
    shop,
    action: "purchase",
    outcome: error.outcomeUnknown ? "unknown" : "error",
    orderGid: label.orderGid,
    labelId: label.id,
    amountCents: null,
    requestId: error.requestId,
    detail: `${error.code}: ${error.logMessage}`,
  });
  if (error.outcomeUnknown) {
    // Maybe charged: stay "purchasing" but end the lease, so the next call reads the label back
    // from the service before anything else.
    await db.label.updateMany({
      where: { id: label.id, shop, status: "purchasing", claimToken: attemptId },
      data: { leaseUntil: new Date(0), lastError: error.logMessage },
    });
    return err(
      labelError(
        "PURCHASE_OUTCOME_UNKNOWN",
        "We could not confirm the purchase. Try again: the label will not be charged twice.",
        `purchase ${label.id}: ${error.logMessage}`,
        { shipping: error },
      ),
    );
  }
  // Definitely not bought (balance, validation): back to draft so it can be fixed and retried.
  await db.label.updateMany({
    where: { id: label.id, shop, status: "purchasing", claimToken: attemptId },
    data: { status: "draft", claimToken: null, leaseUntil: null, lastError: error.logMessage },
  });
  return err(fromShippingError("purchase", error));
}

async function waitForOtherAttempt(
  deps: PurchaseDeps,
  labelId: string,
  options: PurchaseOptions,
): Promise<Result<LabelView, LabelError>> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  for (let waited = 0; ; waited += pollMs) {
    const label = await findLabel(deps.db, deps.shop, labelId);
    if (!label) return err(labelError("NOT_FOUND", "This label no longer exists.", `purchase: ${labelId} vanished`));
    if (label.status === "purchased" || label.status === "fulfilled") return ok(label);
    if (label.status === "draft") {
      return err(
        labelError(
          "INVALID_STATE",
          label.lastError ? "The purchase failed; check the label and try again." : "Try again.",
          `purchase: concurrent attempt on ${labelId} ended as draft`,
        ),
      );
    }
    if (waited >= waitMs) {
      return err(
        labelError(
          "PURCHASE_IN_PROGRESS",
          "This label is being bought right now; it will not be charged twice.",
          `purchase: ${labelId} is owned by another attempt`,
        ),
      );
    }
    await sleep(pollMs);
  }
}

/** For a job: finishes purchases whose attempt died (lease expired), without charging again. */
export async function recoverStuckPurchases(deps: PurchaseDeps, options: PurchaseOptions = {}): Promise<LabelView[]> {
  const now = (deps.now ?? (() => new Date()))();
  const stuck = await deps.db.label.findMany({
    where: { shop: deps.shop, status: "purchasing", leaseUntil: { lt: now } },
    select: { id: true },
  });
  const recovered: LabelView[] = [];
  for (const { id } of stuck) {
    const result = await purchase(deps, id, { ...options, waitMs: 0 });
    if (result.ok) recovered.push(result.value);
  }
  return recovered;
}
