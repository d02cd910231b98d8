// Secrets: shop A's shipping API key (as typed, and as stored sealed), its event endpoint's
// secret, the access tokens Shopify issued, the app's client secret and the encryption key must
// appear in no log line, no loader's data, no rendered page, no client bundle, no error message
// and no row of the audit trail (nor any other row but the columns that hold them sealed) —
// through every route, with the shipping service well, down, refusing the key, or echoing the
// key back in its own error messages. And the encryption key is required at boot.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { format, promisify } from "node:util";

import { HttpResponse } from "msw";
import type { ComponentType } from "react";
import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { EnvError, parseEnv } from "~/env.server";
import { openPersonalOrNull } from "~/settings/personal-data-box.server";

import { openSecret, sealSecret } from "../../app/settings/secret-box.server";
import { setupMockServer } from "../helpers/msw";
import { renderScreen } from "../helpers/render-screen";
import { createWebhookRequest } from "../helpers/shopify-requests";
import { ROOT } from "../setup/database";
import { TEST_ENV } from "../setup/test-env";
import { type Checks, createChecks, recordChecksOfThisFile } from "./support/checks";
import { clientBuildFiles, clientModules, isServerModule } from "./support/client-graph";
import { buildSessionRequest, routeModule, SESSION_REQUESTS } from "./support/requests";
import { coverageGaps } from "./support/routes";
import {
  type Answer,
  asA,
  createWorld,
  draftOnOrderPage,
  extensionAs,
  getAs,
  invoke,
  KEY_A,
  MODELS,
  postFormAs,
  type SeededA,
  seedShopA,
  SHOP_A,
  snapshotDb,
  type World,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

/** A key the service does not know, saved by mistake: a secret all the same. */
const WRONG_KEY = "sk_live_Wr0ngK3yButSt1llS3cretQ8";

/** Every console call and every write to stdout or stderr from here on. */
function captureLogs(): string[] {
  const lines: string[] = [];
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation((chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    });
  }
  return lines;
}

// ---------- Driving every route ----------

type Exercised = { answers: Map<string, Answer>; pages: Map<string, string> };

const PUBLIC_AND_WEBHOOKS: Record<string, (a: SeededA, world: World) => Promise<Answer>> = {
  "_index#loader": async () =>
    invoke((await routeModule("_index/route")).loader, getAs(`/?shop=${SHOP_A}`, { token: null })),
  "auth.login#loader": async () =>
    invoke((await routeModule("auth.login/route")).loader, getAs(`/auth/login?shop=${SHOP_A}`, { token: null })),
  "auth.login#action": async () =>
    invoke(
      (await routeModule("auth.login/route")).action,
      postFormAs("/auth/login", { shop: SHOP_A }, { token: null }),
    ),
  "healthz#loader": async () => invoke((await routeModule("healthz")).loader, getAs("/healthz", { token: null })),
  "webhooks.orders#action": async (a) =>
    invoke(
      (await routeModule("webhooks.orders")).action,
      createWebhookRequest({
        topic: "orders/updated",
        path: "/webhooks/orders",
        shop: SHOP_A,
        payload: { id: Number(a.ownOrderId), admin_graphql_api_id: a.ownOrderGid, cancelled_at: null },
      }),
    ),
  "webhooks.fulfillment_orders#action": async (a) =>
    invoke(
      (await routeModule("webhooks.fulfillment_orders")).action,
      createWebhookRequest({
        topic: "fulfillment_orders/order_routing_complete",
        path: "/webhooks/fulfillment_orders",
        shop: SHOP_A,
        payload: { fulfillment_order: { id: a.ownFulfillmentOrderGid, status: "open" } },
      }),
    ),
  "webhooks.compliance#action": async (a) =>
    invoke(
      (await routeModule("webhooks.compliance")).action,
      createWebhookRequest({
        topic: "customers/data_request",
        path: "/webhooks/compliance",
        shop: SHOP_A,
        payload: {
          shop_domain: SHOP_A,
          customer: { id: 1, email: "a@example.com", phone: null },
          orders_requested: [Number(a.ownOrderId)],
          data_request: { id: 2 },
        },
      }),
    ),
  "webhooks.returns#action": async (a) =>
    invoke(
      (await routeModule("webhooks.returns")).action,
      createWebhookRequest({
        topic: "returns/request",
        path: "/webhooks/returns",
        shop: SHOP_A,
        payload: {
          id: 1,
          admin_graphql_api_id: "gid://shopify/Return/1",
          status: "requested",
          order: { id: Number(a.ownOrderId), admin_graphql_api_id: a.ownOrderGid },
          return_line_items: [],
        },
      }),
    ),
  "webhooks.app.scopes_update#action": async () =>
    invoke(
      (await routeModule("webhooks.app.scopes_update")).action,
      createWebhookRequest({
        topic: "app/scopes_update",
        path: "/webhooks/app/scopes_update",
        shop: SHOP_A,
        payload: { id: 1, previous: TEST_ENV.SCOPES.split(","), current: TEST_ENV.SCOPES.split(",") },
      }),
    ),
  "webhooks.shipping.$endpoint#action": async (a) => {
    const { deliverShippingEvent } = await import("./support/world");
    return deliverShippingEvent(a.endpointKey, a.endpointSecret, {
      id: "evt_secrets_1",
      type: "label.tracking_updated",
      created_at: new Date().toISOString(),
      organization: "org_demo",
      data: {
        label_id: a.serviceLabelIds[0],
        tracking_number: a.trackingNumbers[0],
        status: "in_transit",
        occurred_at: new Date().toISOString(),
      },
    });
  },
  // Last: it signs the shop out.
  "webhooks.app.uninstalled#action": async () =>
    invoke(
      (await routeModule("webhooks.app.uninstalled")).action,
      createWebhookRequest({
        topic: "app/uninstalled",
        path: "/webhooks/app/uninstalled",
        shop: SHOP_A,
        payload: { id: 1, domain: SHOP_A },
      }),
    ),
};

/** Every session route with A's good token, its page rendered with its data. */
async function exerciseSessionRoutes(a: SeededA, into: Exercised): Promise<void> {
  for (const key of Object.keys(SESSION_REQUESTS)) {
    const { route, handler, params, request } = await buildSessionRequest(key, a, asA());
    const module = await routeModule(route);
    const answer = await invoke(module[handler], request, params);
    into.answers.set(key, answer);
    const Component = module.default as ComponentType | undefined;
    if (handler === "loader" && Component && answer.status === 200 && answer.json !== null && route !== "app") {
      into.pages.set(route, await renderScreen(new URL(request.url).pathname, Component, answer.json));
    }
  }
}

/** The shipping service answering every call with an error that quotes the Authorization header. */
function echoingService(request: Request): Response {
  const authorization = request.headers.get("Authorization") ?? "";
  const path = new URL(request.url).pathname;
  const status = path.endsWith("/purchase") ? 402 : path.startsWith("/v1/labels/lbl_ship") ? 401 : 400;
  const code = status === 402 ? "INSUFFICIENT_BALANCE" : status === 401 ? "UNAUTHENTICATED" : "VALIDATION_FAILED";
  return HttpResponse.json(
    {
      error: {
        code,
        message: `Request with ${authorization} refused (key ${authorization.replace(/^Bearer /, "")})`,
        fields: [{ field: "to_address.zip", message: `checked with ${authorization}` }],
      },
      request_id: `req_${authorization.replace(/\W/g, "")}`,
    },
    { status, headers: { "x-request-id": `req_${authorization.slice(-12)}` } },
  );
}

/** Error paths: the service echoing the key, down, refusing the key; a key unreadable or malformed. */
async function exerciseErrorPaths(world: World, into: Exercised): Promise<void> {
  const settings = await routeModule("app.settings");
  const page = await routeModule("app.orders.$orderId");
  const rates = await routeModule("api.extensions.orders.$orderId.rates");
  // A fresh draft on an order of A's own, bought (or not) through every failure below.
  const fresh = world.shopifyA.createOrder({ kind: "domestic" }).order;
  const orderId = fresh.id.split("/").pop() ?? "";
  const { labelId } = await draftOnOrderPage(orderId, asA());
  const label = await db.label.findUniqueOrThrow({ where: { id: labelId } });
  const order = { orderId };
  const tryAll = async (phase: string) => {
    into.answers.set(
      `${phase}: test connection`,
      await invoke(settings.action, postFormAs("/app/settings", { intent: "testConnection" }, asA())),
    );
    into.answers.set(
      `${phase}: get rates`,
      await invoke(
        page.action,
        postFormAs(
          `/app/orders/${orderId}`,
          {
            intent: "get-rates",
            fulfillmentOrderId: label.fulfillmentOrderGid,
            request: openPersonalOrNull(label.request) ?? "{}",
          },
          asA(),
        ),
        order,
      ),
    );
    into.answers.set(
      `${phase}: buy`,
      await invoke(
        page.action,
        postFormAs(`/app/orders/${orderId}`, { intent: "buy", labelId, notifyCustomer: "false" }, asA()),
        order,
      ),
    );
    into.answers.set(
      `${phase}: validate address`,
      await invoke(
        page.action,
        postFormAs(
          `/app/orders/${orderId}`,
          {
            intent: "validate-address",
            fulfillmentOrderId: label.fulfillmentOrderGid,
            address: JSON.stringify({ street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" }),
          },
          asA(),
        ),
        order,
      ),
    );
    into.answers.set(
      `${phase}: extension rates`,
      await invoke(
        rates.action,
        extensionAs(`/api/extensions/orders/${orderId}/rates`, asA(), {
          body: { fulfillmentOrderId: label.fulfillmentOrderGid },
        }),
        order,
      ),
    );
  };

  world.setShippingOverride(echoingService);
  await tryAll("service echoing the key");
  world.setShippingOverride(() => HttpResponse.error() as unknown as Response);
  await tryAll("service unreachable");
  world.setShippingOverride(null);

  into.answers.set(
    "saving a key the service refuses",
    await invoke(settings.action, postFormAs("/app/settings", { intent: "saveApiKey", apiKey: WRONG_KEY }, asA())),
  );
  await tryAll("key refused by the service");
  into.answers.set(
    "saving a malformed key",
    await invoke(
      settings.action,
      postFormAs("/app/settings", { intent: "saveApiKey", apiKey: KEY_A.slice(0, 7) }, asA()),
    ),
  );
  await invoke(settings.action, postFormAs("/app/settings", { intent: "saveApiKey", apiKey: KEY_A }, asA()));
  // The stored key no longer opens (the encryption key changed, or the row was tampered with).
  const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP_A } });
  await db.shopSettings.update({
    where: { shop: SHOP_A },
    data: { apiKeyAuthTag: Buffer.alloc(16, 7).toString("base64") },
  });
  await tryAll("stored key unreadable");
  await db.shopSettings.update({ where: { shop: SHOP_A }, data: { apiKeyAuthTag: row.apiKeyAuthTag } });
}

/** Every secret there is, as typed and as stored. */
async function secretsToFind(): Promise<Record<string, string[]>> {
  const settings = await db.shopSettings.findMany();
  const endpoints = await db.shippingEventEndpoint.findMany();
  const sessions = await db.session.findMany();
  const endpointSecrets = endpoints.flatMap((e) => {
    const opened = openSecret(
      { ciphertext: e.secretCiphertext, iv: e.secretIv, authTag: e.secretAuthTag, keyVersion: e.secretVersion },
      TEST_ENV.APP_ENCRYPTION_KEY,
    );
    return opened.ok ? [opened.value] : [];
  });
  return {
    "the shipping API key": [KEY_A, WRONG_KEY],
    "the shipping API key as stored (sealed)": settings.flatMap((s) =>
      s.apiKeyCiphertext ? [s.apiKeyCiphertext] : [],
    ),
    "the event endpoint's secret": [...endpointSecrets, ...endpoints.map((e) => e.secretCiphertext)],
    "Shopify access tokens": sessions.flatMap((s) => [s.accessToken, s.refreshToken ?? ""]).filter((t) => t.length > 8),
    "the app's client secret": [TEST_ENV.SHOPIFY_API_SECRET],
    "the encryption key": [TEST_ENV.APP_ENCRYPTION_KEY],
  };
}

// Where a secret is meant to be: sealed in its own columns, and Shopify's tokens in sessions.
const SEALED_COLUMNS: Record<string, string[]> = {
  ShopSettings: ["apiKeyCiphertext", "apiKeyIv", "apiKeyAuthTag"],
  ShippingEventEndpoint: ["secretCiphertext", "secretIv", "secretAuthTag"],
  Session: ["accessToken", "refreshToken"],
};

function expectNoSecret(surface: string, text: string, secrets: readonly string[]) {
  const found = secrets.filter((s) => s !== "" && text.includes(s));
  expect(found.map((s) => `${s.slice(0, 6)}… in ${surface}`)).toEqual([]);
}

async function checkSurfaces(checks: Checks, surfaces: Record<string, string>, secrets: Record<string, string[]>) {
  for (const [surface, text] of Object.entries(surfaces)) {
    for (const [what, values] of Object.entries(secrets)) {
      await checks.run("secret", `${what} is not in ${surface}`, () => expectNoSecret(surface, text, values));
    }
  }
}

describe("secrets", () => {
  it("covers every route handler", async () => {
    const checks = createChecks();
    await checks.run("secret", "every route handler is driven while looking for secrets", async () => {
      const implemented = [...Object.keys(SESSION_REQUESTS), ...Object.keys(PUBLIC_AND_WEBHOOKS)];
      expect(await coverageGaps("secrets", implemented)).toEqual({ missing: [], stale: [], both: [] });
    });
    checks.assertAllPassed();
  });

  it("never puts the shipping key, its sealed form, the event secret, tokens, the app secret or the encryption key in a log line, loader data, a page, an error message or the audit trail", async () => {
    const logs = captureLogs();
    const checks = createChecks();
    const world = createWorld();
    const a = await seedShopA(world);
    const exercised: Exercised = { answers: new Map(), pages: new Map() };
    await exerciseSessionRoutes(a, exercised);
    await exerciseErrorPaths(world, exercised);
    for (const [key, run] of Object.entries(PUBLIC_AND_WEBHOOKS)) exercised.answers.set(key, await run(a, world));
    await world.drainJobs();
    const secrets = await secretsToFind();

    // The error paths did refuse: a test that reached no error would prove nothing.
    const errors = [...exercised.answers].filter(([name]) => name.includes(": ") || name.startsWith("saving"));
    expect(errors.length).toBeGreaterThan(20);
    expect(errors.filter(([, answer]) => answer.status >= 400).length).toBeGreaterThan(10);
    expect(exercised.pages.size).toBeGreaterThanOrEqual(6);

    const snapshot = await snapshotDb();
    const auditTrail = JSON.stringify(snapshot.AuditEntry ?? []);
    const otherRows = MODELS.filter((m) => m !== "AuditEntry")
      .map((model) =>
        JSON.stringify(
          (snapshot[model] ?? []).map((row) => {
            const kept = { ...row };
            for (const column of SEALED_COLUMNS[model] ?? []) delete kept[column];
            return kept;
          }),
          (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
        ),
      )
      .join("\n");
    const answers = (filter: (name: string) => boolean) =>
      [...exercised.answers]
        .filter(([name]) => filter(name))
        .map(([name, answer]) => `${name} ${answer.status} ${[...answer.headers].join(" ")} ${answer.text}`)
        .join("\n");
    await checkSurfaces(
      checks,
      {
        "the log": logs.join("\n"),
        "any loader's data": answers((name) => name.endsWith("#loader")),
        "any action's answer": answers((name) => name.endsWith("#action")),
        "any error message": answers((name) => !name.includes("#")),
        "any rendered page": [...exercised.pages.values()].join("\n"),
        "the audit trail": auditTrail,
        "any other row of the database": otherRows,
      },
      secrets,
    );
    // And what the merchant was told still names the problem (the key was not just blanked out).
    const echoed = exercised.answers.get("service echoing the key: get rates");
    expect(echoed?.status).toBe(422);
    expect(auditTrail).toContain("INSUFFICIENT_BALANCE");
    checks.assertAllPassed();
  }, 60_000);

  it("keeps server-only code out of what the browser loads, and no secret in a client build", async () => {
    const checks = createChecks();
    const modules = clientModules();
    await checks.run("secret", "the client graph reaches no module that reads secrets", () => {
      const offenders = modules
        .filter((m) => !m.isRoute)
        .flatMap((m) =>
          m.imports
            .filter((i) => !i.typeOnly && i.file && isServerModule(i.file))
            .map((i) => `${relative(ROOT, m.file)} imports ${i.specifier}`),
        );
      expect(offenders).toEqual([]);
    });
    await checks.run("secret", "no browser module reads the environment, crypto, Prisma or the shipping client", () => {
      const serverOnly =
        /process\.env|APP_ENCRYPTION_KEY|SHOPIFY_API_SECRET|node:crypto|createDecipheriv|apiKeyCiphertext|from ["']@prisma\/client["']|createShippingClient/;
      const offenders = modules
        .filter((m) => !m.isRoute && serverOnly.test(m.source.replace(/^import type .*$/gm, "")))
        .map((m) => relative(ROOT, m.file));
      expect(offenders).toEqual([]);
    });
    await checks.run("secret", "the client graph holds the app's screens (the graph walk works)", () => {
      expect(modules.map((m) => relative(ROOT, m.file))).toEqual(
        expect.arrayContaining(["app/components/order-page/order-label-workspace.tsx", "app/shipments/label-form.ts"]),
      );
    });
    const built = clientBuildFiles();
    if (built.length > 0) {
      // A client build from `npm run build` (or the demo) is there: read every file of it.
      const text = built.map((file) => readFileSync(file, "utf8")).join("\n");
      await checks.run("secret", "the client build holds no secret, no key and no server-only code", () => {
        expectNoSecret("build/client", text, [TEST_ENV.APP_ENCRYPTION_KEY, TEST_ENV.SHOPIFY_API_SECRET, KEY_A]);
        const leaks = [
          /sk_live_[A-Za-z0-9]{6,}/,
          /apiKeyCiphertext/,
          /createDecipheriv/,
          /APP_ENCRYPTION_KEY/,
          /SHOPIFY_API_SECRET/,
          /secret-box/,
        ].filter((pattern) => pattern.test(text));
        expect(leaks.map(String)).toEqual([]);
      });
    }
    checks.assertAllPassed();
  });

  it("requires the encryption key at boot, never echoes it, and never decrypts with the wrong one", async () => {
    const checks = createChecks();
    const { APP_ENCRYPTION_KEY: _key, ...withoutKey } = TEST_ENV;
    await checks.run("secret", "a missing encryption key stops the server naming it", () => {
      expect(() => parseEnv(withoutKey)).toThrow(EnvError);
      expect(() => parseEnv(withoutKey)).toThrow(/APP_ENCRYPTION_KEY is required/);
    });
    const almost = `${TEST_ENV.APP_ENCRYPTION_KEY.slice(0, 63)}g`;
    await checks.run("secret", "a malformed encryption key stops the server without quoting it", () => {
      let message = "";
      try {
        parseEnv({ ...TEST_ENV, APP_ENCRYPTION_KEY: almost });
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      expect(message).toMatch(/APP_ENCRYPTION_KEY must be 64 hex characters/);
      expect(message).not.toContain(almost.slice(0, 16));
    });
    await checks.run(
      "secret",
      "booting the server with a malformed encryption key fails and prints no key",
      async () => {
        const env = { ...process.env, ...TEST_ENV, APP_ENCRYPTION_KEY: almost, NODE_OPTIONS: "" };
        const run = promisify(execFile);
        const outcome = await run(
          process.execPath,
          ["--import", "tsx", "-e", "await import('./app/shopify.server.ts')"],
          { cwd: ROOT, env, timeout: 30_000 },
        ).then(
          (done) => ({ code: 0, output: `${done.stdout}${done.stderr}` }),
          (error: { code?: number; stdout?: string; stderr?: string }) => ({
            code: error.code ?? 1,
            output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
          }),
        );
        expect(outcome.code).not.toBe(0);
        expect(outcome.output).toContain("APP_ENCRYPTION_KEY must be 64 hex characters");
        expect(outcome.output).not.toContain(almost.slice(0, 16));
        expect(outcome.output).not.toContain(TEST_ENV.SHOPIFY_API_SECRET);
      },
    );
    await checks.run(
      "secret",
      "a key sealed with one encryption key does not open with another, and says so without either",
      () => {
        const sealed = sealSecret(KEY_A, TEST_ENV.APP_ENCRYPTION_KEY);
        if (!sealed.ok) throw new Error(sealed.error.logMessage);
        const other = "a".repeat(64);
        const opened = openSecret(sealed.value, other);
        expect(opened.ok).toBe(false);
        const text = JSON.stringify(opened);
        for (const secret of [KEY_A, other, TEST_ENV.APP_ENCRYPTION_KEY]) expect(text).not.toContain(secret);
      },
    );
    checks.assertAllPassed();
  });
});
