// Events (webhooks from the service), as contract.md fixes them: the event types, the endpoint
// registration rules and the signature. Pure functions only; delivery lives in event-delivery.ts.

import { createHmac } from "node:crypto";

import { isJsonObject, type ProblemList } from "./validation";

export const EVENT_TYPES = [
  "label.purchased",
  "label.tracking_updated",
  "label.voided",
  "label.void_rejected",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const TRACKING_STATUSES = [
  "pre_transit",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "attempted_delivery",
  "exception",
  "returned",
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION = 16;
const MAX_URL_LENGTH = 2048;

export interface EventEnvelope {
  id: string;
  type: EventType;
  created_at: string;
  organization: string;
  data: Record<string, unknown>;
}

export interface WebhookEndpointRecord {
  id: string;
  orgId: string;
  url: string;
  events: EventType[];
  secret: string;
}

/**
 * The contract allows https anywhere and plain http only on loopback, so that a local app can
 * receive events without TLS while nothing is ever sent in clear over a network. The hostname is
 * read after WHATWG URL normalization, so `http://127.1` and `http://[0:0::1]` count as loopback.
 */
export function findWebhookUrlProblem(value: unknown): string | null {
  if (value === undefined || value === null) return "is required";
  if (typeof value !== "string") return "must be a string";
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHostname(url.hostname)) return null;
  return "must be https://, or http:// on a loopback address (127.0.0.0/8, localhost, [::1])";
}

function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Known types in the order first given; a repeated type is kept once rather than refused. */
export function readEventTypes(value: unknown, problems: ProblemList): EventType[] {
  if (value === undefined || value === null) {
    problems.add("events", "is required");
    return [];
  }
  if (!Array.isArray(value)) {
    problems.add("events", "must be an array of event types");
    return [];
  }
  if (value.length === 0) problems.add("events", "must list at least one event type");
  const types: EventType[] = [];
  (value as unknown[]).forEach((item, i) => {
    const type = EVENT_TYPES.find((t) => t === item);
    if (type === undefined) problems.add(`events[${i}]`, `must be one of ${EVENT_TYPES.join(", ")}`);
    else if (!types.includes(type)) types.push(type);
  });
  return types;
}

/** `Shipping-Signature`: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">. */
export function signEventBody(secret: string, unixSeconds: number, rawBody: string): string {
  const digest = createHmac("sha256", secret).update(`${unixSeconds}.${rawBody}`).digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

export interface TrackingLocation {
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}

export interface TrackingUpdateInput {
  status: TrackingStatus;
  trackingNumber: string | null;
  statusDetail: string | null;
  /** undefined: the emulator picks (now, the label's estimate, an address of the label). */
  occurredAt: string | undefined;
  estimatedDeliveryAt: string | null | undefined;
  location: TrackingLocation | undefined;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The body of POST /__emulator/labels/{id}/tracking; every problem listed at once. */
export function parseTrackingUpdate(body: Record<string, unknown>, problems: ProblemList): TrackingUpdateInput | null {
  const status = TRACKING_STATUSES.find((s) => s === body.status);
  if (status === undefined) problems.add("status", `must be one of ${TRACKING_STATUSES.join(", ")}`);
  const trackingNumber = readNullableString(body, "tracking_number", problems);
  const statusDetail = readNullableString(body, "status_detail", problems);
  const occurredAt = readDateTime(body, "occurred_at", problems);
  if (occurredAt === null) problems.add("occurred_at", "must be an ISO 8601 date-time when given");
  const estimatedDeliveryAt = readDateTime(body, "estimated_delivery_at", problems);
  let location: TrackingLocation | undefined;
  if (body.location !== undefined) {
    if (!isJsonObject(body.location)) problems.add("location", "must be an object");
    else {
      const given = body.location;
      const read = (key: string): string | null => readNullableString(given, key, problems, "location.");
      location = { city: read("city"), state: read("state"), zip: read("zip"), country: read("country") };
    }
  }
  if (status === undefined || !problems.isEmpty) return null;
  return {
    status,
    trackingNumber,
    statusDetail,
    occurredAt: occurredAt ?? undefined,
    estimatedDeliveryAt,
    location,
  };
}

function readNullableString(
  obj: Record<string, unknown>,
  key: string,
  problems: ProblemList,
  prefix = "",
): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") {
    problems.add(`${prefix}${key}`, "must be a string");
    return null;
  }
  return value;
}

/** undefined when absent, null when explicitly null, the string as sent when valid. */
function readDateTime(obj: Record<string, unknown>, key: string, problems: ProblemList): string | null | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string" || !ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    problems.add(key, "must be an ISO 8601 date-time with a time zone");
    return undefined;
  }
  return value;
}

/** What a carrier scan says when the caller gives no detail. */
export const DEFAULT_STATUS_DETAILS: Record<TrackingStatus, string> = {
  pre_transit: "Shipping label created, not yet in the carrier's possession",
  in_transit: "Departed facility",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  attempted_delivery: "Delivery attempted, no access to the delivery location",
  exception: "Delivery exception",
  returned: "Returned to sender",
};

/** Scans at the door happen at the recipient's; everything else is placed at the sender's. */
export function isScanAtDestination(status: TrackingStatus): boolean {
  return status === "out_for_delivery" || status === "delivered" || status === "attempted_delivery";
}
