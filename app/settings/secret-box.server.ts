import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

import { err, ok, type Result } from "~/utils/result";

// AES-256-GCM for secrets at rest (shipping API keys). A fresh 12-byte IV per encryption; the
// auth tag makes a tampered or wrongly keyed ciphertext fail instead of decrypting to garbage.
// Neither the key nor the plaintext is ever logged or put in an error message.

export const SECRET_KEY_VERSION = 1;

export type SealedSecret = { ciphertext: string; iv: string; authTag: string; keyVersion: number };

export type SecretBoxError = { code: "DECRYPT_FAILED" | "BAD_KEY"; logMessage: string };

function keyBytes(hexKey: string): Result<Buffer, SecretBoxError> {
  if (!/^[0-9a-fA-F]{64}$/.test(hexKey)) {
    return err({ code: "BAD_KEY", logMessage: "APP_ENCRYPTION_KEY must be 64 hex characters (32 bytes)" });
  }
  return ok(Buffer.from(hexKey, "hex"));
}

export function sealSecret(plaintext: string, hexKey: string): Result<SealedSecret, SecretBoxError> {
  const key = keyBytes(hexKey);
  if (!key.ok) return key;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.value, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ok({
    ciphertext: ciphertext.toString("base64"),
    iv: iv.toString("base64"),
    authTag: cipher.getAuthTag().toString("base64"),
    keyVersion: SECRET_KEY_VERSION,
  });
}

export function openSecret(sealed: SealedSecret, hexKey: string): Result<string, SecretBoxError> {
  const key = keyBytes(hexKey);
  if (!key.ok) return key;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.value, Buffer.from(sealed.iv, "base64"));
    decipher.setAuthTag(Buffer.from(sealed.authTag, "base64"));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]);
    return ok(plaintext.toString("utf8"));
  } catch {
    // The cause says nothing useful and could echo input; the message is enough to act on.
    return err({
      code: "DECRYPT_FAILED",
      logMessage: "stored secret could not be decrypted (wrong APP_ENCRYPTION_KEY or tampered data)",
    });
  }
}
