import { describe, expect, it, vi } from "vitest";

import type { AppError } from "~/utils/app-error";
import { createErrorReference } from "~/utils/error-report.server";

import { respondWithError } from "./error-response.server";

const invalidParcel: AppError = {
  source: "shipping",
  code: "VALIDATION_ERROR",
  message: "The parcel weight must be above zero.",
  logMessage: "POST /labels 422 parcels[0].weight: must be > 0",
  fields: [{ path: "parcels[0].weight", message: "must be above zero" }],
  fixable: true,
};

const shopifyDown: AppError = {
  source: "shopify",
  code: "NETWORK_ERROR",
  message: "We couldn't reach Shopify. Try again in a moment.",
  logMessage: "CreateFulfillment: fetch failed ECONNRESET (token shpat_secret)",
  fields: [],
  fixable: false,
};

const settingsError = (code: string, fixable = true): AppError => ({
  source: "settings",
  code,
  message: "Enter your shipping API key in Settings first.",
  logMessage: "no shipping API key for test-shop.myshopify.com",
  fields: [],
  fixable,
});

describe("respondWithError", () => {
  it("answers a problem the merchant can fix with 422, its code, message and fields", async () => {
    const response = respondWithError(invalidParcel);
    expect(response.status).toBe(422);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: {
        code: "VALIDATION_ERROR",
        message: "The parcel weight must be above zero.",
        fields: [{ path: "parcels[0].weight", message: "must be above zero" }],
      },
    });
  });

  it.each(["API_KEY_MISSING", "API_KEY_UNREADABLE"])(
    "sends a shop whose shipping key is %s to the Settings page",
    (code) => {
      const response = respondWithError(settingsError(code));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/app/settings");
    },
  );

  it("sends the shop to Settings through the embedded redirect it is given", () => {
    const embeddedRedirect = (url: string) =>
      new Response(null, { status: 302, headers: { Location: `${url}?embedded=1&shop=test-shop.myshopify.com` } });
    const response = respondWithError(settingsError("API_KEY_MISSING", false), { redirect: embeddedRedirect });
    expect(response.headers.get("Location")).toBe("/app/settings?embedded=1&shop=test-shop.myshopify.com");
  });

  it("answers other settings problems like any other error, without a redirect", async () => {
    const response = respondWithError(settingsError("INVALID_SETTINGS"));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: "INVALID_SETTINGS" } });
  });

  it("logs a system problem under a reference and answers 500 quoting that reference, never the log message", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = respondWithError(shopifyDown);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string; reference: string } };
    expect(body.error.reference).toMatch(/^ERR-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(body.error.code).toBe("NETWORK_ERROR");
    expect(body.error.message).toBe(
      `We couldn't reach Shopify. Try again in a moment. (Reference: ${body.error.reference})`,
    );
    expect(JSON.stringify(body)).not.toContain("shpat_secret");
    expect(error).toHaveBeenCalledTimes(1);
    // The log line carries the log message under the same reference, the token in it scrubbed.
    expect(error).toHaveBeenCalledWith(
      `shopify/NETWORK_ERROR: ${shopifyDown.logMessage.replace("shpat_secret", "[redacted]")} {"reference":"${body.error.reference}"}`,
    );
  });
});

describe("createErrorReference", () => {
  it("gives each problem its own reference", () => {
    const references = new Set(Array.from({ length: 200 }, () => createErrorReference()));
    expect(references.size).toBe(200);
  });
});
