// A request that does something real for each route that takes a session token: shop A acting on
// its own orders, labels, runs and settings. The authentication checks send them with broken
// tokens (had the token been accepted, each would have bought, confirmed, removed or read
// something); the secrets checks send them with A's good token and search what comes back.
import db from "~/db.server";

import { listRouteFiles } from "./routes";
import { type As, extensionAs, getAs, KEY_A, postFormAs, type SeededA } from "./world";

export type RouteRequest = {
  route: string;
  handler: "loader" | "action";
  params: Record<string, string>;
  request: Request;
};

type Build = (
  a: SeededA,
  as: As,
) => Promise<Omit<RouteRequest, "route" | "handler">> | Omit<RouteRequest, "route" | "handler">;

async function readyTotals(runId: string) {
  const ready = await db.bulkRunItem.findMany({ where: { runId, status: "ready" } });
  return { count: String(ready.length), totalCents: String(ready.reduce((s, i) => s + (i.quotedCents ?? 0), 0)) };
}

async function draftBuyBody(a: SeededA) {
  const draft = await db.label.findUniqueOrThrow({ where: { id: a.draftLabelId } });
  return {
    fulfillmentOrderId: draft.fulfillmentOrderGid,
    serviceCode: draft.serviceCode,
    expectedCents: draft.quotedCents,
    currency: draft.currency,
  };
}

export const SESSION_REQUESTS: Record<string, Build> = {
  "app._index#loader": (_a, as) => ({ params: {}, request: getAs("/app", as) }),
  "app._index#action": (_a, as) => ({ params: {}, request: postFormAs("/app?index", { orderNumber: "#1001" }, as) }),
  "app.orders._index#loader": (_a, as) => ({ params: {}, request: getAs("/app/orders", as) }),
  "app.activity#loader": (_a, as) => ({ params: {}, request: getAs("/app/activity", as) }),
  "app.activity#action": (a, as) => ({
    params: {},
    request: postFormAs("/app/activity", { intent: "retry-job", jobId: a.deadJobId }, as),
  }),
  "app.bulk#action": (a, as) => ({
    params: {},
    request: postFormAs(
      "/app/bulk",
      { orders: JSON.stringify([{ orderGid: `gid://shopify/Order/${a.sharedOrderId}`, orderName: "#1001" }]) },
      as,
    ),
  }),
  "app.bulk.$runId#loader": (a, as) => ({
    params: { runId: a.reviewRunId },
    request: getAs(`/app/bulk/${a.reviewRunId}`, as),
  }),
  "app.bulk.$runId#action": async (a, as) => ({
    params: { runId: a.reviewRunId },
    request: postFormAs(`/app/bulk/${a.reviewRunId}`, { intent: "confirm", ...(await readyTotals(a.reviewRunId)) }, as),
  }),
  "app.bulk.$runId.print#loader": (a, as) => ({
    params: { runId: a.doneRunId },
    request: getAs(`/app/bulk/${a.doneRunId}/print?format=pdf`, as),
  }),
  "app.labels#loader": (_a, as) => ({ params: {}, request: getAs("/app/labels", as) }),
  "app.labels#action": (a, as) => ({
    params: {},
    request: postFormAs("/app/labels", { intent: "void", labelIds: JSON.stringify([a.boughtLabelId]) }, as),
  }),
  "app.labels.$labelId.print#loader": (a, as) => ({
    params: { labelId: a.boughtLabelId },
    request: getAs(`/app/labels/${a.boughtLabelId}/print`, as),
  }),
  "app.orders-version#loader": (_a, as) => ({ params: {}, request: getAs("/app/orders-version", as) }),
  "app.orders.$orderId#loader": (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: getAs(`/app/orders/${a.sharedOrderId}`, as),
  }),
  "app.orders.$orderId#action": (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: postFormAs(
      `/app/orders/${a.sharedOrderId}`,
      { intent: "buy", labelId: a.draftLabelId, notifyCustomer: "false" },
      as,
    ),
  }),
  "app.orders.$orderId.returns#loader": (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: getAs(`/app/orders/${a.sharedOrderId}/returns`, as),
  }),
  "app.orders.$orderId.returns#action": (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: postFormAs(
      `/app/orders/${a.sharedOrderId}/returns`,
      { intent: "approve", returnId: "gid://shopify/Return/4242" },
      as,
    ),
  }),
  "app.settings#loader": (_a, as) => ({ params: {}, request: getAs("/app/settings", as) }),
  "app.settings#action": (_a, as) => ({
    params: {},
    request: postFormAs("/app/settings", { intent: "saveApiKey", apiKey: KEY_A }, as),
  }),
  "app#loader": (_a, as) => ({ params: {}, request: getAs("/app", as) }),
  "auth.$#loader": (_a, as) => ({ params: { "*": "session-token" }, request: getAs("/auth/session-token", as) }),
  "api.extensions.bulk.preflight#loader": (_a, as) => ({
    params: {},
    request: extensionAs("/api/extensions/bulk/preflight", as),
  }),
  "api.extensions.bulk.preflight#action": (a, as) => ({
    params: {},
    request: extensionAs("/api/extensions/bulk/preflight", as, { body: { orderIds: [a.ownOrderGid] } }),
  }),
  "api.extensions.bulk.runs#loader": (_a, as) => ({
    params: {},
    request: extensionAs("/api/extensions/bulk/runs", as),
  }),
  "api.extensions.bulk.runs#action": (a, as) => ({
    params: {},
    request: extensionAs("/api/extensions/bulk/runs", as, { body: { orderIds: [a.ownOrderGid] } }),
  }),
  "api.extensions.labels.$labelId.void#loader": (a, as) => ({
    params: { labelId: a.boughtLabelId },
    request: extensionAs(`/api/extensions/labels/${a.boughtLabelId}/void`, as),
  }),
  "api.extensions.labels.$labelId.void#action": (a, as) => ({
    params: { labelId: a.boughtLabelId },
    request: extensionAs(`/api/extensions/labels/${a.boughtLabelId}/void`, as, { method: "POST" }),
  }),
  "api.extensions.orders.$orderId.label#loader": (a, as) => ({
    params: { orderId: a.ownOrderId },
    request: extensionAs(`/api/extensions/orders/${a.ownOrderId}/label`, as),
  }),
  "api.extensions.orders.$orderId.label#action": async (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: extensionAs(`/api/extensions/orders/${a.sharedOrderId}/label`, as, { body: await draftBuyBody(a) }),
  }),
  "api.extensions.orders.$orderId.rates#loader": (a, as) => ({
    params: { orderId: a.ownOrderId },
    request: extensionAs(`/api/extensions/orders/${a.ownOrderId}/rates`, as),
  }),
  "api.extensions.orders.$orderId.rates#action": (a, as) => ({
    params: { orderId: a.sharedOrderId },
    request: extensionAs(`/api/extensions/orders/${a.sharedOrderId}/rates`, as, {
      body: { fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${a.sharedOrderId}` },
    }),
  }),
  "api.extensions.print.pdf#loader": (a, as) => ({
    params: {},
    request: extensionAs(`/api/extensions/print/pdf?orders=${a.ownOrderId}`, as),
  }),
  "api.extensions.print.summary#loader": (a, as) => ({
    params: {},
    request: extensionAs(`/api/extensions/print/summary?orderIds=${a.ownOrderId}`, as),
  }),
};

export async function buildSessionRequest(key: string, a: SeededA, as: As): Promise<RouteRequest> {
  const build = SESSION_REQUESTS[key];
  if (!build) throw new Error(`no request for ${key}`);
  const [route, handler] = key.split("#") as [string, "loader" | "action"];
  return { route, handler, ...(await build(a, as)) };
}

/** A route's module by its name in app/routes ("app.orders.$orderId", "auth.login" for auth.login/route.tsx). */
export async function routeModule(route: string): Promise<Record<string, unknown>> {
  const found = listRouteFiles().find((r) => r.route === route || `${r.route}/route` === route);
  if (!found) throw new Error(`no route ${route}`);
  return (await import(/* @vite-ignore */ found.file)) as Record<string, unknown>;
}
