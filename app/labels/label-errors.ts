import type { ShippingError } from "~/shipping/errors";
import type { PreflightProblem } from "~/shipping/preflight";
import type { ShopifyError } from "~/shopify/admin-client";

// Every expected failure of the label use cases, as one closed set with a merchant message and
// a log message. Routes map `code` to a response; nothing here throws for these.

export type LabelErrorCode =
  | "PREFLIGHT_BLOCKED"
  | "SHIPPING_ERROR"
  | "SHOPIFY_ERROR"
  | "NOT_FOUND"
  | "INVALID_STATE"
  | "PURCHASE_IN_PROGRESS"
  | "PURCHASE_OUTCOME_UNKNOWN"
  | "PACKAGE_COUNT_MISMATCH";

export type LabelError = {
  code: LabelErrorCode;
  message: string;
  logMessage: string;
  problems?: PreflightProblem[];
  shipping?: ShippingError;
  shopify?: ShopifyError;
};

export function labelError(
  code: LabelErrorCode,
  message: string,
  logMessage: string,
  extra: Partial<LabelError> = {},
): LabelError {
  return { code, message, logMessage, ...extra };
}

export function fromShippingError(operation: string, error: ShippingError): LabelError {
  return labelError("SHIPPING_ERROR", error.message, `${operation}: ${error.logMessage}`, { shipping: error });
}

export function fromShopifyError(operation: string, error: ShopifyError): LabelError {
  return labelError("SHOPIFY_ERROR", error.message, `${operation}: ${error.logMessage}`, { shopify: error });
}
