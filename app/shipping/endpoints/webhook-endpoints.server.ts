// /v1/webhook_endpoints: subscribing a URL to the organization's events, listing and removing
// subscriptions. Registering is retried only when it cannot have reached the service.

import { err, ok, type Result } from "~/utils/result";

import type { ShippingError } from "../errors";
import {
  type RegisteredWebhookEndpoint,
  RegisteredWebhookEndpointSchema,
  type WebhookEndpoint,
  WebhookEndpointListSchema,
  type WebhookEndpointRequest,
  WebhookEndpointRequestSchema,
} from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { describeZodIssues, invalidRequest } from "../transport-outcome.server";

export async function registerWebhookEndpoint(
  transport: ShippingTransport,
  request: WebhookEndpointRequest,
  callOptions?: CallOptions,
): Promise<Result<RegisteredWebhookEndpoint, ShippingError>> {
  const parsed = WebhookEndpointRequestSchema.safeParse(request);
  if (!parsed.success) {
    return err(invalidRequest("registerWebhookEndpoint", describeZodIssues(parsed.error.issues)));
  }
  // A repeat could register a second endpoint: only what cannot have reached the service is retried.
  return transport.call({
    operation: "registerWebhookEndpoint",
    method: "POST",
    path: "/v1/webhook_endpoints",
    body: parsed.data,
    policy: "create",
    parse: (b) => RegisteredWebhookEndpointSchema.safeParse(b),
    deadline: transport.deadlineOf(callOptions),
  });
}

export async function listWebhookEndpoints(
  transport: ShippingTransport,
  callOptions?: CallOptions,
): Promise<Result<WebhookEndpoint[], ShippingError>> {
  const listed = await transport.call({
    operation: "listWebhookEndpoints",
    method: "GET",
    path: "/v1/webhook_endpoints",
    policy: "safe",
    parse: (b) => WebhookEndpointListSchema.safeParse(b),
    deadline: transport.deadlineOf(callOptions),
  });
  return listed.ok ? ok(listed.value.webhook_endpoints) : listed;
}

export async function deleteWebhookEndpoint(
  transport: ShippingTransport,
  endpointId: string,
  callOptions?: CallOptions,
): Promise<Result<void, ShippingError>> {
  // Deleting twice ends the same way: safe to repeat.
  const deleted = await transport.call({
    operation: "deleteWebhookEndpoint",
    method: "DELETE",
    path: `/v1/webhook_endpoints/${encodeURIComponent(endpointId)}`,
    policy: "safe",
    parse: () => ({ success: true as const, data: undefined }),
    deadline: transport.deadlineOf(callOptions),
  });
  return deleted.ok ? ok(undefined) : deleted;
}
