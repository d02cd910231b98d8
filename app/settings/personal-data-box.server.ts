import { createHmac, hkdfSync } from "node:crypto";

import { getEnv } from "~/env.server";

import { openSecret, sealSecret } from "./secret-box.server";

// The customer's ship-to details at rest (issue 40, item 8; docs/decisions/0028-ship-to-data-sealed-at-rest.md).
// A column that holds a name, an address, a phone or an e-mail stores one of:
// - sealed: `pd1:<iv>.<tag>.<ciphertext>` (base64), AES-256-GCM through the settings' secret box,
//   for what must be read back (the label request, a validation's answer, a data request's report);
// - digested: `pdh1:<HMAC-SHA256>` (base64url), for what is only compared (the ship-to key a
//   draft was made for, the address a validation answers): equal inputs give equal digests, so a
//   lookup or a unique index still works, and nothing can be read back.
// Both keys are derived from APP_ENCRYPTION_KEY (HKDF-SHA256, one `info` each), never stored: the
// shipping API keys keep the key itself, and no key opens another's data. Values written before
// sealing (no prefix) are read as they are, until the retention sweep seals them.

export const SEALED_PREFIX = "pd1:";
export const DIGEST_PREFIX = "pdh1:";

const SEAL_INFO = "ship-orders personal data seal v1";
const DIGEST_INFO = "ship-orders personal data digest v1";

type Keys = { sealHex: string; digest: Buffer };
const derived = new Map<string, Keys>();

function keysFor(appKeyHex: string): Keys {
  let keys = derived.get(appKeyHex);
  if (!keys) {
    // A malformed app key is refused at boot (env.server.ts); here it would only yield keys that
    // open nothing sealed with the right one.
    const ikm = Buffer.from(appKeyHex, "hex");
    const derive = (info: string) => Buffer.from(hkdfSync("sha256", ikm, Buffer.alloc(0), info, 32));
    keys = { sealHex: derive(SEAL_INFO).toString("hex"), digest: derive(DIGEST_INFO) };
    derived.set(appKeyHex, keys);
  }
  return keys;
}

const appKey = (key: string | undefined) => key ?? getEnv().APP_ENCRYPTION_KEY;

/** Whether a stored value is sealed by this box (else it is a legacy clear value, or null). */
export const isSealed = (stored: string | null): boolean => stored?.startsWith(SEALED_PREFIX) ?? false;

/** `plaintext` sealed for a column. Throws only on a broken invariant (the app key refused). */
export function sealPersonal(plaintext: string, key?: string): string {
  const sealed = sealSecret(plaintext, keysFor(appKey(key)).sealHex);
  if (!sealed.ok) throw new Error(sealed.error.logMessage);
  const { iv, authTag, ciphertext } = sealed.value;
  return `${SEALED_PREFIX}${iv}.${authTag}.${ciphertext}`;
}

/** `sealPersonal` for a nullable column. */
export const sealPersonalOrNull = (plaintext: string | null, key?: string): string | null =>
  plaintext === null ? null : sealPersonal(plaintext, key);

export type OpenedPersonal = { ok: true; value: string; legacy: boolean } | { ok: false };

/**
 * A stored value opened: sealed ones are decrypted (a tampered or foreign one is refused, never
 * turned into garbage); one without the prefix was written before sealing and is returned as is.
 */
export function openPersonal(stored: string, key?: string): OpenedPersonal {
  if (!stored.startsWith(SEALED_PREFIX)) return { ok: true, value: stored, legacy: true };
  const [iv, authTag, ciphertext, ...rest] = stored.slice(SEALED_PREFIX.length).split(".");
  if (iv === undefined || authTag === undefined || ciphertext === undefined || rest.length > 0) return { ok: false };
  const opened = openSecret({ iv, authTag, ciphertext, keyVersion: 1 }, keysFor(appKey(key)).sealHex);
  return opened.ok ? { ok: true, value: opened.value, legacy: false } : { ok: false };
}

/** `openPersonal` for a nullable column: null stays null, and so does a value that does not open. */
export function openPersonalOrNull(stored: string | null, key?: string): string | null {
  if (stored === null) return null;
  const opened = openPersonal(stored, key);
  return opened.ok ? opened.value : null;
}

/** A keyed digest of `value`: the same value always gives the same digest; nothing gives it back. */
export function digestPersonal(value: string, key?: string): string {
  const mac = createHmac("sha256", keysFor(appKey(key)).digest)
    .update(value, "utf8")
    .digest("base64url");
  return `${DIGEST_PREFIX}${mac}`;
}

/** Whether a stored digest (or a legacy clear value) is of `value`. */
export function matchesPersonal(stored: string, value: string, key?: string): boolean {
  return stored.startsWith(DIGEST_PREFIX) ? stored === digestPersonal(value, key) : stored === value;
}
