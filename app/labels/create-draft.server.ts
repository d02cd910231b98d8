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
  type Rate,
  type RatesRequest,
} from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import { fromShippingError, type LabelError, labelError } from "./label-errors";
import {
  activeKeyFor,
  appendRequestId,
  findActiveLabel,
  isUniqueViolation,
  type LabelView,
  toLabelView,
} from "./label-store.server";

// Quote and draft: rates for a prefilled request, then one persisted draft label per
// fulfillment order. Drafts cost nothing; a second draft for the same fulfillment order
// returns the existing label instead of creating another.

export type QuoteShippingPort = Pick<ShippingClient, "getRates">;
export type DraftShippingPort = Pick<ShippingClient, "createDraftLabel">;

// A draft being created by another request is left alone this long before it is taken over.
const CREATING_LEASE_MS = 60_000;

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
  orderGid: string;
  orderName: string;
  fulfillmentOrderGid: string;
  /** The prefilled (and possibly edited) request; its rate_id is set from `quote`. */
  request: LabelRequestInput;
  /** The rate the merchant chose. */
  quote: Rate;
  products?: ProductForCustoms[];
  now?: Date;
};

export type CreateDraftDeps = { db: PrismaClient; shop: string; shipping: DraftShippingPort };

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
  const problems = preflightLabelRequest(request, { quote: input.quote, now, products: input.products ?? [] });
  if (isBlocking(problems)) {
    return err(
      labelError(
        "PREFLIGHT_BLOCKED",
        "Fix the highlighted label details first.",
        `draft blocked: ${problems
          .filter((p) => p.severity === "blocking")
          .map((p) => `${p.path} ${p.code}`)
          .join(", ")}`,
        { problems },
      ),
    );
  }
  const parsed = parseRequest(request);
  if (!parsed.ok) return parsed;

  const claimed = await claimDraftSlot(db, shop, input, now);
  if (!claimed.ok) return ok({ label: claimed.error, existing: true, warnings: [] });
  const labelId = claimed.value;

  const draft = await deps.shipping.createDraftLabel(parsed.value, { quote: input.quote });
  if (!draft.ok) {
    await releaseSlot(db, shop, labelId, draft.error.logMessage);
    return err(fromShippingError("createDraft", draft.error));
  }
  const countProblems = checkDraftPackageCount(parsed.value, draft.value);
  if (countProblems.length > 0) {
    await releaseSlot(
      db,
      shop,
      labelId,
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

  const row = await db.label.update({
    where: { id: labelId },
    data: {
      status: "draft",
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
      requestIds: appendRequestId("[]", draft.value.request_id),
      leaseUntil: null,
      lastError: null,
    },
  });
  const warnings = [
    ...problems.filter((p) => p.severity !== "blocking"),
    ...Object.entries(draft.value.warnings).map(([path, message]) => ({
      path,
      code: "SERVICE_WARNING",
      severity: "warning" as const,
      message: String(message),
    })),
  ];
  return ok({ label: toLabelView(row), existing: false, warnings });
}

/**
 * Takes the fulfillment order's one active slot (a unique key), or returns the label holding
 * it. A slot left "creating" by a crashed request is taken over once its lease has expired.
 */
async function claimDraftSlot(
  db: PrismaClient,
  shop: string,
  input: CreateDraftInput,
  now: Date,
): Promise<Result<string, LabelView>> {
  const activeKey = activeKeyFor(shop, input.fulfillmentOrderGid);
  try {
    const row = await db.label.create({
      data: {
        shop,
        orderGid: input.orderGid,
        orderName: input.orderName,
        fulfillmentOrderGid: input.fulfillmentOrderGid,
        activeKey,
        status: "creating",
        leaseUntil: new Date(now.getTime() + CREATING_LEASE_MS),
      },
    });
    return ok(row.id);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const holder = await db.label.findFirst({ where: { shop, activeKey } });
  if (!holder) throw new Error(`active label for ${activeKey} vanished while claiming it`);
  const takeover = await db.label.updateMany({
    where: { id: holder.id, shop, status: "creating", leaseUntil: { lt: now } },
    data: { leaseUntil: new Date(now.getTime() + CREATING_LEASE_MS) },
  });
  return takeover.count === 1 ? ok(holder.id) : err(toLabelView(holder));
}

// A draft that could not be created frees the fulfillment order for the next attempt.
async function releaseSlot(db: PrismaClient, shop: string, labelId: string, reason: string): Promise<void> {
  await db.label.updateMany({
    where: { id: labelId, shop, status: "creating" },
    data: { status: "failed", activeKey: null, lastError: reason, leaseUntil: null },
  });
}

/** Voids a label that was never bought, freeing its fulfillment order for a new draft. */
export async function discardDraft(db: PrismaClient, shop: string, labelId: string): Promise<boolean> {
  const result = await db.label.updateMany({
    where: { id: labelId, shop, status: "draft" },
    data: { status: "voided", activeKey: null },
  });
  return result.count === 1;
}
