import { describe, expect, it } from "vitest";
import { z } from "zod";

import { isAppError } from "~/utils/app-error";

import { type AdminGraphqlClient, createShopifyError, runAdminGraphql, toUserError } from "./admin-client";

const request = {
  operation: "Test",
  document: "query Test { shop { name } }",
  schema: z.object({ shop: z.object({ name: z.string() }) }),
};
const respond =
  (body: unknown, status = 200): AdminGraphqlClient =>
  async () =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), { status });

describe("runAdminGraphql", () => {
  it("returns parsed data", async () => {
    expect(await runAdminGraphql(respond({ data: { shop: { name: "A" } } }), request)).toEqual({
      ok: true,
      value: { data: { shop: { name: "A" } }, problems: [] },
    });
  });

  it("recovers partial data from the GraphqlQueryError that @shopify/shopify-api throws", async () => {
    const thrown = Object.assign(new Error("This app is not approved to access the Order object"), {
      body: {
        data: { shop: { name: "A" } },
        errors: {
          graphQLErrors: [
            { message: "This app is not approved to access the Order object.", path: ["order", "email"] },
          ],
        },
      },
    });
    const result = await runAdminGraphql(async () => Promise.reject(thrown), request);
    expect(result).toMatchObject({
      ok: true,
      value: { data: { shop: { name: "A" } }, problems: [{ code: "PROTECTED_CUSTOMER_DATA", path: "order.email" }] },
    });
  });

  describe("when Shopify throttles", () => {
    const throttled = (currentlyAvailable: number) => ({
      errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
      extensions: {
        cost: {
          requestedQueryCost: 300,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable, restoreRate: 100 },
        },
      },
    });
    function sequence(...bodies: unknown[]): AdminGraphqlClient {
      let call = 0;
      return async () => new Response(JSON.stringify(bodies[Math.min(call++, bodies.length - 1)]), { status: 200 });
    }

    it("waits as long as the cost report says the bucket needs, then runs the query again", async () => {
      const sleeps: number[] = [];
      const admin = sequence(throttled(100), { data: { shop: { name: "A" } } });
      const result = await runAdminGraphql(admin, request, { sleep: async (ms) => void sleeps.push(ms) });
      expect(result.ok && result.value.data).toEqual({ shop: { name: "A" } });
      expect(sleeps).toEqual([2000]);
    });

    it("waits again while sibling calls take the restored points first, as long as its budget lasts", async () => {
      const sleeps: number[] = [];
      // Five answers in a row find the bucket 60 points short: 0.6 s each, 3 s of a 4 s budget.
      const admin = sequence(...Array.from({ length: 5 }, () => throttled(240)), { data: { shop: { name: "A" } } });
      const result = await runAdminGraphql(admin, request, { sleep: async (ms) => void sleeps.push(ms) });
      expect(result.ok && result.value.data).toEqual({ shop: { name: "A" } });
      expect(sleeps).toEqual([600, 600, 600, 600, 600]);
    });

    it("waits a little when the report says the points are there but the call was still refused", async () => {
      const sleeps: number[] = [];
      const admin = sequence(throttled(300), { data: { shop: { name: "A" } } });
      const result = await runAdminGraphql(admin, request, { sleep: async (ms) => void sleeps.push(ms) });
      expect(result.ok).toBe(true);
      expect(sleeps).toEqual([100]);
    });

    it("gives up THROTTLED, saying when to try again, rather than wait past its budget", async () => {
      const sleeps: number[] = [];
      const admin = sequence(throttled(0), { data: { shop: { name: "A" } } });
      const result = await runAdminGraphql(admin, request, {
        sleep: async (ms) => void sleeps.push(ms),
        maxThrottleWaitMs: 1_000,
      });
      expect(result.ok ? null : result.error).toMatchObject({
        code: "THROTTLED",
        message: expect.stringMatching(/Try again in 3 seconds/),
      });
      expect(sleeps).toEqual([]);
    });
  });

  it("rethrows a Response so React Router can re-authenticate", async () => {
    const redirect = new Response(null, { status: 302 });
    await expect(runAdminGraphql(async () => Promise.reject(redirect), request)).rejects.toBe(redirect);
  });

  it("rethrows a 401 the library throws for App Bridge to retry", async () => {
    const retry = new Response(null, { status: 401, headers: { "X-Shopify-Retry-Invalid-Session-Request": "1" } });
    await expect(runAdminGraphql(async () => Promise.reject(retry), request)).rejects.toBe(retry);
  });

  it.each([
    [503, "NETWORK_ERROR"],
    [429, "THROTTLED"],
    [400, "GRAPHQL_ERROR"],
  ] as const)(
    "answers Shopify's HTTP %i, thrown by the library as a Response, with a typed %s",
    async (status, code) => {
      const upstream = new Response("{}", { status });
      const result = await runAdminGraphql(async () => Promise.reject(upstream), request);
      expect(result.ok ? null : result.error.code).toBe(code);
    },
  );

  it.each([
    ["errors without data", respond({ errors: [{ message: "Internal error" }] }), "GRAPHQL_ERROR"],
    [
      "a throttled answer",
      respond({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }),
      "THROTTLED",
    ],
    ["HTTP 429", respond("", 429), "THROTTLED"],
    ["HTTP 503", respond({ errors: "Service Unavailable" }, 503), "NETWORK_ERROR"],
    [
      "HTTP 401 with a string error",
      respond({ errors: "[API] Invalid API key or access token" }, 401),
      "GRAPHQL_ERROR",
    ],
    ["a body that is not JSON", respond("<html>"), "INVALID_RESPONSE"],
    ["data of the wrong shape", respond({ data: { shop: { name: 5 } } }), "INVALID_RESPONSE"],
    [
      "a network failure",
      (async () => Promise.reject(new TypeError("fetch failed"))) as AdminGraphqlClient,
      "NETWORK_ERROR",
    ],
  ])("maps %s to %s, a system problem with a merchant message and a log message", async (_name, admin, code) => {
    const result = await runAdminGraphql(admin, request);
    expect(result).toMatchObject({
      ok: false,
      error: {
        source: "shopify",
        code,
        message: expect.any(String),
        logMessage: expect.stringContaining("Test"),
        fields: [],
        fixable: false,
      },
    });
    expect(!result.ok && isAppError(result.error)).toBe(true);
  });
});

describe("toUserError", () => {
  it("makes Shopify's userErrors a problem the merchant can fix, with Shopify's message on each field", () => {
    const error = toUserError("CreateFulfillment", [
      { field: ["fulfillment", "trackingInfo", "number"], message: "Tracking number is invalid" },
      { field: null, message: "Fulfillment order is closed" },
    ]);
    expect(error).toEqual({
      source: "shopify",
      code: "USER_ERROR",
      message: "Shopify refused the request: Tracking number is invalid Fulfillment order is closed",
      logMessage: expect.stringContaining("CreateFulfillment: userErrors"),
      fields: [{ path: "fulfillment.trackingInfo.number", message: "Tracking number is invalid" }],
      fixable: true,
    });
    expect(isAppError(error)).toBe(true);
  });
});

describe("createShopifyError", () => {
  it("still takes dotted paths, pairing each with the error's merchant message", () => {
    const error = createShopifyError("USER_ERROR", "tracking urls without numbers", {
      message: "A tracking link needs a tracking number.",
      fields: ["tracking.numbers"],
    });
    expect(error).toEqual({
      source: "shopify",
      code: "USER_ERROR",
      message: "A tracking link needs a tracking number.",
      logMessage: "tracking urls without numbers",
      fields: [{ path: "tracking.numbers", message: "A tracking link needs a tracking number." }],
      fixable: true,
    });
  });

  it.each(["GRAPHQL_ERROR", "THROTTLED", "NOT_FOUND", "INVALID_RESPONSE", "NETWORK_ERROR"] as const)(
    "marks %s as a system problem the merchant cannot fix",
    (code) => {
      expect(createShopifyError(code, "log")).toMatchObject({ source: "shopify", code, fields: [], fixable: false });
    },
  );
});
