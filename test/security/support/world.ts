// Two shops on one app, one shipping service and Shopify's OAuth server, all emulated in-process:
// shop A with a bit of everything (settings, box presets, a bought label, a draft, bulk runs,
// shipping events, a dead job, a customer data request), built through the app's own routes
// and worker where it can be, and shop B with its own key and session. The security tests then
// act as B (or as nobody) against A's ids and compare the database and the service's books.
import { Prisma } from "@prisma/client";
import { http, HttpResponse } from "msw";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { expect } from "vitest";

import db from "~/db.server";
import { createWorkerJobs } from "~/jobs/worker-jobs.server";
import { jobQueueFor } from "~/queue/queue.server";
import { signShippingEvent } from "~/shipping/event-signature";

import { findEventEndpoint } from "../../../app/settings/shipping-event-endpoint.server";
import { loadDefaultConfig } from "../../../emulator/shipping/config";
import { createShippingEmulator, type ShippingEmulator } from "../../../emulator/shipping/emulator";
import { createOAuthServer, type OAuthServer } from "../../../emulator/shopify/auth";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { routeAdminToEmulator, server } from "../../helpers/msw";
import { routeArgs } from "../../helpers/route-args";
import { createSessionToken, createWebhookRequest, type SessionTokenOptions } from "../../helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../setup/test-env";

export const SHOP_A = TEST_SHOP;
export const SHOP_B = "rival-shop.myshopify.com";
/** Shop A's shipping API key: distinctive, so a search for it finds only real leaks. */
export const KEY_A = "sk_live_Zq8vN3pX7kW2rT5yHm4Lc9Dd";
export const KEY_B = "sk_live_other";
export const ORG_A = "org_demo";
export const ORG_B = "org_other";
export const STAFF_A = "42";
export const STAFF_B = "9001";
export const APP_SCOPES = TEST_ENV.SCOPES.split(",");

type Params = Record<string, string>;
type AnyHandler = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/** What a route answered, however it answered (data, a Response, a thrown Response). */
export type Answer = { status: number; headers: Headers; text: string; json: unknown };

export async function invoke(handler: unknown, request: Request, params: Params = {}): Promise<Answer> {
  let result: unknown;
  try {
    result = await (handler as AnyHandler)(routeArgs(request, params));
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: result.status, headers: result.headers, text, json };
  }
  const text = JSON.stringify((await settleStreamed(result)) ?? null);
  return { status: 200, headers: new Headers(), text, json: JSON.parse(text) };
}

/**
 * A loader's data as the browser ends up with it: each promise it streams (single fetch: the order
 * page's rates) replaced by what it settles to, so those values are checked like the rest.
 */
async function settleStreamed(value: unknown): Promise<unknown> {
  if (value instanceof Promise) {
    return settleStreamed(await value.catch((error: unknown) => ({ rejected: String(error) })));
  }
  if (Array.isArray(value)) return Promise.all(value.map(settleStreamed));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await settleStreamed(v)]));
    return Object.fromEntries(entries);
  }
  return value;
}

// ---------- Requests ----------

const url = (path: string) => new URL(path, TEST_ENV.SHOPIFY_APP_URL);

export type As = SessionTokenOptions & { token?: string | null };

function authHeaders(as: As): Headers {
  const headers = new Headers();
  const token = as.token === undefined ? createSessionToken(as) : as.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  return headers;
}

/** A GET from the embedded app (App Bridge's fetch: the session token as a bearer). */
export function getAs(path: string, as: As): Request {
  return new Request(url(path), { headers: authHeaders(as) });
}

/** A form post from the embedded app, as fetcher.submit sends it. */
export function postFormAs(path: string, fields: Record<string, string>, as: As): Request {
  const headers = authHeaders(as);
  headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
  return new Request(url(path), { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

export const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

/** An admin extension's fetch: cross-origin, JSON, the session token as a bearer. */
export function extensionAs(
  path: string,
  as: As,
  options: { method?: string; body?: unknown; rawBody?: string } = {},
): Request {
  const headers = authHeaders(as);
  headers.set("Origin", EXTENSION_ORIGIN);
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  if (hasBody) headers.set("Content-Type", "application/json");
  return new Request(url(path), {
    method: options.method ?? (hasBody ? "POST" : "GET"),
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
}

export const asA = (extra: As = {}): As => ({ shop: SHOP_A, userId: STAFF_A, ...extra });
export const asB = (extra: As = {}): As => ({ shop: SHOP_B, userId: STAFF_B, ...extra });

// ---------- The database ----------

export const MODELS = Prisma.dmmf.datamodel.models.map((m) => m.name);
type Row = Record<string, unknown>;
export type Snapshot = Record<string, Row[]>;

const delegateOf = (model: string) =>
  (db as unknown as Record<string, { findMany: () => Promise<Row[]> }>)[model.charAt(0).toLowerCase() + model.slice(1)];

const sortKey = (row: Row) => JSON.stringify(row, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** Every row of every model (found from Prisma's schema, so a new model is included). */
export async function snapshotDb(): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const model of MODELS) {
    const delegate = delegateOf(model);
    if (!delegate) throw new Error(`no Prisma delegate for model ${model}`);
    const rows = await delegate.findMany();
    snapshot[model] = rows.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
  }
  return snapshot;
}

/** The rows whose shop is not `shop`: what another shop's requests may never change. */
export function withoutShop(snapshot: Snapshot, shop: string): Snapshot {
  return Object.fromEntries(
    Object.entries(snapshot).map(([model, rows]) => [model, rows.filter((r) => r.shop !== shop)]),
  );
}

export function rowCounts(snapshot: Snapshot): Record<string, number> {
  return Object.fromEntries(Object.entries(snapshot).map(([model, rows]) => [model, rows.length]));
}

/**
 * The rows that differ between two snapshots, by model, for a failure message. The personal-data
 * access log is left out: it records reads (ADR 28), and a request that only read changed nothing.
 */
export function describeChanges(before: Snapshot, after: Snapshot): string {
  const lines: string[] = [];
  for (const model of MODELS) {
    if (model === "PersonalDataAccess") continue;
    const was = new Set((before[model] ?? []).map(sortKey));
    const now = new Set((after[model] ?? []).map(sortKey));
    for (const row of now) if (!was.has(row)) lines.push(`+ ${model} ${row.slice(0, 300)}`);
    for (const row of was) if (!now.has(row)) lines.push(`- ${model} ${row.slice(0, 300)}`);
  }
  return lines.join("\n") || "(no change)";
}

export function expectUnchanged(before: Snapshot, after: Snapshot, what: string): void {
  const changes = describeChanges(before, after);
  expect(changes, `${what} changed rows`).toBe("(no change)");
}

// ---------- Shopify's OAuth server and the shipping service ----------

/** Routes the shop's token exchange to an emulated OAuth server; counts the exchanges. */
export function routeOAuthToEmulator(oauth: OAuthServer, shop: string) {
  const exchanges: { requestedTokenType: string; status: number }[] = [];
  server.use(
    http.post(`https://${shop}/admin/oauth/access_token`, async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      const answer = oauth.handleAccessTokenRequest(body);
      exchanges.push({ requestedTokenType: body.requested_token_type ?? "", status: answer.status });
      return HttpResponse.json(answer.body, { status: answer.status });
    }),
  );
  return exchanges;
}

export type ShippingCall = { key: string; method: string; path: string };

export type World = {
  shopifyA: ShopifyAdminEmulator;
  shopifyB: ShopifyAdminEmulator;
  oauthA: OAuthServer;
  oauthB: OAuthServer;
  shipping: ShippingEmulator;
  /** Every request the shipping service received, with the key it carried. */
  shippingCalls: ShippingCall[];
  /** Answers the service's requests in place of the emulator while set (undefined: the emulator answers). */
  setShippingOverride(answer: ((request: Request) => Response | undefined) | null): void;
  exchangesA: { requestedTokenType: string; status: number }[];
  exchangesB: { requestedTokenType: string; status: number }[];
  /** What the service has billed and created, per organization. */
  books(): Record<string, { charges: number; labels: number; validations: number }>;
  /** Runs every queued job with the worker's real jobs until none is left. */
  drainJobs(): Promise<void>;
};

/** The emulated services for both shops; nothing is seeded in the database yet. */
export function createWorld(): World {
  const shopifyA = routeAdminToEmulator(createShopifyAdminEmulator({ shop: SHOP_A }), SHOP_A);
  const shopifyB = routeAdminToEmulator(createShopifyAdminEmulator({ shop: SHOP_B }), SHOP_B);
  const app = { apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET, scopes: APP_SCOPES };
  const oauthA = createOAuthServer(app, SHOP_A);
  const oauthB = createOAuthServer(app, SHOP_B);
  const exchangesA = routeOAuthToEmulator(oauthA, SHOP_A);
  const exchangesB = routeOAuthToEmulator(oauthB, SHOP_B);

  const config = loadDefaultConfig();
  config.keys[KEY_A] = { organization: ORG_A, sandbox: false };
  // The service's events reach the app's own route, in-process.
  const deliverToApp = async (target: string, init: RequestInit) => {
    const { action } = await import("~/routes/webhooks.shipping.$endpoint");
    const request = new Request(target, init);
    const endpoint = new URL(request.url).pathname.split("/").pop() ?? "";
    return (await action(routeArgs(request, { endpoint }))) as Response;
  };
  const shipping = createShippingEmulator({ config, delivery: { fetch: deliverToApp, retryDelaysMs: [] } });
  const shippingCalls: ShippingCall[] = [];
  let override: ((request: Request) => Response | undefined) | null = null;
  server.use(
    http.all(`${TEST_ENV.SHIPPING_API_BASE_URL}/*`, ({ request }) => {
      const key = /^Bearer\s+(\S+)$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
      shippingCalls.push({ key, method: request.method, path: new URL(request.url).pathname });
      return override?.(request) ?? shipping.fetch(request);
    }),
  );

  const queue = jobQueueFor(db);
  const drainJobs = async () => {
    const jobErrors: string[] = [];
    const deadBefore = await db.job.count({ where: { status: "dead" } });
    const worker = queue.createWorker(createWorkerJobs(db, queue, () => {}).definitions, {
      pollIntervalMs: 5,
      emptyRecheckMs: 0,
      log: {
        info: () => {},
        error: (line: string, error?: unknown) =>
          jobErrors.push(`${line}: ${error instanceof Error ? error.message : String(error ?? "")}`),
      },
    });
    worker.start();
    try {
      // A job that failed waits for its retry: time passes here at once (its retry is due now),
      // as often as it takes, so what a worker would get to eventually is done when this returns.
      for (let round = 0; round < 8; round++) {
        await expect
          .poll(
            async () => {
              await shipping.flushDeliveries();
              return db.job.count({ where: { status: { in: ["queued", "running"] }, runAt: { lte: new Date() } } });
            },
            { timeout: 15_000, interval: 10 },
          )
          .toBe(0);
        const waiting = await db.job.updateMany({ where: { status: "queued" }, data: { runAt: new Date() } });
        if (waiting.count === 0) break;
      }
    } finally {
      await worker.stop({ graceMs: 5_000 });
    }
    await shipping.flushDeliveries();
    expect(await db.job.count({ where: { status: { in: ["queued", "running"] } } }), jobErrors.join("\n")).toBe(0);
    expect(await db.job.count({ where: { status: "dead" } }), `jobs died:\n${jobErrors.join("\n")}`).toBe(deadBefore);
  };

  return {
    shopifyA,
    shopifyB,
    oauthA,
    oauthB,
    shipping,
    shippingCalls,
    setShippingOverride: (answer) => {
      override = answer;
    },
    exchangesA,
    exchangesB,
    books: () =>
      Object.fromEntries(
        [ORG_A, ORG_B].map((org) => [
          org,
          {
            charges: shipping.charges(org).length,
            labels: shipping.labelsCreated(org),
            validations: shipping.validationsBilled(org),
          },
        ]),
      ),
    drainJobs,
  };
}

// ---------- Seeding shop A ----------

export type SeededA = {
  /** #1001: an order both stores have (the seeded ids are the same), with A's draft label. */
  sharedOrderId: string;
  draftLabelId: string;
  /** An order only A's store has, with A's bought label. */
  ownOrderId: string;
  ownOrderGid: string;
  boughtLabelId: string;
  ownFulfillmentOrderGid: string;
  /** The service's record of that bought label, as its label.purchased event carries it. */
  boughtLabelRecord: Record<string, unknown>;
  /** A run waiting for A's review: confirming it would spend A's money. */
  reviewRunId: string;
  /** A run whose labels were bought: printable. */
  doneRunId: string;
  boxPresetId: string;
  deadJobId: string;
  endpointKey: string;
  /** The plaintext secret A's shipping events are signed with. */
  endpointSecret: string;
  serviceLabelIds: string[];
  trackingNumbers: string[];
};

const legacyId = (gid: string) => gid.split("/").pop() ?? "";

async function expectOk(answer: Promise<Answer>, what: string): Promise<Answer> {
  const result = await answer;
  expect(result.status, `${what}: ${result.text.slice(0, 300)}`).toBeLessThan(400);
  return result;
}

/** Drafts the cheapest rate for the order's first shipment on the order page, as `as`. */
export async function draftOnOrderPage(orderId: string, as: As) {
  const page = await import("~/routes/app.orders.$orderId/route");
  const loaded = await expectOk(invoke(page.loader, getAs(`/app/orders/${orderId}`, as), { orderId }), "order page");
  const section = (loaded.json as { page: { fulfillmentOrders: { id: string; prefill: Record<string, unknown> }[] } })
    .page.fulfillmentOrders[0];
  if (!section) throw new Error(`order ${orderId} has no shipment`);
  const request = JSON.stringify(section.prefill.request);
  const rates = await expectOk(
    invoke(
      page.action,
      postFormAs(`/app/orders/${orderId}`, { intent: "get-rates", fulfillmentOrderId: section.id, request }, as),
      { orderId },
    ),
    "get rates",
  );
  const rate = (rates.json as { rates: unknown[] }).rates[0];
  const draft = await expectOk(
    invoke(
      page.action,
      postFormAs(
        `/app/orders/${orderId}`,
        {
          intent: "create-draft",
          fulfillmentOrderId: section.id,
          request,
          lineItems: JSON.stringify(section.prefill.lineItems),
          rate: JSON.stringify(rate),
        },
        as,
      ),
      { orderId },
    ),
    "create draft",
  );
  return { labelId: String((draft.json as { labelId: string }).labelId), fulfillmentOrderGid: section.id };
}

async function buyOnOrderPage(orderId: string, labelId: string, as: As) {
  const page = await import("~/routes/app.orders.$orderId/route");
  await expectOk(
    invoke(page.action, postFormAs(`/app/orders/${orderId}`, { intent: "buy", labelId, notifyCustomer: "false" }, as), {
      orderId,
    }),
    "buy",
  );
}

async function startRun(orders: { orderGid: string; orderName: string }[], as: As): Promise<string> {
  const bulk = await import("~/routes/app.bulk");
  const answer = await invoke(bulk.action, postFormAs("/app/bulk", { orders: JSON.stringify(orders) }, as));
  const location = answer.headers.get("Location") ?? "";
  const runId = /\/app\/bulk\/([a-z0-9]+)/.exec(location)?.[1];
  if (!runId) throw new Error(`no run started: ${answer.status} ${answer.text}`);
  return runId;
}

/** Connects a shop's shipping key through Settings (which also registers its event endpoint). */
export async function saveKey(shop: "A" | "B"): Promise<void> {
  const settings = await import("~/routes/app.settings/route");
  const as = shop === "A" ? asA() : asB();
  const key = shop === "A" ? KEY_A : KEY_B;
  await expectOk(
    invoke(settings.action, postFormAs("/app/settings", { intent: "saveApiKey", apiKey: key }, as)),
    "key",
  );
}

export async function seedShopA(world: World): Promise<SeededA> {
  const as = asA();
  await saveKey("A");
  const settings = await import("~/routes/app.settings/route");
  await expectOk(
    invoke(
      settings.action,
      postFormAs(
        "/app/settings",
        {
          intent: "createBox",
          name: "A's secret box",
          length: "30",
          width: "20",
          height: "10",
          dimensionUnit: "cm",
          maxWeight: "10",
          weightUnit: "kg",
          tareWeight: "0.2",
        },
        as,
      ),
    ),
    "create box",
  );
  const boxPresetId = (await db.boxPreset.findFirstOrThrow({ where: { shop: SHOP_A } })).id;

  const shared = world.shopifyA.findOrderByName("#1001");
  if (!shared) throw new Error("no #1001");
  const sharedOrderId = legacyId(shared.id);
  const draft = await draftOnOrderPage(sharedOrderId, as);

  const own = world.shopifyA.createOrder({ kind: "domestic" }).order;
  const ownOrderId = legacyId(own.id);
  const bought = await draftOnOrderPage(ownOrderId, as);
  await buyOnOrderPage(ownOrderId, bought.labelId, as);

  const names = (...ns: string[]) =>
    ns.map((name) => {
      const order = world.shopifyA.findOrderByName(name);
      if (!order) throw new Error(`no ${name}`);
      return { orderGid: order.id, orderName: name };
    });
  const reviewRunId = await startRun(names("#1002", "#1003"), as);
  const toBuy = world.shopifyA.createOrder({ kind: "domestic" }).order;
  const doneRunId = await startRun([{ orderGid: toBuy.id, orderName: toBuy.name }], as);
  await world.drainJobs();
  const runPage = await import("~/routes/app.bulk.$runId/route");
  const run = (await invoke(runPage.loader, getAs(`/app/bulk/${doneRunId}`, as), { runId: doneRunId })).json as {
    run: { totalCents: number; status: string; counts: { ready: number } };
  };
  expect(run.run.status).toBe("review");
  await expectOk(
    invoke(
      runPage.action,
      postFormAs(
        `/app/bulk/${doneRunId}`,
        { intent: "confirm", count: String(run.run.counts.ready), totalCents: String(run.run.totalCents) },
        as,
      ),
      { runId: doneRunId },
    ),
    "confirm",
  );
  await world.drainJobs();
  expect((await db.bulkRun.findUniqueOrThrow({ where: { id: doneRunId } })).status).toBe("done");
  expect((await db.bulkRun.findUniqueOrThrow({ where: { id: reviewRunId } })).status).toBe("review");

  // Background work A has on file: a task that gave up, a customer's data request, an event
  // about a label of no order of A's.
  const deadJob = await db.job.create({
    data: { shop: SHOP_A, name: "auto-draft", status: "dead", attempts: 5, lastError: "A's failure", payload: "{}" },
  });
  const compliance = await import("~/routes/webhooks.compliance");
  await expectOk(
    invoke(
      compliance.action,
      createWebhookRequest({
        topic: "customers/data_request",
        path: "/webhooks/compliance",
        shop: SHOP_A,
        payload: {
          shop_id: 1,
          shop_domain: SHOP_A,
          orders_requested: [Number(sharedOrderId)],
          customer: { id: 1, email: "a@example.com" },
          data_request: { id: 1 },
        },
      }),
    ),
    "data request",
  );
  const endpoint = await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: SHOP_A } });
  const found = await findEventEndpoint(db, endpoint.endpointKey);
  if (!found) throw new Error("A's event endpoint does not open");
  await deliverShippingEvent(endpoint.endpointKey, found.secret, {
    id: "evt_a_foreign",
    type: "label.purchased",
    created_at: new Date().toISOString(),
    organization: ORG_A,
    data: { label: { id: "lbl_bought_elsewhere_a" } },
  });
  await world.drainJobs();

  const labels = await db.label.findMany({ where: { shop: SHOP_A } });
  const serviceLabelId = labels.find((l) => l.id === bought.labelId)?.serviceLabelId ?? "";
  // Read at the service directly (not through the app): a free read, not counted as the app's call.
  const record = await world.shipping.fetch(`${TEST_ENV.SHIPPING_API_BASE_URL}/v1/labels/${serviceLabelId}`, {
    headers: { Authorization: `Bearer ${KEY_A}` },
  });
  return {
    sharedOrderId,
    draftLabelId: draft.labelId,
    ownOrderId,
    ownOrderGid: own.id,
    boughtLabelId: bought.labelId,
    ownFulfillmentOrderGid: bought.fulfillmentOrderGid,
    boughtLabelRecord: (await record.json()) as Record<string, unknown>,
    reviewRunId,
    doneRunId,
    boxPresetId,
    deadJobId: deadJob.id,
    endpointKey: endpoint.endpointKey,
    endpointSecret: found.secret,
    serviceLabelIds: labels.flatMap((l) => (l.serviceLabelId ? [l.serviceLabelId] : [])),
    trackingNumbers: labels.flatMap((l) => JSON.parse(l.trackingNumbers) as string[]),
  };
}

export async function deliverShippingEvent(
  endpointKey: string,
  secret: string,
  event: unknown,
  options: { t?: number; header?: string | null } = {},
): Promise<Answer> {
  const { action } = await import("~/routes/webhooks.shipping.$endpoint");
  const body = JSON.stringify(event);
  const t = options.t ?? Math.floor(Date.now() / 1000);
  const headers = new Headers({ "Content-Type": "application/json" });
  const signature = options.header === undefined ? `t=${t},v1=${signShippingEvent(secret, body, t)}` : options.header;
  if (signature !== null) headers.set("Shipping-Signature", signature);
  const request = new Request(url(`/webhooks/shipping/${endpointKey}`), { method: "POST", headers, body });
  return invoke(action, request, { endpoint: endpointKey });
}

/**
 * Strings only shop A's data holds (row ids, the service's label ids, tracking numbers, A-only
 * order ids): none may appear in anything answered to shop B.
 */
export async function identifiersOfA(seeded: SeededA): Promise<string[]> {
  const snapshot = await snapshotDb();
  const ids = new Set<string>();
  for (const rows of Object.values(snapshot)) {
    for (const row of rows) {
      if (row.shop === SHOP_A && typeof row.id === "string" && row.id.length >= 10) ids.add(row.id);
    }
  }
  // (A's order ids are not among them: B names them itself in these attempts.)
  for (const value of [...seeded.serviceLabelIds, ...seeded.trackingNumbers, seeded.endpointKey]) {
    ids.add(value);
  }
  ids.delete(`offline_${SHOP_A}`);
  return [...ids];
}

export function leakedIn(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}
