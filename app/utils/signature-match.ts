import { timingSafeEqual } from "node:crypto";

/**
 * Whether a signature a request carried is the one we computed, compared in constant time.
 * Lengths first: timingSafeEqual throws on unequal ones, and a length says nothing secret.
 */
export function signaturesMatch(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}
