// POST /v1/labels and GET /v1/labels/{id}: creating a draft (the exact body it sends) and
// reading a label back. Buying one is purchase.server.ts, kept apart because it spends money.

import { err, ok, type Result } from "~/utils/result";

import type { ShippingError } from "../errors";
import { checkDraftPackageCount } from "../preflight";
import {
  type CreateLabelRequest,
  CreateLabelRequestSchema,
  type DraftLabel,
  DraftLabelSchema,
  type LabelRecord,
  LabelRecordSchema,
  type Rate,
} from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { describeZodIssues, invalidRequest } from "../transport-outcome.server";
import { withoutForeignState } from "./foreign-state";
import { takeNestedShipDate } from "./label-options";

export type CreateDraftLabelOptions = CallOptions & {
  /** Send carrier/service/service_code alongside rate_id on purpose, to override the rate. */
  overrideRate?: boolean;
  /** The rate the rate_id came from: its date is the only ship_date sent. */
  quote?: Rate | null;
};

/**
 * The body actually sent for label creation: validated against the request schema, with
 * rate-overriding fields removed unless asked for, and ship_date only as the quote's date.
 */
export function buildCreateLabelBody(
  request: CreateLabelRequest,
  options: CreateDraftLabelOptions = {},
): Result<CreateLabelRequest, ShippingError> {
  const operation = "createDraftLabel";
  const parsed = CreateLabelRequestSchema.safeParse(request);
  if (!parsed.success) return err(invalidRequest(operation, describeZodIssues(parsed.error.issues)));
  const body: CreateLabelRequest = { ...parsed.data };
  if (body.parcel !== undefined && body.parcels !== undefined) {
    return err(invalidRequest(operation, [{ path: "parcels", message: "send parcel or parcels, not both" }]));
  }
  if (body.rate_id !== undefined && !options.overrideRate) {
    // Any of these would silently replace the chosen rate.
    delete body.carrier;
    delete body.service;
    delete body.service_code;
  }
  if (body.service !== undefined && body.service_code !== undefined) {
    return err(
      invalidRequest(operation, [{ path: "service_code", message: "send service or service_code, not both" }]),
    );
  }
  body.from_address = withoutForeignState(body.from_address);
  body.to_address = withoutForeignState(body.to_address);

  // A ship_date other than the quote's re-prices the label: with a rate, only the quote's date
  // is sent (none at all when the quote is not at hand: the rate's own date then stands).
  // The date is sent in one place only, top level.
  const nested = takeNestedShipDate(body.options);
  const requested = body.ship_date ?? nested.shipDate;
  if (nested.options !== undefined) body.options = nested.options;
  if (body.rate_id !== undefined) {
    if (options.quote) body.ship_date = options.quote.ship_date;
    else delete body.ship_date;
  } else if (requested !== undefined) {
    body.ship_date = requested;
  }
  return ok(body);
}

export async function createDraftLabel(
  transport: ShippingTransport,
  request: CreateLabelRequest,
  createOptions: CreateDraftLabelOptions = {},
): Promise<Result<DraftLabel, ShippingError>> {
  const body = buildCreateLabelBody(request, createOptions);
  if (!body.ok) {
    transport.log({ level: "warn", message: body.error.logMessage, code: body.error.code });
    return body;
  }
  const created = await transport.call({
    operation: "createDraftLabel",
    method: "POST",
    path: "/v1/labels",
    body: body.value,
    policy: "create",
    sentRateId: body.value.rate_id !== undefined,
    parse: (b) => DraftLabelSchema.safeParse(b),
    deadline: transport.deadlineOf(createOptions),
  });
  if (created.ok && checkDraftPackageCount(body.value, created.value).length > 0) {
    // The caller must run checkDraftPackageCount before buying; the log keeps the evidence.
    transport.log({
      level: "warn",
      message: `createDraftLabel: draft ${created.value.id} counts ${created.value.package_count ?? "no"} boxes, ${body.value.parcels?.length ?? 1} sent`,
      requestId: created.value.request_id,
    });
  }
  return created;
}

export async function getLabel(
  transport: ShippingTransport,
  labelId: string,
  callOptions?: CallOptions,
): Promise<Result<LabelRecord, ShippingError>> {
  return transport.call({
    operation: "getLabel",
    method: "GET",
    path: `/v1/labels/${encodeURIComponent(labelId)}`,
    policy: "safe",
    parse: (body) => LabelRecordSchema.safeParse(body),
    deadline: transport.deadlineOf(callOptions),
  });
}
