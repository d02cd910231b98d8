// POST /v1/labels (a draft: nothing charged, counted against the allowance) and GET /v1/labels/{id},
// with the resolution of the rate or carrier and service a draft is bought at.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { findUnsupportedOptions, parseLabelOptions, toOptionsKey } from "../options";
import {
  type Carrier,
  findServiceByCode,
  findServiceByName,
  isServiceAvailable,
  type ServiceDefinition,
} from "../pricing";
import type { LabelRecord, OrganizationState, RateRecord } from "../state";
import { findPhoneProblem, isVagueDescription, parseLabelRequest, ProblemList } from "../validation";
import { toWire } from "./label-record";
import { authenticate, parseBody } from "./request-steps";
import {
  isError,
  respondBothParcels,
  respondCarrierAccountNotFound,
  respondError,
  respondJson,
  respondProblems,
} from "./responses";

const TAX_ID_COUNTRIES = new Set(["BR", "IT"]);

function serviceCarrierFromCode(code: string): string | null {
  const known = findServiceByCode(code);
  if (known !== undefined) return known.carrier;
  const match = /^svc_([a-z]+)_/.exec(code);
  return match?.[1] !== undefined ? match[1].toUpperCase() : null;
}

export function handleCreateLabel(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const { org } = auth;
  const body = parseBody(ctx);
  if (isError(body)) return body;

  // 1. Body shape: every problem at once.
  const parsed = parseLabelRequest(body);
  if (parsed.kind === "both_parcels") return respondBothParcels(ctx.requestId);
  const parsedOptions = parseLabelOptions(body.options);
  if (parsedOptions.kind === "invalid")
    return respondProblems(ctx.requestId, "VALIDATION_ERROR", parsedOptions.problems);
  const labelOptions = parsedOptions.options;
  if (parsed.kind === "invalid") return respondProblems(ctx.requestId, "VALIDATION_FAILED", parsed.problems);
  const { request, warnings } = parsed;
  const { from, to, customs, carrierAccountId } = request;

  // 2. Rate and service resolution.
  const resolved = resolveService(core, ctx, org, { ...request, optionsKey: toOptionsKey(labelOptions) });
  if (isError(resolved)) return resolved;
  if (resolved.overriddenRateId !== null)
    warnings.rate_id = "overridden by the explicit carrier, service or service_code";
  const { service } = resolved;
  if (!isServiceAvailable(service, from.country, to.country)) {
    return respondError(
      ctx.requestId,
      400,
      "SERVICE_REQUIRED",
      `${service.service} is not available from ${from.country} to ${to.country}`,
    );
  }
  if (request.multiPiece && !service.multiPiece) {
    return respondError(ctx.requestId, 400, "SERVICE_REQUIRED", "Only UPS Ground can be bought multi-piece (parcels)");
  }
  const unsupported = findUnsupportedOptions(service, labelOptions);
  if (unsupported.length > 0) {
    const [first] = unsupported;
    return respondError(
      ctx.requestId,
      400,
      "OPTION_NOT_SUPPORTED",
      first === undefined ? "An option is not supported" : `${first.field}: ${first.message}`,
      unsupported,
    );
  }

  // 3. International rules, in the order documented in the README.
  const international = from.country !== to.country;
  if (international && customs === null) {
    return respondError(
      ctx.requestId,
      400,
      "CUSTOMS_REQUIRED",
      "customs is required when sender and recipient countries differ",
      [{ field: "customs", message: "is required for international shipments" }],
    );
  }
  if (international && TAX_ID_COUNTRIES.has(to.country) && (customs?.tax_id ?? "").trim() === "") {
    return respondError(
      ctx.requestId,
      400,
      "TAX_ID_REQUIRED",
      `customs.tax_id is required for destination ${to.country}`,
      [{ field: "customs.tax_id", message: `is required for destination ${to.country}` }],
    );
  }
  if (international) {
    const intl = new ProblemList();
    const fromPhone = findPhoneProblem(from.phone);
    if (fromPhone !== null) intl.add("from_address.phone", fromPhone);
    const toPhone = findPhoneProblem(to.phone);
    if (toPhone !== null) intl.add("to_address.phone", toPhone);
    if (customs !== null && isVagueDescription(customs.description)) {
      intl.add("customs.description", "is too vague; describe what the item is and what it is made of");
    }
    if (!intl.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", intl.items);
  }

  // 4. Account-level checks.
  if (core.config.blocked_destinations.countries.includes(to.country)) {
    return respondError(ctx.requestId, 400, "ADDRESS_BLOCKED", `Shipping to ${to.country} is blocked`, [
      { field: "to_address.country", message: "destination is on the block list" },
    ]);
  }
  if (carrierAccountId !== null && !org.carrierAccounts.has(carrierAccountId))
    return respondCarrierAccountNotFound(ctx.requestId);
  if (org.labelsCreated >= org.labelAllowance) {
    return respondError(ctx.requestId, 403, "PLAN_LIMIT_REACHED", "The plan's label allowance is exhausted");
  }

  org.labelsCreated += 1;
  const label: LabelRecord = {
    id: core.state.nextId("lbl"),
    orgId: org.id,
    status: "draft",
    carrier: service.carrier,
    service,
    rate: resolved.rate,
    shipDate: request.shipDate,
    from,
    to,
    parcels: request.parcels,
    multiPiece: request.multiPiece,
    customs,
    billing: request.billing,
    carrierAccountId,
    labelFormat: request.labelFormat,
    labelSize: request.labelSize,
    reference: request.reference,
    platform: request.platform,
    platformOrderId: request.platformOrderId,
    orderId: request.orderId,
    labelCustomFields: request.labelCustomFields,
    options: request.options,
    labelOptions,
    warnings,
    createdAt: core.now().toISOString(),
    purchase: null,
    refund: null,
  };
  core.state.storeLabel(label);
  return respondJson(ctx.requestId, 201, toWire(core, label, ctx));
}

function resolveService(
  core: ShippingCore,
  ctx: RequestContext,
  org: OrganizationState,
  input: {
    rateId: string | null;
    carrier: Carrier | null;
    serviceName: string | null;
    serviceCode: string | null;
    optionsKey: string;
  },
): { service: ServiceDefinition; rate: RateRecord | null; overriddenRateId: string | null } | CoreResponse {
  const serviceRequired = (message: string): CoreResponse =>
    respondError(ctx.requestId, 400, "SERVICE_REQUIRED", message);
  if (input.rateId !== null) {
    const rate = core.state.rates.get(input.rateId);
    if (rate === undefined || rate.orgId !== org.id || core.now().getTime() >= rate.expiresAtMs) {
      return serviceRequired("rate_id is unknown or expired; get new rates and retry");
    }
    let overrideCode: ServiceDefinition | null = null;
    if (input.serviceCode !== null) {
      if (input.serviceCode.startsWith("svc_")) {
        // A svc_ code does not override the rate; naming another carrier is a mismatch.
        if (serviceCarrierFromCode(input.serviceCode) !== rate.service.carrier) {
          return respondError(
            ctx.requestId,
            400,
            "SERVICE_MISMATCH",
            `service_code ${input.serviceCode} names another carrier than rate ${rate.id} (${rate.service.carrier})`,
            [{ field: "service_code", message: `does not match the rate's carrier ${rate.service.carrier}` }],
          );
        }
      } else {
        const found = findServiceByCode(input.serviceCode);
        if (found === undefined) return serviceRequired(`Unknown service_code ${input.serviceCode}`);
        overrideCode = found;
      }
    }
    // A rate is priced and filtered for the options it was quoted with, and for those only.
    const otherOptions = (): CoreResponse =>
      serviceRequired("rate_id was quoted with other options; get new rates with these options and retry");
    if (input.carrier === null && input.serviceName === null && overrideCode === null) {
      if (rate.optionsKey !== input.optionsKey) return otherOptions();
      return { service: rate.service, rate, overriddenRateId: null };
    }
    const targetCarrier = input.carrier ?? overrideCode?.carrier ?? rate.service.carrier;
    const service =
      overrideCode ??
      (input.serviceName !== null
        ? findServiceByName(input.serviceName, targetCarrier)
        : targetCarrier === rate.service.carrier
          ? rate.service
          : undefined);
    if (service === undefined || service.carrier !== targetCarrier) {
      return serviceRequired(`No ${targetCarrier} service matches the request`);
    }
    if (service === rate.service) {
      if (rate.optionsKey !== input.optionsKey) return otherOptions();
      return { service, rate, overriddenRateId: null };
    }
    return { service, rate: null, overriddenRateId: rate.id };
  }
  // No rate: carrier defaults to USPS, and a service (name or code) of that carrier is needed.
  const carrier = input.carrier ?? "USPS";
  if (input.serviceName === null && input.serviceCode === null) {
    return serviceRequired("Send rate_id, or a service or service_code");
  }
  const service =
    input.serviceCode !== null
      ? findServiceByCode(input.serviceCode)
      : findServiceByName(input.serviceName ?? "", carrier);
  if (service === undefined || service.carrier !== carrier) {
    return serviceRequired(`No ${carrier} service named ${input.serviceCode ?? input.serviceName ?? ""}`);
  }
  return { service, rate: null, overriddenRateId: null };
}

export function findLabel(core: ShippingCore, ctx: RequestContext, org: OrganizationState): LabelRecord | CoreResponse {
  const label = core.state.labels.get(ctx.params.id);
  if (label === undefined || label.orgId !== org.id) {
    return respondError(ctx.requestId, 404, "NOT_FOUND", `No label ${ctx.params.id}`);
  }
  return label;
}

export function handleGetLabel(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const label = findLabel(core, ctx, auth.org);
  if (isError(label)) return label;
  return respondJson(ctx.requestId, 200, toWire(core, label, ctx));
}

/** A label of any organization, as the service's own dashboard sees them. */
export function findAnyLabel(core: ShippingCore, ctx: RequestContext): LabelRecord | CoreResponse {
  const label = core.state.labels.get(ctx.params.id);
  if (label === undefined) return respondError(ctx.requestId, 404, "NOT_FOUND", `No label ${ctx.params.id}`);
  return label;
}
