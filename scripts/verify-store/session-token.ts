import { createHmac, timingSafeEqual } from "node:crypto";

// Reads a Shopify session token (the admin's HS256 JWT for the app) without trusting it: the
// script only uses it to say which user and shop a token names and whether it is still fresh.
// Shopify's token exchange is what really judges it.

export interface SessionTokenClaims {
  readonly sub: string | null;
  readonly dest: string | null;
  readonly aud: string | null;
  readonly exp: number | null;
}

export type ReadSessionToken =
  { ok: true; claims: SessionTokenClaims; signatureMatches: boolean | null } | { ok: false; reason: string };

const stringOrNull = (v: unknown) => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);

/** Decodes `token`; with `apiSecret`, also says whether the signature is the app's. */
export function readSessionToken(token: string, apiSecret?: string): ReadSessionToken {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "not a JWT (expected three dot-separated parts)" };
  const [header, payload, signature] = parts as [string, string, string];
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "its payload is not JSON" };
  }
  if (typeof raw !== "object" || raw === null) return { ok: false, reason: "its payload is not an object" };
  const claims = raw as Record<string, unknown>;
  let signatureMatches: boolean | null = null;
  if (apiSecret) {
    const expected = createHmac("sha256", apiSecret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, "base64url");
    signatureMatches = given.length === expected.length && timingSafeEqual(given, expected);
  }
  return {
    ok: true,
    signatureMatches,
    claims: {
      sub: stringOrNull(claims.sub),
      dest: stringOrNull(claims.dest),
      aud: stringOrNull(claims.aud),
      exp: typeof claims.exp === "number" ? claims.exp : null,
    },
  };
}

/** A token shown in output: enough to recognise, never enough to use. */
export const redact = (token: string) => (token.length <= 12 ? "…" : `${token.slice(0, 6)}…${token.slice(-4)}`);
