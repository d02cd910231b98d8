// Bad input: every action and API route (and the page loaders that read a query or a path) fed
// bodies fast-check makes up — wrong types, huge strings, deep nesting, unicode, missing fields —
// each with at least one part no valid request has. Every answer is a 4xx with a message for the
// merchant, never a 5xx or a crash, and nothing is stored or billed. Shopify's and the shipping
// service's webhooks get signed garbage: acknowledged or refused, never a 5xx, nothing stored but
// the delivery record Shopify's retries are matched against.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { signShippingEvent } from "~/shipping/event-signature";

import { findEventEndpoint } from "../../app/settings/shipping-event-endpoint.server";
import { setupMockServer } from "../helpers/msw";
import { signWebhookBody } from "../helpers/shopify-requests";
import { TEST_ENV } from "../setup/test-env";
import { type Checks, createChecks, recordChecksOfThisFile } from "./support/checks";
import { routeModule } from "./support/requests";
import { coverageGaps } from "./support/routes";
import {
  type Answer,
  asA,
  createWorld,
  expectUnchanged,
  extensionAs,
  getAs,
  invoke,
  postFormAs,
  type SeededA,
  seedShopA,
  SHOP_A,
  type Snapshot,
  snapshotDb,
  type World,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

const ACTION_RUNS = 30;
const LOADER_RUNS = 12;

// ---------- What bad input looks like ----------

const HUGE = "x".repeat(200_000);
const SPECIAL = [
  "",
  " ",
  "\u0000",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "0x10",
  "<script>alert(1)</script>",
  "'; DROP TABLE Label; --",
  "../../etc/passwd",
  "%00",
  "\r\nX-Injected: 1",
  "\u202Eevil",
  "💥🚚📦",
  "\uD800",
  "gid://shopify/Order/",
  "gid://shopify/Order/-1",
  "gid://shopify/FulfillmentOrder/abc",
  HUGE,
];

/** Any string a form field could carry, from the ordinary to the hostile. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(...SPECIAL),
  fc.string({ minLength: 1000, maxLength: 5000 }),
);

const DEEP_ARRAY = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
/** What a JSON field could carry: JSON of the wrong shape, deeply nested, or not JSON at all. */
const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT, "{", "[1,", '{"__proto__":{"polluted":true}}', "1".repeat(400)),
  text,
);

/** A string that is none of `valid`. */
const otherThan = (...valid: string[]) => text.filter((v) => !valid.includes(v));

/** No digits-only id: a numeric id is a valid (if unknown) order id, not bad input. */
const notAnId = text.filter((v) => !/^\s*\d+\s*$/.test(v) && !/^gid:\/\/shopify\/Order\/\d+$/.test(v));

/** Form fields: each present with its arbitrary, or left out. */
function formOf(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Record<string, string>> {
  return fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
}

/** Form fields where `required` (at least one of them) is always present and bad. */
function formWith(
  always: Record<string, fc.Arbitrary<string>>,
  maybe: Record<string, fc.Arbitrary<string>> = {},
): fc.Arbitrary<Record<string, string>> {
  return fc
    .tuple(fc.record(always), formOf(maybe))
    .map(([fixed, optional]) => ({ ...optional, ...fixed }) as Record<string, string>);
}

/** JSON bodies that are not the route's: any JSON, the right keys with wrong values, or not JSON. */
function jsonBody(shape: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<{ raw: string }> {
  return fc.oneof(
    shape.map((value) => ({ raw: JSON.stringify(value) })),
    fc.jsonValue({ maxDepth: 5 }).map((value) => ({ raw: JSON.stringify(value) })),
    jsonText.map((raw) => ({ raw })),
  );
}

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), text, fc.integer(), fc.double(), fc.constant(null));

/** An order selection the extensions' bulk routes take, broken every way: bad ids, numbers, too many, anything. */
const orderSelectionBodies = (path: string) =>
  jsonBody(
    fc.record({
      orderIds: fc.oneof(
        fc.array(notAnId, { maxLength: 5 }),
        fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
        fc.constant(Array.from({ length: 300 }, (_, i) => String(i + 1))),
        anyValue,
      ),
    }),
  ).map((body) => ({ request: extensionAs(path, asA(), { rawBody: body.raw }), params: {} }));

// ---------- The targets ----------

type Sent = { request: Request; params: Record<string, string> };

type Target = {
  runs: number;
  input: (a: SeededA) => fc.Arbitrary<Sent>;
  /** How the answer must look; default: a 4xx with a message. */
  expectAnswer?: (answer: Answer) => void;
  /** Rows a case may add (a webhook's own delivery record); everything else must stay. */
  mayStore?: string[];
};

const messageOf = (answer: Answer): string => {
  const json = answer.json as { error?: { message?: unknown }; errors?: { shop?: unknown } } | null;
  const message = json?.error?.message ?? json?.errors?.shop ?? (answer.json === null ? answer.text : undefined);
  return typeof message === "string" ? message.trim() : "";
};

function expectRefusedWithMessage(answer: Answer) {
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  expect(messageOf(answer), `no message in ${answer.text.slice(0, 300)}`).not.toBe("");
}

/** A page loader: any query falls back to its defaults (200) or is not found; never a 5xx. */
function expectPageOrNotFound(answer: Answer) {
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (answer.status >= 400) expect(messageOf(answer)).not.toBe("");
}

/** A webhook: acknowledged (a signed payload that will not parse is not retried) or refused. */
function expectAcknowledgedOrRefused(answer: Answer) {
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
}

const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const runIdArb = (a: SeededA) => fc.oneof(fc.constant(a.reviewRunId), fc.constant(a.doneRunId), text);
const orderIdArb = (a: SeededA) => fc.oneof(fc.constant(a.sharedOrderId), text);
const form = (path: string, fields: Record<string, string>, params: Record<string, string> = {}): Sent => ({
  request: postFormAs(path, fields, asA()),
  params,
});
/** A path segment: lone surrogates (which no URL can carry) become U+FFFD, as a browser sends them. */
const safePath = (value: string) =>
  encodeURIComponent(
    value.slice(0, 2000).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
  );

function shopifyWebhook(path: string, topics: string[]) {
  return {
    runs: LOADER_RUNS,
    mayStore: ["WebhookDelivery"],
    expectAnswer: expectAcknowledgedOrRefused,
    input: () =>
      fc
        .tuple(fc.constantFrom(...topics), jsonBody(fc.dictionary(text, anyValue, { maxKeys: 4 })))
        .map(([topic, body]) => {
          const headers = new Headers({
            "Content-Type": "application/json",
            "X-Shopify-Hmac-Sha256": signWebhookBody(body.raw),
            "X-Shopify-Topic": topic,
            "X-Shopify-Shop-Domain": SHOP_A,
            "X-Shopify-API-Version": "2026-10",
            "X-Shopify-Webhook-Id": crypto.randomUUID(),
            "X-Shopify-Event-Id": crypto.randomUUID(),
            "X-Shopify-Triggered-At": new Date().toISOString(),
          });
          return {
            request: new Request(new URL(path, TEST_ENV.SHOPIFY_APP_URL), { method: "POST", headers, body: body.raw }),
            params: {},
          };
        }),
  } satisfies Target;
}

/** A `labelIds` field no selection has: not JSON, not a list, empty, too long, or not label ids. */
const notLabelIds = jsonText.filter((v) => {
  try {
    const parsed: unknown = JSON.parse(v);
    return !(
      Array.isArray(parsed) &&
      parsed.length > 0 &&
      parsed.length <= 250 &&
      parsed.every((id) => typeof id === "string" && /^[a-z0-9]{1,64}$/.test(id))
    );
  } catch {
    return true;
  }
});

const TARGETS: Record<string, Target> = {
  "app.activity#action": {
    runs: ACTION_RUNS,
    input: () =>
      fc
        .oneof(
          formWith({ intent: otherThan("retry-job") }, { jobId: text }),
          formWith({ intent: fc.constant("retry-job") }, { jobId: text }),
        )
        .map((fields) => form("/app/activity", fields)),
  },
  "app.bulk#action": {
    runs: ACTION_RUNS,
    input: () =>
      fc
        .oneof(
          // A selection that is not one: wrong JSON, wrong items, too many, ids that are not orders.
          formWith(
            {
              orders: fc.oneof(
                jsonText,
                fc
                  .array(fc.record({ orderGid: notAnId, orderName: text }, { requiredKeys: [] }), { maxLength: 5 })
                  .map((v) => JSON.stringify(v)),
                fc.constant(
                  JSON.stringify(
                    Array.from({ length: 1001 }, (_, i) => ({ orderGid: `gid://shopify/Order/${i}`, orderName: "#" })),
                  ),
                ),
              ),
            },
            { scope: fc.constantFrom("selected", "all", ""), choice: jsonText },
          ).filter((f) => f.scope !== "all"),
          // "Select all" with a choice of services that is not one.
          formWith(
            { scope: fc.constant("all"), choice: jsonText.filter((v) => !/^\s*\{/.test(v)) },
            { tab: text, q: text },
          ),
          formWith({ scope: otherThan("selected", "all") }, { orders: jsonText, choice: jsonText }),
        )
        .map((fields) => form("/app/bulk", fields)),
  },
  "app.bulk.$runId#action": {
    runs: ACTION_RUNS,
    input: (a) =>
      fc
        .tuple(
          runIdArb(a),
          fc.oneof(
            formWith({ intent: fc.constant("confirm"), count: otherThan("0", "1", "2", "3") }, { totalCents: text }),
            formWith(
              { intent: otherThan("confirm", "cancel", "retry-failed", "void") },
              { count: text, totalCents: text },
            ),
            formWith({ intent: fc.constant("void"), labelIds: notLabelIds }),
          ),
        )
        .map(([runId, fields]) => form(`/app/bulk/${safePath(runId)}`, fields, { runId })),
  },
  "app.orders.$orderId#action": {
    runs: ACTION_RUNS * 2,
    input: (a) =>
      fc
        .tuple(
          orderIdArb(a),
          fc.oneof(
            formWith(
              {
                intent: otherThan(
                  "validate-address",
                  "get-rates",
                  "create-draft",
                  "buy",
                  "retry-write-back",
                  "discard",
                  "dismiss-attention",
                ),
              },
              { labelId: text },
            ),
            formWith(
              { intent: fc.constant("get-rates"), request: jsonText.filter((v) => !/^\s*\{/.test(v)) },
              { fulfillmentOrderId: text },
            ),
            formWith(
              { intent: fc.constant("validate-address"), address: jsonText.filter((v) => !/"zip"/.test(v)) },
              { fulfillmentOrderId: text },
            ),
            formWith(
              { intent: fc.constant("create-draft"), rate: jsonText },
              { fulfillmentOrderId: text, request: jsonText, lineItems: jsonText },
            ),
            formWith(
              { intent: fc.constantFrom("buy", "retry-write-back"), notifyCustomer: otherThan("true", "false") },
              { labelId: text },
            ),
            formWith(
              { intent: fc.constantFrom("buy", "retry-write-back", "discard", "dismiss-attention"), labelId: text },
              { notifyCustomer: fc.constantFrom("true", "false") },
            ),
          ),
        )
        .map(([orderId, fields]) => form(`/app/orders/${safePath(orderId)}`, fields, { orderId })),
  },
  "app.orders.$orderId.returns#action": {
    runs: ACTION_RUNS,
    input: (a) =>
      fc
        .tuple(
          orderIdArb(a),
          fc.oneof(
            formWith({ intent: otherThan("approve", "get-rates", "buy") }, { returnId: text }),
            formWith({
              intent: fc.constantFrom("approve", "get-rates", "buy"),
              returnId: text.filter((v) => !/^gid:\/\/shopify\/Return\/\d+$/.test(v)),
            }),
            formWith({
              intent: fc.constant("get-rates"),
              returnId: fc.constant("gid://shopify/Return/4242"),
              weight: text.filter((v) => !(Number(v) > 0 && Number(v) <= 1000)),
            }),
            formWith(
              { intent: fc.constant("buy"), returnId: fc.constant("gid://shopify/Return/4242"), rate: jsonText },
              { notifyCustomer: text, weight: text },
            ),
          ),
        )
        .map(([orderId, fields]) => form(`/app/orders/${safePath(orderId)}/returns`, fields, { orderId })),
  },
  "app.settings#action": {
    runs: ACTION_RUNS * 2,
    input: () =>
      fc
        .oneof(
          formWith({
            intent: otherThan(
              "saveSettings",
              "saveApiKey",
              "removeApiKey",
              "testConnection",
              "createBox",
              "updateBox",
              "deleteBox",
              "makeDefaultBox",
              "saveAutoDraft",
            ),
          }),
          formWith(
            { intent: fc.constant("saveSettings"), labelFormat: otherThan("pdf", "png", "zpl") },
            { labelSize: text, notifyCustomer: text, addressValidationPolicy: text, shipFromLocationGid: text },
          ),
          // A key too short, blank, huge, or with characters no key has.
          formWith({
            intent: fc.constant("saveApiKey"),
            apiKey: fc.oneof(
              fc.string({ maxLength: 7 }),
              fc.constantFrom(" ", HUGE, "sk_live_abc\r\ndef", "sk_live_ünïcödé_kéy", "sk_live_with spaces in it"),
            ),
          }),
          formWith(
            { intent: fc.constantFrom("createBox", "updateBox"), dimensionUnit: otherThan("in", "cm") },
            {
              id: text,
              name: text,
              length: text,
              width: text,
              height: text,
              tareWeight: text,
              maxWeight: text,
              weightUnit: text,
              isDefault: text,
            },
          ),
          formWith({ intent: fc.constantFrom("deleteBox", "makeDefaultBox", "updateBox") }, { id: text }),
          formWith(
            { intent: fc.constant("saveAutoDraft"), rules: jsonText.filter((v) => !/^\s*\[\s*\]\s*$/.test(v)) },
            { autoDraftEnabled: text },
          ),
        )
        .map((fields) => form("/app/settings", fields)),
  },
  "auth.login#action": {
    runs: LOADER_RUNS,
    expectAnswer: (answer) => {
      // The library answers a shop it cannot log in with the form and its message; a domain that
      // looks like a shop is sent on to Shopify's login.
      expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
      if (answer.status === 200) expect(messageOf(answer)).not.toBe("");
    },
    input: () =>
      formOf({ shop: text }).map((fields) => ({
        request: postFormAs("/auth/login", fields, { token: null }),
        params: {},
      })),
  },
  "auth.login#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () =>
      formOf({ shop: text }).map((fields) => ({
        request: getAs(`/auth/login?${query(fields)}`, { token: null }),
        params: {},
      })),
  },
  "_index#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () =>
      formOf({ shop: text, host: text }).map((fields) => ({
        request: getAs(`/?${query(fields)}`, { token: null }),
        params: {},
      })),
  },
  "app._index#action": {
    runs: ACTION_RUNS,
    // Anything a scanner could not have typed as an order number: refused before Shopify is asked.
    input: () =>
      formOf({ orderNumber: text.filter((v) => !/^\s*#?[A-Za-z0-9-]{1,30}\s*$/.test(v)) }).map((fields) =>
        form("/app?index", fields),
      ),
  },
  "app.orders._index#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () =>
      formOf({ tab: text, q: text, after: text, before: text }).map((f) => ({
        request: getAs(`/app/orders?${query(f)}`, asA()),
        params: {},
      })),
  },
  "app.activity#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () =>
      formOf({ page: text }).map((f) => ({ request: getAs(`/app/activity?${query(f)}`, asA()), params: {} })),
  },
  "app.labels#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () =>
      formOf({ status: text, page: text }).map((f) => ({
        request: getAs(`/app/labels?${query(f)}`, asA()),
        params: {},
      })),
  },
  "app.labels#action": {
    runs: ACTION_RUNS,
    input: () =>
      fc
        .oneof(
          formWith({ intent: otherThan("void") }, { labelIds: jsonText }),
          formWith({ intent: fc.constant("void"), labelIds: notLabelIds }),
        )
        .map((fields) => form("/app/labels", fields)),
  },
  "app.settings#loader": {
    runs: LOADER_RUNS,
    expectAnswer: expectPageOrNotFound,
    input: () => formOf({ tab: text }).map((f) => ({ request: getAs(`/app/settings?${query(f)}`, asA()), params: {} })),
  },
  "app.bulk.$runId#loader": {
    runs: LOADER_RUNS,
    input: () => text.map((runId) => ({ request: getAs(`/app/bulk/${safePath(runId)}`, asA()), params: { runId } })),
  },
  "app.bulk.$runId.print#loader": {
    runs: LOADER_RUNS,
    input: (a) =>
      fc.tuple(runIdArb(a), formOf({ format: otherThan("pdf", "zpl", "png") })).map(([runId, f]) => ({
        request: getAs(`/app/bulk/${safePath(runId)}/print?${query(f)}`, asA()),
        params: { runId },
      })),
  },
  "app.labels.$labelId.print#loader": {
    runs: LOADER_RUNS,
    input: () =>
      text.map((labelId) => ({ request: getAs(`/app/labels/${safePath(labelId)}/print`, asA()), params: { labelId } })),
  },
  "app.orders.$orderId#loader": {
    runs: LOADER_RUNS,
    input: () =>
      notAnId.map((orderId) => ({ request: getAs(`/app/orders/${safePath(orderId)}`, asA()), params: { orderId } })),
  },
  "app.orders.$orderId.returns#loader": {
    runs: LOADER_RUNS,
    input: () =>
      notAnId.map((orderId) => ({
        request: getAs(`/app/orders/${safePath(orderId)}/returns`, asA()),
        params: { orderId },
      })),
  },
  "api.extensions.orders.$orderId.label#loader": {
    runs: LOADER_RUNS,
    input: () =>
      notAnId.map((orderId) => ({
        request: extensionAs(`/api/extensions/orders/${safePath(orderId)}/label`, asA()),
        params: { orderId },
      })),
  },
  "api.extensions.orders.$orderId.label#action": {
    runs: ACTION_RUNS,
    input: (a) =>
      fc
        .tuple(
          orderIdArb(a),
          jsonBody(
            fc.record(
              {
                fulfillmentOrderId: anyValue,
                serviceCode: anyValue,
                expectedCents: fc.oneof(fc.double(), fc.integer({ max: -1 }), text, fc.constant(null)),
                currency: anyValue,
              },
              { requiredKeys: ["expectedCents"] },
            ),
          ),
        )
        .map(([orderId, body]) => ({
          request: extensionAs(`/api/extensions/orders/${safePath(orderId)}/label`, asA(), { rawBody: body.raw }),
          params: { orderId },
        })),
  },
  "api.extensions.orders.$orderId.rates#action": {
    runs: ACTION_RUNS,
    input: (a) =>
      fc
        .tuple(
          orderIdArb(a),
          jsonBody(
            fc.record({
              fulfillmentOrderId: fc.oneof(
                fc.integer(),
                fc.constant(null),
                fc.constant(""),
                fc.constant(HUGE),
                fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== "string"),
              ),
            }),
          ),
        )
        .map(([orderId, body]) => ({
          request: extensionAs(`/api/extensions/orders/${safePath(orderId)}/rates`, asA(), { rawBody: body.raw }),
          params: { orderId },
        })),
  },
  "api.extensions.labels.$labelId.void#action": {
    runs: ACTION_RUNS,
    // Any label id (none is one of A's labels) with any body: refused or not found, nothing sent.
    input: () =>
      fc.tuple(text, jsonText).map(([labelId, body]) => ({
        request: extensionAs(`/api/extensions/labels/${safePath(labelId)}/void`, asA(), { rawBody: body }),
        params: { labelId },
      })),
  },
  "api.extensions.bulk.preflight#action": {
    runs: ACTION_RUNS,
    input: () => orderSelectionBodies("/api/extensions/bulk/preflight"),
  },
  "api.extensions.bulk.runs#action": {
    runs: ACTION_RUNS,
    input: () => orderSelectionBodies("/api/extensions/bulk/runs"),
  },
  "api.extensions.print.summary#loader": {
    runs: LOADER_RUNS,
    input: () =>
      formOf({ orderIds: notAnId }).map((f) => ({
        request: extensionAs(`/api/extensions/print/summary?${query(f)}`, asA()),
        params: {},
      })),
  },
  "api.extensions.print.pdf#loader": {
    runs: LOADER_RUNS,
    input: () =>
      formOf({ orders: notAnId }).map((f) => ({
        request: extensionAs(`/api/extensions/print/pdf?${query(f)}`, asA()),
        params: {},
      })),
  },
  "webhooks.orders#action": shopifyWebhook("/webhooks/orders", ["orders/cancelled", "orders/updated", "orders/create"]),
  "webhooks.fulfillment_orders#action": shopifyWebhook("/webhooks/fulfillment_orders", [
    "fulfillment_orders/order_routing_complete",
    "fulfillment_orders/cancelled",
    "fulfillment_orders/split",
  ]),
  "webhooks.compliance#action": shopifyWebhook("/webhooks/compliance", [
    "customers/data_request",
    "customers/redact",
    "shop/redact",
  ]),
  "webhooks.app.scopes_update#action": shopifyWebhook("/webhooks/app/scopes_update", ["app/scopes_update"]),
  "webhooks.returns#action": shopifyWebhook("/webhooks/returns", [
    "returns/request",
    "returns/approve",
    "returns/decline",
    "returns/cancel",
  ]),
  "webhooks.shipping.$endpoint#action": {
    runs: LOADER_RUNS,
    expectAnswer: expectAcknowledgedOrRefused,
    input: (a) =>
      // Signed with the shop's real secret, but not an event: no id, no type, or not JSON.
      jsonBody(
        fc.record(
          { id: fc.oneof(fc.integer(), fc.constant(null), fc.constant("")), type: anyValue, data: anyValue },
          { requiredKeys: ["id"] },
        ),
      ).map((body) => {
        const t = Math.floor(Date.now() / 1000);
        const headers = new Headers({
          "Content-Type": "application/json",
          "Shipping-Signature": `t=${t},v1=${signShippingEvent(a.endpointSecret, body.raw, t)}`,
        });
        return {
          request: new Request(new URL(`/webhooks/shipping/${a.endpointKey}`, TEST_ENV.SHOPIFY_APP_URL), {
            method: "POST",
            headers,
            body: body.raw,
          }),
          params: { endpoint: a.endpointKey },
        };
      }),
  },
  // Last: whatever its body, a signed app/uninstalled signs the shop out (its sessions go, its
  // jobs stop) — that is its job; nothing else may change, and it never fails.
  "webhooks.app.uninstalled#action": {
    ...shopifyWebhook("/webhooks/app/uninstalled", ["app/uninstalled"]),
    mayStore: ["WebhookDelivery", "Session", "Job"],
  },
};

// Routes whose whole input is the session token or nothing (loaders that only answer 405 among them).
const NO_INPUT = {
  "app._index#loader": "takes no input but the session token (a query string is ignored)",
  "app.orders-version#loader": "takes no input but the session token (a query string is ignored)",
  "api.extensions.bulk.preflight#loader": "answers 405 to every GET (its browser preflight only)",
  "api.extensions.bulk.runs#loader": "answers 405 to every GET (its browser preflight only)",
  "api.extensions.orders.$orderId.rates#loader": "answers 405 to every GET (its browser preflight only)",
  "api.extensions.labels.$labelId.void#loader": "answers 405 to every GET (its browser preflight only)",
};

async function fuzz(key: string, target: Target, world: World, a: SeededA, checks: Checks): Promise<void> {
  const [route, handler] = key.split("#") as [string, "loader" | "action"];
  const module = await routeModule(route);
  let cases = 0;
  let failure: unknown;
  try {
    await fc.assert(
      fc.asyncProperty(target.input(a), async ({ request, params }) => {
        cases += 1;
        const sent = `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(params).slice(0, 200)} body: ${(await request.clone().text()).slice(0, 300)}`;
        const before: Snapshot = await snapshotDb();
        const books = world.books();
        let answer: Answer | null = null;
        try {
          answer = await invoke(module[handler], request, params);
          (target.expectAnswer ?? expectRefusedWithMessage)(answer);
          const after = await snapshotDb();
          const keep = (snapshot: Snapshot) =>
            Object.fromEntries(Object.entries(snapshot).filter(([model]) => !(target.mayStore ?? []).includes(model)));
          expectUnchanged(keep(before), keep(after), key);
          expect(world.books()).toEqual(books);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          const got = answer ? `${answer.status} ${answer.text.slice(0, 300)}` : "a crash (a 500 in React Router)";
          throw new Error(`${why}\n  sent: ${sent}\n  got: ${got}`);
        }
      }),
      { numRuns: target.runs, endOnFailure: true },
    );
  } catch (error) {
    failure = error;
  }
  checks.fuzz(
    `${key}: ${cases} fuzzed requests answer 4xx with a message, never 5xx, and store nothing`,
    cases,
    failure,
  );
}

describe("bad input", () => {
  it("fuzzes every action and API route, or says why there is nothing to fuzz", async () => {
    const checks = createChecks();
    await checks.run("fuzz", "every route handler is fuzzed", async () => {
      const gaps = await coverageGaps("fuzz", [...Object.keys(TARGETS), ...Object.keys(NO_INPUT)]);
      expect(gaps).toEqual({ missing: [], stale: [], both: [] });
    });
    checks.assertAllPassed();
  });

  const keys = Object.keys(TARGETS);
  const groups = [keys.filter((k) => k.startsWith("app")), keys.filter((k) => !k.startsWith("app"))];
  for (const [index, group] of groups.entries()) {
    it(`answers fuzzed bodies with a 4xx and a message, never a 5xx, and stores nothing (${index === 0 ? "the app's screens" : "extensions, login and webhooks"})`, async () => {
      // Bad input is logged as a warning where it is refused (a malformed webhook payload, a page
      // cursor Shopify rejects): expected here, by the hundred. An error still fails the test.
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const world = createWorld();
      const a = await seedShopA(world);
      // Shopify's retries and our own worker leave nothing queued that a case could race with.
      await world.drainJobs();
      const checks = createChecks();
      const endpoint = await findEventEndpoint(db, a.endpointKey);
      expect(endpoint?.secret).toBe(a.endpointSecret);
      for (const key of group) {
        const target = TARGETS[key];
        if (target) await fuzz(key, target, world, a, checks);
      }
      checks.assertAllPassed();
    }, 120_000);
  }
});
