import { timingSafeEqual } from "node:crypto";

/**
 * Whether a signature a request carried is the one we computed, compared in constant time.
 * Lengths first: timingSafeEqual throws on unequal ones, and a length says nothing secret.
 */
export function signaturesMatch(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether `given` is exactly the canonical base64 (standard alphabet, padded, nothing around it)
 * of the signature we computed. Node's base64 decoder is lenient: it also reads base64url, a
 * missing padding, and stops at junk. Such a header names the right bytes but is not what the
 * sender writes, so it is refused: re-encoding what was decoded must give the header back.
 * That comparison involves only what the request carried, so it need not be constant-time.
 */
export function base64SignatureMatches(given: string, expected: Buffer): boolean {
  const decoded = Buffer.from(given, "base64");
  return decoded.toString("base64") === given && signaturesMatch(decoded, expected);
}
