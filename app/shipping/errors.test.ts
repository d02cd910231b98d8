import { describe, expect, it } from "vitest";

import { CONTRACT_ERROR_CODES, mapHttpError, parseRetryAfterMs, SPEC_ERROR_CODES } from "./errors";

const STATUS: Record<string, number> = {
  PLAN_LIMIT_REACHED: 403,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  ALREADY_PURCHASED: 409,
  INSUFFICIENT_BALANCE: 402,
  RATE_LIMITED: 429,
  NOT_VOIDABLE: 409,
};

function body(code: string) {
  return {
    error: { code, message: `${code} happened`, fields: [{ field: "customs.tax_id", message: "is required" }] },
    request_id: "req_1",
  };
}

describe("mapping HTTP errors", () => {
  it.each([...SPEC_ERROR_CODES, ...CONTRACT_ERROR_CODES])(
    "maps %s to its own code with status, fields, request id and both messages",
    (code) => {
      const status = STATUS[code] ?? 400;
      const error = mapHttpError(
        status,
        body(code),
        { requestId: "req_header", retryAfter: null },
        { operation: "test" },
      );
      expect(error).toMatchObject({
        code,
        serviceCode: code,
        status,
        requestId: "req_1",
        fields: [{ path: "customs.tax_id" }],
      });
      expect(error.logMessage).toContain(code);
      expect(error.message.length).toBeGreaterThan(20);
    },
  );
  it("splits SERVICE_REQUIRED answered to a rate_id off as RATE_EXPIRED", () => {
    const error = mapHttpError(
      400,
      body("SERVICE_REQUIRED"),
      { requestId: null, retryAfter: null },
      { operation: "test", sentRateId: true },
    );
    expect(error).toMatchObject({ code: "RATE_EXPIRED", serviceCode: "SERVICE_REQUIRED" });
    expect(error.message).toMatch(/new rates/i);
  });
  it("falls back to the status and the X-Request-Id header when the body is unreadable", () => {
    expect(mapHttpError(502, "<html>", { requestId: "req_h", retryAfter: null }, { operation: "t" })).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      requestId: "req_h",
      serviceCode: null,
    });
    expect(mapHttpError(401, null, { requestId: null, retryAfter: null }, { operation: "t" }).code).toBe(
      "UNAUTHENTICATED",
    );
    expect(mapHttpError(418, null, { requestId: null, retryAfter: null }, { operation: "t" }).code).toBe(
      "UNEXPECTED_ERROR",
    );
  });
  it("maps a code outside the contract by its status", () => {
    expect(
      mapHttpError(503, body("SERVICE_UNAVAILABLE"), { requestId: null, retryAfter: null }, { operation: "t" }),
    ).toMatchObject({ code: "SERVICE_UNAVAILABLE", serviceCode: "SERVICE_UNAVAILABLE" });
  });
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfterMs("3")).toBe(3000);
    expect(parseRetryAfterMs("Sun, 22 Nov 2026 00:00:10 GMT", Date.parse("2026-11-22T00:00:00Z"))).toBe(10_000);
    expect(parseRetryAfterMs(null)).toBeNull();
  });
});

describe("mapping the void and options errors", () => {
  const map = (status: number, error: Record<string, unknown>) =>
    mapHttpError(status, { error, request_id: "req_1" }, { requestId: null, retryAfter: null }, { operation: "test" });

  it("keeps a NOT_VOIDABLE reason the contract names, and words an unknown one generically", () => {
    expect(map(409, { code: "NOT_VOIDABLE", message: "no", reason: "too_old" })).toMatchObject({
      code: "NOT_VOIDABLE",
      voidRefusal: "too_old",
      message: "This label was bought more than 30 days ago; the carrier no longer voids or refunds it.",
    });
    const unknown = map(409, { code: "NOT_VOIDABLE", message: "no", reason: "manifested" });
    expect(unknown.voidRefusal).toBeUndefined();
    expect(unknown.message).toBe("The shipping service refused to void this label.");
  });

  it("words VALIDATION_ERROR on options as an options problem, and on parcels as before", () => {
    const options = map(400, {
      code: "VALIDATION_ERROR",
      message: "bad",
      fields: [{ field: "options.signature", message: "must be one of standard, adult" }],
    });
    expect(options.message).toBe(
      "Some shipping options are not valid (options.signature: must be one of standard, adult). Correct them and try again.",
    );
    const parcels = map(400, {
      code: "VALIDATION_ERROR",
      message: "bad",
      fields: [{ field: "parcel", message: "both" }],
    });
    expect(parcels.message).toMatch(/^The shipment was sent both as one box and as several boxes/);
  });
});
