import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

// What Shopify's admin and OAuth server do for an embedded app, for the demo's one app:
// - the admin signs session tokens (HS256 JWTs with the app's secret) for the app in its iframe;
// - token exchange swaps such a session token for an access token (POST /admin/oauth/access_token);
// - Admin GraphQL accepts only access tokens issued here.
// Claims and answers follow shopify.dev (session tokens, token exchange, expiring offline tokens).

export interface EmulatedApp {
  apiKey: string;
  apiSecret: string;
  scopes: string[];
}

export interface SessionTokenClaims {
  iss: string;
  dest: string;
  aud: string;
  sub: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  sid: string;
}

// The demo's staff member: the store owner.
export const DEMO_STAFF_USER_ID = "109640245";
const SESSION_TOKEN_LIFETIME_SECONDS = 60;
// Shopify's expiring offline tokens: one hour, the refresh token 90 days.
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const REFRESH_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;
const CLOCK_TOLERANCE_SECONDS = 10;

const base64url = (input: Buffer | string) => Buffer.from(input).toString("base64url");

export function signSessionToken(
  app: Pick<EmulatedApp, "apiKey" | "apiSecret">,
  shop: string,
  options: { now?: number; userId?: string; sessionId?: string; lifetimeSeconds?: number } = {},
): string {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const claims: SessionTokenClaims = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: app.apiKey,
    sub: options.userId ?? DEMO_STAFF_USER_ID,
    exp: now + (options.lifetimeSeconds ?? SESSION_TOKEN_LIFETIME_SECONDS),
    nbf: now,
    iat: now,
    jti: randomUUID(),
    sid: options.sessionId ?? randomBytes(16).toString("hex"),
  };
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac("sha256", app.apiSecret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

export type SessionTokenCheck = { ok: true; claims: SessionTokenClaims } | { ok: false; reason: string };

/** Verifies signature, algorithm, time window and audience, and that the token names `shop`. */
export function verifySessionToken(
  app: Pick<EmulatedApp, "apiKey" | "apiSecret">,
  token: string,
  shop: string,
  now: number = Date.now(),
): SessionTokenCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "not a JWT" };
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: Partial<SessionTokenClaims>;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<SessionTokenClaims>;
  } catch {
    return { ok: false, reason: "malformed JWT" };
  }
  if ((parsedHeader as { alg?: unknown }).alg !== "HS256") return { ok: false, reason: "algorithm is not HS256" };
  const expected = createHmac("sha256", app.apiSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "signature does not match the app secret" };
  }
  const seconds = Math.floor(now / 1000);
  if (typeof claims.exp !== "number" || claims.exp + CLOCK_TOLERANCE_SECONDS < seconds) {
    return { ok: false, reason: "expired" };
  }
  if (typeof claims.nbf !== "number" || claims.nbf - CLOCK_TOLERANCE_SECONDS > seconds) {
    return { ok: false, reason: "not yet valid" };
  }
  if (claims.aud !== app.apiKey) return { ok: false, reason: "audience is not this app" };
  if (claims.dest !== `https://${shop}`) return { ok: false, reason: "issued for another shop" };
  return { ok: true, claims: claims as SessionTokenClaims };
}

const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";

interface IssuedToken {
  expiresAt: number | null;
}

// Staff permissions, as the admin's "Users and permissions" names them, and the app scopes each
// lets an online access token keep. Shopify cuts an online token's `associated_user_scope` down to
// what the user may do; this is the slice of that mapping the app's scopes touch. A scope no
// permission lists is the owner's alone.
export const STAFF_PERMISSION_SCOPES = {
  orders: ["read_orders"],
  fulfill_and_ship_orders: [
    "read_merchant_managed_fulfillment_orders",
    "write_merchant_managed_fulfillment_orders",
    "write_fulfillments",
  ],
  products: ["read_products", "write_inventory"],
  locations: ["read_locations"],
  // "Return orders" (what returnRequest's docs call return_orders): approve and ship returns.
  return_orders: ["read_returns", "write_returns"],
} as const satisfies Record<string, readonly string[]>;
export type StaffPermission = keyof typeof STAFF_PERMISSION_SCOPES;

export interface EmulatedStaffMember {
  /** The user id session tokens carry as `sub`. */
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  accountOwner: boolean;
  collaborator?: boolean;
  /** Ignored for the account owner, who may do everything. */
  permissions: readonly StaffPermission[];
}

// The store owner, for every user not registered with setStaffMember (the demo's one staff member).
const OWNER_PROFILE = {
  first_name: "Dana",
  last_name: "Reyes",
  email: "owner@harborandpine.com",
  account_owner: true,
  locale: "en",
  collaborator: false,
  email_verified: true,
};

export interface OAuthServer {
  /** Answers POST /admin/oauth/access_token (JSON or form body), as Shopify does. */
  handleAccessTokenRequest(body: Record<string, string>): { status: number; body: Record<string, unknown> };
  /** True when `token` was issued here and has not expired. */
  isValidAccessToken(token: string | null): boolean;
  /**
   * Adds (or replaces) a staff member: online tokens for their id carry their profile and only the
   * app scopes their permissions allow. Unregistered ids act as the store owner.
   */
  setStaffMember(member: EmulatedStaffMember): void;
  /** Forgets issued tokens (staff members stay). */
  reset(): void;
}

/** The app scopes an online token keeps for `member` (all of them for the owner). */
export function scopesForStaffMember(appScopes: readonly string[], member: EmulatedStaffMember | undefined): string[] {
  if (!member || member.accountOwner) return [...appScopes];
  const allowed = new Set<string>(member.permissions.flatMap((p) => STAFF_PERMISSION_SCOPES[p]));
  return appScopes.filter((scope) => allowed.has(scope));
}

export function createOAuthServer(app: EmulatedApp, shop: string, now: () => number = Date.now): OAuthServer {
  const accessTokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, IssuedToken>();
  const staff = new Map<string, EmulatedStaffMember>();
  const error = (status: number, code: string, description: string) => ({
    status,
    body: { error: code, error_description: description },
  });

  const issue = (expiring: boolean): Record<string, unknown> => {
    const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
    const at = now();
    const scope = app.scopes.join(",");
    if (!expiring) {
      accessTokens.set(accessToken, { expiresAt: null });
      return { access_token: accessToken, scope };
    }
    const refreshToken = `shprt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(accessToken, { expiresAt: at + ACCESS_TOKEN_LIFETIME_SECONDS * 1000 });
    refreshTokens.set(refreshToken, { expiresAt: at + REFRESH_TOKEN_LIFETIME_SECONDS * 1000 });
    return {
      access_token: accessToken,
      scope,
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TOKEN_LIFETIME_SECONDS,
    };
  };

  return {
    handleAccessTokenRequest(body) {
      if (body.client_id !== app.apiKey || body.client_secret !== app.apiSecret) {
        return error(401, "invalid_client", "Client authentication failed: unknown client_id or wrong client_secret.");
      }
      if (body.grant_type === "refresh_token") {
        const refresh = refreshTokens.get(body.refresh_token ?? "");
        if (!refresh || (refresh.expiresAt !== null && refresh.expiresAt < now())) {
          return error(400, "invalid_grant", "The refresh token is invalid or expired.");
        }
        refreshTokens.delete(body.refresh_token ?? "");
        return { status: 200, body: issue(true) };
      }
      if (body.grant_type !== TOKEN_EXCHANGE_GRANT) {
        return error(400, "unsupported_grant_type", `The grant type ${body.grant_type ?? "(none)"} is not supported.`);
      }
      if (body.subject_token_type !== ID_TOKEN_TYPE) {
        return error(400, "invalid_request", "subject_token_type must be an id_token.");
      }
      const check = verifySessionToken(app, body.subject_token ?? "", shop, now());
      if (!check.ok) return error(400, "invalid_subject_token", `Invalid subject token: ${check.reason}.`);
      const requested = body.requested_token_type ?? OFFLINE_TOKEN_TYPE;
      if (requested === ONLINE_TOKEN_TYPE) {
        const accessToken = `shpua_${randomBytes(16).toString("hex")}`;
        accessTokens.set(accessToken, { expiresAt: now() + 24 * 3600 * 1000 });
        const member = staff.get(check.claims.sub);
        const profile = member
          ? {
              first_name: member.firstName,
              last_name: member.lastName,
              email: member.email,
              account_owner: member.accountOwner,
              locale: "en",
              collaborator: member.collaborator ?? false,
              email_verified: true,
            }
          : OWNER_PROFILE;
        return {
          status: 200,
          body: {
            access_token: accessToken,
            scope: app.scopes.join(","),
            expires_in: 86399,
            associated_user_scope: scopesForStaffMember(app.scopes, member).join(","),
            associated_user: { id: Number(check.claims.sub), ...profile },
          },
        };
      }
      if (requested !== OFFLINE_TOKEN_TYPE) {
        return error(400, "invalid_request", `Unknown requested_token_type ${requested}.`);
      }
      return { status: 200, body: issue(body.expiring === "1") };
    },
    isValidAccessToken(token) {
      const issued = token ? accessTokens.get(token) : undefined;
      return Boolean(issued && (issued.expiresAt === null || issued.expiresAt > now()));
    },
    setStaffMember(member) {
      staff.set(member.id, member);
    },
    reset() {
      accessTokens.clear();
      refreshTokens.clear();
    },
  };
}
