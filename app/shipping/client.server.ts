// The only code that speaks the shipping service's wire format. One function per operation;
// no HTTP outcome throws: every call returns a Result whose error is a ShippingError.

import { formatFieldPath } from "~/utils/field-path";
import { err, ok, type Result } from "~/utils/result";

import {
  CONTRACT_ERROR_CODES,
  createShippingError,
  mapHttpError,
  parseRetryAfterMs,
  type ShippingError,
  type ShippingErrorField,
  SPEC_ERROR_CODES,
  withOutcomeUnknown,
} from "./errors";
import { checkDraftPackageCount, STATE_REQUIRED_COUNTRIES } from "./preflight";
import {
  type AddressValidationRequest,
  AddressValidationRequestSchema,
  type AddressValidationResult,
  AddressValidationResultSchema,
  type CreateLabelRequest,
  CreateLabelRequestSchema,
  type DraftLabel,
  DraftLabelSchema,
  type LabelRecord,
  LabelRecordSchema,
  type PurchasedLabel,
  PurchasedLabelSchema,
  type Rate,
  type RatesRequest,
  RatesRequestSchema,
  type RatesResponse,
  RatesResponseSchema,
  type RegisteredWebhookEndpoint,
  RegisteredWebhookEndpointSchema,
  type WebhookEndpoint,
  WebhookEndpointListSchema,
  type WebhookEndpointRequest,
  WebhookEndpointRequestSchema,
} from "./schemas";

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type ShippingLogEntry = { level: "info" | "warn"; message: string; requestId?: string; code?: string };

export type ShippingClientOptions = {
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  /** Per attempt, including reading the body. */
  timeoutMs?: number;
  /** Extra attempts for calls that may be repeated. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The clock deadlines are measured on (epoch ms); tests pass a fake one that `sleep` advances. */
  now?: () => number;
  /** The longest a call may take, retries and waits included, when the caller gives no deadline. */
  callBudgetMs?: number;
  random?: () => number;
  /** Never receives the API key. */
  log?: (entry: ShippingLogEntry) => void;
  /**
   * Slots shared with other clients (call-limiter.ts): each request waits for one before its
   * attempt's clock starts, and holds it until the answer's headers arrive.
   */
  slots?: RequestSlots;
};

/** A slot is held from `acquire` until its release is called; calling the release again does nothing. */
export type RequestSlots = { acquire(): Promise<() => void> };

/**
 * Per call. `deadline` (epoch ms, on the client's clock) bounds the call's total time: attempts,
 * retries and Retry-After waits. A caller guarding the call with a lease passes a deadline
 * before the lease ends, so the call can never outlive it (ADR 5).
 */
export type CallOptions = { deadline?: number };

export type PurchaseOutcome = PurchasedLabel & {
  /** The label was found already bought (409, or read back after a lost response): charged once. */
  alreadyPurchased: boolean;
};

export type CreateDraftLabelOptions = CallOptions & {
  /** Send carrier/service/service_code alongside rate_id on purpose, to override the rate. */
  overrideRate?: boolean;
  /** The rate the rate_id came from: its date is the only ship_date sent. */
  quote?: Rate | null;
};

export type ShippingClient = {
  getRates(request: RatesRequest, options?: CallOptions): Promise<Result<RatesResponse, ShippingError>>;
  createDraftLabel(
    request: CreateLabelRequest,
    options?: CreateDraftLabelOptions,
  ): Promise<Result<DraftLabel, ShippingError>>;
  getLabel(labelId: string, options?: CallOptions): Promise<Result<LabelRecord, ShippingError>>;
  /**
   * Buys a draft, never twice. An error without `outcomeUnknown` means the service did not buy
   * it; with `outcomeUnknown` it may have, and only reading the label back can tell.
   */
  purchaseLabel(labelId: string, options?: CallOptions): Promise<Result<PurchaseOutcome, ShippingError>>;
  validateAddress(
    request: AddressValidationRequest,
    options?: CallOptions,
  ): Promise<Result<AddressValidationResult, ShippingError>>;
  /** Subscribes a URL to the organization's events; the answer carries the signing secret, only this once. */
  registerWebhookEndpoint(
    request: WebhookEndpointRequest,
    options?: CallOptions,
  ): Promise<Result<RegisteredWebhookEndpoint, ShippingError>>;
  listWebhookEndpoints(options?: CallOptions): Promise<Result<WebhookEndpoint[], ShippingError>>;
  /** NOT_FOUND when the service has no such endpoint for this key's organization. */
  deleteWebhookEndpoint(endpointId: string, options?: CallOptions): Promise<Result<void, ShippingError>>;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_CALL_BUDGET_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
// No attempt starts with less time than this left before the deadline: it could not finish.
const MIN_ATTEMPT_MS = 1_000;

/**
 * When a failed attempt may be repeated:
 * - "safe": nothing is created or charged (rates, reads): network errors, timeouts, 429, 5xx.
 * - "create": a repeat could duplicate a draft: only connection errors before sending, and 429.
 * - "purchase": costs money: only 429 (the service refused it unprocessed); the rest is reconciled.
 * - "never": billed per call (address validation).
 */
type RetryPolicy = "safe" | "create" | "purchase" | "never";

// Errors from before the request left: nothing can have happened on the service's side.
const CONNECT_ERROR_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

type Attempt =
  | {
      kind: "response";
      status: number;
      body: unknown;
      bodyReadable: boolean;
      requestId: string | null;
      retryAfter: string | null;
    }
  | { kind: "timeout" }
  | { kind: "network"; beforeSend: boolean; detail: string }
  // Not sent: the call's deadline left no time for it.
  | { kind: "out_of_time" };

class AttemptTimeout extends Error {}

type HttpMethod = "GET" | "POST" | "DELETE";

function causeCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const cause: unknown = "cause" in error ? error.cause : undefined;
  if (typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string") {
    return cause.code;
  }
  if ("code" in error && typeof error.code === "string") return error.code;
  return null;
}

function describeZodIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): ShippingErrorField[] {
  return issues.map((issue) => ({ path: formatFieldPath(issue.path, "(body)"), message: issue.message }));
}

function invalidRequest(operation: string, fields: ShippingErrorField[]): ShippingError {
  return createShippingError({
    code: "INVALID_REQUEST",
    fields,
    logMessage: `${operation}: request refused before sending: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}`,
  });
}

/** Drops `state` where the service ignores it (it asks to omit it outside US, CA and AU). */
function withoutForeignState<A extends { country?: string | undefined; state?: string | null | undefined }>(
  address: A,
): A {
  const country = address.country ?? "US";
  if (STATE_REQUIRED_COUNTRIES.includes(country) || address.state == null) return address;
  const copy = { ...address };
  delete copy.state;
  return copy;
}

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
  const nested = body.options?.["ship_date"];
  const requested = body.ship_date ?? (typeof nested === "string" ? nested : undefined);
  if (body.options && "ship_date" in body.options) {
    const rest = { ...body.options };
    delete rest["ship_date"];
    body.options = rest;
  }
  if (body.rate_id !== undefined) {
    if (options.quote) body.ship_date = options.quote.ship_date;
    else delete body.ship_date;
  } else if (requested !== undefined) {
    body.ship_date = requested;
  }
  return ok(body);
}

export function createShippingClient(options: ShippingClientOptions): ShippingClient {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const callBudgetMs = options.callBudgetMs ?? DEFAULT_CALL_BUDGET_MS;
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const base = options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`;

  function urlFor(path: string): string {
    return new URL(path.replace(/^\//, ""), base).toString();
  }

  const deadlineOf = (call: CallOptions | undefined) => call?.deadline ?? now() + callBudgetMs;

  async function attemptOnce(method: HttpMethod, path: string, body: unknown, deadline: number): Promise<Attempt> {
    // Waiting for a slot is not the service's time: the attempt's timeout starts once it has one.
    const release = options.slots ? await options.slots.acquire() : () => {};
    try {
      return await attemptHoldingSlot(method, path, body, deadline, release);
    } finally {
      release();
    }
  }

  async function attemptHoldingSlot(
    method: HttpMethod,
    path: string,
    body: unknown,
    deadline: number,
    freeSlot: () => void,
  ): Promise<Attempt> {
    const remaining = deadline - now();
    if (remaining < MIN_ATTEMPT_MS) return { kind: "out_of_time" };
    const attemptTimeoutMs = Math.min(timeoutMs, remaining);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new AttemptTimeout());
      }, attemptTimeoutMs);
    });
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const run = async (): Promise<Attempt> => {
      const response = await fetchImpl(urlFor(path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      // The service has answered: reading and checking the body need no slot.
      freeSlot();
      const text = await response.text();
      let parsed: unknown = null;
      let bodyReadable = true;
      if (text !== "") {
        try {
          parsed = JSON.parse(text);
        } catch {
          bodyReadable = false;
        }
      }
      return {
        kind: "response",
        status: response.status,
        body: parsed,
        bodyReadable,
        requestId: response.headers.get("x-request-id"),
        retryAfter: response.headers.get("retry-after"),
      };
    };
    try {
      return await Promise.race([run(), timeout]);
    } catch (error) {
      if (error instanceof AttemptTimeout || (error instanceof Error && error.name === "AbortError")) {
        return { kind: "timeout" };
      }
      const code = causeCode(error);
      return {
        kind: "network",
        beforeSend: code !== null && CONNECT_ERROR_CODES.has(code),
        detail: `${error instanceof Error ? error.message : String(error)}${code ? ` (${code})` : ""}`,
      };
    } finally {
      clearTimeout(timer);
      timeout.catch(() => {});
    }
  }

  function shouldRetry(policy: RetryPolicy, attempt: Attempt): boolean {
    if (policy === "never") return false;
    if (attempt.kind === "response") {
      if (attempt.status === 429) return true;
      return policy === "safe" && attempt.status >= 500;
    }
    if (attempt.kind === "network") return policy === "safe" || (policy === "create" && attempt.beforeSend);
    return policy === "safe";
  }

  function backoffMs(retryIndex: number, retryAfter: string | null): number {
    const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retryIndex);
    // Equal jitter: spreads clients that failed together without ever waiting zero.
    const jittered = exponential / 2 + random() * (exponential / 2);
    const asked = parseRetryAfterMs(retryAfter, now());
    // Never sooner than the service asked; later if our own backoff has grown past it.
    return asked === null ? jittered : Math.max(asked, jittered);
  }

  type Call<T> = {
    operation: string;
    method: HttpMethod;
    path: string;
    body?: unknown;
    policy: RetryPolicy;
    parse: (
      body: unknown,
    ) =>
      | { success: true; data: T }
      | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
    sentRateId?: boolean;
    deadline: number;
  };

  async function call<T>(spec: Call<T>): Promise<Result<T, ShippingError>> {
    let attempt: Attempt = await attemptOnce(spec.method, spec.path, spec.body, spec.deadline);
    for (let retry = 0; retry < maxRetries && shouldRetry(spec.policy, attempt); retry++) {
      const wait = backoffMs(retry, attempt.kind === "response" ? attempt.retryAfter : null);
      if (now() + wait + MIN_ATTEMPT_MS > spec.deadline) {
        // Waiting as asked would outlive the caller's deadline (and the lease behind it): give
        // the caller this answer now; Retry-After travels with a 429 so it can say when.
        log({
          level: "warn",
          message: `${spec.operation}: ${describeAttempt(attempt)}; no retry, ${Math.round(wait)} ms would pass the deadline`,
        });
        break;
      }
      log({
        level: "warn",
        message: `${spec.operation}: ${describeAttempt(attempt)}; retry ${retry + 1} of ${maxRetries} in ${Math.round(wait)} ms`,
        requestId: attempt.kind === "response" ? (attempt.requestId ?? undefined) : undefined,
      });
      await sleep(wait);
      attempt = await attemptOnce(spec.method, spec.path, spec.body, spec.deadline);
    }
    const answered = toResult(spec, attempt);
    const result = answered.ok ? answered : err(withoutApiKey(answered.error, options.apiKey));
    if (!result.ok) {
      log({
        level: "warn",
        message: result.error.logMessage,
        code: result.error.code,
        requestId: result.error.requestId ?? undefined,
      });
    }
    return result;
  }

  function toResult<T>(spec: Call<T>, attempt: Attempt): Result<T, ShippingError> {
    // Whether the request could have taken effect without our knowing.
    const mutates = spec.method === "POST" && spec.policy !== "safe";
    if (attempt.kind === "out_of_time") {
      return err(
        createShippingError({
          code: "TIMEOUT",
          logMessage: `${spec.operation}: not sent, the call's deadline had passed`,
        }),
      );
    }
    if (attempt.kind === "timeout") {
      return err(
        createShippingError({
          code: "TIMEOUT",
          logMessage: `${spec.operation}: no answer within ${timeoutMs} ms`,
          outcomeUnknown: mutates,
        }),
      );
    }
    if (attempt.kind === "network") {
      return err(
        createShippingError({
          code: "NETWORK_ERROR",
          logMessage: `${spec.operation}: ${attempt.detail}`,
          outcomeUnknown: mutates && !attempt.beforeSend,
        }),
      );
    }
    if (attempt.status < 200 || attempt.status >= 300) {
      const error = mapHttpError(
        attempt.status,
        attempt.body,
        { requestId: attempt.requestId, retryAfter: attempt.retryAfter },
        { operation: spec.operation, sentRateId: spec.sentRateId },
      );
      // A 5xx may come after the work was done (a crash before answering).
      return err(attempt.status >= 500 && mutates ? withOutcomeUnknown(error) : error);
    }
    const requestId = attempt.requestId;
    // A 2xx to a call that creates or charges did take effect, even if we cannot read it.
    const acceptedUnread = mutates ? { outcomeUnknown: true } : {};
    if (!attempt.bodyReadable) {
      return err(
        createShippingError({
          code: "INVALID_RESPONSE",
          status: attempt.status,
          requestId,
          logMessage: `${spec.operation}: HTTP ${attempt.status} body is not JSON`,
          ...acceptedUnread,
        }),
      );
    }
    const parsed = spec.parse(attempt.body);
    if (!parsed.success) {
      const fields = describeZodIssues(parsed.error.issues);
      return err(
        createShippingError({
          code: "INVALID_RESPONSE",
          status: attempt.status,
          requestId,
          fields,
          logMessage: `${spec.operation}: HTTP ${attempt.status} body does not match the schema: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}`,
          ...acceptedUnread,
        }),
      );
    }
    return ok(parsed.data);
  }

  async function getLabel(labelId: string, callOptions?: CallOptions): Promise<Result<LabelRecord, ShippingError>> {
    return call({
      operation: "getLabel",
      method: "GET",
      path: `/v1/labels/${encodeURIComponent(labelId)}`,
      policy: "safe",
      parse: (body) => LabelRecordSchema.safeParse(body),
      deadline: deadlineOf(callOptions),
    });
  }

  /**
   * A label record as a purchase: null while it is a draft, an error when it is neither or is
   * another label's record (a body we cannot trust is no evidence either way).
   */
  function asPurchase(labelId: string, record: unknown): Result<PurchaseOutcome | null, ShippingError> {
    const parsed = LabelRecordSchema.safeParse(record);
    if (parsed.success && parsed.data.id !== labelId) {
      return err(
        createShippingError({
          code: "INVALID_RESPONSE",
          status: 200,
          logMessage: `purchaseLabel: asked about ${labelId}, the service answered with ${parsed.data.id}`,
        }),
      );
    }
    if (parsed.success && parsed.data.status === "draft") return ok(null);
    const purchased = PurchasedLabelSchema.safeParse(record);
    if (!purchased.success) {
      return err(
        createShippingError({
          code: "INVALID_RESPONSE",
          status: 200,
          fields: describeZodIssues(purchased.error.issues),
          logMessage: `purchaseLabel: label ${labelId} is ${parsed.success ? parsed.data.status : "unreadable"} and carries no purchased label data`,
        }),
      );
    }
    return ok({ ...purchased.data, alreadyPurchased: true });
  }

  async function readPurchasedLabel(
    labelId: string,
    deadline: number,
  ): Promise<Result<PurchaseOutcome | null, ShippingError>> {
    const record = await getLabel(labelId, { deadline });
    if (!record.ok) return record;
    return asPurchase(labelId, record.value);
  }

  async function purchaseLabel(
    labelId: string,
    callOptions?: CallOptions,
  ): Promise<Result<PurchaseOutcome, ShippingError>> {
    const path = `/v1/labels/${encodeURIComponent(labelId)}/purchase`;
    // One deadline for every purchase attempt and read-back below.
    const deadline = deadlineOf(callOptions);
    // Once an attempt may have been charged, every later failure in this call stays "maybe
    // charged": a read-back showing a draft only says that request has not landed *yet*, so a
    // refusal of a later attempt says nothing about it.
    let maybeCharged = false;
    for (let round = 0; ; round++) {
      const result = await call({
        operation: "purchaseLabel",
        method: "POST",
        path,
        body: {},
        policy: "purchase",
        parse: (body) => PurchasedLabelSchema.safeParse(body),
        deadline,
      });
      if (result.ok) return ok({ ...result.value, alreadyPurchased: false });
      const error = result.error;
      if (error.status === 409) return recoverAlreadyPurchased(labelId, error, deadline);
      const unknown = maybeCharged || !isDefiniteRefusal(error);
      if (!unknown) return err(error);
      maybeCharged = true;
      if (round >= maxRetries) return err(withOutcomeUnknown(error));
      // The purchase may have gone through: read the label instead of buying blindly again.
      const readBack = await readPurchasedLabel(labelId, deadline);
      if (!readBack.ok) {
        return err(
          withOutcomeUnknown(error, `${error.logMessage}; reading the label back failed: ${readBack.error.logMessage}`),
        );
      }
      if (readBack.value !== null) {
        log({
          level: "info",
          message: `purchaseLabel: ${labelId} was bought although the answer was lost`,
          code: error.code,
        });
        return ok(readBack.value);
      }
      // Still a draft (so far): buying again cannot double-charge, since the service charges a
      // label once and answers a repeat with 409.
      log({ level: "warn", message: `purchaseLabel: ${labelId} is still a draft after ${error.code}; trying again` });
    }
  }

  /**
   * 409 ALREADY_PURCHASED is a purchase, never an error: the body carries the bought label.
   * Only when that body is unusable is the label read back, and if that fails too the outcome
   * stays unknown (it was bought, by someone), never a refusal.
   */
  async function recoverAlreadyPurchased(
    labelId: string,
    conflict: ShippingError,
    deadline: number,
  ): Promise<Result<PurchaseOutcome, ShippingError>> {
    if (conflict.conflictLabel !== undefined) {
      const fromBody = asPurchase(labelId, conflict.conflictLabel);
      if (fromBody.ok && fromBody.value !== null) return ok(fromBody.value);
    }
    const readBack = await readPurchasedLabel(labelId, deadline);
    if (readBack.ok && readBack.value !== null) return ok(readBack.value);
    const why = readBack.ok ? "it reads back as a draft" : `reading it back failed: ${readBack.error.logMessage}`;
    return err(
      createShippingError({
        code: readBack.ok ? "UNEXPECTED_ERROR" : readBack.error.code,
        status: 409,
        requestId: conflict.requestId,
        outcomeUnknown: true,
        logMessage: `purchaseLabel: 409 ALREADY_PURCHASED for ${labelId} without a usable label; ${why}`,
      }),
    );
  }

  return {
    async getRates(request, callOptions) {
      const parsed = RatesRequestSchema.safeParse(request);
      if (!parsed.success) return err(invalidRequest("getRates", describeZodIssues(parsed.error.issues)));
      const body = { ...parsed.data };
      if (body.parcel !== undefined && body.parcels !== undefined) {
        return err(invalidRequest("getRates", [{ path: "parcels", message: "send parcel or parcels, not both" }]));
      }
      body.from_address = withoutForeignState(body.from_address);
      body.to_address = withoutForeignState(body.to_address);
      return call({
        operation: "getRates",
        method: "POST",
        path: "/v1/rates",
        body,
        policy: "safe",
        parse: (b) => RatesResponseSchema.safeParse(b),
        deadline: deadlineOf(callOptions),
      });
    },

    async createDraftLabel(request, createOptions = {}) {
      const body = buildCreateLabelBody(request, createOptions);
      if (!body.ok) {
        log({ level: "warn", message: body.error.logMessage, code: body.error.code });
        return body;
      }
      const created = await call({
        operation: "createDraftLabel",
        method: "POST",
        path: "/v1/labels",
        body: body.value,
        policy: "create",
        sentRateId: body.value.rate_id !== undefined,
        parse: (b) => DraftLabelSchema.safeParse(b),
        deadline: deadlineOf(createOptions),
      });
      if (created.ok && checkDraftPackageCount(body.value, created.value).length > 0) {
        // The caller must run checkDraftPackageCount before buying; the log keeps the evidence.
        log({
          level: "warn",
          message: `createDraftLabel: draft ${created.value.id} counts ${created.value.package_count ?? "no"} boxes, ${body.value.parcels?.length ?? 1} sent`,
          requestId: created.value.request_id,
        });
      }
      return created;
    },

    getLabel,
    purchaseLabel,

    async registerWebhookEndpoint(request, callOptions) {
      const parsed = WebhookEndpointRequestSchema.safeParse(request);
      if (!parsed.success) {
        return err(invalidRequest("registerWebhookEndpoint", describeZodIssues(parsed.error.issues)));
      }
      // A repeat could register a second endpoint: only what cannot have reached the service is retried.
      return call({
        operation: "registerWebhookEndpoint",
        method: "POST",
        path: "/v1/webhook_endpoints",
        body: parsed.data,
        policy: "create",
        parse: (b) => RegisteredWebhookEndpointSchema.safeParse(b),
        deadline: deadlineOf(callOptions),
      });
    },

    async listWebhookEndpoints(callOptions) {
      const listed = await call({
        operation: "listWebhookEndpoints",
        method: "GET",
        path: "/v1/webhook_endpoints",
        policy: "safe",
        parse: (b) => WebhookEndpointListSchema.safeParse(b),
        deadline: deadlineOf(callOptions),
      });
      return listed.ok ? ok(listed.value.webhook_endpoints) : listed;
    },

    async deleteWebhookEndpoint(endpointId, callOptions) {
      // Deleting twice ends the same way: safe to repeat.
      const deleted = await call({
        operation: "deleteWebhookEndpoint",
        method: "DELETE",
        path: `/v1/webhook_endpoints/${encodeURIComponent(endpointId)}`,
        policy: "safe",
        parse: () => ({ success: true as const, data: undefined }),
        deadline: deadlineOf(callOptions),
      });
      return deleted.ok ? ok(undefined) : deleted;
    },

    async validateAddress(request, callOptions) {
      const parsed = AddressValidationRequestSchema.safeParse(request);
      if (!parsed.success) return err(invalidRequest("validateAddress", describeZodIssues(parsed.error.issues)));
      return call({
        operation: "validateAddress",
        method: "POST",
        path: "/v1/addresses/validate",
        body: parsed.data,
        policy: "never",
        parse: (b) => AddressValidationResultSchema.safeParse(b),
        deadline: deadlineOf(callOptions),
      });
    },
  };
}

/**
 * For a purchase, the answers that prove the service did not buy the label: a refusal in the
 * contract's own words (a known code from a readable error body), a 429 it never processed,
 * our own refusal to send, or a deadline that passed before anything was sent. Anything else
 * (a 5xx, a proxy's page, an unknown code, a lost answer) may hide a purchase.
 */
function isDefiniteRefusal(error: ShippingError): boolean {
  if (error.outcomeUnknown) return false;
  if (error.code === "INVALID_REQUEST") return true;
  if (error.code === "TIMEOUT") return error.status === null && error.logMessage.includes("not sent");
  const known = (SPEC_ERROR_CODES as readonly string[]).concat(CONTRACT_ERROR_CODES);
  return error.serviceCode !== null && known.includes(error.serviceCode) && error.status !== null && error.status < 500;
}

/**
 * The service's own words (its message, field messages, request id) travel in our errors to
 * logs, the audit trail and the merchant. A service that quotes the request back, Authorization
 * header included, must not put the key there: it is cut out wherever it appears.
 */
export function withoutApiKey(error: ShippingError, apiKey: string): ShippingError {
  // Keys shorter than this are refused when saved; cutting a shorter string would garble text.
  if (apiKey.length < 8) return error;
  const clean = (text: string) => (text.includes(apiKey) ? text.split(apiKey).join("[redacted]") : text);
  return {
    ...error,
    message: clean(error.message),
    logMessage: clean(error.logMessage),
    fields: error.fields.map((field) => ({ path: clean(field.path), message: clean(field.message) })),
    requestId: error.requestId === null ? null : clean(error.requestId),
  };
}

function describeAttempt(attempt: Attempt): string {
  if (attempt.kind === "timeout") return "timed out";
  if (attempt.kind === "network") return `network error: ${attempt.detail}`;
  if (attempt.kind === "out_of_time") return "not sent (deadline)";
  return `HTTP ${attempt.status}`;
}

/**
 * Re-quotes after RATE_EXPIRED and returns the rate of the same carrier and service, or null
 * when that service is no longer offered (the merchant must choose again).
 */
export async function requoteSameService(
  client: Pick<ShippingClient, "getRates">,
  rateRequest: RatesRequest,
  previous: { carrier: string; service_code: string },
): Promise<Result<Rate | null, ShippingError>> {
  const rates = await client.getRates(rateRequest);
  if (!rates.ok) return rates;
  const match = rates.value.rates.find(
    (rate) =>
      rate.service_code === previous.service_code && rate.carrier.toUpperCase() === previous.carrier.toUpperCase(),
  );
  return ok(match ?? null);
}
