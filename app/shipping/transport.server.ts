// The shipping client's transport: one `call` every endpoint goes through, holding the retry
// policies, backoff, the call's deadline and the redaction of the key. Endpoints (endpoints/)
// only say what to send, how to retry it and how to read the answer; no HTTP outcome throws.

import { delay } from "~/utils/delay";
import { err, type Result } from "~/utils/result";

import { parseRetryAfterMs, type ShippingError } from "./errors";
import {
  type Attempt,
  type BeforeSend,
  createAttemptRunner,
  describeAttempt,
  type FetchLike,
  type HttpMethod,
  MIN_ATTEMPT_MS,
  type RequestSlots,
} from "./transport-attempt.server";
import { type ParseBody, toResult, withoutApiKey } from "./transport-outcome.server";

export type ShippingLogEntry = { level: "info" | "warn"; message: string; requestId?: string; code?: string };

export type TransportOptions = {
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

/**
 * Per call. `deadline` (epoch ms, on the client's clock) bounds the call's total time: attempts,
 * retries and Retry-After waits. A caller guarding the call with a lease passes a deadline
 * before the lease ends, so the call can never outlive it (ADR 5).
 */
export type CallOptions = {
  deadline?: number;
  /** Asked before each attempt's request leaves, holding its slot: a reason withholds it (WITHHELD). */
  beforeSend?: BeforeSend;
};

/**
 * When a failed attempt may be repeated:
 * - "safe": nothing is created or charged (rates, reads): network errors, timeouts, 429, 5xx.
 * - "create": a repeat could duplicate a draft: only connection errors before sending, and 429.
 * - "purchase": costs money: only 429 (the service refused it unprocessed); the rest is reconciled.
 * - "never": billed per call (address validation).
 */
export type RetryPolicy = "safe" | "create" | "purchase" | "never";

export type Call<T> = {
  operation: string;
  method: HttpMethod;
  path: string;
  body?: unknown;
  policy: RetryPolicy;
  parse: ParseBody<T>;
  sentRateId?: boolean;
  deadline: number;
  beforeSend?: BeforeSend;
};

export type ShippingTransport = {
  call<T>(spec: Call<T>): Promise<Result<T, ShippingError>>;
  /** The caller's deadline, or the call budget from now. */
  deadlineOf(call: CallOptions | undefined): number;
  log(entry: ShippingLogEntry): void;
  maxRetries: number;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_CALL_BUDGET_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;

export function createTransport(options: TransportOptions): ShippingTransport {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;
  const callBudgetMs = options.callBudgetMs ?? DEFAULT_CALL_BUDGET_MS;
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const attemptOnce = createAttemptRunner({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: fetchImpl,
    timeoutMs,
    now,
    slots: options.slots,
  });

  const deadlineOf = (call: CallOptions | undefined) => call?.deadline ?? now() + callBudgetMs;

  function shouldRetry(policy: RetryPolicy, attempt: Attempt): boolean {
    if (policy === "never" || attempt.kind === "withheld") return false;
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

  async function call<T>(spec: Call<T>): Promise<Result<T, ShippingError>> {
    let attempt: Attempt = await attemptOnce(spec.method, spec.path, spec.body, spec.deadline, spec.beforeSend);
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
      attempt = await attemptOnce(spec.method, spec.path, spec.body, spec.deadline, spec.beforeSend);
    }
    // Whether the request could have taken effect without our knowing.
    const mutates = spec.method === "POST" && spec.policy !== "safe";
    const answered = toResult(spec, attempt, { mutates, timeoutMs });
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

  return { call, deadlineOf, log, maxRetries };
}
