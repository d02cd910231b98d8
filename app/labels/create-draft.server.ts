import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import type { ShippingClient } from "~/shipping/client.server";
import type { ProductForCustoms } from "~/shipping/customs-description";
import {
  checkDraftPackageCount,
  isBlocking,
  type LabelRequestInput,
  preflightLabelRequest,
  type PreflightProblem,
} from "~/shipping/preflight";
import {
  type CreateLabelRequest,
  CreateLabelRequestSchema,
  parseAmountCents,
  PurchasedLabelSchema,
  type Rate,
  type RatesRequest,
} from "~/shipping/schemas";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";
import { err, ok, type Result } from "~/utils/result";

import { fromShippingError, type LabelError, labelError, labelNotFound } from "./label-errors";
import {
  claimCreationSlot,
  completeCreation,
  failCreation,
  findActiveLabel,
  findLabel,
  type LabelLineItem,
  type LabelView,
  takeOverCreation,
  voidDraft,
} from "./label-repository.server";
import { LEASE_SAFETY_MS, recordConfirmedPurchase } from "./purchase.server";

// Quote and draft: rates for a prefilled request, then one persisted draft label per
// fulfillment order. Drafts cost nothing; a second draft for the same fulfillment order
// returns the existing label instead of creating another.

export type QuoteShippingPort = Pick<ShippingClient, "getRates">;
export type DraftShippingPort = Pick<ShippingClient, "createDraftLabel">;
export type DiscardShippingPort = Pick<ShippingClient, "getLabel">;

// A draft being created by another request is left alone this long before it is taken over;
// the creating call itself must end before then (its deadline).
export const CREATING_LEASE_MS = 60_000;

// Quoting needs no service yet and no customs (rates quote without them). Without a chosen
// service preflight assumes USPS, which cannot ship several boxes; the rates for several boxes
// list UPS Ground only, so that problem does not apply before a rate is chosen.
const NOT_NEEDED_TO_QUOTE = new Set(["SERVICE_REQUIRED", "MULTI_PIECE_SERVICE_UNSUPPORTED"]);

// A form's "not filled" is null; the wire omits such fields instead.
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, dropNulls(v)]),
  );
}

function parseRequest(request: LabelRequestInput): Result<CreateLabelRequest, LabelError> {
  const parsed = CreateLabelRequestSchema.safeParse(dropNulls(request));
  if (parsed.success) return ok(parsed.data);
  const problems: PreflightProblem[] = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    code: "INVALID",
    severity: "blocking",
    message: issue.message,
  }));
  return err(
    labelError(
      "PREFLIGHT_BLOCKED",
      "Some label details are missing or invalid.",
      `request does not match the schema: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`,
      { problems },
    ),
  );
}

export async function quoteLabel(
  shipping: QuoteShippingPort,
  request: LabelRequestInput,
): Promise<Result<{ rates: Rate[]; requestId: string | null }, LabelError>> {
  const serviceChosen = Boolean(request.carrier || request.service || request.service_code || request.rate_id);
  const problems = preflightLabelRequest(request).filter(
    (p) =>
      p.severity === "blocking" &&
      !p.path.startsWith("customs") &&
      !(NOT_NEEDED_TO_QUOTE.has(p.code) && !serviceChosen) &&
      p.code !== "SERVICE_REQUIRED",
  );
  if (problems.length > 0) {
    return err(
      labelError(
        "PREFLIGHT_BLOCKED",
        "Fix the label details before getting rates.",
        `quote blocked: ${problems.map((p) => p.code).join(", ")}`,
        { problems },
      ),
    );
  }
  const parsed = parseRequest({ ...request, customs: null });
  if (!parsed.ok) return parsed;
  const r = parsed.value;
  const ratesRequest: RatesRequest = {
    from_address: r.from_address,
    to_address: r.to_address,
    ...(r.parcels ? { parcels: r.parcels } : r.parcel ? { parcel: r.parcel } : {}),
    ...(r.carrier ? { carrier: r.carrier } : {}),
    ...(r.carrier_account_id ? { carrier_account_id: r.carrier_account_id } : {}),
    ...(r.ship_date ? { ship_date: r.ship_date } : {}),
  };
  const rates = await shipping.getRates(ratesRequest);
  if (!rates.ok) return err(fromShippingError("quote", rates.error));
  return ok({ rates: rates.value.rates, requestId: rates.value.request_id ?? null });
}

export type CreateDraftInput = {
  orderGid: OrderGid;
  orderName: string;
  fulfillmentOrderGid: FulfillmentOrderGid;
  /** The fulfillment-order line items this label ships (from prefill, or as edited). */
  lineItems: readonly LabelLineItem[];
  /** The prefilled (and possibly edited) request; its rate_id is set from `quote`. */
  request: LabelRequestInput;
  /** The rate the merchant chose. */
  quote: Rate;
  products?: ProductForCustoms[];
  /** The Shopify ship-to address the request was prefilled from (ship-to-key.ts), to spot a later change. */
  shipToKey?: string | null;
  now?: Date;
};

export type CreateDraftDeps = { db: PrismaClient; shop: string; shipping: DraftShippingPort };

function checkLineItems(lineItems: readonly LabelLineItem[]): PreflightProblem[] {
  if (lineItems.length === 0) {
    return [
      {
        path: "line_items",
        code: "INVALID",
        severity: "blocking",
        message: "Choose at least one item to ship on this label.",
      },
    ];
  }
  const seen = new Set<string>();
  return lineItems.flatMap((line, index): PreflightProblem[] => {
    const duplicate = seen.has(line.id);
    seen.add(line.id);
    if (Number.isInteger(line.quantity) && line.quantity > 0 && !duplicate) return [];
    return [
      {
        path: `line_items[${index}].quantity`,
        code: "INVALID",
        severity: "blocking",
        message: duplicate ? "This item is listed twice." : "Ship a whole number of at least 1 of this item.",
      },
    ];
  });
}

function blocked(message: string, operation: string, problems: PreflightProblem[]): LabelError {
  const blocking = problems.filter((p) => p.severity === "blocking");
  return labelError(
    "PREFLIGHT_BLOCKED",
    message,
    `${operation} blocked: ${blocking.map((p) => `${p.path} ${p.code}`).join(", ")}`,
    { problems },
  );
}

/** ok with `existing: true` when the fulfillment order already had an active label. */
export async function createDraft(
  deps: CreateDraftDeps,
  input: CreateDraftInput,
): Promise<Result<{ label: LabelView; existing: boolean; warnings: PreflightProblem[] }, LabelError>> {
  const { db, shop } = deps;
  const now = input.now ?? new Date();
  const existing = await findActiveLabel(db, shop, input.fulfillmentOrderGid);
  if (existing && existing.status !== "creating") return ok({ label: existing, existing: true, warnings: [] });

  // Only the chosen rate: carrier/service fields would override it.
  const request: LabelRequestInput = { ...input.request, rate_id: input.quote.rate_id };
  delete request.carrier;
  delete request.service;
  delete request.service_code;
  const problems = [
    ...checkLineItems(input.lineItems),
    ...preflightLabelRequest(request, { quote: input.quote, now, products: input.products ?? [] }),
  ];
  if (isBlocking(problems)) return err(blocked("Fix the highlighted label details first.", "draft", problems));
  const parsed = parseRequest(request);
  if (!parsed.ok) return parsed;

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
    await failCreation(ref, token, draft.error.logMessage);
    return err(fromShippingError("createDraft", draft.error));
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
        `createDraft: ${draft.value.id} package count mismatch`,
        { problems: countProblems },
      ),
    );
  }

  const completed = await completeCreation(ref, token, {
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
    shipToKey: input.shipToKey ?? null,
  });
  const label = await findLabel(db, shop, ref.labelId);
  if (!completed) {
    // Slower than the lease: another caller took the slot over and its label stands (it may be
    // bought by now). Ours is an unused draft at the service, which costs nothing.
    if (label && label.status !== "failed" && label.status !== "voided") {
      return ok({ label, existing: true, warnings: [] });
    }
    return err(
      labelError(
        "INVALID_STATE",
        "Another request was creating this label and did not finish. Try again.",
        `createDraft: lost the creating slot of ${ref.labelId}; it is now ${label?.status ?? "gone"}`,
      ),
    );
  }
  if (!label) return err(labelNotFound("createDraft", shop, ref.labelId));
  const warnings = [
    ...problems.filter((p) => p.severity !== "blocking"),
    ...Object.entries(draft.value.warnings).map(([path, message]) => ({
      path,
      code: "SERVICE_WARNING" as const,
      severity: "warning" as const,
      message: String(message),
    })),
  ];
  return ok({ label, existing: false, warnings });
}

/**
 * Takes the fulfillment order's one active slot, or returns the label holding it. A slot left
 * "creating" by a request that died (or is slower than its lease) is taken over after the lease.
 */
async function claimSlot(
  deps: CreateDraftDeps,
  input: CreateDraftInput,
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
