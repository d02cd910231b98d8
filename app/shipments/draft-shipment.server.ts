import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import { retryWhileConnectionLost } from "~/db/client.server";
import { fromShippingError, type LabelError, labelError, labelNotFound } from "~/labels/label-errors";
import { findActiveLabel, findLabel, findUnconfirmedDrafts, type LabelView } from "~/labels/label-repository.server";
import { claimCreationSlot, completeCreation, failCreation, takeOverCreation } from "~/labels/label-transitions.server";
import { LEASE_SAFETY_MS } from "~/labels/purchase.server";
import { logFor } from "~/logger.server";
import type { CallOptions, ShippingClient } from "~/shipping/client.server";
import { checkDraftPackageCount, type PreflightProblem } from "~/shipping/preflight";
import { type Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { delay } from "~/utils/delay";
import { err, ok, type Result } from "~/utils/result";

import type { ReadyDraft, ReadyQuote } from "./check-shipment";

// The pipeline's quote and draft steps (load → check → QUOTE, DRAFT → buy). Both take only what
// check-shipment.ts made of a shipment (ReadyQuote, ReadyDraft), so nothing unchecked reaches the
// service. Drafts cost nothing; the fulfillment order's one active slot (claimCreationSlot) is the
// one guard against a second label: a second draft for it returns the label already there.

export type QuoteShippingPort = Pick<ShippingClient, "getRates">;
export type DraftShippingPort = Pick<ShippingClient, "createDraftLabel">;

// A draft being created by another request is left alone this long before it is taken over;
// the creating call itself must end before then (its deadline).
export const CREATING_LEASE_MS = 60_000;

/** Rates for a checked shipment (free). */
export async function quoteShipment(
  shipping: QuoteShippingPort,
  ready: ReadyQuote,
  /** A deadline for the whole call, when the caller cannot wait the client's default. */
  call?: CallOptions,
): Promise<Result<{ rates: Rate[]; requestId: string | null }, LabelError>> {
  const rates = await shipping.getRates(ready.ratesRequest, call);
  if (!rates.ok) return err(fromShippingError("quote", rates.error));
  return ok({ rates: rates.value.rates, requestId: rates.value.request_id ?? null });
}

export type DraftDeps = {
  db: PrismaClient;
  shop: string;
  shipping: DraftShippingPort;
  now?: Date;
  /**
   * A door that drafts on its own (auto-draft, bulk checks): it does not draft again for a
   * shipment whose last draft may exist unconfirmed at the service, so a lost answer costs one
   * untracked draft at most. A merchant's click drafts anyway, and is told.
   */
  automatic?: boolean;
};

/** How long automatic doors look back for lost draft answers, and the longest they hold for them. */
export const UNCONFIRMED_DRAFT_HOLD_MS = 24 * 60 * 60_000;
const FIRST_QUIET_MS = 5 * 60_000;

/**
 * How long automatic drafting stays quiet after the `lost`-th lost answer in a row: minutes for a
 * blip (5, then 30, then 3 hours), a day at most. Each try after it costs one untracked draft at
 * most if its answer is lost too, and only drafts whose id we saved are ever bought.
 */
export const quietAfterLostDrafts = (lost: number) =>
  Math.min(FIRST_QUIET_MS * 6 ** Math.max(0, lost - 1), UNCONFIRMED_DRAFT_HOLD_MS);

const timeOfDay = (at: Date) => `${at.toISOString().slice(11, 16)} UTC`;

export type DraftOutcome = { label: LabelView; existing: boolean; warnings: PreflightProblem[] };

/** One draft per fulfillment order: ok with `existing: true` when it already had an active label. */
export async function draftShipment(deps: DraftDeps, input: ReadyDraft): Promise<Result<DraftOutcome, LabelError>> {
  const { db, shop } = deps;
  const now = deps.now ?? new Date();
  const parsed = { value: input.request };

  // The service has no idempotency key and no search: a draft whose answer was lost cannot be
  // found again, so it is never bought (only drafts whose id we saved are), and no door drafts
  // that shipment again on its own (ADR 16, duplicate drafts).
  const unconfirmed = await findUnconfirmedDrafts(
    db,
    shop,
    input.fulfillmentOrderGid,
    new Date(now.getTime() - UNCONFIRMED_DRAFT_HOLD_MS),
  );
  const retryAt = unconfirmed && new Date(unconfirmed.lastAt.getTime() + quietAfterLostDrafts(unconfirmed.count));
  if (
    unconfirmed &&
    retryAt &&
    retryAt > now &&
    deps.automatic &&
    !(await findActiveLabel(db, shop, input.fulfillmentOrderGid))
  ) {
    return err(
      labelError(
        "DRAFT_UNCONFIRMED",
        `The shipping service did not confirm the last draft made for this shipment, so automatic drafting tries again at ${timeOfDay(retryAt)}. Create the label from the order page to draft it now.`,
        `draftShipment: ${input.fulfillmentOrderGid} has ${unconfirmed.count} unconfirmed draft(s) (last: label ${unconfirmed.labelId}); automatic drafting held until ${retryAt.toISOString()}`,
        { retryAt },
      ),
    );
  }

  const token = randomUUID();
  const leaseUntil = new Date(now.getTime() + CREATING_LEASE_MS);
  const claimed = await claimSlot(deps, input, { token, leaseUntil, now });
  if (!claimed.ok) return ok({ label: claimed.error, existing: true, warnings: [] });
  const ref = { db, shop, labelId: claimed.value };

  const draft = await deps.shipping.createDraftLabel(parsed.value, {
    quote: input.quote,
    // The call ends before the lease does, so no second caller takes the slot over meanwhile.
    deadline: leaseUntil.getTime() - LEASE_SAFETY_MS,
  });
  if (!draft.ok) {
    await retryWhileConnectionLost(() =>
      failCreation(ref, token, draft.error.logMessage, { draftMayExist: Boolean(draft.error.outcomeUnknown) }),
    );
    return err(fromShippingError("draftShipment", draft.error));
  }
  const countProblems = checkDraftPackageCount(parsed.value, draft.value);
  if (countProblems.length > 0) {
    await failCreation(
      ref,
      token,
      `package_count ${draft.value.package_count ?? "none"} for ${parsed.value.parcels?.length ?? 1} boxes`,
    );
    return err(
      labelError(
        "PACKAGE_COUNT_MISMATCH",
        countProblems[0]?.message ?? "Wrong package count.",
        `draftShipment: ${draft.value.id} package count mismatch`,
        { problems: countProblems },
      ),
    );
  }

  // The service has made the draft: its id is recorded through a database restart or a cut
  // connection (seconds), where failing would leave the slot "creating" until its lease and then
  // draft the shipment a second time.
  const completion = {
    serviceLabelId: draft.value.id,
    rateId: input.quote.rate_id,
    carrier: draft.value.carrier ?? input.quote.carrier,
    serviceCode: draft.value.service_code ?? input.quote.service_code,
    serviceName: input.quote.service,
    quotedCents: parseAmountCents(input.quote.amount),
    currency: input.quote.currency,
    shipDate: draft.value.ship_date ?? input.quote.ship_date,
    labelFormat: parsed.value.label_format ?? "pdf",
    labelSize: parsed.value.label_size ?? "4x6",
    packageCount: parsed.value.parcels?.length ?? 1,
    requestId: draft.value.request_id ?? null,
    request: parsed.value,
    shipToKey: input.shipToKey,
  };
  const completed = await retryWhileConnectionLost(() => completeCreation(ref, token, completion));
  const label = await findLabel(db, shop, ref.labelId);
  // A retry after a write that committed with its answer lost finds the draft already ours.
  if (!completed && label?.serviceLabelId === draft.value.id) {
    return ok({ label, existing: false, warnings: draftWarnings(input, draft.value, unconfirmed !== null) });
  }
  if (!completed) {
    // Slower than the lease: another caller took the slot over and its label stands (it may be
    // bought by now). Ours is an unused draft at the service, which costs nothing: its id is
    // saved nowhere, so nothing ever buys it.
    logFor({ shop }).info(
      { serviceLabelId: draft.value.id, labelId: ref.labelId },
      "draft answered after its slot was taken over; left unused at the service",
    );
    if (label && label.status !== "failed" && label.status !== "voided") {
      return ok({ label, existing: true, warnings: [] });
    }
    return err(
      labelError(
        "INVALID_STATE",
        "This label was already being made (in another tab, or by the app) and that did not finish. Try again.",
        `draftShipment: lost the creating slot of ${ref.labelId}; it is now ${label?.status ?? "gone"}`,
      ),
    );
  }
  if (!label) return err(labelNotFound("draftShipment", shop, ref.labelId));
  return ok({ label, existing: false, warnings: draftWarnings(input, draft.value, unconfirmed !== null) });
}

/** A new draft's warnings: an earlier draft left unconfirmed, the checks', the service's. */
function draftWarnings(
  input: ReadyDraft,
  draft: { warnings: Record<string, unknown> },
  afterUnconfirmed: boolean,
): PreflightProblem[] {
  return [
    ...(afterUnconfirmed
      ? [
          {
            path: "fulfillment_order",
            code: "SERVICE_WARNING" as const,
            severity: "warning" as const,
            message:
              "An earlier draft for this shipment was not confirmed by the shipping service and may exist there unused. It is never bought and costs nothing.",
          },
        ]
      : []),
    ...input.warnings.filter((p) => p.severity !== "blocking"),
    ...Object.entries(draft.warnings).map(([path, message]) => ({
      path,
      code: "SERVICE_WARNING" as const,
      severity: "warning" as const,
      message: String(message),
    })),
  ];
}

/** How long a door that drafts and buys in one click waits for a draft another request is making. */
export const OTHER_DRAFT_WAIT_MS = 10_000;
const OTHER_DRAFT_POLL_MS = 50;

/**
 * The label another request is creating, as it is once that request has its draft (or gave up),
 * or after `waitMs`. A door that drafts and buys in one click (a return label) waits here, so the
 * second of two clicks buys, or finds bought, the one label rather than answer "still being created".
 */
export async function awaitOtherDraft(
  deps: { db: PrismaClient; shop: string; sleep?: (ms: number) => Promise<void> },
  label: LabelView,
  waitMs = OTHER_DRAFT_WAIT_MS,
): Promise<LabelView | null> {
  const sleep = deps.sleep ?? delay;
  let current: LabelView | null = label;
  for (let waited = 0; current?.status === "creating" && waited < waitMs; waited += OTHER_DRAFT_POLL_MS) {
    await sleep(OTHER_DRAFT_POLL_MS);
    current = await findLabel(deps.db, deps.shop, label.id);
  }
  return current;
}

/**
 * Takes the fulfillment order's one active slot, or returns the label holding it. A slot left
 * "creating" by a request that died (or is slower than its lease) is taken over after the lease.
 */
async function claimSlot(
  deps: DraftDeps,
  input: ReadyDraft,
  claim: { token: string; leaseUntil: Date; now: Date },
): Promise<Result<string, LabelView>> {
  const { db, shop } = deps;
  const inserted = await claimCreationSlot(db, shop, input, claim);
  if (inserted) return ok(inserted);
  const holder = await findActiveLabel(db, shop, input.fulfillmentOrderGid);
  if (!holder) throw new Error(`active label for ${input.fulfillmentOrderGid} vanished while claiming it`);
  const tookOver = await takeOverCreation({ db, shop, labelId: holder.id }, { ...claim, lineItems: input.lineItems });
  return tookOver ? ok(holder.id) : err(holder);
}
