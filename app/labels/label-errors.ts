import type { ShippingError } from "~/shipping/errors";
import type { PreflightProblem } from "~/shipping/preflight";
import type { ShopifyError } from "~/shopify/admin-client";
import type { AppError, ErrorField } from "~/utils/app-error";

// Every expected failure of the label use cases, as one closed set in the app's one error
// shape. Routes answer them through the one error-to-response mapping; nothing here throws.

export type LabelErrorCode =
  | "PREFLIGHT_BLOCKED"
  | "NOT_FULFILLABLE"
  | "SHIPPING_ERROR"
  | "SHOPIFY_ERROR"
  | "NOT_FOUND"
  | "INVALID_STATE"
  | "PURCHASE_IN_PROGRESS"
  | "PURCHASE_OUTCOME_UNKNOWN"
  | "PACKAGE_COUNT_MISMATCH"
  // An earlier draft for this shipment may exist at the service unconfirmed: an automatic door
  // does not draft again (ADR 16, duplicate drafts).
  | "DRAFT_UNCONFIRMED"
  // A posted rate that is not the quote the server holds for it (price, date, options), or none.
  | "QUOTE_MISMATCH";

export interface LabelError extends AppError<LabelErrorCode> {
  readonly source: "labels";
  /** The preflight problems behind PREFLIGHT_BLOCKED (and package-count mismatches). */
  readonly problems?: PreflightProblem[];
  /** The failure behind SHIPPING_ERROR and PURCHASE_OUTCOME_UNKNOWN. */
  readonly shipping?: ShippingError;
  /** The failure behind SHOPIFY_ERROR. */
  readonly shopify?: ShopifyError;
  /** When an automatic door may try again (DRAFT_UNCONFIRMED). */
  readonly retryAt?: Date;
}

// Which codes the merchant can do something about by changing the label (422 on a route);
// the rest are states to wait out or system problems.
const FIXABLE: Record<LabelErrorCode, boolean> = {
  PREFLIGHT_BLOCKED: true,
  // On hold, cancelled or closed in Shopify, or sent elsewhere since: fixed in Shopify, not here.
  NOT_FULFILLABLE: true,
  PACKAGE_COUNT_MISMATCH: true,
  // The merchant drafts it from the order page.
  DRAFT_UNCONFIRMED: true,
  // Rates are quoted again and one chosen at its real price.
  QUOTE_MISMATCH: true,
  SHIPPING_ERROR: false,
  SHOPIFY_ERROR: false,
  NOT_FOUND: false,
  INVALID_STATE: false,
  PURCHASE_IN_PROGRESS: false,
  PURCHASE_OUTCOME_UNKNOWN: false,
};

function fieldsOf(problems: readonly PreflightProblem[] | undefined): ErrorField[] {
  return (problems ?? [])
    .filter((problem) => problem.severity === "blocking")
    .map((problem) => ({ path: problem.path, message: problem.message }));
}

export function labelError(
  code: LabelErrorCode,
  message: string,
  logMessage: string,
  extra: Pick<LabelError, "problems" | "shipping" | "shopify" | "retryAt"> = {},
): LabelError {
  return {
    source: "labels",
    code,
    message,
    logMessage,
    fields: extra.shipping?.fields ?? extra.shopify?.fields ?? fieldsOf(extra.problems),
    fixable: extra.shipping?.fixable ?? extra.shopify?.fixable ?? FIXABLE[code],
    ...extra,
  };
}

export function fromShippingError(operation: string, error: ShippingError): LabelError {
  return labelError("SHIPPING_ERROR", error.message, `${operation}: ${error.logMessage}`, { shipping: error });
}

export function fromShopifyError(operation: string, error: ShopifyError): LabelError {
  return labelError("SHOPIFY_ERROR", error.message, `${operation}: ${error.logMessage}`, { shopify: error });
}

export const labelNotFound = (operation: string, shop: string, labelId: string): LabelError =>
  labelError("NOT_FOUND", "This label no longer exists.", `${operation}: no label ${labelId} for ${shop}`);

/** A shipping failure a later attempt may not have; an answer lost after sending is read back then. */
export function isTransientShippingError(error: ShippingError): boolean {
  return error.retryable || Boolean(error.outcomeUnknown);
}

/**
 * A Shopify failure a later attempt may not have: userErrors are about the data and NOT_FOUND will
 * not appear by waiting; the rest (throttled, 5xx, network, an unreadable answer) is a bad minute.
 */
export function isTransientShopifyError(error: ShopifyError): boolean {
  return !error.fixable && error.code !== "NOT_FOUND";
}

/**
 * Shopify or the shipping service failed in a way a later attempt may not: the job retries (the
 * one rule, used by the job outcome mapping and by the use cases that hand a failure back to
 * their job).
 */
export function isTransientLabelError(error: LabelError): boolean {
  if (error.shipping) return isTransientShippingError(error.shipping);
  if (error.shopify) return isTransientShopifyError(error.shopify);
  // purchase() reports an answer lost and not yet read back (or its quiet period) as
  // PURCHASE_OUTCOME_UNKNOWN: the next attempt reads the label back, so it is for a retry; it may
  // well have been charged, and failing it would hide that.
  return error.code === "PURCHASE_IN_PROGRESS" || error.code === "PURCHASE_OUTCOME_UNKNOWN";
}
