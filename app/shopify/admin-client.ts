import { z } from "zod";

import type { AppError, ErrorField } from "~/utils/app-error";
import { delay } from "~/utils/delay";
import { err, ok, type Result } from "~/utils/result";
import { describeThrown, httpStatusOf } from "~/utils/thrown";

import type { CallCost } from "./shop-pacer";

/**
 * The port every Shopify adapter depends on: answers a GraphQL document with a fetch Response
 * whose JSON is `{ data, errors?, extensions? }`. Routes pass `admin.graphql` from
 * `authenticate.admin` (which throws on GraphQL errors: `callAdmin` below recovers those answers);
 * tests and the demo pass the Shopify emulator's handler.
 */
export type AdminGraphqlClient = (
  query: string,
  options?: { variables?: Record<string, unknown>; signal?: AbortSignal },
) => Promise<Response>;

export type ShopifyErrorCode =
  "USER_ERROR" | "GRAPHQL_ERROR" | "THROTTLED" | "NOT_FOUND" | "INVALID_RESPONSE" | "NETWORK_ERROR";

/**
 * A failed Shopify call in the app-wide error shape. `fields` carry the dotted input paths from
 * userErrors (e.g. "fulfillment.trackingInfo") with Shopify's message for each. Only userErrors
 * are `fixable`: they are about data the merchant entered; everything else is a system problem.
 */
export interface ShopifyError extends AppError<ShopifyErrorCode> {
  readonly source: "shopify";
}

// Something wrong next to usable data: the call succeeded but parts are missing.
// UNRECOGNIZED_VALUE: a value of an enum Shopify extended after this app was written.
export type ShopifyProblemCode = "PROTECTED_CUSTOMER_DATA" | "PARTIAL_DATA" | "TRUNCATED" | "UNRECOGNIZED_VALUE";
export interface ShopifyProblem {
  readonly code: ShopifyProblemCode;
  readonly message: string;
  readonly logMessage: string;
  readonly path?: string;
}

const GraphqlErrorSchema = z
  .object({
    message: z.string(),
    path: z.array(z.union([z.string(), z.number()])).optional(),
    extensions: z.object({ code: z.string().optional() }).loose().optional(),
  })
  .loose();
type GraphqlError = z.infer<typeof GraphqlErrorSchema>;

const EnvelopeSchema = z.object({
  data: z.unknown().optional(),
  // Shopify answers some HTTP-level failures with a string or an object instead of a list.
  errors: z.union([z.array(GraphqlErrorSchema), z.string(), z.record(z.string(), z.unknown())]).optional(),
  extensions: z.unknown().optional(),
});

export const UserErrorSchema = z.object({
  field: z.array(z.string()).nullish(),
  message: z.string(),
});
export type UserError = z.infer<typeof UserErrorSchema>;

const MERCHANT_MESSAGES: Record<Exclude<ShopifyErrorCode, "USER_ERROR" | "NOT_FOUND">, string> = {
  GRAPHQL_ERROR: "Shopify couldn't process the request. Try again; if it keeps failing, contact support.",
  THROTTLED: "Shopify is busy right now. Try again in a few seconds.",
  INVALID_RESPONSE: "Shopify sent a response we couldn't read. Try again; if it keeps failing, contact support.",
  NETWORK_ERROR: "We couldn't reach Shopify. Try again in a moment.",
};

function buildShopifyError(
  code: ShopifyErrorCode,
  logMessage: string,
  message: string | undefined,
  fields: readonly ErrorField[],
): ShopifyError {
  return {
    source: "shopify",
    code,
    message:
      message ??
      (code === "USER_ERROR" || code === "NOT_FOUND" ? "Shopify refused the request." : MERCHANT_MESSAGES[code]),
    logMessage,
    fields,
    fixable: code === "USER_ERROR",
  };
}

/**
 * `fields` are dotted input paths; each becomes an ErrorField carrying the error's merchant
 * message. Use toUserError for Shopify's userErrors, which have a message per field.
 */
export function createShopifyError(
  code: ShopifyErrorCode,
  logMessage: string,
  overrides: { message?: string; fields?: readonly string[] } = {},
): ShopifyError {
  const error = buildShopifyError(code, logMessage, overrides.message, []);
  const fields = (overrides.fields ?? []).map((path) => ({ path, message: error.message }));
  return { ...error, fields };
}

// userErrors are the merchant-fixable kind: Shopify's own messages are written for merchants.
export function toUserError(operation: string, userErrors: readonly UserError[]): ShopifyError {
  const fields = userErrors.flatMap((e) => (e.field?.length ? [{ path: e.field.join("."), message: e.message }] : []));
  const messages = userErrors.map((e) => e.message);
  return buildShopifyError(
    "USER_ERROR",
    `${operation}: userErrors ${JSON.stringify(userErrors)}`,
    `Shopify refused the request: ${messages.join(" ")}`,
    fields,
  );
}

interface Envelope {
  data: unknown;
  errors: GraphqlError[];
  rawErrors?: string;
  extensions?: unknown;
}

// Shopify's cost report (`extensions.cost`): what the query asked for and the bucket after it.
const CostExtensionSchema = z.object({
  cost: z.object({
    requestedQueryCost: z.number().nullish(),
    throttleStatus: z
      .object({ maximumAvailable: z.number(), currentlyAvailable: z.number(), restoreRate: z.number().positive() })
      .nullish(),
  }),
});

/** The requested cost and the bucket as one answer's `extensions` report them; null when absent. */
export function readCallCost(extensions: unknown): CallCost | null {
  const parsed = CostExtensionSchema.safeParse(extensions);
  if (!parsed.success) return null;
  const { requestedQueryCost, throttleStatus } = parsed.data.cost;
  return { requestedQueryCost: requestedQueryCost ?? null, throttleStatus: throttleStatus ?? null };
}

/** Milliseconds until Shopify's leaky bucket refills enough for the query; null when not reported. */
export function throttleWaitMs(extensions: unknown): number | null {
  const cost = readCallCost(extensions);
  if (!cost?.throttleStatus || cost.requestedQueryCost === null) return null;
  const missing = Math.max(0, cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable);
  return Math.ceil((missing / cost.throttleStatus.restoreRate) * 1000);
}

// @shopify/shopify-api's client throws GraphqlQueryError when the response carries `errors`,
// even when `data` is present (protected customer data not approved). Its `body` holds the
// original payload, so we recover the partial data instead of failing the whole call.
function readThrownGraphqlError(error: unknown): Envelope | undefined {
  if (typeof error !== "object" || error === null || !("body" in error)) return undefined;
  const body = (error as { body?: unknown }).body;
  const parsed = z
    .object({
      data: z.unknown().optional(),
      errors: z
        .object({ graphQLErrors: z.array(GraphqlErrorSchema).optional(), message: z.string().optional() })
        .loose()
        .optional(),
      extensions: z.unknown().optional(),
    })
    .safeParse(body);
  if (!parsed.success) return undefined;
  const graphQLErrors = parsed.data.errors?.graphQLErrors ?? [];
  const fallback = parsed.data.errors?.message;
  return {
    data: parsed.data.data ?? null,
    errors: graphQLErrors.length || !fallback ? graphQLErrors : [{ message: fallback }],
    extensions: parsed.data.extensions,
  };
}

class DeadlinePassed extends Error {}

function isAuthResponse(response: Response): boolean {
  return (
    (response.status >= 300 && response.status < 400) ||
    response.status === 401 ||
    response.status === 403 ||
    response.headers.has("X-Shopify-API-Request-Failure-Reauthorize")
  );
}

async function callAdmin(
  admin: AdminGraphqlClient,
  operation: string,
  document: string,
  variables: Record<string, unknown>,
  timeoutMs: number | null,
): Promise<Result<Envelope, ShopifyError>> {
  let response: Response;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const call = admin(document, { variables, signal: controller.signal });
    response =
      timeoutMs === null
        ? await call
        : await Promise.race([
            call,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                controller.abort();
                reject(new DeadlinePassed());
              }, timeoutMs);
            }),
          ]);
  } catch (error) {
    if (error instanceof DeadlinePassed) {
      return err(createShopifyError("NETWORK_ERROR", `${operation}: no answer before the caller's deadline`));
    }
    if (error instanceof Response) {
      // The library throws Responses for two things: asking React Router to re-authenticate (a
      // redirect, or a 401/403 for App Bridge to retry), which must reach React Router untouched; and a
      // copy of Shopify's own HTTP failure (503, 429, 5xx), which is ours to answer as a result.
      if (isAuthResponse(error)) throw error;
      const code = error.status === 429 ? "THROTTLED" : error.status >= 500 ? "NETWORK_ERROR" : "GRAPHQL_ERROR";
      return err(createShopifyError(code, `${operation}: Shopify answered HTTP ${error.status}`));
    }
    const envelope = readThrownGraphqlError(error);
    if (envelope) return ok(envelope);
    const status = httpStatusOf(error);
    if (status === 429 || /max retries|throttl/i.test(describeThrown(error))) {
      return err(createShopifyError("THROTTLED", `${operation}: ${describeThrown(error)}`));
    }
    return err(
      createShopifyError("NETWORK_ERROR", `${operation}: ${describeThrown(error)}${status ? ` (HTTP ${status})` : ""}`),
    );
  } finally {
    clearTimeout(timer);
  }

  if (response.status === 429) return err(createShopifyError("THROTTLED", `${operation}: HTTP 429`));
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const code = response.status >= 500 ? "NETWORK_ERROR" : "GRAPHQL_ERROR";
    return err(createShopifyError(code, `${operation}: HTTP ${response.status} ${text.slice(0, 500)}`));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: body is not JSON: ${text.slice(0, 200)}`));
  }
  const parsed = EnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: unexpected envelope: ${parsed.error.message}`));
  }
  const { data, errors, extensions } = parsed.data;
  if (errors !== undefined && !Array.isArray(errors)) {
    return ok({ data: data ?? null, errors: [], rawErrors: JSON.stringify(errors), extensions });
  }
  return ok({ data: data ?? null, errors: errors ?? [], extensions });
}

function isThrottled(envelope: Envelope): boolean {
  return envelope.errors.some((e) => e.extensions?.code === "THROTTLED");
}

function toProblem(error: GraphqlError): ShopifyProblem {
  const path = error.path?.join(".");
  const isProtected = /not approved to access|protected customer data/i.test(error.message);
  return {
    code: isProtected ? "PROTECTED_CUSTOMER_DATA" : "PARTIAL_DATA",
    message: isProtected
      ? "Shopify withheld customer details (name, address, phone or email) because this app isn't approved for protected customer data."
      : "Shopify returned part of the data with errors; some details may be missing.",
    logMessage: `${error.message}${path ? ` at ${path}` : ""}`,
    ...(path ? { path } : {}),
  };
}

export type RunAdminGraphqlOptions = {
  sleep?: (ms: number) => Promise<void>;
  /** The longest a request waits in all for Shopify's rate limit before giving up THROTTLED. */
  maxThrottleWaitMs?: number;
  /**
   * Epoch ms on `now`'s clock by which the call must be over: nothing is sent with less than a
   * second left, and an answer that comes later is not waited for. A caller guarding the call
   * with a lease passes a deadline before the lease ends.
   */
  deadline?: number;
  now?: () => number;
};

// No request starts with less time than this left before its deadline.
const MIN_CALL_MS = 1_000;

const NOT_SENT = "not sent, the caller's deadline had passed";

// A screen should not hang on the rate limit for long; jobs may pass a larger budget.
const DEFAULT_MAX_THROTTLE_WAIT_MS = 4_000;
// The budget is what bounds the waiting, not a count of tries: a page's reads go out together,
// and each wait Shopify's report implies may be taken by a sibling first (the order page's
// loader and its Returns section each ask for several hundred points at once). The cap bounds
// how many times one call is sent again while its budget lasts (each at least 100 ms apart).
const MAX_THROTTLE_RETRIES = 12;
// Shopify's report can say "enough now" to a request a sibling's points were then taken for.
const MIN_THROTTLE_WAIT_MS = 100;

// Runs one document and parses `data` with `schema` at the boundary. Top-level errors without
// data are failures; errors next to data become problems the caller can show. A THROTTLED
// answer (HTTP 200, no data) is retried after the wait Shopify's cost report implies, within
// a small budget; the query never ran, so repeating it is safe, mutations included.
export async function runAdminGraphql<S extends z.ZodType>(
  admin: AdminGraphqlClient,
  request: { operation: string; document: string; variables?: Record<string, unknown>; schema: S },
  options: RunAdminGraphqlOptions = {},
): Promise<Result<{ data: z.infer<S>; problems: ShopifyProblem[] }, ShopifyError>> {
  const { operation, document, schema } = request;
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;
  const send = async (): Promise<Result<Envelope, ShopifyError>> => {
    if (options.deadline === undefined) return callAdmin(admin, operation, document, request.variables ?? {}, null);
    const left = options.deadline - now();
    if (left < MIN_CALL_MS) return err(createShopifyError("NETWORK_ERROR", `${operation}: ${NOT_SENT}`));
    return callAdmin(admin, operation, document, request.variables ?? {}, left);
  };
  let budget = options.maxThrottleWaitMs ?? DEFAULT_MAX_THROTTLE_WAIT_MS;
  if (options.deadline !== undefined) budget = Math.min(budget, options.deadline - now() - MIN_CALL_MS);
  let called = await send();
  for (let retry = 0; retry < MAX_THROTTLE_RETRIES && called.ok && isThrottled(called.value); retry++) {
    // Without Shopify's cost report there is no telling how long to wait: give up at once.
    const reported = throttleWaitMs(called.value.extensions);
    if (reported === null) break;
    const wait = Math.max(reported, MIN_THROTTLE_WAIT_MS);
    if (wait > budget) break;
    budget -= wait;
    await sleep(wait);
    called = await send();
  }
  if (!called.ok) return called;
  const { data, errors, rawErrors } = called.value;

  if (isThrottled(called.value)) {
    const wait = throttleWaitMs(called.value.extensions);
    const seconds = wait === null ? 0 : Math.max(1, Math.ceil(wait / 1000));
    return err(
      createShopifyError("THROTTLED", `${operation}: ${JSON.stringify(errors)}`, {
        ...(wait !== null
          ? { message: `Shopify is busy right now. Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.` }
          : {}),
      }),
    );
  }
  if (data === null || data === undefined || rawErrors) {
    const detail = rawErrors ?? errors.map((e) => e.message).join("; ");
    return err(createShopifyError("GRAPHQL_ERROR", `${operation}: ${detail || "no data"}`));
  }
  const parsedData = schema.safeParse(data);
  if (!parsedData.success) {
    const detail = errors.length ? ` (errors: ${errors.map((e) => e.message).join("; ")})` : "";
    return err(createShopifyError("INVALID_RESPONSE", `${operation}: ${parsedData.error.message}${detail}`));
  }
  return ok({ data: parsedData.data as z.infer<S>, problems: errors.map(toProblem) });
}
