// The first steps of a request, shared by the handlers: who is calling (API key to organization) and
// the JSON body.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import type { OrganizationState } from "../state";
import { isJsonObject, type JsonObject } from "../validation";
import { respondError } from "./responses";

export interface Authenticated {
  org: OrganizationState;
  sandbox: boolean;
}

export function authenticate(core: ShippingCore, ctx: RequestContext): Authenticated | CoreResponse {
  const header = ctx.req.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  const entry = key === undefined ? undefined : core.config.keys[key];
  if (key === undefined || entry === undefined) {
    return respondError(
      ctx.requestId,
      401,
      "UNAUTHENTICATED",
      "A valid API key is required (Authorization: Bearer <key>)",
    );
  }
  const org = entry.organization === null ? undefined : core.state.organizations.get(entry.organization);
  if (org === undefined) {
    return respondError(ctx.requestId, 400, "NO_ORGANIZATION", "This API key is not attached to an organization");
  }
  return { org, sandbox: entry.sandbox ?? key.startsWith("sk_test_") };
}

export function parseBody(ctx: RequestContext): JsonObject | CoreResponse {
  if (ctx.req.rawBody.trim() === "")
    return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "A JSON body is required");
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.req.rawBody);
  } catch {
    return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "The body is not valid JSON");
  }
  if (!isJsonObject(parsed))
    return respondError(ctx.requestId, 400, "VALIDATION_FAILED", "The body must be a JSON object");
  return parsed;
}
