import { createHmac } from "node:crypto";

import { signaturesMatch } from "~/utils/signature-match";

// The shipping service signs each event delivery (contract.md, "Events"):
//   Shipping-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// keyed with the endpoint's secret. The raw body is what was signed: it is verified before any
// parsing, and a `t` more than five minutes from our clock is refused as a replay.

export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export type SignatureFailure = "MISSING" | "MALFORMED" | "STALE" | "MISMATCH";

/**
 * Reads `t=…,v1=…` (several v1 values allowed, as during a secret rotation). `signedT` is `t` as
 * sent, which is what the signature covers: "0123" and "123" are different messages. A v1 that is
 * not exactly 64 hex digits (a SHA-256) is ignored: read as bytes, an odd trailing digit would be
 * dropped and a longer value could still pass.
 */
export function parseSignatureHeader(header: string | null): { t: number; signedT: string; v1: string[] } | null {
  if (!header) return null;
  let signedT: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (!key || value === undefined) continue;
    if (key === "t" && /^\d+$/.test(value)) signedT = value;
    if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return signedT === null || v1.length === 0 ? null : { t: Number(signedT), signedT, v1 };
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
  const matches = parsed.v1.some((candidate) => signaturesMatch(Buffer.from(candidate, "hex"), expected));
  return matches ? { ok: true } : { ok: false, reason: "MISMATCH" };
}
