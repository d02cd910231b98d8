import { describe, expect, it, vi } from "vitest";

import { createShopifyError } from "~/shopify/admin-client";
import { reportError } from "~/utils/error-report.server";

import {
  consoleDestination,
  createLogger,
  logFor,
  logShopifyLibraryLine,
  REDACTED,
  scrubSecrets,
} from "./logger.server";

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

  it("redacts a secret key however deep it sits, in an error's own properties and in child bindings", () => {
    const { log, lines } = capturingLogger();
    const failure = Object.assign(new Error("shipping service refused"), {
      response: { status: 401, headers: { authorization: SECRETS.bearer, "x-api-key": SECRETS.xApiKey } },
    });
    log
      .child({ shop: "test-shop.myshopify.com", request: { auth: { session: { accessToken: SECRETS.shopifyToken } } } })
      .error(
        {
          err: failure,
          call: { attempt: { request: { headers: { Authorization: SECRETS.bearer } } } },
          cause: {
            detail: new Error("nested", { cause: "x" }),
            deep: { a: { b: { c: { password: SECRETS.password } } } },
          },
        },
        "purchase failed",
      );
    const output = lines.join("");
    for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
    expect(JSON.parse(output)).toMatchObject({
      err: {
        type: "Error",
        message: "shipping service refused",
        response: { status: 401, headers: { authorization: REDACTED, "x-api-key": REDACTED } },
      },
      request: { auth: { session: { accessToken: REDACTED } } },
      call: { attempt: { request: { headers: { Authorization: REDACTED } } } },
      cause: { detail: { type: "Error", message: "nested" }, deep: { a: { b: { c: { password: REDACTED } } } } },
    });
  });

  it("scrubs secrets written inside the message, string fields and an error's message and stack", () => {
    const { log, lines } = capturingLogger();
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJkZXN0IjoiaHR0cHM6Ly9hLm15c2hvcGlmeS5jb20ifQ.c2lnbmF0dXJlLXBhcnQ";
    const inMessage = {
      bearer: `Authorization: Bearer ${"tok_0123456789abcdef"}`,
      shippingLive: "sk_live_S3cretShipp1ngK3y0000000000",
      shippingTest: "sk_test_0therK3yForTests",
      shopifyAdmin: "shpat_0123456789abcdef0123456789abcdef",
      shopifyCustom: "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",
      eventSecret: "whsec_c2VjcmV0LWZvci1ldmVudHM=",
      url: `/app/documents/labels.pdf?shop=a.myshopify.com&id_token=${jwt}&host=YWRtaW4`,
    };
    log.warn(
      {
        note: `retrying with ${inMessage.shippingTest}`,
        detail: { text: `signed with ${inMessage.eventSecret}` },
        err: new Error(`refused ${inMessage.shopifyCustom}`),
      },
      `GET ${inMessage.url} (${inMessage.bearer}) key ${inMessage.shippingLive} token ${inMessage.shopifyAdmin}`,
    );
    const output = lines.join("");
    for (const secret of [
      "tok_0123456789abcdef",
      inMessage.shippingLive,
      inMessage.shippingTest,
      inMessage.shopifyAdmin,
      inMessage.shopifyCustom,
      inMessage.eventSecret,
      jwt,
    ]) {
      expect(output).not.toContain(secret);
    }
    const line = JSON.parse(output) as {
      msg: string;
      note: string;
      detail: { text: string };
      err: { message: string };
    };
    expect(line.msg).toBe(
      `GET /app/documents/labels.pdf?shop=a.myshopify.com&id_token=${REDACTED}&host=YWRtaW4 (Authorization: Bearer ${REDACTED}) key ${REDACTED} token ${REDACTED}`,
    );
    expect(line.note).toBe(`retrying with ${REDACTED}`);
    expect(line.detail.text).toBe(`signed with ${REDACTED}`);
    expect(line.err.message).toBe(`refused ${REDACTED}`);
  });

  it("leaves ordinary text alone when scrubbing: ids, tracking numbers, shop domains, words", () => {
    const text =
      "Label lbl_123 for #1001 (1Z999AA10123456784) on a.myshopify.com via Basic Ground: task_live ok, skip_test done, bearer of news";
    expect(scrubSecrets(text)).toBe(text);
  });

  it("routes the Shopify library's lines into the logger at their severity, with the shop as a field", () => {
    const { log, lines } = capturingLogger();
    logShopifyLibraryLine(
      1,
      "[shopify-app/WARNING] Could not find a session for the shop | {shop: a.myshopify.com, isOnline: false}",
      log,
    );
    logShopifyLibraryLine(0, `[shopify-api/ERROR] Request failed: Bearer ${SECRETS.shopifyToken}`, log);
    logShopifyLibraryLine(2, "[shopify-app/INFO] Authenticating admin request", log);
    logShopifyLibraryLine(3, "[shopify-app/DEBUG] Not logged at info", log);

    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: "warn",
        lib: "shopify-app",
        shop: "a.myshopify.com",
        msg: "Could not find a session for the shop | {shop: a.myshopify.com, isOnline: false}",
      }),
      expect.objectContaining({ level: "error", lib: "shopify-api", msg: `Request failed: Bearer ${REDACTED}` }),
      expect.objectContaining({ level: "info", lib: "shopify-app", msg: "Authenticating admin request" }),
    ]);
  });
});
