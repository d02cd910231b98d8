// The keys a fault (latency or an injected failure) can be set on: the service's faultable routes,
// by template, and the emulator's own outgoing event deliveries.

/** Fault key for every attempt to deliver an event (not a route of the service: its outgoing calls). */
export const DELIVERY_FAULT_ENDPOINT = "DELIVERY";

export const FAULT_ENDPOINTS = [
  "POST /v1/rates",
  "POST /v1/labels",
  "GET /v1/labels/{id}",
  "POST /v1/labels/{id}/purchase",
  "POST /v1/labels/{id}/void",
  "POST /v1/addresses/validate",
  "POST /v1/addresses/verify",
  "POST /v1/webhook_endpoints",
  "GET /v1/webhook_endpoints",
  "DELETE /v1/webhook_endpoints/{id}",
  DELIVERY_FAULT_ENDPOINT,
] as const;
