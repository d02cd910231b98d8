import { redirect as plainRedirect } from "react-router";

import type { AppError, ErrorField } from "~/utils/app-error";
import { reportError } from "~/utils/error-report.server";

// One mapping from an expected failure to an HTTP answer, so every route answers the same way:
// the merchant can fix it → 422 with the fields to look at; the shop has no usable shipping key →
// the Settings page; anything else is ours → logged under a reference the merchant can quote, 500.

export const SETTINGS_PATH = "/app/settings";

/** The body of every error answer. `reference` is set only for system problems (500). */
export type ErrorBody = {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly fields: readonly ErrorField[];
    readonly reference?: string;
  };
};

/** The shop must (re-)enter its shipping API key before the request can succeed. */
export function needsShippingSettings(error: Pick<AppError, "source" | "code">): boolean {
  return error.source === "settings" && (error.code === "API_KEY_MISSING" || error.code === "API_KEY_UNREADABLE");
}

export type RespondWithErrorOptions = {
  /**
   * The embedded-aware redirect from `authenticate.admin` (ShopContext.redirect): it keeps the
   * admin's shop, host and embedded parameters. Without it the redirect is a plain 302.
   */
  readonly redirect?: (url: string) => Response;
};

export function respondWithError(error: AppError, options: RespondWithErrorOptions = {}): Response {
  if (needsShippingSettings(error)) return (options.redirect ?? plainRedirect)(SETTINGS_PATH);
  if (error.fixable) {
    const body: ErrorBody = { error: { code: error.code, message: error.message, fields: error.fields } };
    return Response.json(body, { status: 422 });
  }
  const { reference, message } = reportError(error);
  const body: ErrorBody = { error: { code: error.code, message, fields: error.fields, reference } };
  return Response.json(body, { status: 500 });
}
