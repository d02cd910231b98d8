import type { AppError, ErrorField } from "~/utils/app-error";

import { ErrorBodySchema, NOT_VOIDABLE_REASONS, type NotVoidableReason } from "./schemas";

// Every way a call to the shipping service can fail, as one closed set. HTTP status and the
// service's error body are turned into a ShippingError here and nowhere else.

/** Codes from the spec's Errors table. */
export const SPEC_ERROR_CODES = [
  "VALIDATION_FAILED",
  "VALIDATION_ERROR",
  "CUSTOMS_REQUIRED",
  "TAX_ID_REQUIRED",
  "SERVICE_REQUIRED",
  "SERVICE_MISMATCH",
  "ADDRESS_BLOCKED",
  "CARRIER_ACCOUNT_NOT_FOUND",
  "NO_ORGANIZATION",
  "PLAN_LIMIT_REACHED",
] as const;

/** Codes the contract adds where the spec is silent. */
export const CONTRACT_ERROR_CODES = [
  "UNAUTHENTICATED",
  "NOT_FOUND",
  "ALREADY_PURCHASED",
  "INSUFFICIENT_BALANCE",
  "EXPORT_DECLARATION_REQUIRED",
  "RATE_LIMITED",
  // Label options the chosen service does not offer (contract.md, "Label options").
  "OPTION_NOT_SUPPORTED",
  // A void refused (contract.md, "POST /v1/labels/{id}/void"); `voidRefusal` says why.
  "NOT_VOIDABLE",
] as const;

/** Outcomes the client itself detects. */
export const CLIENT_ERROR_CODES = [
  // SERVICE_REQUIRED answered to a request that carried a rate_id: the quote expired or is unknown.
  "RATE_EXPIRED",
  // Our own request schema refused the request; nothing was sent.
  "INVALID_REQUEST",
  // The caller withdrew the request after it got its slot, before it left (a cancelled bulk
  // run): nothing was sent.
  "WITHHELD",
  // No response (connection refused, reset, lost response).
  "NETWORK_ERROR",
  "TIMEOUT",
  // A response that does not match the schema, or is not JSON.
  "INVALID_RESPONSE",
  // 5xx.
  "SERVICE_UNAVAILABLE",
  // A status or code outside the contract.
  "UNEXPECTED_ERROR",
] as const;

export type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];
export type ContractErrorCode = (typeof CONTRACT_ERROR_CODES)[number];
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];
export type ShippingErrorCode = SpecErrorCode | ContractErrorCode | ClientErrorCode;

export type ShippingErrorField = ErrorField;

/** A failed call to the shipping service, in the app's one error shape (`source: "shipping"`). */
export interface ShippingError extends AppError<ShippingErrorCode> {
  readonly source: "shipping";
  readonly fields: ShippingErrorField[];
  /** The code exactly as the service sent it (null when no error body came back). */
  readonly serviceCode: string | null;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly retryable: boolean;
  /** True when the request may have taken effect although no answer was read. */
  readonly outcomeUnknown?: boolean;
  /** From Retry-After on 429. */
  readonly retryAfterMs?: number;
  /** The label record a 409 ALREADY_PURCHASED carries in its body (contract: "body also carries `label`"). */
  readonly conflictLabel?: unknown;
  /** Why a void was refused (409 NOT_VOIDABLE `error.reason`); absent when the service gave no known reason. */
  readonly voidRefusal?: NotVoidableReason;
}

const KNOWN_SERVICE_CODES: ReadonlySet<string> = new Set([...SPEC_ERROR_CODES, ...CONTRACT_ERROR_CODES]);

function isServiceCode(code: string): code is SpecErrorCode | ContractErrorCode {
  return KNOWN_SERVICE_CODES.has(code);
}

type Describe = {
  merchant: (fields: ShippingErrorField[], input: ShippingErrorInput) => string;
  fixable: boolean;
  retryable: boolean;
};

/** How a merchant reads each refusal of a void. */
const VOID_REFUSALS: Record<NotVoidableReason, string> = {
  draft: "This label was never bought, so there is nothing to void or refund.",
  scanned: "Void refused: the parcel was scanned. The carrier has it, so the label can no longer be refunded.",
  too_old: "This label was bought more than 30 days ago; the carrier no longer voids or refunds it.",
};

function listFields(fields: ShippingErrorField[]): string {
  return fields.length === 0 ? "" : ` (${fields.map((f) => `${f.path}: ${f.message}`).join("; ")})`;
}

const DESCRIPTIONS: Record<ShippingErrorCode, Describe> = {
  VALIDATION_FAILED: {
    merchant: (f) => `The shipping service rejected the label details${listFields(f)}. Correct them and try again.`,
    fixable: true,
    retryable: false,
  },
  VALIDATION_ERROR: {
    // The spec's code for parcel + parcels; the contract's for label options it cannot read.
    merchant: (f) =>
      f.some((field) => field.path.startsWith("options."))
        ? `Some shipping options are not valid${listFields(f)}. Correct them and try again.`
        : `The shipment was sent both as one box and as several boxes${listFields(f)}. Choose one and try again.`,
    fixable: true,
    retryable: false,
  },
  CUSTOMS_REQUIRED: {
    merchant: () => "This is an international shipment: add a customs declaration (description and value).",
    fixable: true,
    retryable: false,
  },
  TAX_ID_REQUIRED: {
    merchant: () =>
      "Shipments to Brazil and Italy need the recipient's tax id in the customs declaration (CPF/CNPJ for Brazil, codice fiscale/partita IVA for Italy).",
    fixable: true,
    retryable: false,
  },
  SERVICE_REQUIRED: {
    merchant: () => "No shipping service was chosen. Pick a rate or a carrier service and try again.",
    fixable: true,
    retryable: false,
  },
  RATE_EXPIRED: {
    // The service answers the same for options other than the rate's (contract.md): say both.
    merchant: () =>
      "The chosen rate has expired, or the options (insurance, signature, hazmat) changed since it was quoted. Get new rates and choose again.",
    fixable: true,
    retryable: false,
  },
  SERVICE_MISMATCH: {
    merchant: () =>
      "The service code belongs to a different carrier than the chosen rate. Remove the service code or choose a rate from that carrier.",
    fixable: true,
    retryable: false,
  },
  ADDRESS_BLOCKED: {
    merchant: () => "The shipping service does not deliver to this destination. The order cannot be shipped there.",
    fixable: false,
    retryable: false,
  },
  CARRIER_ACCOUNT_NOT_FOUND: {
    merchant: () =>
      "The carrier account chosen in Settings is not on this shipping API key. Pick another carrier account in Settings or check the API key.",
    fixable: true,
    retryable: false,
  },
  NO_ORGANIZATION: {
    merchant: () =>
      "The shipping API key is not attached to an organization. Attach it in your shipping account, or enter another key in Settings.",
    fixable: true,
    retryable: false,
  },
  PLAN_LIMIT_REACHED: {
    merchant: () =>
      "Your shipping plan's label allowance is used up. Upgrade the plan, or wait until the allowance renews.",
    fixable: true,
    retryable: false,
  },
  UNAUTHENTICATED: {
    merchant: () => "The shipping API key was refused. Enter a valid key in Settings.",
    fixable: true,
    retryable: false,
  },
  NOT_FOUND: {
    merchant: () => "The shipping service has no such label for this account. Create the label again.",
    fixable: false,
    retryable: false,
  },
  ALREADY_PURCHASED: {
    merchant: () => "This label was already purchased; it was not charged again.",
    fixable: false,
    retryable: false,
  },
  INSUFFICIENT_BALANCE: {
    merchant: () =>
      "Your shipping balance is too low to buy this label. Add funds to your shipping account and try again.",
    fixable: true,
    retryable: false,
  },
  EXPORT_DECLARATION_REQUIRED: {
    merchant: () =>
      "USPS needs an export declaration number (AES ITN) for shipments declared above 2,500 USD. File it and enter it as EEL/PFC in the customs declaration.",
    fixable: true,
    retryable: false,
  },
  RATE_LIMITED: {
    merchant: () => "The shipping service is busy. Wait a moment and try again.",
    fixable: false,
    retryable: true,
  },
  OPTION_NOT_SUPPORTED: {
    merchant: (f) =>
      `The chosen service does not offer an option you selected${listFields(f)}. Remove the option or choose another service.`,
    fixable: true,
    retryable: false,
  },
  NOT_VOIDABLE: {
    merchant: (_f, input) =>
      input.voidRefusal === undefined
        ? "The shipping service refused to void this label."
        : VOID_REFUSALS[input.voidRefusal],
    fixable: false,
    retryable: false,
  },
  INVALID_REQUEST: {
    merchant: (f) => `Some label details are missing or invalid${listFields(f)}. Correct them and try again.`,
    fixable: true,
    retryable: false,
  },
  WITHHELD: {
    merchant: () => "This request was not sent: it was cancelled before it left.",
    fixable: false,
    retryable: false,
  },
  NETWORK_ERROR: {
    merchant: () => "The shipping service could not be reached. Try again in a moment.",
    fixable: false,
    retryable: true,
  },
  TIMEOUT: {
    merchant: () => "The shipping service did not answer in time. Try again in a moment.",
    fixable: false,
    retryable: true,
  },
  INVALID_RESPONSE: {
    merchant: () =>
      "The shipping service sent an answer we could not read. Try again; if it persists, contact support.",
    fixable: false,
    retryable: false,
  },
  SERVICE_UNAVAILABLE: {
    merchant: () => "The shipping service is temporarily unavailable. Try again in a few minutes.",
    fixable: false,
    retryable: true,
  },
  UNEXPECTED_ERROR: {
    merchant: () => "The shipping service returned an unexpected error. Try again; if it persists, contact support.",
    fixable: false,
    retryable: false,
  },
};

export type ShippingErrorInput = {
  code: ShippingErrorCode;
  serviceCode?: string | null;
  status?: number | null;
  fields?: ShippingErrorField[];
  requestId?: string | null;
  logMessage: string;
  outcomeUnknown?: boolean;
  retryAfterMs?: number;
  conflictLabel?: unknown;
  voidRefusal?: NotVoidableReason;
};

export function createShippingError(input: ShippingErrorInput): ShippingError {
  const description = DESCRIPTIONS[input.code];
  const fields = input.fields ?? [];
  return {
    source: "shipping",
    code: input.code,
    serviceCode: input.serviceCode ?? null,
    status: input.status ?? null,
    fields,
    requestId: input.requestId ?? null,
    logMessage: input.logMessage,
    message: description.merchant(fields, input),
    fixable: description.fixable,
    retryable: description.retryable,
    ...(input.outcomeUnknown ? { outcomeUnknown: true } : {}),
    ...(input.retryAfterMs !== undefined ? { retryAfterMs: input.retryAfterMs } : {}),
    ...(input.conflictLabel !== undefined ? { conflictLabel: input.conflictLabel } : {}),
    ...(input.voidRefusal !== undefined ? { voidRefusal: input.voidRefusal } : {}),
  };
}

/** The same error with the outcome marked unknown: the request may have taken effect. */
export function withOutcomeUnknown(error: ShippingError, logMessage: string = error.logMessage): ShippingError {
  return { ...error, outcomeUnknown: true, logMessage };
}

/** Retry-After is seconds or an HTTP date; null when absent or unreadable. The one parser of it. */
export function parseRetryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (header == null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

// Status the contract gives each service code; a body whose code contradicts its status is
// still mapped by code (the code is the more specific signal), but the log says so.
const STATUS_BY_CODE: Record<SpecErrorCode | ContractErrorCode, number> = {
  VALIDATION_FAILED: 400,
  VALIDATION_ERROR: 400,
  CUSTOMS_REQUIRED: 400,
  TAX_ID_REQUIRED: 400,
  SERVICE_REQUIRED: 400,
  SERVICE_MISMATCH: 400,
  ADDRESS_BLOCKED: 400,
  CARRIER_ACCOUNT_NOT_FOUND: 400,
  NO_ORGANIZATION: 400,
  PLAN_LIMIT_REACHED: 403,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  ALREADY_PURCHASED: 409,
  INSUFFICIENT_BALANCE: 402,
  EXPORT_DECLARATION_REQUIRED: 400,
  RATE_LIMITED: 429,
  OPTION_NOT_SUPPORTED: 400,
  NOT_VOIDABLE: 409,
};

function codeForBareStatus(status: number): ShippingErrorCode {
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 404) return "NOT_FOUND";
  if (status === 429) return "RATE_LIMITED";
  if (status === 402) return "INSUFFICIENT_BALANCE";
  if (status >= 500) return "SERVICE_UNAVAILABLE";
  return "UNEXPECTED_ERROR";
}

export type HttpErrorContext = {
  operation: string;
  /** The request carried a rate_id, so SERVICE_REQUIRED means the rate expired or is unknown. */
  sentRateId?: boolean;
};

/** The one place where a non-2xx HTTP answer becomes a ShippingError. */
export function mapHttpError(
  status: number,
  body: unknown,
  headers: { requestId: string | null; retryAfter: string | null },
  context: HttpErrorContext,
): ShippingError {
  const parsed = ErrorBodySchema.safeParse(body);
  const requestId = (parsed.success ? parsed.data.request_id : undefined) ?? headers.requestId;
  const retryAfterMs = status === 429 ? (parseRetryAfterMs(headers.retryAfter) ?? undefined) : undefined;

  if (!parsed.success) {
    const code = codeForBareStatus(status);
    return createShippingError({
      code,
      status,
      requestId,
      retryAfterMs,
      logMessage: `${context.operation}: HTTP ${status} without a readable error body`,
    });
  }

  const serviceCode = parsed.data.error.code;
  const fields = (parsed.data.error.fields ?? []).map((f) => ({ path: f.field, message: f.message }));
  let code: ShippingErrorCode;
  if (isServiceCode(serviceCode)) {
    code = serviceCode === "SERVICE_REQUIRED" && context.sentRateId ? "RATE_EXPIRED" : serviceCode;
  } else {
    code = codeForBareStatus(status);
  }
  const expectedStatus = isServiceCode(serviceCode) ? STATUS_BY_CODE[serviceCode] : null;
  const statusNote = expectedStatus !== null && expectedStatus !== status ? ` (contract says ${expectedStatus})` : "";
  return createShippingError({
    code,
    serviceCode,
    status,
    fields,
    requestId,
    retryAfterMs,
    logMessage: `${context.operation}: HTTP ${status}${statusNote} ${serviceCode}: ${parsed.data.error.message}`,
    ...(code === "ALREADY_PURCHASED" && "label" in parsed.data ? { conflictLabel: parsed.data.label } : {}),
    ...(code === "NOT_VOIDABLE" ? readVoidRefusal(parsed.data.error.reason) : {}),
  });
}

/** `error.reason` of a 409 NOT_VOIDABLE, when it is one the contract names. */
function readVoidRefusal(reason: unknown): { voidRefusal?: NotVoidableReason } {
  const known = NOT_VOIDABLE_REASONS.find((r) => r === reason);
  return known === undefined ? {} : { voidRefusal: known };
}
