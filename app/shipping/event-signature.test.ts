import { describe, expect, it } from "vitest";

import { signShippingEvent, verifyShippingSignature } from "./event-signature";

const SECRET = "whsec_test";
const BODY = JSON.stringify({ id: "evt_1", type: "label.purchased" });
const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);
const t = Math.floor(NOW / 1000);
const header = (secret = SECRET, body = BODY, at = t) => `t=${at},v1=${signShippingEvent(secret, body, at)}`;

describe("verifyShippingSignature", () => {
  it("accepts the service's signature over t.body", () => {
    expect(verifyShippingSignature({ header: header(), rawBody: BODY, secret: SECRET, nowMs: NOW })).toEqual({
      ok: true,
    });
  });

  it("refuses another secret, a tampered body, a missing or malformed header", () => {
    const verify = (h: string | null, body = BODY) =>
      verifyShippingSignature({ header: h, rawBody: body, secret: SECRET, nowMs: NOW });
    expect(verify(header("whsec_other"))).toEqual({ ok: false, reason: "MISMATCH" });
    expect(verify(header(), BODY.replace("evt_1", "evt_2"))).toEqual({ ok: false, reason: "MISMATCH" });
    expect(verify(null)).toEqual({ ok: false, reason: "MISSING" });
    expect(verify("v1=abc")).toEqual({ ok: false, reason: "MALFORMED" });
    // The signature of another time does not pass for this one.
    expect(verify(`t=${t + 1},v1=${signShippingEvent(SECRET, BODY, t)}`)).toEqual({ ok: false, reason: "MISMATCH" });
  });

  it("refuses a timestamp more than five minutes from our clock, either way", () => {
    const at = (offsetS: number) =>
      verifyShippingSignature({ header: header(SECRET, BODY, t + offsetS), rawBody: BODY, secret: SECRET, nowMs: NOW });
    expect(at(-299)).toEqual({ ok: true });
    expect(at(-301)).toEqual({ ok: false, reason: "STALE" });
    expect(at(301)).toEqual({ ok: false, reason: "STALE" });
  });

  it("refuses the right signature written in any form but the contract's t=<seconds>,v1=<hex>", () => {
    const right = signShippingEvent(SECRET, BODY, t);
    const verify = (h: string) => verifyShippingSignature({ header: h, rawBody: BODY, secret: SECRET, nowMs: NOW });
    expect(verify(`t=${t},v1=${right}`)).toEqual({ ok: true });
    for (const sloppy of [
      `t=${t}=junk,v1=${right}`,
      `t=${t},v1=${right}=junk`,
      `t=${t},v1=${right},`,
      `,t=${t},v1=${right}`,
      `t=${t}, v1=${right}`,
      `v1=${right},t=${t}`,
      `t=${t},v0=abc,v1=${right}`,
      `t=${t},v1=${signShippingEvent("whsec_old", BODY, t)},v1=${right}`,
      `t=${t},v1=${right.toUpperCase()}`,
      `T=${t},V1=${right}`,
    ]) {
      expect(verify(sloppy), sloppy).toEqual({ ok: false, reason: "MALFORMED" });
    }
  });

  it("refuses a v1 that is not exactly 64 hex digits, even when its first 64 are the right signature", () => {
    const right = signShippingEvent(SECRET, BODY, t);
    const verify = (v1: string) =>
      verifyShippingSignature({ header: `t=${t},v1=${v1}`, rawBody: BODY, secret: SECRET, nowMs: NOW });
    // An odd trailing digit would be dropped when read as bytes, leaving the right signature.
    expect(verify(`${right}0`)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(verify(`${right}00`)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(verify(right.slice(0, 63))).toEqual({ ok: false, reason: "MALFORMED" });
  });

  it("checks the signature over t exactly as sent, leading zeros included", () => {
    const padded = `0${t}`;
    const verify = (v1: string) =>
      verifyShippingSignature({ header: `t=${padded},v1=${v1}`, rawBody: BODY, secret: SECRET, nowMs: NOW });
    expect(verify(signShippingEvent(SECRET, BODY, padded))).toEqual({ ok: true });
    // Signing the number instead of the text sent is another message.
    expect(verify(signShippingEvent(SECRET, BODY, t))).toEqual({ ok: false, reason: "MISMATCH" });
  });
});
