// /v1/webhook_endpoints (register, list, delete) and the emission of an event to the endpoints
// of its organization that subscribe to its type.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import {
  type EventEnvelope,
  type EventType,
  findWebhookUrlProblem,
  MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION,
  readEventTypes,
  type WebhookEndpointRecord,
} from "../events";
import { ProblemList } from "../validation";
import { authenticate, parseBody } from "./request-steps";
import { isError, respondError, respondJson, respondProblems } from "./responses";

export function emitEvent(
  core: ShippingCore,
  orgId: string,
  type: EventType,
  data: Record<string, unknown>,
): EventEnvelope {
  const event: EventEnvelope = {
    id: core.state.nextId("evt"),
    type,
    created_at: core.now().toISOString(),
    organization: orgId,
    data,
  };
  core.state.storeEvent(event);
  const endpoints = [...core.state.webhookEndpoints.values()].filter(
    (e) => e.orgId === orgId && e.events.includes(type),
  );
  core.deliveryQueue.publish(event, endpoints);
  return event;
}

export function handleCreateWebhookEndpoint(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const problems = new ProblemList();
  const urlProblem = findWebhookUrlProblem(body.url);
  if (urlProblem !== null) problems.add("url", urlProblem);
  const events = readEventTypes(body.events, problems);
  if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  const owned = [...core.state.webhookEndpoints.values()].filter((e) => e.orgId === auth.org.id).length;
  if (owned >= MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION) {
    return respondError(
      ctx.requestId,
      403,
      "WEBHOOK_ENDPOINT_LIMIT_REACHED",
      `An organization has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION} webhook endpoints; delete one first`,
    );
  }
  const endpoint: WebhookEndpointRecord = {
    id: core.state.nextId("we"),
    orgId: auth.org.id,
    url: body.url as string,
    events,
    secret: core.state.nextWebhookSecret(),
  };
  core.state.webhookEndpoints.set(endpoint.id, endpoint);
  return respondJson(ctx.requestId, 201, {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    secret: endpoint.secret,
  });
}

export function handleListWebhookEndpoints(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const endpoints = [...core.state.webhookEndpoints.values()]
    .filter((e) => e.orgId === auth.org.id)
    .map((e) => ({ id: e.id, url: e.url, events: e.events }));
  return respondJson(ctx.requestId, 200, { webhook_endpoints: endpoints });
}

export function handleDeleteWebhookEndpoint(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const endpoint = core.state.webhookEndpoints.get(ctx.params.id);
  if (endpoint === undefined || endpoint.orgId !== auth.org.id) {
    return respondError(ctx.requestId, 404, "NOT_FOUND", `No webhook endpoint ${ctx.params.id}`);
  }
  core.state.webhookEndpoints.delete(endpoint.id);
  core.deliveryQueue.cancelEndpoint(endpoint.id);
  return { status: 204, headers: { "x-request-id": ctx.requestId }, body: "" };
}
