// What an attempt becomes for the caller: a Result whose error is a ShippingError, never a throw,
// with the API key cut out of anything the service said. Separate from transport.server.ts so the
// one place HTTP outcomes turn into typed errors reads on its own, apart from retries and timing.

import { formatFieldPath } from "~/utils/field-path";
import { err, ok, type Result } from "~/utils/result";

import {
  createShippingError,
  mapHttpError,
  type ShippingError,
  type ShippingErrorField,
  withOutcomeUnknown,
} from "./errors";
import type { Attempt } from "./transport-attempt.server";

/** Checks a 2xx body; a zod schema's `safeParse` is one. */
export type ParseBody<T> = (
  body: unknown,
) =>
  | { success: true; data: T }
  | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };

export function describeZodIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): ShippingErrorField[] {
  return issues.map((issue) => ({ path: formatFieldPath(issue.path, "(body)"), message: issue.message }));
}

export function invalidRequest(operation: string, fields: ShippingErrorField[]): ShippingError {
  return createShippingError({
    code: "INVALID_REQUEST",
    fields,
    logMessage: `${operation}: request refused before sending: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}`,
  });
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

/**
 * `mutates`: whether the request could have taken effect without our knowing (a POST that
 * creates or charges). `timeoutMs` is the per-attempt timeout, named in the TIMEOUT message.
 */
export function toResult<T>(
  spec: { operation: string; parse: ParseBody<T>; sentRateId?: boolean },
  attempt: Attempt,
  { mutates, timeoutMs }: { mutates: boolean; timeoutMs: number },
): Result<T, ShippingError> {
  if (attempt.kind === "out_of_time") {
    return err(
      createShippingError({
        code: "TIMEOUT",
        logMessage: `${spec.operation}: not sent, the call's deadline had passed`,
      }),
    );
  }
  if (attempt.kind === "withheld") {
    return err(createShippingError({ code: "WITHHELD", logMessage: `${spec.operation}: not sent, ${attempt.reason}` }));
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
