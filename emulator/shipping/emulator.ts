// The shipping service emulator: one request handler working on plain objects, used both by the
// node:http server (server.ts) and by the in-process Fetch adapter (`emulator.fetch`). This file is
// the public face (createShippingEmulator, getRequestHandler and the types tests import); the
// state and dispatch live in core.ts, the routing in routes.ts, and each resource's handling in
// handlers/.

import { type EmulatorConfig, loadDefaultConfig } from "./config";
import { type CoreRequest, type CoreResponse, ShippingCore } from "./core";
import type { DeliveryOptions, DeliveryView } from "./event-delivery";
import type { EventEnvelope, TrackingStatus } from "./events";
import type { VoidOutcome } from "./handlers/label-void";
import type { FaultConfig } from "./state";

export type { EmulatorConfig } from "./config";
export type { CoreRequest, CoreResponse } from "./core";
export type { DeliveryOptions, DeliveryView } from "./event-delivery";
export type { EventEnvelope } from "./events";
export { DELIVERY_FAULT_ENDPOINT, FAULT_ENDPOINTS } from "./fault-endpoints";
export type { VoidOutcome } from "./handlers/label-void";
export type { FaultConfig } from "./state";

/** The body of POST /__emulator/labels/{id}/tracking. */
export interface TrackingUpdateRequest {
  status: TrackingStatus;
  /** One of the label's numbers; absent: one event for each of them. */
  tracking_number?: string;
  status_detail?: string;
  occurred_at?: string;
  estimated_delivery_at?: string | null;
  location?: { city?: string | null; state?: string | null; zip?: string | null; country?: string | null };
}

/** A control call answered with an error (the same answer the HTTP control endpoint gives). */
export class EmulatorControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorControlError";
  }
}

export interface ShippingEmulator {
  /** In-process, same handlers as the server; a drop-connection fault or a lost purchase response rejects with TypeError("fetch failed") like Node's fetch. Usable as an injected `fetch`. Accepts absolute URLs on any origin (e.g. http://shipping.test/v1/rates). */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  reset(): void;
  setFaults(faults: FaultConfig): void;
  /** Fixes the clock (no timers then); retries that have become due start at once. */
  setNow(date: Date): void;
  /** Moves the fixed clock forward and resolves once the retries it made due have been attempted. */
  advanceTime(ms: number): Promise<void>;
  /** Buys a draft as the service's dashboard would: charges, emits label.purchased. Resolves to the label record. */
  purchaseAsDashboard(labelId: string): Promise<Record<string, unknown>>;
  /** Emits label.tracking_updated, one event per tracking number; resolves to the events. */
  emitTracking(labelId: string, update: TrackingUpdateRequest): Promise<EventEnvelope[]>;
  /** Every delivery kept, oldest first, with its attempts (same shape as GET /__emulator/deliveries). */
  deliveries(filter?: { eventId?: string; organization?: string }): DeliveryView[];
  /** Every event emitted (kept: the latest 10,000), oldest first, whether or not any endpoint got it. */
  events(organization?: string): EventEnvelope[];
  /** Resolves when no delivery attempt is in flight; retries scheduled later do not hold it up. */
  flushDeliveries(): Promise<void>;
  /** Starts the retries due on the emulator's clock, then resolves like flushDeliveries(). */
  runDueDeliveries(): Promise<void>;
  /** A manual attempt of every delivery of the event, now (outside the retry schedule). */
  redeliver(eventId: string): Promise<DeliveryView[]>;
  /** Settles a pending void now, as the carrier would (POST /__emulator/labels/{id}/void_decision). Resolves to the label record. */
  decideVoid(labelId: string, outcome: VoidOutcome): Promise<Record<string, unknown>>;
  /** How long the carrier takes to decide voids asked from now on (default 900 s; reset restores the config's). */
  setVoidDecisionSeconds(seconds: number): void;
  /** Credits of voided labels, one per label, oldest first. */
  refunds(orgId: string): Array<{ labelId: string; amountCents: number; refundedAt: string }>;
  /** Inspection for tests: balance in USD cents and the number of charges for an organization/label. */
  balanceCents(orgId: string): number;
  charges(orgId: string): Array<{ labelId: string; amountCents: number }>;
  /** How many labels (drafts) the organization has created, bought or not. */
  labelsCreated(orgId: string): number;
  validationsBilled(orgId: string): number;
}

/** Creates the emulator: state from the configuration, handlers, and the Fetch adapter. */
export function createShippingEmulator(
  options: {
    config?: EmulatorConfig;
    now?: () => Date;
    baseUrl?: string;
    delivery?: DeliveryOptions;
    /** Overrides the config's `voids.decision_seconds` (how long the carrier takes to decide a void). */
    voidDecisionSeconds?: number;
  } = {},
): ShippingEmulator {
  const config = options.config ?? loadDefaultConfig();
  const core = new ShippingCore(
    options.voidDecisionSeconds === undefined
      ? config
      : { ...config, voids: { decision_seconds: options.voidDecisionSeconds } },
    options.now ?? (() => new Date()),
    options.baseUrl,
    options.delivery,
  );
  const emulator: ShippingEmulator = {
    fetch: async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const url = new URL(request.url);
      const rawBody = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      const response = await core.handle({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        authorization: request.headers.get("authorization") ?? undefined,
        rawBody,
        origin: url.origin,
      });
      if (response.drop === true) throw new TypeError("fetch failed");
      // A 204 must have no body at all, not even an empty one, or Response throws.
      const body =
        response.status === 204
          ? null
          : typeof response.body === "string"
            ? response.body
            : new Uint8Array(response.body);
      return new Response(body, { status: response.status, headers: response.headers });
    },
    reset: () => core.reset(),
    setFaults: (faults) => core.state.setFaults(faults),
    setNow: (date) => core.setFixedNow(date),
    advanceTime: async (ms) => {
      core.setFixedNow(new Date(core.now().getTime() + ms));
      await core.deliveryQueue.flush();
    },
    purchaseAsDashboard: async (labelId) =>
      await callControl(core, "POST", `/__emulator/labels/${encodeURIComponent(labelId)}/purchase`),
    emitTracking: async (labelId, update) => {
      const answer = await callControl(
        core,
        "POST",
        `/__emulator/labels/${encodeURIComponent(labelId)}/tracking`,
        update,
      );
      return answer.events as EventEnvelope[];
    },
    deliveries: (filter) => core.deliveryQueue.list(filter),
    events: (organization) =>
      [...core.state.events.values()]
        .filter((e) => organization === undefined || e.organization === organization)
        .map((e) => structuredClone(e)),
    flushDeliveries: () => core.deliveryQueue.flush(),
    runDueDeliveries: async () => {
      core.deliveryQueue.startDue();
      await core.deliveryQueue.flush();
    },
    redeliver: async (eventId) => {
      const answer = await callControl(core, "POST", `/__emulator/deliveries/${encodeURIComponent(eventId)}/redeliver`);
      return answer.deliveries as DeliveryView[];
    },
    decideVoid: async (labelId, outcome) =>
      await callControl(core, "POST", `/__emulator/labels/${encodeURIComponent(labelId)}/void_decision`, { outcome }),
    setVoidDecisionSeconds: (seconds) => {
      core.state.voidDecisionMs = seconds * 1000;
    },
    refunds: (orgId) => [...(core.state.organizations.get(orgId)?.refunds ?? [])],
    balanceCents: (orgId) => core.state.organizations.get(orgId)?.balanceCents ?? 0,
    charges: (orgId) => [...(core.state.organizations.get(orgId)?.charges ?? [])],
    labelsCreated: (orgId) => core.state.organizations.get(orgId)?.labelsCreated ?? 0,
    validationsBilled: (orgId) => core.state.organizations.get(orgId)?.validationsBilled ?? 0,
  };
  CORES.set(emulator, core);
  return emulator;
}

const CORES = new WeakMap<ShippingEmulator, ShippingCore>();

/** The transport-neutral handler behind an emulator, for the node:http server. */
export function getRequestHandler(emulator: ShippingEmulator): (request: CoreRequest) => Promise<CoreResponse> {
  const core = CORES.get(emulator);
  if (core === undefined) throw new Error("Not an emulator created by createShippingEmulator");
  return (request) => core.handle(request);
}

/** A control endpoint called in-process: parsed answer, or EmulatorControlError. */
async function callControl(
  core: ShippingCore,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await core.handle({
    method,
    path,
    query: "",
    authorization: undefined,
    rawBody: body === undefined ? "" : JSON.stringify(body),
    origin: core.lastOrigin,
  });
  const parsed = JSON.parse(String(response.body)) as Record<string, unknown>;
  if (response.status >= 400) {
    const error = (parsed.error ?? {}) as { code?: string; message?: string };
    throw new EmulatorControlError(
      response.status,
      error.code ?? "UNKNOWN",
      `${method} ${path}: ${response.status} ${error.code ?? ""} ${error.message ?? ""}`.trim(),
    );
  }
  return parsed;
}
