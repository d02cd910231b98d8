import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";

import { renderAdminPage } from "./admin/admin-page";
import { loadWebhookSubscriptions } from "./app-config";
import {
  createOAuthServer,
  type EmulatedApp,
  type EmulatedStaffMember,
  type OAuthServer,
  signSessionToken,
  STAFF_PERMISSION_SCOPES,
  type StaffPermission,
} from "./auth";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator, type ShopifyAdminEmulatorOptions } from "./emulator";
import { fulfillmentTrackingState } from "./fulfillments";
import { DEFAULT_GENERATED_ORDER_COUNT } from "./generated-orders";
import type { FulfillmentOrderRecord, OrderRecord, ReturnRecord } from "./model";
import { DEFAULT_SHOPIFY_PLAN, parseShopifyPlan, SHOPIFY_PLANS } from "./rate-limit";
import { readReturnDecline, readReturnRequestSpec } from "./returns";
import { ADMIN_API_VERSION } from "./schema";
import {
  readCancelReason,
  readHoldReason,
  readNewOrderKind,
  ShopifyEmulatorControlError,
  type ShopifyEmulatorControlErrorCode,
} from "./store-mutations";
import { numericIdOf } from "./webhook-payloads";
import type { WebhookSenderOptions, WebhookSubscription } from "./webhooks";

// The same handlers as the in-process emulator, on a loopback port for the demo and e2e.
// Requests keep Shopify's path (/admin/api/2026-10/graphql.json); the Host header need not be
// the shop domain, since a loopback server can't be reached under it.
//
// With an `app` (the demo), the server also plays Shopify's admin and OAuth server for that one
// embedded app:
//   POST /admin/oauth/access_token     token exchange (and refresh) → access tokens
//   POST /admin/api/2026-10/graphql.json   requires X-Shopify-Access-Token issued above
//   GET  /admin                        → the app's admin page, /store/<store>/apps/<handle>[/app/…]
//   GET  /admin/session-token?shop=    a fresh session token (CORS: the app's origin), for the
//                                      App Bridge stand-in's idToken()
//   GET  /app-bridge.js                the App Bridge stand-in (admin/app-bridge.js)
//   POST /__emulator/reset             back to the seeded store (?tokens=1 also forgets tokens);
//                                      pending webhook deliveries stop and the log empties
//   GET  /__emulator/fulfillments      read-only: the fulfillments apps created through the API
//                                      (order, fulfillment orders, tracking, items, tracking events
//                                      and the display status they give), for browser tests
//
// Control endpoints: what happens in the store outside the app (store-mutations.ts), with the
// webhooks Shopify would send, delivered to the app when the server has `webhooks` (or `app` and
// `webhookSubscriptions`). Ids are the numeric part of the GID; bodies are JSON.
//   POST /__emulator/orders                               {kind?: domestic|international|problem} → 201
//   POST /__emulator/orders/<id>/cancel                   {reason?: CUSTOMER|FRAUD|…}
//   POST /__emulator/orders/<id>/shipping-address         {address1?, city?, zip?, countryCode?…}
//   POST /__emulator/orders/<id>/shipping-line            {title} the merchant renames the shipping method
//   POST /__emulator/fulfillment-orders/<id>/hold         {reason?, notes?}
//   POST /__emulator/fulfillment-orders/<id>/release-hold
//   POST /__emulator/fulfillment-orders/<id>/move         {locationId}
//   POST /__emulator/fulfillment-orders/<id>/mark-ready   a SCHEDULED one opens
//   POST /__emulator/orders/<id>/returns                  a customer asks for a return (REQUESTED) → 201
//                                                         {lineItems?: [{lineItemId, quantity?}], reason?, customerNote?}
//   POST /__emulator/returns/<id>/approve|decline|cancel  the merchant decides ({reason?, note?} to decline)
//   GET  /__emulator/returns                              read-only: every return, its reverse
//                                                         fulfillment orders and their reverse deliveries
//   GET  /__emulator/webhooks                             the events and the delivery log
//   POST /__emulator/webhooks/<eventId>/redeliver         the same event again → 202
// Failures answer {error: {code, message}}: 400 unreadable body, 404 unknown id, 409 not allowed
// in the record's state, 422 invalid input.

export interface EmbeddedAppConfig extends EmulatedApp {
  // The app's URL (SHOPIFY_APP_URL), where the admin page points its iframe.
  appUrl: string;
  handle?: string;
  name?: string;
}

export interface ShopifyAdminEmulatorServer {
  url: string;
  emulator: ShopifyAdminEmulator;
  server: Server;
  // With an app: the admin page that embeds it.
  adminUrl: string | null;
  oauth: OAuthServer | null;
  close: () => Promise<void>;
}

const APP_BRIDGE_SOURCE_PATH = fileURLToPath(new URL("./admin/app-bridge.js", import.meta.url));
const MAX_BODY_BYTES = 5_000_000;

const storeHandleOf = (shop: string) => shop.replace(/\.myshopify\.com$/, "");

/** Shopify's `host` parameter: base64 of the admin's address for the store, without padding. */
export function encodeHost(shop: string): string {
  return Buffer.from(`admin.shopify.com/store/${storeHandleOf(shop)}`)
    .toString("base64")
    .replace(/=+$/, "");
}

/** The query Shopify's admin puts on an embedded app's URL, signed like Shopify's (hmac). */
export function embeddedAppQuery(
  app: Pick<EmulatedApp, "apiKey" | "apiSecret">,
  shop: string,
  now = Date.now(),
): URLSearchParams {
  const params = new URLSearchParams({
    embedded: "1",
    host: encodeHost(shop),
    id_token: signSessionToken(app, shop, { now }),
    locale: "en",
    session: randomBytes(32).toString("hex"),
    shop,
    timestamp: String(Math.floor(now / 1000)),
  });
  const message = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  params.set("hmac", createHmac("sha256", app.apiSecret).update(message).digest("hex"));
  return params;
}

/** What an app's fulfillments look like from Shopify's side, as plain JSON (no GraphQL needed). */
function describeFulfillments(emulator: ShopifyAdminEmulator) {
  const orderNames = new Map(emulator.state().orders.map((o) => [o.id, o.name]));
  return emulator
    .fulfillments()
    .filter((f) => f.createdThroughApi)
    .map((f) => ({
      id: f.id,
      orderId: f.orderId,
      orderName: orderNames.get(f.orderId) ?? null,
      status: f.status,
      fulfillmentOrderIds: f.fulfillmentOrderIds,
      notifyCustomer: f.notifyCustomer,
      trackingInfo: f.trackingInfo,
      // displayStatus, inTransitAt, deliveredAt, estimatedDeliveryAt, as GraphQL answers them.
      ...fulfillmentTrackingState(f),
      // The tracking events (fulfillmentEventCreate), in the order they were created.
      events: (f.events ?? []).map((e) => ({
        id: e.id,
        status: e.status,
        happenedAt: e.happenedAt,
        createdAt: e.createdAt,
        estimatedDeliveryAt: e.estimatedDeliveryAt,
        message: e.message,
        address1: e.address1,
        city: e.city,
        province: e.province,
        zip: e.zip,
        country: e.country,
        latitude: e.latitude,
        longitude: e.longitude,
      })),
      lineItems: f.lineItems.map((l) => ({
        lineItemId: l.lineItem.id,
        fulfillmentOrderLineItemId: l.fulfillmentOrderLineItemId,
        title: l.lineItem.title,
        sku: l.lineItem.sku,
        quantity: l.quantity,
      })),
    }));
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string | Buffer) {
  res.writeHead(status, headers);
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, { "Content-Type": "application/json; charset=utf-8", ...headers }, JSON.stringify(body));

const CONTROL_STATUS: Record<ShopifyEmulatorControlErrorCode, number> = { NOT_FOUND: 404, CONFLICT: 409, INVALID: 422 };

const describeFulfillmentOrder = (fo: FulfillmentOrderRecord) => ({
  id: fo.id,
  numericId: numericIdOf(fo.id),
  status: fo.status,
  locationId: fo.assignedLocation.location.id,
  locationName: fo.assignedLocation.name,
});

/** A return as the control endpoints answer it, with what an app attached (label, tracking). */
function describeReturn(ret: ReturnRecord) {
  return {
    id: ret.id,
    numericId: numericIdOf(ret.id),
    name: ret.name,
    orderId: ret.orderId,
    // "#1017-R1" is the first return of #1017.
    orderName: ret.name.replace(/-R\d+$/, ""),
    status: ret.status,
    decline: ret.decline && { reason: ret.decline.reason, note: ret.decline.note },
    lineItems: ret.returnLineItems.map((l) => ({
      id: l.id,
      lineItemId: l.fulfillmentLineItem.lineItem.id,
      fulfillmentLineItemId: l.fulfillmentLineItem.id,
      title: l.fulfillmentLineItem.lineItem.title,
      quantity: l.quantity,
      returnReason: l.returnReason,
      customerNote: l.customerNote,
    })),
    reverseFulfillmentOrders: ret.reverseFulfillmentOrders.map((rfo) => ({
      id: rfo.id,
      status: rfo.status,
      lineItems: rfo.lineItems.map((l) => ({
        id: l.id,
        lineItemId: l.fulfillmentLineItem.lineItem.id,
        totalQuantity: l.totalQuantity,
      })),
      reverseDeliveries: rfo.reverseDeliveries.map((d) => ({
        id: d.id,
        createdAt: d.createdAt,
        label: d.label,
        tracking: d.tracking,
        customerNotified: d.customerNotified,
        lineItems: d.lineItems,
      })),
    })),
  };
}

function describeOrder(order: OrderRecord) {
  return {
    id: order.id,
    numericId: numericIdOf(order.id),
    name: order.name,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    shippingAddress: order.shippingAddress,
    fulfillmentOrders: order.fulfillmentOrders.map(describeFulfillmentOrder),
  };
}

/** The JSON object a control request sent ({} for no body), or null for anything else. */
function readJsonObject(raw: string): Record<string, unknown> | null {
  if (raw.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const optionalString = (value: unknown, name: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ShopifyEmulatorControlError("INVALID", `${name} must be a string`);
  return value;
};

// One store mutation from a control request: the HTTP status and what to answer.
function runControl(
  emulator: ShopifyAdminEmulator,
  body: Record<string, unknown>,
  orders: RegExpExecArray | null,
  fulfillmentOrders: RegExpExecArray | null,
  returns: RegExpExecArray | null,
): [number, Record<string, unknown>] {
  if (orders?.[2] === "returns") {
    const ret = emulator.requestReturn(orders[1] ?? "", readReturnRequestSpec(body));
    return [201, { return: describeReturn(ret) }];
  }
  if (returns) {
    const id = returns[1] ?? "";
    const ret =
      returns[2] === "approve"
        ? emulator.approveReturn(id)
        : returns[2] === "cancel"
          ? emulator.cancelReturn(id)
          : emulator.declineReturn(id, readReturnDecline(body));
    return [200, { return: describeReturn(ret) }];
  }
  if (orders && !orders[1]) {
    const kind = readNewOrderKind(body.kind);
    const { order } = emulator.createOrder(kind ? { kind } : {});
    return [201, { order: describeOrder(order) }];
  }
  if (orders) {
    const id = orders[1] ?? "";
    const order =
      orders[2] === "cancel"
        ? emulator.cancelOrder(id, readCancelReason(body.reason))
        : orders[2] === "shipping-line"
          ? emulator.updateShippingLine(id, body)
          : emulator.updateShippingAddress(id, body);
    return [200, { order: describeOrder(order) }];
  }
  const id = fulfillmentOrders?.[1] ?? "";
  switch (fulfillmentOrders?.[2]) {
    case "move": {
      const locationId = body.locationId;
      if (typeof locationId !== "string" && typeof locationId !== "number") {
        throw new ShopifyEmulatorControlError("INVALID", "locationId is required (a Location GID or number)");
      }
      const moved = emulator.moveFulfillmentOrder(id, locationId);
      return [
        200,
        {
          originalFulfillmentOrder: describeFulfillmentOrder(moved.originalFulfillmentOrder),
          movedFulfillmentOrder: describeFulfillmentOrder(moved.movedFulfillmentOrder),
        },
      ];
    }
    case "hold": {
      const fo = emulator.holdFulfillmentOrder(id, readHoldReason(body.reason), optionalString(body.notes, "notes"));
      return [200, { fulfillmentOrder: describeFulfillmentOrder(fo) }];
    }
    case "release-hold":
      return [200, { fulfillmentOrder: describeFulfillmentOrder(emulator.releaseFulfillmentOrderHold(id)) }];
    case "mark-ready":
      return [200, { fulfillmentOrder: describeFulfillmentOrder(emulator.markScheduledFulfillmentOrderReady(id)) }];
    default:
      throw new ShopifyEmulatorControlError("NOT_FOUND", "No such control endpoint");
  }
}

// The control endpoints (see the header comment); answers true when it handled the request.
function handleControl(
  emulator: ShopifyAdminEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  raw: string,
) {
  const method = req.method ?? "GET";
  const path = url.pathname;
  if (method === "GET" && path === "/__emulator/webhooks") {
    sendJson(res, 200, {
      subscribed: emulator.webhooks !== null,
      events: emulator.webhookEvents().map((e) => ({
        eventId: e.eventId,
        topic: e.topic,
        triggeredAt: e.triggeredAt,
        urls: emulator.webhooks?.urlsFor(e.topic) ?? [],
      })),
      deliveries: emulator.webhooks?.log() ?? [],
    });
    return true;
  }
  const redeliver = /^\/__emulator\/webhooks\/([^/]+)\/redeliver$/.exec(path);
  const orders = /^\/__emulator\/orders(?:\/(\d+)\/(cancel|shipping-address|shipping-line|returns))?$/.exec(path);
  const fulfillmentOrders = /^\/__emulator\/fulfillment-orders\/(\d+)\/(hold|release-hold|move|mark-ready)$/.exec(path);
  const returns = /^\/__emulator\/returns\/(\d+)\/(approve|decline|cancel)$/.exec(path);
  if (method === "GET" && path === "/__emulator/returns") {
    sendJson(res, 200, { returns: emulator.returns().map(({ ret }) => describeReturn(ret)) });
    return true;
  }
  if (method !== "POST" || !(redeliver || orders || fulfillmentOrders || returns)) return false;
  const body = readJsonObject(raw);
  if (!body) {
    sendJson(res, 400, { error: { code: "BAD_REQUEST", message: "The body must be a JSON object" } });
    return true;
  }
  try {
    if (redeliver) {
      const eventId = redeliver[1] ?? "";
      const deliveries = emulator.webhooks?.redeliver(eventId);
      if (!deliveries) throw new ShopifyEmulatorControlError("NOT_FOUND", `No webhook event ${eventId}`);
      sendJson(res, 202, { eventId, deliveries });
      return true;
    }
    const before = emulator.webhookEvents().length;
    const [status, answer] = runControl(emulator, body, orders, fulfillmentOrders, returns);
    sendJson(res, status, {
      ...answer,
      // What the store emitted and where each event goes (nowhere when unsubscribed): the admin
      // page says whether the app hears of it.
      events: emulator
        .webhookEvents()
        .slice(before)
        .map((e) => ({ eventId: e.eventId, topic: e.topic, urls: emulator.webhooks?.urlsFor(e.topic) ?? [] })),
    });
  } catch (error) {
    if (!(error instanceof ShopifyEmulatorControlError)) throw error;
    sendJson(res, CONTROL_STATUS[error.code], { error: { code: error.code, message: error.message } });
  }
  return true;
}

function parseFormOrJson(contentType: string | undefined, raw: string): Record<string, string> {
  if (contentType?.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== "object" || parsed === null) return {};
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

export interface ShopifyAdminEmulatorServerOptions extends ShopifyAdminEmulatorOptions {
  port?: number;
  host?: string;
  app?: EmbeddedAppConfig;
  // With `app` and no `webhooks`: deliver to app.appUrl, signed with app.apiSecret.
  webhookSubscriptions?: readonly WebhookSubscription[];
}

/** The webhook delivery a server gets: `webhooks` as given, or derived from `app` + subscriptions. */
function webhooksFor(options: ShopifyAdminEmulatorServerOptions): WebhookSenderOptions | undefined {
  if (options.webhooks) return options.webhooks;
  if (!options.app || !options.webhookSubscriptions) return undefined;
  return {
    appUrl: options.app.appUrl,
    apiSecret: options.app.apiSecret,
    subscriptions: options.webhookSubscriptions,
  };
}

export async function startShopifyAdminEmulatorServer(
  options: ShopifyAdminEmulatorServerOptions = {},
): Promise<ShopifyAdminEmulatorServer> {
  const host = options.host ?? "127.0.0.1";
  const webhooks = webhooksFor(options);
  // The admin's app gets only what its scopes reach, as on Shopify.
  const accessScopes = options.accessScopes ?? options.app?.scopes;
  const emulator = createShopifyAdminEmulator({
    ...options,
    ...(webhooks ? { webhooks } : {}),
    ...(accessScopes ? { accessScopes } : {}),
  });
  const app = options.app;
  const oauth = app ? createOAuthServer(app, emulator.shop, options.now) : null;
  const appOrigin = app ? new URL(app.appUrl).origin : null;
  const adminBasePath = app ? `/store/${storeHandleOf(emulator.shop)}/apps/${app.handle ?? "ship-orders"}` : null;
  let appBridgeSource: string | undefined;
  const graphqlPath = `/admin/api/${ADMIN_API_VERSION}/graphql.json`;

  const corsHeaders = (): Record<string, string> =>
    appOrigin
      ? { "Access-Control-Allow-Origin": appOrigin, Vary: "Origin", "Access-Control-Allow-Headers": "Content-Type" }
      : {};

  // The admin's own routes; answers true when it handled the request.
  const handleAdmin = (req: IncomingMessage, res: ServerResponse, url: URL, raw: string): boolean => {
    if (!app || !oauth || !adminBasePath || !appOrigin) return false;
    const method = req.method ?? "GET";
    if (method === "POST" && url.pathname === "/admin/oauth/access_token") {
      const answer = oauth.handleAccessTokenRequest(parseFormOrJson(req.headers["content-type"], raw));
      sendJson(res, answer.status, answer.body);
      return true;
    }
    if (url.pathname === "/admin/session-token") {
      if (method === "OPTIONS") {
        send(res, 204, { ...corsHeaders(), "Access-Control-Allow-Methods": "GET" });
        return true;
      }
      const shop = url.searchParams.get("shop");
      if (shop !== emulator.shop || url.searchParams.get("api_key") !== app.apiKey) {
        sendJson(res, 400, { error: `unknown shop or app: ${shop ?? "(none)"}` }, corsHeaders());
        return true;
      }
      const token = signSessionToken(app, emulator.shop, options.now ? { now: options.now() } : {});
      const exp = (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp: number }).exp;
      sendJson(res, 200, { token, exp }, { ...corsHeaders(), "Cache-Control": "no-store" });
      return true;
    }
    if (method === "GET" && url.pathname === "/app-bridge.js") {
      appBridgeSource ??= readFileSync(APP_BRIDGE_SOURCE_PATH, "utf8");
      send(
        res,
        200,
        { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
        appBridgeSource,
      );
      return true;
    }
    if (method === "GET" && (url.pathname === "/" || url.pathname === "/admin" || url.pathname === "/admin/")) {
      send(res, 302, { Location: adminBasePath });
      return true;
    }
    if (method === "GET" && (url.pathname === adminBasePath || url.pathname.startsWith(`${adminBasePath}/`))) {
      // /store/demo-shop/apps/ship-orders/app/labels opens the app at /app/labels, like Shopify's admin.
      const suffix = url.pathname.slice(adminBasePath.length);
      const appPath = suffix === "" || suffix === "/" ? "/app" : suffix;
      const query = embeddedAppQuery(app, emulator.shop, options.now?.());
      for (const [key, value] of url.searchParams) if (!query.has(key)) query.set(key, value);
      const iframeSrc = `${app.appUrl.replace(/\/$/, "")}${appPath}?${query.toString()}`;
      const html = renderAdminPage({
        storeName: emulator.state().shop.name,
        storeHandle: storeHandleOf(emulator.shop),
        appName: app.name ?? "Ship Orders",
        appHandle: app.handle ?? "ship-orders",
        appOrigin,
        iframeSrc,
        adminBasePath,
        appPath,
      });
      send(res, 200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }, html);
      return true;
    }
    if (method === "GET" && url.pathname === "/favicon.ico") {
      send(res, 204, {});
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.socket.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://emulator.invalid");
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        if (req.method === "POST" && url.pathname === "/__emulator/reset") {
          emulator.reset();
          if (url.searchParams.get("tokens") === "1") oauth?.reset();
          res.writeHead(204).end();
          return;
        }
        if (req.method === "POST" && url.pathname === "/__emulator/staff" && oauth) {
          // A staff member with limited permissions: their online tokens keep only what those allow.
          const member = parseStaffMember(body?.toString("utf8") ?? "");
          if (!member) {
            sendJson(res, 400, { error: "expected { id, firstName, lastName, email, accountOwner, permissions }" });
            return;
          }
          oauth.setStaffMember(member);
          res.writeHead(204).end();
          return;
        }
        if (req.method === "GET" && url.pathname === "/__emulator/fulfillments") {
          sendJson(res, 200, { fulfillments: describeFulfillments(emulator) });
          return;
        }
        if (handleControl(emulator, req, res, url, body?.toString("utf8") ?? "")) return;
        if (handleAdmin(req, res, url, body?.toString("utf8") ?? "")) return;
        if (oauth && url.pathname === graphqlPath) {
          const token = req.headers["x-shopify-access-token"];
          if (!oauth.isValidAccessToken(typeof token === "string" ? token : null)) {
            sendJson(res, 401, {
              errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
            });
            return;
          }
        }
        const headers = new Headers();
        for (const [key, value] of Object.entries(req.headers)) {
          if (typeof value === "string") headers.set(key, value);
        }
        const response = await emulator.fetch(`https://${emulator.shop}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
        });
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { errors: `emulator failure: ${String(error)}` });
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  return {
    url,
    emulator,
    server,
    adminUrl: adminBasePath ? `${url}${adminBasePath}` : null,
    oauth,
    close: () =>
      new Promise<void>((resolve, reject) => {
        emulator.close();
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readFlag(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1) : argv[index + 1];
}

// `tsx emulator/shopify/server.ts [--port 4545] [--orders 300] [--plan standard|advanced|plus|enterprise]`
// runs it standalone (SHOPIFY_EMULATOR_PLAN also sets the plan; default standard). With
// SHOPIFY_API_KEY, SHOPIFY_API_SECRET and SHOPIFY_APP_URL set, it also plays the admin for that app
// and delivers webhooks to it, for the subscriptions in shopify.app.toml.
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const argv = process.argv.slice(2);
  const port = Number(readFlag(argv, "--port") ?? process.env.SHOPIFY_EMULATOR_PORT ?? 4545);
  const generatedOrders = Number(readFlag(argv, "--orders") ?? process.env.SHOPIFY_EMULATOR_ORDERS ?? 0);
  const planName = readFlag(argv, "--plan") ?? process.env.SHOPIFY_EMULATOR_PLAN;
  const plan = planName === undefined ? DEFAULT_SHOPIFY_PLAN : parseShopifyPlan(planName);
  if (!plan) {
    console.error(`Unknown Shopify plan ${planName}: use one of ${SHOPIFY_PLANS.join(", ")}.`);
    process.exit(1);
  }
  const { SHOPIFY_API_KEY: apiKey, SHOPIFY_API_SECRET: apiSecret, SHOPIFY_APP_URL: appUrl } = process.env;
  const app =
    apiKey && apiSecret && appUrl
      ? { apiKey, apiSecret, appUrl, scopes: (process.env.SCOPES ?? "read_orders").split(",") }
      : undefined;
  const running = await startShopifyAdminEmulatorServer({
    port,
    plan,
    generatedOrders:
      Number.isInteger(generatedOrders) && generatedOrders >= 0 ? generatedOrders : DEFAULT_GENERATED_ORDER_COUNT,
    ...(app ? { app, webhookSubscriptions: loadWebhookSubscriptions() } : {}),
  });
  const { maximumAvailable, restoreRate } = running.emulator.rateLimit;
  console.log(
    `Shopify Admin emulator for ${running.emulator.shop} at ${running.url}${graphqlPathFor()}` +
      (running.adminUrl ? `; admin at ${running.adminUrl}` : "") +
      `; ${plan} plan (${maximumAvailable} points, ${restoreRate}/s)`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

function graphqlPathFor() {
  return `/admin/api/${ADMIN_API_VERSION}/graphql.json`;
}

function parseStaffMember(raw: string): EmulatedStaffMember | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const strings = [v.id, v.firstName, v.lastName, v.email];
  if (!strings.every((s) => typeof s === "string" && s !== "") || typeof v.accountOwner !== "boolean") return null;
  if (!Array.isArray(v.permissions)) return null;
  const permissions = v.permissions.filter(
    (p): p is StaffPermission => typeof p === "string" && p in STAFF_PERMISSION_SCOPES,
  );
  if (permissions.length !== v.permissions.length) return null;
  return {
    id: String(v.id),
    firstName: String(v.firstName),
    lastName: String(v.lastName),
    email: String(v.email),
    accountOwner: v.accountOwner,
    permissions,
  };
}
