// The one shape every expected failure takes once it leaves its module: shipping service,
// Shopify, label use cases and settings. Each module keeps its own closed union of codes and
// builds errors of this shape; routes answer any of them with one mapping
// (app/http/error-response.server.ts), and logs read `logMessage`.

export type ErrorSource = "shipping" | "shopify" | "labels" | "settings";

/** One input field the error is about. Paths use dots and indexes: `parcels[2].weight`. */
export type ErrorField = { readonly path: string; readonly message: string };

export interface AppError<C extends string = string> {
  readonly source: ErrorSource;
  readonly code: C;
  /** For the merchant: what happened and what to do. Never quotes secrets or stack traces. */
  readonly message: string;
  /** For our logs: operation, status codes, the other side's words. Never holds an API key. */
  readonly logMessage: string;
  /** The fields the merchant should look at, where known; empty otherwise. */
  readonly fields: readonly ErrorField[];
  /** The merchant can fix it (data, settings, plan); otherwise it is a system problem. */
  readonly fixable: boolean;
}

export function isAppError(value: unknown): value is AppError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.source === "string" &&
    typeof candidate.code === "string" &&
    typeof candidate.message === "string" &&
    typeof candidate.logMessage === "string" &&
    Array.isArray(candidate.fields) &&
    typeof candidate.fixable === "boolean"
  );
}
