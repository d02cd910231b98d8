// The shipping service emulator: one request handler working on plain objects, used both by the
// node:http server (server.ts) and by the in-process Fetch adapter (`emulator.fetch`).

import { type AddressValidationResult, AddressValidator } from "./address-validation";
import { type EmulatorConfig, formatCents, loadDefaultConfig, parseMoneyToCents } from "./config";
import { type DeliveryOptions, DeliveryQueue, type DeliveryView } from "./event-delivery";
import {
  DEFAULT_STATUS_DETAILS,
  type EventEnvelope,
  type EventType,
  findWebhookUrlProblem,
  isScanAtDestination,
  MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION,
  parseTrackingUpdate,
  readEventTypes,
  type TrackingStatus,
  type WebhookEndpointRecord,
} from "./events";
import { makeDigits, makeHexToken } from "./ids";
import type { LabelFormat, PrintableLabel } from "./label-files";
import {
  type Carrier,
  findServiceByCode,
  findServiceByName,
  isServiceAvailable,
  priceShipment,
  type PricingInput,
  type ServiceDefinition,
  SERVICES,
  toInches,
  toOunces,
} from "./pricing";
import {
  type DeliveryFaultKind,
  EmulatorState,
  type FaultConfig,
  type FaultKind,
  type LabelRecord,
  type OrganizationState,
  type RateRecord,
  type ServiceFaultKind,
} from "./state";
import {
  type Address,
  type FieldProblem,
  findPhoneProblem,
  isJsonObject,
  isVagueDescription,
  type JsonObject,
  type Parcel,
  parseAddress,
  parseCarrier,
  parseLabelRequest,
  parseParcels,
  ProblemList,
  readOptionalString,
  readRequiredString,
  readShipDate,
} from "./validation";

export type { EmulatorConfig } from "./config";
export type { DeliveryOptions, DeliveryView } from "./event-delivery";
export type { EventEnvelope } from "./events";
export type { FaultConfig } from "./state";

/** The body of POST /__emulator/labels/{id}/tracking. */
export interface TrackingUpdateRequest {
  status: TrackingStatus;
  /** One of the label's numbers; absent: one event for each of them. */
  tracking_number?: string;
  status_detail?: string;
  occurred_at?: string;
  estimated_delivery_at?: string | null;
  location?: { city?: string | null; state?: string | null; zip?: string | null; country?: string | null };
}

/** A control call answered with an error (the same answer the HTTP control endpoint gives). */
export class EmulatorControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorControlError";
  }
}

export interface ShippingEmulator {
  /** In-process, same handlers as the server; a drop-connection fault or a lost purchase response rejects with TypeError("fetch failed") like Node's fetch. Usable as an injected `fetch`. Accepts absolute URLs on any origin (e.g. http://shipping.test/v1/rates). */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  reset(): void;
  setFaults(faults: FaultConfig): void;
  /** Fixes the clock (no timers then); retries that have become due start at once. */
  setNow(date: Date): void;
  /** Moves the fixed clock forward and resolves once the retries it made due have been attempted. */
  advanceTime(ms: number): Promise<void>;
  /** Buys a draft as the service's dashboard would: charges, emits label.purchased. Resolves to the label record. */
  purchaseAsDashboard(labelId: string): Promise<Record<string, unknown>>;
  /** Emits label.tracking_updated, one event per tracking number; resolves to the events. */
  emitTracking(labelId: string, update: TrackingUpdateRequest): Promise<EventEnvelope[]>;
  /** Every delivery kept, oldest first, with its attempts (same shape as GET /__emulator/deliveries). */
  deliveries(filter?: { eventId?: string; organization?: string }): DeliveryView[];
  /** Every event emitted (kept: the latest 10,000), oldest first, whether or not any endpoint got it. */
  events(organization?: string): EventEnvelope[];
  /** Resolves when no delivery attempt is in flight; retries scheduled later do not hold it up. */
  flushDeliveries(): Promise<void>;
  /** Starts the retries due on the emulator's clock, then resolves like flushDeliveries(). */
  runDueDeliveries(): Promise<void>;
  /** A manual attempt of every delivery of the event, now (outside the retry schedule). */
  redeliver(eventId: string): Promise<DeliveryView[]>;
  /** Inspection for tests: balance in USD cents and the number of charges for an organization/label. */
  balanceCents(orgId: string): number;
  charges(orgId: string): Array<{ labelId: string; amountCents: number }>;
  /** How many labels (drafts) the organization has created, bought or not. */
  labelsCreated(orgId: string): number;
  validationsBilled(orgId: string): number;
}

/** A request as the core handler sees it: transport-neutral. */
export interface CoreRequest {
  method: string;
  path: string;
  /** The raw query string without "?" (parsed only where a handler needs it). */
  query: string;
  authorization: string | undefined;
  rawBody: string;
  /** Origin the client used (http://host:port), for absolute label URLs. */
  origin: string;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Close the connection without a response (fault injection). */
  drop?: boolean;
}

/** Fault key for every attempt to deliver an event (not a route of the service: its outgoing calls). */
export const DELIVERY_FAULT_ENDPOINT = "DELIVERY";

export const FAULT_ENDPOINTS = [
  "POST /v1/rates",
  "POST /v1/labels",
  "GET /v1/labels/{id}",
  "POST /v1/labels/{id}/purchase",
  "POST /v1/addresses/validate",
  "POST /v1/addresses/verify",
  "POST /v1/webhook_endpoints",
  "GET /v1/webhook_endpoints",
  "DELETE /v1/webhook_endpoints/{id}",
  DELIVERY_FAULT_ENDPOINT,
] as const;
const SERVICE_FAULT_KINDS: readonly ServiceFaultKind[] = [
  "rate_limited",
  "unavailable",
  "drop_connection",
  "lost_after_charge",
];
const DELIVERY_FAULT_KINDS: readonly DeliveryFaultKind[] = [
  "timeout",
  "server_error",
  "drop_connection",
  "answer_lost",
];

const JSON_TYPE = "application/json; charset=utf-8";
const EXPORT_DECLARATION_THRESHOLD_USD = 2500;
const TAX_ID_COUNTRIES = new Set(["BR", "IT"]);
const VALIDATION_CACHE_MAX = 10_000;

type Handler = (ctx: Context) => CoreResponse | Promise<CoreResponse>;

interface Context {
  req: CoreRequest;
  requestId: string;
  params: { id: string };
}

interface Authenticated {
  org: OrganizationState;
  sandbox: boolean;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function respondJson(
  requestId: string,
  status: number,
  body: JsonObject,
  headers?: Record<string, string>,
): CoreResponse {
  return {
    status,
    headers: { "content-type": JSON_TYPE, "x-request-id": requestId, ...headers },
    body: JSON.stringify({ ...body, request_id: requestId }),
  };
}

function respondError(
  requestId: string,
  status: number,
  code: string,
  message: string,
  fields?: FieldProblem[],
  extra?: JsonObject,
  headers?: Record<string, string>,
): CoreResponse {
  const error: JsonObject = { code, message };
  if (fields !== undefined && fields.length > 0) error.fields = fields;
  return respondJson(requestId, status, { error, ...extra }, headers);
}

function respondProblems(requestId: string, code: string, problems: FieldProblem[]): CoreResponse {
  const [first] = problems;
  const summary = first === undefined ? "Invalid request" : `${first.field} ${first.message}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  return respondError(requestId, 400, code, summary + more, problems);
}

function isError(value: unknown): value is CoreResponse {
  return isJsonObject(value) && typeof value.status === "number" && "body" in value;
}

function toParcelsForPricing(parcels: readonly Parcel[]): PricingInput["parcels"] {
  return parcels.map((p) => ({
    weightOz: toOunces(p.weight, p.weight_unit),
    lengthIn: toInches(p.length, p.dimension_unit),
    widthIn: toInches(p.width, p.dimension_unit),
    heightIn: toInches(p.height, p.dimension_unit),
  }));
}

function makeTrackingNumber(seed: number, carrier: Carrier, key: string): string {
  switch (carrier) {
    case "UPS":
      return `1Z${makeHexToken(seed, `ups|${key}`, 1).slice(0, 6).toUpperCase()}03${makeDigits(seed, key, 8)}`;
    case "USPS":
      return `9400${makeDigits(seed, key, 18)}`;
    case "FEDEX":
      return makeDigits(seed, key, 12);
    case "DHL":
      return makeDigits(seed, key, 10);
  }
}

function makeTrackingUrl(carrier: Carrier, tracking: string): string {
  switch (carrier) {
    case "UPS":
      return `https://www.ups.com/track?tracknum=${tracking}`;
    case "USPS":
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${tracking}`;
    case "FEDEX":
      return `https://www.fedex.com/fedextrack/?trknbr=${tracking}`;
    case "DHL":
      return `https://www.dhl.com/en/express/tracking.html?AWB=${tracking}`;
  }
}

function serviceCarrierFromCode(code: string): string | null {
  const known = findServiceByCode(code);
  if (known !== undefined) return known.carrier;
  const match = /^svc_([a-z]+)_/.exec(code);
  return match?.[1] !== undefined ? match[1].toUpperCase() : null;
}

/** Creates the emulator: state from the configuration, handlers, and the Fetch adapter. */
export function createShippingEmulator(
  options: { config?: EmulatorConfig; now?: () => Date; baseUrl?: string; delivery?: DeliveryOptions } = {},
): ShippingEmulator {
  const core = new ShippingCore(
    options.config ?? loadDefaultConfig(),
    options.now ?? (() => new Date()),
    options.baseUrl,
    options.delivery,
  );
  const emulator: ShippingEmulator = {
    fetch: async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const url = new URL(request.url);
      const rawBody = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      const response = await core.handle({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        authorization: request.headers.get("authorization") ?? undefined,
        rawBody,
        origin: url.origin,
      });
      if (response.drop === true) throw new TypeError("fetch failed");
      // A 204 must have no body at all, not even an empty one, or Response throws.
      const body =
        response.status === 204
          ? null
          : typeof response.body === "string"
            ? response.body
            : new Uint8Array(response.body);
      return new Response(body, { status: response.status, headers: response.headers });
    },
    reset: () => core.reset(),
    setFaults: (faults) => core.state.setFaults(faults),
    setNow: (date) => core.setFixedNow(date),
    advanceTime: async (ms) => {
      core.setFixedNow(new Date(core.now().getTime() + ms));
      await core.deliveryQueue.flush();
    },
    purchaseAsDashboard: async (labelId) =>
      await core.callControl("POST", `/__emulator/labels/${encodeURIComponent(labelId)}/purchase`),
    emitTracking: async (labelId, update) => {
      const answer = await core.callControl(
        "POST",
        `/__emulator/labels/${encodeURIComponent(labelId)}/tracking`,
        update,
      );
      return answer.events as EventEnvelope[];
    },
    deliveries: (filter) => core.deliveryQueue.list(filter),
    events: (organization) =>
      [...core.state.events.values()]
        .filter((e) => organization === undefined || e.organization === organization)
        .map((e) => structuredClone(e)),
    flushDeliveries: () => core.deliveryQueue.flush(),
    runDueDeliveries: async () => {
      core.deliveryQueue.startDue();
      await core.deliveryQueue.flush();
    },
    redeliver: async (eventId) => {
      const answer = await core.callControl("POST", `/__emulator/deliveries/${encodeURIComponent(eventId)}/redeliver`);
      return answer.deliveries as DeliveryView[];
    },
    balanceCents: (orgId) => core.state.organizations.get(orgId)?.balanceCents ?? 0,
    charges: (orgId) => [...(core.state.organizations.get(orgId)?.charges ?? [])],
    labelsCreated: (orgId) => core.state.organizations.get(orgId)?.labelsCreated ?? 0,
    validationsBilled: (orgId) => core.state.organizations.get(orgId)?.validationsBilled ?? 0,
  };
  CORES.set(emulator, core);
  return emulator;
}

const CORES = new WeakMap<ShippingEmulator, ShippingCore>();

/** The transport-neutral handler behind an emulator, for the node:http server. */
export function getRequestHandler(emulator: ShippingEmulator): (request: CoreRequest) => Promise<CoreResponse> {
  const core = CORES.get(emulator);
  if (core === undefined) throw new Error("Not an emulator created by createShippingEmulator");
  return (request) => core.handle(request);
}

class ShippingCore {
  readonly state: EmulatorState;
  readonly validator: AddressValidator;
  readonly deliveryQueue: DeliveryQueue;
  private fixedNow: Date | null = null;
  /** The origin of the latest request: label URLs for calls made in-process without a baseUrl. */
  private lastOrigin = "http://127.0.0.1:4010";
  private readonly validationCache = new Map<string, AddressValidationResult>();
  private readonly validationPriceCents: number;

  constructor(
    readonly config: EmulatorConfig,
    private readonly clock: () => Date,
    private readonly baseUrl: string | undefined,
    deliveryOptions: DeliveryOptions | undefined,
  ) {
    this.state = new EmulatorState(config);
    this.validator = new AddressValidator(config);
    this.validationPriceCents = parseMoneyToCents(config.address_validation.price);
    this.deliveryQueue = new DeliveryQueue(
      {
        now: () => this.now(),
        isClockFixed: () => this.fixedNow !== null,
        nextId: (prefix) => this.state.nextId(prefix),
        takeFault: () => this.state.takeFailure(DELIVERY_FAULT_ENDPOINT),
        latencyMs: () => this.state.latencyMs.get(DELIVERY_FAULT_ENDPOINT) ?? 0,
      },
      deliveryOptions,
    );
  }

  now(): Date {
    return this.fixedNow ?? this.clock();
  }

  /** Time moved: whatever retry it made due happens now, as it would on the real service. */
  setFixedNow(date: Date): void {
    this.fixedNow = date;
    this.deliveryQueue.startDue();
  }

  reset(): void {
    this.state.reset();
    this.deliveryQueue.reset();
    this.fixedNow = null;
    this.validationCache.clear();
  }

  /** A control endpoint called in-process: parsed answer, or EmulatorControlError. */
  async callControl(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await this.handle({
      method,
      path,
      query: "",
      authorization: undefined,
      rawBody: body === undefined ? "" : JSON.stringify(body),
      origin: this.lastOrigin,
    });
    const parsed = JSON.parse(String(response.body)) as Record<string, unknown>;
    if (response.status >= 400) {
      const error = (parsed.error ?? {}) as { code?: string; message?: string };
      throw new EmulatorControlError(
        response.status,
        error.code ?? "UNKNOWN",
        `${method} ${path}: ${response.status} ${error.code ?? ""} ${error.message ?? ""}`.trim(),
      );
    }
    return parsed;
  }

  async handle(req: CoreRequest): Promise<CoreResponse> {
    const requestId = this.state.nextId("req");
    this.lastOrigin = req.origin;
    const route = matchRoute(req.method, req.path);
    if (route === null) return respondError(requestId, 404, "NOT_FOUND", `No route for ${req.method} ${req.path}`);
    const ctx: Context = { req, requestId, params: { id: route.id } };
    const latency = this.state.latencyMs.get(route.template);
    if (latency !== undefined) await sleep(latency);
    const failure = route.faultable ? this.state.takeFailure(route.template) : null;
    if (failure !== null) {
      if (failure.kind === "rate_limited") {
        return respondError(requestId, 429, "RATE_LIMITED", "Too many requests", undefined, undefined, {
          "retry-after": String(failure.retryAfter),
        });
      }
      if (failure.kind === "unavailable") {
        return respondError(
          requestId,
          503,
          "SERVICE_UNAVAILABLE",
          "The service is temporarily unavailable",
          undefined,
          undefined,
          {
            "retry-after": String(failure.retryAfter),
          },
        );
      }
      if (failure.kind === "drop_connection") return { status: 0, headers: {}, body: "", drop: true };
    }
    const response = await route.handler.call(this, ctx);
    // "Charged but the response was lost": the work is done, the client never hears of it.
    if (failure?.kind === "lost_after_charge") return { status: 0, headers: {}, body: "", drop: true };
    return response;
  }

  // --- shared steps ------------------------------------------------------------------------

  private authenticate(ctx: Context): Authenticated | CoreResponse {
    const header = ctx.req.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1];
    const entry = key === undefined ? undefined : this.config.keys[key];
    if (key === undefined || entry === undefined) {
      return respondError(
        ctx.requestId,
        401,
        "UNAUTHENTICATED",
        "A valid API key is required (Authorization: Bearer <key>)",
      );
    }
    const org = entry.organization === null ? undefined : this.state.organizations.get(entry.organization);
    if (org === undefined) {
      return respondError(ctx.requestId, 400, "NO_ORGANIZATION", "This API key is not attached to an organization");
    }
    return { org, sandbox: entry.sandbox ?? key.startsWith("sk_test_") };
  }

  private parseBody(ctx: Context): JsonObject | CoreResponse {
    if (ctx.req.rawBody.trim() === "")
      return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "A JSON body is required");
    let parsed: unknown;
    try {
      parsed = JSON.parse(ctx.req.rawBody);
    } catch {
      return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "The body is not valid JSON");
    }
    if (!isJsonObject(parsed))
      return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "The body must be a JSON object");
    return parsed;
  }

  private today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  /** Residential unless the caller says otherwise, there is a company, or the address is known commercial. */
  private classifyResidential(address: Address): boolean {
    if (address.residential !== null) return address.residential;
    if (address.company !== null && address.company.trim() !== "") return false;
    return !(address.country === "US" && this.validator.isKnownCommercial(address.street1, address.zip));
  }

  private priceFor(
    service: ServiceDefinition,
    from: Address,
    to: Address,
    parcels: readonly Parcel[],
    shipDate: string,
    negotiated: boolean,
  ): number {
    return priceShipment({
      service,
      parcels: toParcelsForPricing(parcels),
      fromZip: from.zip,
      toZip: to.zip,
      fromCountry: from.country,
      toCountry: to.country,
      residential: this.classifyResidential(to),
      shipDate,
      negotiated,
    });
  }

  private isNegotiated(org: OrganizationState, carrierAccountId: string | null, carrier: Carrier): boolean {
    return carrierAccountId !== null && org.carrierAccounts.get(carrierAccountId) === carrier;
  }

  // --- POST /v1/rates ----------------------------------------------------------------------

  handleRates(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    const problems = new ProblemList();
    const parcels = parseParcels(body, problems);
    if (parcels.kind === "both") return respondBothParcels(ctx.requestId);
    const ignoredWarnings: Record<string, string> = {};
    const from = parseAddress(body.from_address, "from_address", problems, ignoredWarnings);
    const to = parseAddress(body.to_address, "to_address", problems, ignoredWarnings);
    const carrier = parseCarrier(body, problems);
    const carrierAccountId = readOptionalString(body, "carrier_account_id", "", problems);
    const shipDate = readShipDate(body, "ship_date", "", problems) ?? this.today();
    if (!problems.isEmpty || from === null || to === null)
      return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
    if (this.config.blocked_destinations.countries.includes(to.country)) {
      return respondError(ctx.requestId, 400, "ADDRESS_BLOCKED", `Shipping to ${to.country} is blocked`, [
        { field: "to_address.country", message: "destination is on the block list" },
      ]);
    }
    if (carrierAccountId !== null && !auth.org.carrierAccounts.has(carrierAccountId)) {
      return respondCarrierAccountNotFound(ctx.requestId);
    }
    const quotedAt = this.now().getTime();
    const expiresAtMs = quotedAt + this.config.limits.rate_ttl_seconds * 1000;
    const rates = SERVICES.filter(
      (s) =>
        isServiceAvailable(s, from.country, to.country) &&
        (carrier === null || s.carrier === carrier) &&
        (!parcels.multiPiece || s.multiPiece),
    ).map((service) => {
      const rate: RateRecord = {
        id: this.state.nextId("rate"),
        orgId: auth.org.id,
        service,
        amountCents: this.priceFor(
          service,
          from,
          to,
          parcels.parcels,
          shipDate,
          this.isNegotiated(auth.org, carrierAccountId, service.carrier),
        ),
        shipDate,
        expiresAtMs,
      };
      this.state.storeRate(rate);
      return {
        rate_id: rate.id,
        service_code: service.serviceCode,
        carrier: service.carrier,
        service: service.service,
        amount: formatCents(rate.amountCents),
        currency: "USD",
        delivery_days: service.deliveryDays,
        ship_date: shipDate,
        expires_at: new Date(expiresAtMs).toISOString(),
      };
    });
    // Validation inside rates is free: nothing is billed or counted here.
    const deliverable =
      to.country !== "US" ||
      this.validator.validate({
        street1: to.street1,
        street2: to.street2,
        city: to.city,
        state: to.state ?? "",
        zip: to.zip,
      }).dpv.deliverable;
    return respondJson(ctx.requestId, 200, {
      rates,
      address_validation: { to_address: { residential: this.classifyResidential(to), deliverable } },
    });
  }

  // --- POST /v1/labels ---------------------------------------------------------------------

  handleCreateLabel(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const { org } = auth;
    const body = this.parseBody(ctx);
    if (isError(body)) return body;

    // 1. Body shape: every problem at once.
    const parsed = parseLabelRequest(body);
    if (parsed.kind === "both_parcels") return respondBothParcels(ctx.requestId);
    if (parsed.kind === "invalid") return respondProblems(ctx.requestId, "VALIDATION_FAILED", parsed.problems);
    const { request, warnings } = parsed;
    const { from, to, customs, carrierAccountId } = request;

    // 2. Rate and service resolution.
    const resolved = this.resolveService(ctx, org, request);
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
      return respondError(
        ctx.requestId,
        400,
        "SERVICE_REQUIRED",
        "Only UPS Ground can be bought multi-piece (parcels)",
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
    if (this.config.blocked_destinations.countries.includes(to.country)) {
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
      id: this.state.nextId("lbl"),
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
      warnings,
      createdAt: this.now().toISOString(),
      purchase: null,
    };
    this.state.storeLabel(label);
    return respondJson(ctx.requestId, 201, this.toWire(label, ctx));
  }

  private resolveService(
    ctx: Context,
    org: OrganizationState,
    input: { rateId: string | null; carrier: Carrier | null; serviceName: string | null; serviceCode: string | null },
  ): { service: ServiceDefinition; rate: RateRecord | null; overriddenRateId: string | null } | CoreResponse {
    const serviceRequired = (message: string): CoreResponse =>
      respondError(ctx.requestId, 400, "SERVICE_REQUIRED", message);
    if (input.rateId !== null) {
      const rate = this.state.rates.get(input.rateId);
      if (rate === undefined || rate.orgId !== org.id || this.now().getTime() >= rate.expiresAtMs) {
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
      if (input.carrier === null && input.serviceName === null && overrideCode === null) {
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
      if (service === rate.service) return { service, rate, overriddenRateId: null };
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

  private origin(ctx: Context): string {
    return (this.baseUrl ?? ctx.req.origin).replace(/\/$/, "");
  }

  private toWire(label: LabelRecord, ctx: Context): JsonObject {
    const purchase = label.purchase;
    const wire: JsonObject = {
      id: label.id,
      status: label.status,
      rate:
        purchase === null
          ? null
          : {
              rate_id: purchase.rate.id,
              service_code: purchase.rate.service.serviceCode,
              carrier: purchase.rate.service.carrier,
              service: purchase.rate.service.service,
              amount: formatCents(purchase.rate.amountCents),
              currency: "USD",
            },
      label_url: purchase === null ? null : `${this.origin(ctx)}/files/${label.id}.${label.labelFormat}`,
    };
    if (label.multiPiece || purchase !== null) wire.package_count = label.parcels.length;
    Object.assign(wire, {
      carrier: label.carrier,
      service: label.service.service,
      service_code: label.service.serviceCode,
      rate_id: label.rate?.id ?? null,
      ship_date: label.shipDate ?? label.rate?.shipDate ?? null,
      from_address: label.from,
      to_address: label.to,
      [label.multiPiece ? "parcels" : "parcel"]: label.multiPiece ? label.parcels : label.parcels[0],
      customs: label.customs,
      billing: label.billing,
      carrier_account_id: label.carrierAccountId,
      label_format: label.labelFormat,
      label_size: label.labelSize,
      reference: label.reference,
      platform: label.platform,
      platform_order_id: label.platformOrderId,
      channel: label.platform,
      external_order_id: label.platformOrderId,
      order_id: label.orderId,
      label_custom_fields: label.labelCustomFields,
      options: label.options,
      warnings: label.warnings,
      created_at: label.createdAt,
    });
    if (purchase !== null) {
      const master = purchase.trackingNumbers[0] ?? "";
      Object.assign(wire, {
        tracking_numbers: purchase.trackingNumbers,
        tracking_url: makeTrackingUrl(label.carrier, master),
        charged: formatCents(purchase.chargedCents),
        currency: "USD",
        purchased_at: purchase.purchasedAt,
      });
    }
    return wire;
  }

  // --- GET /v1/labels/{id} and purchase ----------------------------------------------------

  private findLabel(ctx: Context, org: OrganizationState): LabelRecord | CoreResponse {
    const label = this.state.labels.get(ctx.params.id);
    if (label === undefined || label.orgId !== org.id) {
      return respondError(ctx.requestId, 404, "NOT_FOUND", `No label ${ctx.params.id}`);
    }
    return label;
  }

  handleGetLabel(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const label = this.findLabel(ctx, auth.org);
    if (isError(label)) return label;
    return respondJson(ctx.requestId, 200, this.toWire(label, ctx));
  }

  handlePurchase(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const label = this.findLabel(ctx, auth.org);
    if (isError(label)) return label;
    return this.purchaseDraft(ctx, auth.org, label);
  }

  /** One purchase path for the API and the dashboard (control endpoint): same rules, same event. */
  private purchaseDraft(ctx: Context, org: OrganizationState, label: LabelRecord): CoreResponse {
    if (label.status !== "draft") {
      return respondError(
        ctx.requestId,
        409,
        "ALREADY_PURCHASED",
        `Label ${label.id} is already purchased`,
        undefined,
        {
          label: this.toWire(label, ctx),
        },
      );
    }
    const international = label.from.country !== label.to.country;
    if (international && label.customs === null) {
      return respondError(
        ctx.requestId,
        400,
        "CUSTOMS_REQUIRED",
        "customs is required when sender and recipient countries differ",
        [{ field: "customs", message: "is required for international shipments" }],
      );
    }
    if (
      international &&
      label.carrier === "USPS" &&
      label.customs !== null &&
      label.customs.value > EXPORT_DECLARATION_THRESHOLD_USD &&
      (label.customs.eel_pfc ?? "").trim() === ""
    ) {
      return respondError(
        ctx.requestId,
        400,
        "EXPORT_DECLARATION_REQUIRED",
        "USPS requires customs.eel_pfc (AES ITN) above 2,500 USD declared value",
        [{ field: "customs.eel_pfc", message: "is required when the declared value exceeds 2500 USD" }],
      );
    }

    let rate: { id: string; service: ServiceDefinition; amountCents: number };
    let chargedCents: number;
    if (label.rate !== null) {
      const shipDate = label.shipDate ?? label.rate.shipDate;
      rate = { id: label.rate.id, service: label.rate.service, amountCents: label.rate.amountCents };
      // A ship date other than the quote date re-prices: the charge no longer matches the rate.
      chargedCents =
        shipDate === label.rate.shipDate
          ? label.rate.amountCents
          : this.priceFor(
              label.service,
              label.from,
              label.to,
              label.parcels,
              shipDate,
              this.isNegotiated(org, label.carrierAccountId, label.carrier),
            );
    } else {
      // carrier + service drafts: the cheapest matching rate now (retail or the own account's).
      const shipDate = label.shipDate ?? this.today();
      const retail = this.priceFor(label.service, label.from, label.to, label.parcels, shipDate, false);
      const own = this.isNegotiated(org, label.carrierAccountId, label.carrier)
        ? this.priceFor(label.service, label.from, label.to, label.parcels, shipDate, true)
        : retail;
      chargedCents = Math.min(retail, own);
      rate = { id: this.state.nextId("rate"), service: label.service, amountCents: chargedCents };
    }
    if (org.balanceCents < chargedCents) {
      return respondError(
        ctx.requestId,
        402,
        "INSUFFICIENT_BALANCE",
        `Balance ${formatCents(org.balanceCents)} USD is below the charge ${formatCents(chargedCents)} USD`,
      );
    }
    org.balanceCents -= chargedCents;
    org.charges.push({ labelId: label.id, amountCents: chargedCents });
    label.status = "purchased";
    label.purchase = {
      rate,
      chargedCents,
      trackingNumbers: label.parcels.map((_, i) =>
        makeTrackingNumber(this.config.seed, label.carrier, `${label.id}|${i + 1}`),
      ),
      purchasedAt: this.now().toISOString(),
    };
    const record = this.toWire(label, ctx);
    // Emitted as soon as the charge is made: a response lost afterwards does not unmake the purchase.
    this.emitEvent(org.id, "label.purchased", { label: record });
    return respondJson(ctx.requestId, 200, record);
  }

  // --- events ------------------------------------------------------------------------------

  private emitEvent(orgId: string, type: EventType, data: Record<string, unknown>): EventEnvelope {
    const event: EventEnvelope = {
      id: this.state.nextId("evt"),
      type,
      created_at: this.now().toISOString(),
      organization: orgId,
      data,
    };
    this.state.storeEvent(event);
    const endpoints = [...this.state.webhookEndpoints.values()].filter(
      (e) => e.orgId === orgId && e.events.includes(type),
    );
    this.deliveryQueue.publish(event, endpoints);
    return event;
  }

  // --- /v1/webhook_endpoints ---------------------------------------------------------------

  handleCreateWebhookEndpoint(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    const problems = new ProblemList();
    const urlProblem = findWebhookUrlProblem(body.url);
    if (urlProblem !== null) problems.add("url", urlProblem);
    const events = readEventTypes(body.events, problems);
    if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
    const owned = [...this.state.webhookEndpoints.values()].filter((e) => e.orgId === auth.org.id).length;
    if (owned >= MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION) {
      return respondError(
        ctx.requestId,
        403,
        "WEBHOOK_ENDPOINT_LIMIT_REACHED",
        `An organization has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION} webhook endpoints; delete one first`,
      );
    }
    const endpoint: WebhookEndpointRecord = {
      id: this.state.nextId("we"),
      orgId: auth.org.id,
      url: body.url as string,
      events,
      secret: this.state.nextWebhookSecret(),
    };
    this.state.webhookEndpoints.set(endpoint.id, endpoint);
    return respondJson(ctx.requestId, 201, {
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      secret: endpoint.secret,
    });
  }

  handleListWebhookEndpoints(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const endpoints = [...this.state.webhookEndpoints.values()]
      .filter((e) => e.orgId === auth.org.id)
      .map((e) => ({ id: e.id, url: e.url, events: e.events }));
    return respondJson(ctx.requestId, 200, { webhook_endpoints: endpoints });
  }

  handleDeleteWebhookEndpoint(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const endpoint = this.state.webhookEndpoints.get(ctx.params.id);
    if (endpoint === undefined || endpoint.orgId !== auth.org.id) {
      return respondError(ctx.requestId, 404, "NOT_FOUND", `No webhook endpoint ${ctx.params.id}`);
    }
    this.state.webhookEndpoints.delete(endpoint.id);
    this.deliveryQueue.cancelEndpoint(endpoint.id);
    return { status: 204, headers: { "x-request-id": ctx.requestId }, body: "" };
  }

  // --- POST /v1/addresses/validate and /verify ---------------------------------------------

  handleValidateAddress(ctx: Context): CoreResponse {
    const auth = this.authenticate(ctx);
    if (isError(auth)) return auth;
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    const problems = new ProblemList();
    const street1 = readRequiredString(body, "street1", "", problems);
    const street2 = readOptionalString(body, "street2", "", problems);
    const city = readRequiredString(body, "city", "", problems);
    const state = readRequiredString(body, "state", "", problems);
    const zip = readRequiredString(body, "zip", "", problems);
    const country = readOptionalString(body, "country", "", problems) ?? "US";
    if (state !== "" && !/^[A-Za-z]{2}$/.test(state.trim())) problems.add("state", "must be a two-letter state code");
    if (zip !== "" && !/^\d{5}(-?\d{4})?$/.test(zip.trim())) problems.add("zip", "must be a 5-digit ZIP or ZIP+4");
    if (country.toUpperCase() !== "US") problems.add("country", "only US addresses can be validated");
    if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
    const input = { street1, street2, city, state, zip: zip.trim() };
    if (auth.sandbox) {
      return respondJson(ctx.requestId, 200, {
        ...this.validator.mock(input),
        billed: "0.00",
        mocked: true,
        cached: false,
      });
    }
    if (auth.org.balanceCents < this.validationPriceCents) {
      return respondError(ctx.requestId, 402, "INSUFFICIENT_BALANCE", "The balance does not cover address validation");
    }
    const cacheKey = JSON.stringify([street1, street2, city, state, zip].map((s) => (s ?? "").trim().toUpperCase()));
    const cachedResult = this.validationCache.get(cacheKey);
    const result = cachedResult ?? this.validator.validate(input);
    if (cachedResult === undefined) {
      if (this.validationCache.size >= VALIDATION_CACHE_MAX) this.validationCache.clear();
      this.validationCache.set(cacheKey, result);
    }
    // Billed on every call, cached or not. Nothing about the address is saved.
    auth.org.balanceCents -= this.validationPriceCents;
    auth.org.validationsBilled += 1;
    return respondJson(ctx.requestId, 200, {
      ...result,
      billed: formatCents(this.validationPriceCents),
      mocked: false,
      cached: cachedResult !== undefined,
    });
  }

  // --- GET /files/{label id}.{ext} ---------------------------------------------------------

  async handleFile(ctx: Context): Promise<CoreResponse> {
    const match = /^(lbl_[0-9a-z]+)\.(pdf|png|zpl)$/.exec(ctx.params.id);
    const label = match?.[1] === undefined ? undefined : this.state.labels.get(match[1]);
    const format = match?.[2] as LabelFormat | undefined;
    if (label === undefined || label.purchase === null || format === undefined) {
      return respondError(ctx.requestId, 404, "NOT_FOUND", "No purchased label file here");
    }
    const printable: PrintableLabel = {
      id: label.id,
      carrier: label.carrier,
      service: label.service.service,
      from: label.from,
      to: label.to,
      trackingNumbers: label.purchase.trackingNumbers,
      size: label.labelSize,
      reference: label.reference,
    };
    const headers = { "x-request-id": ctx.requestId };
    // pdf-lib and bwip-js load on the first file request: label creation never pays for them.
    const { renderPdf, renderPng, renderZpl } = await import("./label-files");
    if (format === "zpl")
      return {
        status: 200,
        headers: { ...headers, "content-type": "application/zpl; charset=utf-8" },
        body: renderZpl(printable),
      };
    if (format === "pdf")
      return {
        status: 200,
        headers: { ...headers, "content-type": "application/pdf" },
        body: await renderPdf(printable),
      };
    const box = Number(new URLSearchParams(ctx.req.query).get("box") ?? "1");
    return {
      status: 200,
      headers: { ...headers, "content-type": "image/png" },
      body: await renderPng(printable, Number.isInteger(box) && box >= 1 ? box : 1),
    };
  }

  // --- control endpoints -------------------------------------------------------------------

  /** A label of any organization, as the service's own dashboard sees them. */
  private findAnyLabel(ctx: Context): LabelRecord | CoreResponse {
    const label = this.state.labels.get(ctx.params.id);
    if (label === undefined) return respondError(ctx.requestId, 404, "NOT_FOUND", `No label ${ctx.params.id}`);
    return label;
  }

  handleControlPurchase(ctx: Context): CoreResponse {
    const label = this.findAnyLabel(ctx);
    if (isError(label)) return label;
    const org = this.state.organizations.get(label.orgId);
    if (org === undefined) throw new Error(`Label ${label.id} belongs to no known organization ${label.orgId}`);
    return this.purchaseDraft(ctx, org, label);
  }

  handleControlTracking(ctx: Context): CoreResponse {
    const label = this.findAnyLabel(ctx);
    if (isError(label)) return label;
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    const problems = new ProblemList();
    const update = parseTrackingUpdate(body, problems);
    if (!problems.isEmpty || update === null)
      return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
    const purchase = label.purchase;
    if (purchase === null) {
      return respondError(
        ctx.requestId,
        409,
        "LABEL_NOT_PURCHASED",
        `Label ${label.id} is a draft: only a purchased label has tracking numbers`,
      );
    }
    if (update.trackingNumber !== null && !purchase.trackingNumbers.includes(update.trackingNumber)) {
      return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "tracking_number is not one of the label's", [
        { field: "tracking_number", message: `must be one of ${purchase.trackingNumbers.join(", ")}` },
      ]);
    }
    const numbers = update.trackingNumber === null ? purchase.trackingNumbers : [update.trackingNumber];
    const at = isScanAtDestination(update.status) ? label.to : label.from;
    const location = update.location ?? {
      city: at.city.toUpperCase(),
      state: at.state,
      zip: at.zip,
      country: at.country,
    };
    const estimatedDeliveryAt =
      update.estimatedDeliveryAt === undefined ? this.estimateDelivery(label) : update.estimatedDeliveryAt;
    const occurredAt = update.occurredAt ?? this.now().toISOString();
    const events = numbers.map((trackingNumber) =>
      this.emitEvent(label.orgId, "label.tracking_updated", {
        label_id: label.id,
        tracking_number: trackingNumber,
        status: update.status,
        status_detail: update.statusDetail ?? DEFAULT_STATUS_DETAILS[update.status],
        occurred_at: occurredAt,
        estimated_delivery_at: estimatedDeliveryAt,
        location,
      }),
    );
    return respondJson(ctx.requestId, 200, { events });
  }

  /** Ship date (or purchase day) plus the service's transit days, at midnight UTC. */
  private estimateDelivery(label: LabelRecord): string {
    const shipDate = label.shipDate ?? label.rate?.shipDate ?? (label.purchase?.purchasedAt ?? "").slice(0, 10);
    const start = Date.parse(`${shipDate}T00:00:00Z`);
    const base = Number.isNaN(start) ? this.now().getTime() : start;
    const day = new Date(base + label.service.deliveryDays * 86_400_000).toISOString().slice(0, 10);
    return `${day}T00:00:00Z`;
  }

  handleListDeliveries(ctx: Context): CoreResponse {
    const query = new URLSearchParams(ctx.req.query);
    const deliveries = this.deliveryQueue.list({
      eventId: query.get("event_id") ?? undefined,
      organization: query.get("organization") ?? undefined,
    });
    return respondJson(ctx.requestId, 200, { deliveries });
  }

  async handleRedeliver(ctx: Context): Promise<CoreResponse> {
    if (!this.state.events.has(ctx.params.id)) {
      return respondError(ctx.requestId, 404, "NOT_FOUND", `No event ${ctx.params.id}`);
    }
    await this.deliveryQueue.redeliver(ctx.params.id);
    return respondJson(ctx.requestId, 200, { deliveries: this.deliveryQueue.list({ eventId: ctx.params.id }) });
  }

  async handleFlushDeliveries(ctx: Context): Promise<CoreResponse> {
    this.deliveryQueue.startDue();
    await this.deliveryQueue.flush();
    return respondJson(ctx.requestId, 200, { ok: true });
  }

  handleReset(ctx: Context): CoreResponse {
    this.reset();
    return respondJson(ctx.requestId, 200, { ok: true });
  }

  handleFaults(ctx: Context): CoreResponse {
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    const problems = new ProblemList();
    const latency: Record<string, number> = {};
    if (body.latency_ms !== undefined) {
      if (!isJsonObject(body.latency_ms)) problems.add("latency_ms", "must be an object");
      else {
        for (const [endpoint, ms] of Object.entries(body.latency_ms)) {
          if (!(FAULT_ENDPOINTS as readonly string[]).includes(endpoint))
            problems.add(`latency_ms.${endpoint}`, "unknown endpoint");
          else if (typeof ms !== "number" || ms < 0) problems.add(`latency_ms.${endpoint}`, "must be a number >= 0");
          else latency[endpoint] = ms;
        }
      }
    }
    const failures: NonNullable<FaultConfig["failures"]> = [];
    if (body.failures !== undefined) {
      if (!Array.isArray(body.failures)) problems.add("failures", "must be an array");
      else {
        (body.failures as unknown[]).forEach((f, i) => {
          const path = `failures[${i}]`;
          if (!isJsonObject(f)) return problems.add(path, "must be an object");
          const endpoint =
            typeof f.endpoint === "string" && (FAULT_ENDPOINTS as readonly string[]).includes(f.endpoint)
              ? f.endpoint
              : null;
          if (endpoint === null) problems.add(`${path}.endpoint`, `must be one of ${FAULT_ENDPOINTS.join(", ")}`);
          // Deliveries fail the way a receiver does; the service's routes the way the service does.
          const kinds: readonly FaultKind[] =
            endpoint === DELIVERY_FAULT_ENDPOINT ? DELIVERY_FAULT_KINDS : SERVICE_FAULT_KINDS;
          const kind = kinds.find((k) => k === f.kind);
          if (kind === undefined) problems.add(`${path}.kind`, `must be one of ${kinds.join(", ")}`);
          const times = f.times === undefined ? 1 : f.times;
          if (typeof times !== "number" || !Number.isInteger(times) || times < 1)
            problems.add(`${path}.times`, "must be a positive integer");
          const retryAfter = f.retry_after === undefined ? 1 : f.retry_after;
          if (typeof retryAfter !== "number" || retryAfter < 0)
            problems.add(`${path}.retry_after`, "must be a number of seconds");
          if (endpoint !== null && kind !== undefined && typeof times === "number" && typeof retryAfter === "number") {
            failures.push({ endpoint, kind, times, retry_after: retryAfter });
          }
        });
      }
    }
    if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
    this.state.setFaults({ latency_ms: latency, failures });
    return respondJson(ctx.requestId, 200, { ok: true });
  }

  handleClock(ctx: Context): CoreResponse {
    const body = this.parseBody(ctx);
    if (isError(body)) return body;
    if (typeof body.now === "string" && !Number.isNaN(Date.parse(body.now))) this.setFixedNow(new Date(body.now));
    else if (typeof body.advance_seconds === "number")
      this.setFixedNow(new Date(this.now().getTime() + body.advance_seconds * 1000));
    else
      return respondError(ctx.requestId, 400, "VALIDATION_FAILED", 'Send {"now": ISO date} or {"advance_seconds": n}');
    return respondJson(ctx.requestId, 200, { now: this.now().toISOString() });
  }

  /** Process figures for the bench (server RSS measured from inside the server process). */
  handleStats(ctx: Context): CoreResponse {
    // ?gc=1 on a server started with --expose-gc measures the live heap, not uncollected garbage.
    const gc: unknown = (globalThis as { gc?: unknown }).gc;
    if (new URLSearchParams(ctx.req.query).get("gc") === "1" && typeof gc === "function") gc();
    const memory = process.memoryUsage();
    return respondJson(ctx.requestId, 200, {
      rss_bytes: memory.rss,
      heap_used_bytes: memory.heapUsed,
      heap_total_bytes: memory.heapTotal,
      external_bytes: memory.external,
      labels_stored: this.state.labels.size,
      rates_stored: this.state.rates.size,
    });
  }

  handleOrganization(ctx: Context): CoreResponse {
    const org = this.state.organizations.get(ctx.params.id);
    if (org === undefined) return respondError(ctx.requestId, 404, "NOT_FOUND", `No organization ${ctx.params.id}`);
    return respondJson(ctx.requestId, 200, {
      id: org.id,
      balance: formatCents(org.balanceCents),
      label_allowance: org.labelAllowance,
      labels_created: org.labelsCreated,
      validations_billed: org.validationsBilled,
      charges: org.charges.map((c) => ({ label_id: c.labelId, amount: formatCents(c.amountCents) })),
    });
  }
}

function respondBothParcels(requestId: string): CoreResponse {
  return respondError(requestId, 400, "VALIDATION_ERROR", "Send parcel or parcels, not both", [
    { field: "parcel", message: "cannot be sent together with parcels" },
    { field: "parcels", message: "cannot be sent together with parcel" },
  ]);
}

function respondCarrierAccountNotFound(requestId: string): CoreResponse {
  return respondError(
    requestId,
    400,
    "CARRIER_ACCOUNT_NOT_FOUND",
    "carrier_account_id is not one of this organization's accounts",
    [{ field: "carrier_account_id", message: "not found" }],
  );
}

/** A malformed %-escape is just an id that matches nothing. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface MatchedRoute {
  template: string;
  faultable: boolean;
  id: string;
  handler: Handler;
}

type CoreMethod = (this: ShippingCore, ctx: Context) => CoreResponse | Promise<CoreResponse>;

function route(template: string, faultable: boolean, id: string, method: CoreMethod): MatchedRoute {
  return { template, faultable, id, handler: method as Handler };
}

/** Routing by hand: a handful of fixed shapes, cheaper than a generic router on the hot path. */
function matchRoute(method: string, rawPath: string): MatchedRoute | null {
  const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
  const p = ShippingCore.prototype;
  if (method === "POST") {
    if (path === "/v1/labels" || path === "/api/v1/labels")
      return route("POST /v1/labels", true, "", p.handleCreateLabel);
    if (path === "/v1/rates") return route("POST /v1/rates", true, "", p.handleRates);
    if (path === "/v1/addresses/validate")
      return route("POST /v1/addresses/validate", true, "", p.handleValidateAddress);
    if (path === "/v1/addresses/verify") return route("POST /v1/addresses/verify", true, "", p.handleValidateAddress);
    const purchase = /^(?:\/api)?\/v1\/labels\/([^/]+)\/purchase$/.exec(path);
    if (purchase?.[1] !== undefined)
      return route("POST /v1/labels/{id}/purchase", true, decodePathSegment(purchase[1]), p.handlePurchase);
    if (path === "/v1/webhook_endpoints")
      return route("POST /v1/webhook_endpoints", true, "", p.handleCreateWebhookEndpoint);
    const control = /^\/__emulator\/labels\/([^/]+)\/(purchase|tracking)$/.exec(path);
    if (control?.[1] !== undefined) {
      const id = decodePathSegment(control[1]);
      return control[2] === "purchase"
        ? route("POST /__emulator/labels/{id}/purchase", false, id, p.handleControlPurchase)
        : route("POST /__emulator/labels/{id}/tracking", false, id, p.handleControlTracking);
    }
    const redeliver = /^\/__emulator\/deliveries\/([^/]+)\/redeliver$/.exec(path);
    if (redeliver?.[1] !== undefined)
      return route(
        "POST /__emulator/deliveries/{id}/redeliver",
        false,
        decodePathSegment(redeliver[1]),
        p.handleRedeliver,
      );
    if (path === "/__emulator/deliveries/flush")
      return route("POST /__emulator/deliveries/flush", false, "", p.handleFlushDeliveries);
    if (path === "/__emulator/reset") return route("POST /__emulator/reset", false, "", p.handleReset);
    if (path === "/__emulator/faults") return route("POST /__emulator/faults", false, "", p.handleFaults);
    if (path === "/__emulator/clock") return route("POST /__emulator/clock", false, "", p.handleClock);
    return null;
  }
  if (method === "GET") {
    const label = /^(?:\/api)?\/v1\/labels\/([^/]+)$/.exec(path);
    if (label?.[1] !== undefined)
      return route("GET /v1/labels/{id}", true, decodePathSegment(label[1]), p.handleGetLabel);
    const file = /^\/files\/([^/]+)$/.exec(path);
    if (file?.[1] !== undefined) return route("GET /files/{file}", false, decodePathSegment(file[1]), p.handleFile);
    if (path === "/v1/webhook_endpoints")
      return route("GET /v1/webhook_endpoints", true, "", p.handleListWebhookEndpoints);
    if (path === "/__emulator/deliveries")
      return route("GET /__emulator/deliveries", false, "", p.handleListDeliveries);
    if (path === "/__emulator/stats") return route("GET /__emulator/stats", false, "", p.handleStats);
    const org = /^\/__emulator\/organizations\/([^/]+)$/.exec(path);
    if (org?.[1] !== undefined)
      return route("GET /__emulator/organizations/{id}", false, decodePathSegment(org[1]), p.handleOrganization);
  }
  if (method === "DELETE") {
    const endpoint = /^\/v1\/webhook_endpoints\/([^/]+)$/.exec(path);
    if (endpoint?.[1] !== undefined)
      return route(
        "DELETE /v1/webhook_endpoints/{id}",
        true,
        decodePathSegment(endpoint[1]),
        p.handleDeleteWebhookEndpoint,
      );
  }
  return null;
}
