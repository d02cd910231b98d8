import type { ExtensionErrorBody, ExtensionErrorCode } from "~/extension-api/contract";
import type { LabelError } from "~/labels/label-errors";
import { logFor } from "~/logger.server";
import { authenticate } from "~/shopify.server";
import type { AppError } from "~/utils/app-error";
import { createErrorReference, reportError } from "~/utils/error-report.server";

import { type ShopContext, shopContextFrom } from "./shop-context.server";
import type { SpendingRefusal } from "./spending-permission.server";

// The app's API for its admin UI extensions (app/routes/api.extensions.*). An extension runs on
// Shopify's extensions origin and calls the app cross-origin with the admin's session token as a
// bearer: every answer (errors, 401s and the preflight OPTIONS included) carries CORS headers, or
// the browser hands the extension a bare network error instead of our message.

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Expose-Headers":
    "X-Shopify-API-Request-Failure-Reauthorize-Url, X-Shopify-Retry-Invalid-Session-Request",
};

export function withExtensionCors(response: Response): Response {
  // A redirect or a fetch-built Response may have immutable headers: copy when needed.
  let answer = response;
  try {
    for (const [name, value] of Object.entries(CORS_HEADERS)) answer.headers.set(name, value);
  } catch {
    answer = new Response(response.body, response);
    for (const [name, value] of Object.entries(CORS_HEADERS)) answer.headers.set(name, value);
  }
  return answer;
}

export function extensionError(
  status: number,
  code: ExtensionErrorCode,
  message: string,
  extra: Omit<ExtensionErrorBody, "error"> & { fields?: { path: string; message: string }[] } = {},
): Response {
  const { fields, ...rest } = extra;
  const body: ExtensionErrorBody = { error: { code, message, ...(fields ? { fields } : {}) }, ...rest };
  return Response.json(body, { status });
}

/** A request body or query that does not fit: 400 naming the field. */
export function refuseRequest(path: string, message: string): Response {
  return extensionError(400, "INVALID_REQUEST", message, { fields: [{ path, message }] });
}

/** Who-may-spend's refusal (ADR 13) in the extensions' error body; a stale token is retried by App Bridge. */
export function answerSpendingRefusal(refusal: SpendingRefusal): Response {
  const code =
    refusal.code === "SESSION_EXPIRED"
      ? "NOT_AUTHENTICATED"
      : refusal.code === "NOT_ALLOWED"
        ? "NOT_ALLOWED"
        : "SHOPIFY_UNAVAILABLE";
  const response = extensionError(refusal.status, code, refusal.message);
  if (refusal.status === 401) response.headers.set("X-Shopify-Retry-Invalid-Session-Request", "1");
  return response;
}

/** A label use case's failure, in the extensions' error body. */
export function answerLabelError(error: LabelError | AppError): Response {
  if (error.source === "settings") {
    return extensionError(
      422,
      "SETUP_REQUIRED",
      "Add your shipping API key in the app's Settings before buying labels.",
    );
  }
  switch (error.code) {
    case "PREFLIGHT_BLOCKED":
    case "NOT_FULFILLABLE":
    case "PACKAGE_COUNT_MISMATCH": {
      const problems = ("problems" in error ? (error.problems ?? []) : [])
        .filter((p) => p.severity === "blocking")
        .map((p) => ({ path: p.path, message: p.message, fix: p.suggestion ?? null }));
      return extensionError(422, "PREFLIGHT_BLOCKED", error.message, { problems, fields: [...error.fields] });
    }
    case "NOT_FOUND":
      return extensionError(404, "NOT_FOUND", error.message);
    case "INVALID_STATE":
    case "PURCHASE_IN_PROGRESS":
    case "PURCHASE_OUTCOME_UNKNOWN":
      return extensionError(409, "IN_PROGRESS", error.message);
    case "SHIPPING_ERROR":
      if (error.fixable) return extensionError(422, "SHIPPING_REFUSED", error.message, { fields: [...error.fields] });
      return extensionError(502, "SERVICE_UNAVAILABLE", reportError(error).message);
    case "SHOPIFY_ERROR":
      return extensionError(502, "SHOPIFY_UNAVAILABLE", reportError(error).message);
    default:
      return extensionError(500, "SERVICE_UNAVAILABLE", reportError(error).message);
  }
}

/**
 * Runs an extension API handler for the shop behind the bearer token. OPTIONS (the browser's
 * preflight) is answered 204 before any token is read; a request without a bearer token is 401
 * (an extension always sends one; without it the library would redirect to a login page); a bad
 * token is the library's 401 with its retry header. Thrown Responses get CORS headers too.
 */
export async function handleExtensionRequest(
  request: Request,
  handle: (context: ShopContext) => Promise<Response>,
): Promise<Response> {
  try {
    const bearer = /^Bearer\s+\S+/i.test(request.headers.get("Authorization") ?? "");
    if (request.method !== "OPTIONS" && !bearer) {
      return withExtensionCors(
        extensionError(401, "NOT_AUTHENTICATED", "Sign in to Shopify's admin again, then reopen this window."),
      );
    }
    const context = shopContextFrom(await authenticate.admin(request));
    return withExtensionCors(await handle(context));
  } catch (thrown) {
    if (thrown instanceof Response) return withExtensionCors(thrown);
    // Anything else is ours: logged with a reference, and still answered with CORS headers, or the
    // extension would see a bare network error and could not tell the merchant what happened.
    const reference = createErrorReference();
    logFor({ reference }).error(
      { err: thrown },
      `extension API ${request.method} ${new URL(request.url).pathname} failed`,
    );
    return withExtensionCors(
      extensionError(
        500,
        "SERVICE_UNAVAILABLE",
        `Something went wrong on our side. Check the order in the app before trying again. (Reference: ${reference})`,
      ),
    );
  }
}

/** A route that only takes POST still answers the preflight from its loader: GET is 405. */
export function methodNotAllowed(allowed: string): Response {
  return new Response(null, { status: 405, headers: { Allow: `${allowed}, OPTIONS` } });
}
