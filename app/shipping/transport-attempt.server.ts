// One HTTP attempt against the shipping service: wait for a slot, send with the key, stop at the
// attempt's timeout or the call's deadline, read the body. Separate from transport.server.ts
// because an attempt knows nothing of retries: it only reports what happened, as an Attempt.

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A slot is held from `acquire` until its release is called; calling the release again does nothing. */
export type RequestSlots = { acquire(): Promise<() => void> };

export type HttpMethod = "GET" | "POST" | "DELETE";

export type Attempt =
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
  | { kind: "out_of_time" }
  // Not sent: the caller's last check, made holding the slot, withdrew it.
  | { kind: "withheld"; reason: string };

/**
 * Asked once the attempt holds its slot, right before its request leaves: a reason withholds the
 * request. Waiting for a slot can take long (a bulk run queues many requests behind a few
 * slots), so what the caller decided while waiting (cancel) is still honoured.
 */
export type BeforeSend = () => Promise<string | null>;

export type AttemptOnce = (
  method: HttpMethod,
  path: string,
  body: unknown,
  deadline: number,
  beforeSend?: BeforeSend,
) => Promise<Attempt>;

// No attempt starts with less time than this left before the deadline: it could not finish.
export const MIN_ATTEMPT_MS = 1_000;

// Errors from before the request left: nothing can have happened on the service's side.
const CONNECT_ERROR_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

class AttemptTimeout extends Error {}

function causeCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const cause: unknown = "cause" in error ? error.cause : undefined;
  if (typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string") {
    return cause.code;
  }
  if ("code" in error && typeof error.code === "string") return error.code;
  return null;
}

export function describeAttempt(attempt: Attempt): string {
  if (attempt.kind === "timeout") return "timed out";
  if (attempt.kind === "network") return `network error: ${attempt.detail}`;
  if (attempt.kind === "out_of_time") return "not sent (deadline)";
  if (attempt.kind === "withheld") return `not sent (${attempt.reason})`;
  return `HTTP ${attempt.status}`;
}

export function createAttemptRunner(options: {
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  now: () => number;
  slots?: RequestSlots;
}): AttemptOnce {
  const { apiKey, timeoutMs, now } = options;
  const fetchImpl = options.fetch;
  const base = options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`;

  function urlFor(path: string): string {
    return new URL(path.replace(/^\//, ""), base).toString();
  }

  async function attemptOnce(
    method: HttpMethod,
    path: string,
    body: unknown,
    deadline: number,
    beforeSend?: BeforeSend,
  ): Promise<Attempt> {
    // Waiting for a slot is not the service's time: the attempt's timeout starts once it has one.
    const release = options.slots ? await options.slots.acquire() : () => {};
    try {
      const withheld = beforeSend ? await beforeSend() : null;
      if (withheld !== null) return { kind: "withheld", reason: withheld };
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
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: "application/json" };
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

  return attemptOnce;
}
