import { describe, expect, it } from "vitest";

import { TEST_ENV } from "../../test/setup/test-env";
import {
  digestPersonal,
  matchesPersonal,
  openPersonal,
  openPersonalOrNull,
  sealPersonal,
} from "./personal-data-box.server";
import { openSecret } from "./secret-box.server";

const SHIP_TO = JSON.stringify({
  to_address: { name: "Grace Buyer", street1: "500 W 56th St", phone: "+12125550100" },
});
const OTHER_KEY = "a1".repeat(32);

/** `sealed` with one base64 character of its part `index` (0 iv, 1 tag, 2 ciphertext) changed. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.slice("pd1:".length).split(".");
  const part = parts[index] ?? "";
  parts[index] = `${part[0] === "A" ? "B" : "A"}${part.slice(1)}`;
  return `pd1:${parts.join(".")}`;
}

describe("the personal-data box", () => {
  it("seals a ship-to so that it opens again, and nothing of it shows in the sealed form", () => {
    const sealed = sealPersonal(SHIP_TO);
    expect(sealed).toMatch(/^pd1:[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    for (const part of ["Grace", "Buyer", "56th", "2125550100"]) expect(sealed).not.toContain(part);
    expect(openPersonal(sealed)).toEqual({ ok: true, value: SHIP_TO, legacy: false });
    // A fresh IV each time: the same ship-to twice is two different ciphertexts.
    expect(sealPersonal(SHIP_TO)).not.toBe(sealed);
  });

  it("refuses a sealed value that was tampered with, cut short, or sealed under another app key", () => {
    const sealed = sealPersonal(SHIP_TO);
    for (const index of [0, 1, 2]) expect(openPersonal(tamper(sealed, index))).toEqual({ ok: false });
    expect(openPersonal(sealed.slice(0, sealed.lastIndexOf(".")))).toEqual({ ok: false });
    expect(openPersonal(`${sealed}.extra`)).toEqual({ ok: false });
    expect(openPersonal(sealPersonal(SHIP_TO, OTHER_KEY))).toEqual({ ok: false });
    expect(openPersonalOrNull(tamper(sealed, 2))).toBeNull();
  });

  it("reads a value stored before sealing (no prefix) as it is", () => {
    expect(openPersonal(SHIP_TO)).toEqual({ ok: true, value: SHIP_TO, legacy: true });
    expect(openPersonalOrNull(null)).toBeNull();
    expect(openPersonalOrNull(SHIP_TO)).toBe(SHIP_TO);
  });

  it("derives its key from the app's key without being it: the app key alone opens nothing sealed here", () => {
    const [iv, authTag, ciphertext] = sealPersonal(SHIP_TO).slice(4).split(".");
    const withAppKey = openSecret(
      { iv: iv ?? "", authTag: authTag ?? "", ciphertext: ciphertext ?? "", keyVersion: 1 },
      TEST_ENV.APP_ENCRYPTION_KEY,
    );
    expect(withAppKey.ok).toBe(false);
  });

  it("digests a value the same way each time, under the app's key, and matches digests and older clear values", () => {
    const key = JSON.stringify(["500 w 56th st", "apt 2b", "new york", "ny", "10019", "us"]);
    const digest = digestPersonal(key);
    expect(digest).toMatch(/^pdh1:[A-Za-z0-9_-]{43}$/);
    expect(digestPersonal(key)).toBe(digest);
    expect(digest).not.toContain("56th");
    expect(digestPersonal(key, OTHER_KEY)).not.toBe(digest);
    expect(matchesPersonal(digest, key)).toBe(true);
    expect(matchesPersonal(digest, key.replace("10019", "10020"))).toBe(false);
    // A ship-to key stored before ADR 28 is compared as it is.
    expect(matchesPersonal(key, key)).toBe(true);
    expect(matchesPersonal(key, key.replace("10019", "10020"))).toBe(false);
  });
});
