import { describe, expect, it, vi } from "vitest";

import { createShopifyError } from "~/shopify/admin-client";
import { reportError } from "~/utils/error-report.server";

import { consoleDestination, createLogger, logFor, REDACTED } from "./logger.server";

// Issue 22, item 7: one logger, structured lines with their context, secrets never written.

const SECRETS = {
  shopifyToken: "shpat_0123456789abcdef0123456789abcdef",
  shippingKey: "sk_live_S3cretShipp1ngK3y0000000000",
  apiSecret: "shpss_ApiS3cretValue",
  password: "hunter2-but-longer",
  bearer: "Bearer eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbg.c2lnbmF0dXJl",
  xApiKey: "xk_live_HeaderK3y",
  refresh: "shprt_R3freshT0ken",
};

/** A logger with the app's options whose lines are kept here instead of written to stdout. */
function capturingLogger() {
  const lines: string[] = [];
  return { log: createLogger({ write: (line: string) => void lines.push(line) }), lines };
}

function logEveryShapeOfSecret(log: ReturnType<typeof createLogger>) {
  log.child({ shop: "test-shop.myshopify.com", job: "auto-draft", jobId: "job-1" }).warn(
    {
      accessToken: SECRETS.shopifyToken,
      session: { accessToken: SECRETS.shopifyToken, refreshToken: SECRETS.refresh },
      settings: { apiKey: SECRETS.shippingKey },
      shippingApiKey: SECRETS.shippingKey,
      apiSecret: SECRETS.apiSecret,
      user: { password: SECRETS.password },
      headers: { Authorization: SECRETS.bearer, "X-Api-Key": SECRETS.xApiKey },
      request: { headers: { authorization: SECRETS.bearer, "x-api-key": SECRETS.xApiKey } },
      body: { access_token: SECRETS.shopifyToken, refresh_token: SECRETS.refresh },
    },
    "calling the shipping service failed",
  );
}

describe("the app's logger", () => {
  it("writes one JSON line with the shop, the job and the level, and never a secret it was given", () => {
    const { log, lines } = capturingLogger();
    logEveryShapeOfSecret(log);
    expect(lines).toHaveLength(1);
    const output = lines.join("");
    for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
    const line = JSON.parse(output) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: "warn",
      msg: "calling the shipping service failed",
      shop: "test-shop.myshopify.com",
      job: "auto-draft",
      jobId: "job-1",
      accessToken: REDACTED,
      settings: { apiKey: REDACTED },
      headers: { Authorization: REDACTED, "X-Api-Key": REDACTED },
      request: { headers: { authorization: REDACTED, "x-api-key": REDACTED } },
    });
  });

  it("hands a test's console the same redacted line, so a secret cannot leak there either", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    logEveryShapeOfSecret(createLogger(consoleDestination));
    expect(warn).toHaveBeenCalledTimes(1);
    const output = warn.mock.calls.flat().map(String).join(" ");
    for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
    expect(output).toContain('"shop":"test-shop.myshopify.com"');
  });

  it("keeps an error's type and message in the line", () => {
    const { log, lines } = capturingLogger();
    log.error({ err: new TypeError("fetch failed") }, "claiming jobs failed");
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      level: "error",
      msg: "claiming jobs failed",
      err: { type: "TypeError", message: "fetch failed" },
    });
  });

  it("logs a reported error under the reference the merchant was shown, with the caller's shop", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const shopifyDown = createShopifyError("NETWORK_ERROR", "GetOrder: HTTP 503");
    const { reference, message } = reportError(shopifyDown, { context: { shop: "test-shop.myshopify.com" } });
    expect(message).toContain(`(Reference: ${reference})`);
    expect(error).toHaveBeenCalledWith(
      `shopify/NETWORK_ERROR: GetOrder: HTTP 503 {"shop":"test-shop.myshopify.com","reference":"${reference}"}`,
    );
  });

  it("gives child loggers their context on every line", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    logFor({ shop: "a.myshopify.com", reference: "ERR-AAAAAA" }).child({ job: "bulk-buy" }).warn("slow");
    expect(warn).toHaveBeenCalledWith('slow {"shop":"a.myshopify.com","reference":"ERR-AAAAAA","job":"bulk-buy"}');
  });
});
