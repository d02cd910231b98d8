import { z } from "zod";

import { getEnv } from "~/env.server";
import { logFor } from "~/logger.server";
import type { AppError } from "~/utils/app-error";
import { reportError } from "~/utils/error-report.server";

// Who may spend (docs/decisions/0013-who-may-spend.md). Buying a label commits the shop's money
// and ends in a Shopify fulfillment, so it is done only for a staff member Shopify itself lets
// fulfil orders. Shopify says so in the online access token it issues for that staff member: its
// `associated_user_scope` is the app's scopes cut down to what the user's permissions allow, and a
// staff member without "Fulfill and ship orders" gets no fulfillment-order write scope. The app
// keeps acting with its offline token; the online token is only asked for, read and dropped,
// at the moment of a purchase (never stored, never logged).

/** What the staff member's own Shopify permissions must grant for the app to buy in their name. */
export const SPENDING_SCOPES = ["write_merchant_managed_fulfillment_orders"] as const;

const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const EXCHANGE_TIMEOUT_MS = 10_000;

const OnlineTokenSchema = z.object({
  associated_user_scope: z.string(),
  associated_user: z.object({
    id: z.union([z.number(), z.string()]).transform(String),
    account_owner: z.boolean().optional(),
  }),
});

export type SpendingRefusalCode = "NOT_ALLOWED" | "SESSION_EXPIRED" | "STAFF_CHECK_UNAVAILABLE";

export type SpendingRefusal = {
  readonly code: SpendingRefusalCode;
  readonly status: 401 | 403 | 503;
  /** For the merchant: what happened, that nothing was bought, and what to do. */
  readonly message: string;
};

export type SpendingCheck = { ok: true; staffMemberId: string } | { ok: false; refusal: SpendingRefusal };

/**
 * A staff action the app does with its offline token only for someone Shopify lets do it: the app
 * scopes their online token must keep, and what each refusal says (the action's own words).
 */
export type StaffRule = {
  readonly scopes: readonly string[];
  readonly notAllowed: string;
  readonly unknownStaff: string;
  readonly expired: string;
  readonly unavailable: string;
};

/** Buying or voiding a label: someone who may fulfil orders (ADR 13). */
export const SPENDING_RULE: StaffRule = {
  scopes: SPENDING_SCOPES,
  notAllowed:
    'Your Shopify account is not allowed to fulfill orders, so it cannot buy shipping labels. Nothing was bought. Ask the store owner to give you the "Fulfill and ship orders" permission.',
  unknownStaff:
    "Shopify did not say which staff member is signed in, so nothing was bought. Reload the page and try again.",
  expired: "Your session expired. Nothing was bought; try again.",
  unavailable: "We could not confirm with Shopify that you may buy labels. Nothing was bought; try again in a moment.",
};

/** "Save to product": writing an HS code or origin to a product's inventory item, as the admin's "Products" permission allows. */
export const PRODUCT_EDITING_RULE: StaffRule = {
  scopes: ["write_inventory"],
  notAllowed:
    'Your Shopify account is not allowed to edit products, so this was not saved to the product (the label uses it). Ask the store owner for the "Products" permission, or fix it in Shopify.',
  unknownStaff: "Shopify did not say which staff member is signed in, so nothing was saved to the product.",
  expired:
    "Your session expired, so nothing was saved to the product. Edit the draft and choose a rate again to save it.",
  unavailable: "We could not confirm with Shopify that you may edit products, so nothing was saved to the product.",
};

const refuse = (code: SpendingRefusalCode, status: SpendingRefusal["status"], message: string): SpendingCheck => ({
  ok: false,
  refusal: { code, status, message },
});

/** The session token a request carries: App Bridge's bearer header, or a page load's `id_token`. */
function sessionTokenOf(request: Request): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
  return bearer ?? new URL(request.url).searchParams.get("id_token");
}

function unavailable(rule: StaffRule, logMessage: string): SpendingCheck {
  const error: AppError = {
    source: "shopify",
    code: "STAFF_CHECK_UNAVAILABLE",
    message: rule.unavailable,
    logMessage,
    fields: [],
    fixable: false,
  };
  // Shopify's outage, not ours: a warning with a reference the merchant can quote.
  const { message } = reportError(error, { level: "warn" });
  return refuse("STAFF_CHECK_UNAVAILABLE", 503, message);
}

/**
 * Asks Shopify whether the staff member behind an authenticated request may buy labels: an
 * online access token is exchanged for the request's session token, and its user and scopes
 * are read. Fails closed: a token that names no staff member, a user Shopify names differently,
 * or an answer we cannot read never spends. Call it only after `authenticate.admin` accepted the
 * request (the session token is then known to be genuine, current and for this shop).
 */
export function checkSpendingPermission(
  request: Request,
  context: { readonly shop: string; readonly staffMemberId: string | null },
  fetchImpl?: typeof fetch,
): Promise<SpendingCheck> {
  return checkStaffPermission(request, context, SPENDING_RULE, fetchImpl);
}

/** The same question for any staff rule: does Shopify let the signed-in staff member do it? */
export async function checkStaffPermission(
  request: Request,
  context: { readonly shop: string; readonly staffMemberId: string | null },
  rule: StaffRule,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<SpendingCheck> {
  const sessionToken = sessionTokenOf(request);
  if (!context.staffMemberId || !sessionToken) return refuse("NOT_ALLOWED", 403, rule.unknownStaff);
  const env = getEnv();
  let response: Response;
  try {
    response = await fetchImpl(`https://${context.shop}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        client_id: env.SHOPIFY_API_KEY,
        client_secret: env.SHOPIFY_API_SECRET,
        grant_type: TOKEN_EXCHANGE_GRANT,
        subject_token: sessionToken,
        subject_token_type: ID_TOKEN_TYPE,
        requested_token_type: ONLINE_TOKEN_TYPE,
      }),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
  } catch (error) {
    return unavailable(
      rule,
      `online token exchange for ${context.shop}: ${error instanceof Error ? error.name : "failed"}`,
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 400 && (body as { error?: unknown } | null)?.error === "invalid_subject_token") {
    // The session token expired since authenticate.admin read it: App Bridge retries with a new one.
    return refuse("SESSION_EXPIRED", 401, rule.expired);
  }
  if (!response.ok) return unavailable(rule, `online token exchange for ${context.shop}: HTTP ${response.status}`);
  const parsed = OnlineTokenSchema.safeParse(body);
  if (!parsed.success) {
    return unavailable(rule, `online token exchange for ${context.shop}: not an online access token`);
  }
  const { associated_user: user, associated_user_scope: scope } = parsed.data;
  if (user.id !== context.staffMemberId) {
    logFor({ shop: context.shop }).warn(
      `online token exchange for ${context.shop}: Shopify names user ${user.id}, the session token ${context.staffMemberId}`,
    );
    return refuse("NOT_ALLOWED", 403, rule.unknownStaff);
  }
  const granted = new Set(scope.split(",").map((s) => s.trim()));
  if (!rule.scopes.every((needed) => granted.has(needed))) return refuse("NOT_ALLOWED", 403, rule.notAllowed);
  return { ok: true, staffMemberId: user.id };
}

/** The refusal as the app's own screens read errors (`ErrorBody`). */
export function respondToSpendingRefusal(refusal: SpendingRefusal): Response {
  return Response.json(
    { error: { code: refusal.code, message: refusal.message, fields: [] } },
    {
      status: refusal.status,
      headers: refusal.status === 401 ? { "X-Shopify-Retry-Invalid-Session-Request": "1" } : undefined,
    },
  );
}
