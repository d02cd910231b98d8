import { randomInt } from "node:crypto";

import { type LogContext, logFor } from "~/logger.server";

import type { AppError } from "./app-error";

// A logged problem under a reference the merchant can quote: routes answer with it, and use cases
// that turn a failure into a message (a connection test, a settings screen) log the same way.

// Crockford's base32: no I, L, O or U, so a reference read out over the phone survives.
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A short id, e.g. `ERR-7F3K2Q`, that ties what the merchant saw to one log line. */
export function createErrorReference(): string {
  let id = "";
  for (let i = 0; i < 6; i++) id += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `ERR-${id}`;
}

export type ReportedError = { readonly reference: string; readonly message: string };

/**
 * Logs a problem with a fresh reference and returns the merchant message that quotes it. The log
 * line gets `logMessage` and carries the reference (and the caller's context: the shop, the job)
 * as fields; the merchant gets only the error's own merchant message.
 */
export function reportError(
  error: AppError,
  options: { level?: "error" | "warn"; context?: LogContext } = {},
): ReportedError {
  const reference = createErrorReference();
  const log = logFor({ ...options.context, reference });
  const line = `${error.source}/${error.code}: ${error.logMessage}`;
  if (options.level === "warn") log.warn(line);
  else log.error(line);
  return {
    reference,
    // Merchant messages already say what to do next (try again, contact support); the reference
    // is what support asks for.
    message: `${error.message} (Reference: ${reference})`,
  };
}
