import { createHmac } from "node:crypto";

import { signaturesMatch } from "~/utils/signature-match";

// The shipping service signs each event delivery (contract.md, "Events"):
//   Shipping-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// keyed with the endpoint's secret. The raw body is what was signed: it is verified before any
// parsing, and a `t` more than five minutes from our clock is refused as a replay.

export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export type SignatureFailure = "MISSING" | "MALFORMED" | "STALE" | "MISMATCH";

// Exactly as contract.md writes it: `t=`, decimal seconds, a comma, `v1=`, 64 lowercase hex digits
// (a SHA-256), nothing else: no spaces, no other parts, no second v1, nothing after either value.
// The service signs with one secret (a rotation leaves old-secret events to fail, ADR 9).
const SIGNATURE_HEADER = /^t=(\d+),v1=([0-9a-f]{64})$/;

/**
 * Reads the header, or null when it is not exactly the contract's form. `signedT` is `t` as sent,
 * which is what the signature covers: "0123" and "123" are different messages.
 */
export function parseSignatureHeader(header: string | null): { t: number; signedT: string; v1: string } | null {
  const match = header ? SIGNATURE_HEADER.exec(header) : null;
  const [, signedT, v1] = match ?? [];
  return signedT === undefined || v1 === undefined ? null : { t: Number(signedT), signedT, v1 };
}

/** The hex signature of `"<t>.<raw body>"`; pass `t` as the text that goes in the header. */
export function signShippingEvent(secret: string, rawBody: string, t: number | string): string {
  return createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest("hex");
}

export function verifyShippingSignature(input: {
  header: string | null;
  rawBody: string;
  secret: string;
  nowMs: number;
  toleranceMs?: number;
}): { ok: true } | { ok: false; reason: SignatureFailure } {
  if (!input.header) return { ok: false, reason: "MISSING" };
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return { ok: false, reason: "MALFORMED" };
  if (Math.abs(input.nowMs - parsed.t * 1000) > (input.toleranceMs ?? SIGNATURE_TOLERANCE_MS)) {
    return { ok: false, reason: "STALE" };
  }
  const expected = Buffer.from(signShippingEvent(input.secret, input.rawBody, parsed.signedT), "hex");
  return signaturesMatch(Buffer.from(parsed.v1, "hex"), expected) ? { ok: true } : { ok: false, reason: "MISMATCH" };
}
