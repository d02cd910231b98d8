// Routing by method and path to a handler, with the template a fault is keyed on and whether the
// route takes injected failures (the control endpoints and label files do not).

import type { Handler } from "./core";
import { handleValidateAddress } from "./handlers/address-validation";
import {
  handleClock,
  handleControlPurchase,
  handleFaults,
  handleFlushDeliveries,
  handleListDeliveries,
  handleOrganization,
  handleRedeliver,
  handleReset,
  handleStats,
} from "./handlers/control";
import { handleFile } from "./handlers/files";
import { handlePurchase } from "./handlers/label-purchase";
import { handleControlVoidDecision, handleVoid, handleVoidSettings } from "./handlers/label-void";
import { handleCreateLabel, handleGetLabel } from "./handlers/labels";
import { handleRates } from "./handlers/rates";
import { handleControlTracking } from "./handlers/tracking";
import {
  handleCreateWebhookEndpoint,
  handleDeleteWebhookEndpoint,
  handleListWebhookEndpoints,
} from "./handlers/webhook-endpoints";

/** A malformed %-escape is just an id that matches nothing. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface MatchedRoute {
  template: string;
  faultable: boolean;
  id: string;
  handler: Handler;
}

function route(template: string, faultable: boolean, id: string, handler: Handler): MatchedRoute {
  return { template, faultable, id, handler };
}

/** Routing by hand: a handful of fixed shapes, cheaper than a generic router on the hot path. */
export function matchRoute(method: string, rawPath: string): MatchedRoute | null {
  const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
  if (method === "POST") {
    if (path === "/v1/labels" || path === "/api/v1/labels")
      return route("POST /v1/labels", true, "", handleCreateLabel);
    if (path === "/v1/rates") return route("POST /v1/rates", true, "", handleRates);
    if (path === "/v1/addresses/validate") return route("POST /v1/addresses/validate", true, "", handleValidateAddress);
    if (path === "/v1/addresses/verify") return route("POST /v1/addresses/verify", true, "", handleValidateAddress);
    const purchase = /^(?:\/api)?\/v1\/labels\/([^/]+)\/purchase$/.exec(path);
    if (purchase?.[1] !== undefined)
      return route("POST /v1/labels/{id}/purchase", true, decodePathSegment(purchase[1]), handlePurchase);
    const voidLabel = /^(?:\/api)?\/v1\/labels\/([^/]+)\/void$/.exec(path);
    if (voidLabel?.[1] !== undefined)
      return route("POST /v1/labels/{id}/void", true, decodePathSegment(voidLabel[1]), handleVoid);
    if (path === "/v1/webhook_endpoints")
      return route("POST /v1/webhook_endpoints", true, "", handleCreateWebhookEndpoint);
    const control = /^\/__emulator\/labels\/([^/]+)\/(purchase|tracking|void_decision)$/.exec(path);
    if (control?.[1] !== undefined) {
      const id = decodePathSegment(control[1]);
      if (control[2] === "purchase")
        return route("POST /__emulator/labels/{id}/purchase", false, id, handleControlPurchase);
      if (control[2] === "void_decision")
        return route("POST /__emulator/labels/{id}/void_decision", false, id, handleControlVoidDecision);
      return route("POST /__emulator/labels/{id}/tracking", false, id, handleControlTracking);
    }
    const redeliver = /^\/__emulator\/deliveries\/([^/]+)\/redeliver$/.exec(path);
    if (redeliver?.[1] !== undefined)
      return route(
        "POST /__emulator/deliveries/{id}/redeliver",
        false,
        decodePathSegment(redeliver[1]),
        handleRedeliver,
      );
    if (path === "/__emulator/deliveries/flush")
      return route("POST /__emulator/deliveries/flush", false, "", handleFlushDeliveries);
    if (path === "/__emulator/reset") return route("POST /__emulator/reset", false, "", handleReset);
    if (path === "/__emulator/faults") return route("POST /__emulator/faults", false, "", handleFaults);
    if (path === "/__emulator/clock") return route("POST /__emulator/clock", false, "", handleClock);
    if (path === "/__emulator/voids") return route("POST /__emulator/voids", false, "", handleVoidSettings);
    return null;
  }
  if (method === "GET") {
    const label = /^(?:\/api)?\/v1\/labels\/([^/]+)$/.exec(path);
    if (label?.[1] !== undefined)
      return route("GET /v1/labels/{id}", true, decodePathSegment(label[1]), handleGetLabel);
    const file = /^\/files\/([^/]+)$/.exec(path);
    if (file?.[1] !== undefined) return route("GET /files/{file}", false, decodePathSegment(file[1]), handleFile);
    if (path === "/v1/webhook_endpoints")
      return route("GET /v1/webhook_endpoints", true, "", handleListWebhookEndpoints);
    if (path === "/__emulator/deliveries") return route("GET /__emulator/deliveries", false, "", handleListDeliveries);
    if (path === "/__emulator/stats") return route("GET /__emulator/stats", false, "", handleStats);
    const org = /^\/__emulator\/organizations\/([^/]+)$/.exec(path);
    if (org?.[1] !== undefined)
      return route("GET /__emulator/organizations/{id}", false, decodePathSegment(org[1]), handleOrganization);
  }
  if (method === "DELETE") {
    const endpoint = /^\/v1\/webhook_endpoints\/([^/]+)$/.exec(path);
    if (endpoint?.[1] !== undefined)
      return route(
        "DELETE /v1/webhook_endpoints/{id}",
        true,
        decodePathSegment(endpoint[1]),
        handleDeleteWebhookEndpoint,
      );
  }
  return null;
}
