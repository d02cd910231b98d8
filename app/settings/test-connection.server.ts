import type { PrismaClient } from "@prisma/client";

import type { FetchLike, ShippingClient } from "~/shipping/client.server";
import type { ShippingError } from "~/shipping/errors";
import { reportError } from "~/utils/error-report.server";
import { err, ok, type Result } from "~/utils/result";

import type { LabelSettings } from "./settings";
import { createShippingClientForShop, getSettingsView, type SettingsError } from "./settings.server";
import { connectShippingEvents } from "./shipping-event-endpoint.server";

// "Test connection" on the Settings screen. The shipping service has no "who am I" endpoint, so
// the check reads a label id that cannot exist: reads are free and never billed, and the contract
// answers them in an order that tells the cases apart — 401 UNAUTHENTICATED (key refused) before
// 400 NO_ORGANIZATION (key without an organization) before 404 NOT_FOUND (key and organization
// accepted, no such label). The service exposes neither the organization's name nor whether it
// treats the key as sandbox, so sandbox/live is the key's kind as stored (sk_test_ → sandbox).

/** A label id no organization can own: the service's ids are `lbl_` plus its own suffixes. */
export const CONNECTION_PROBE_LABEL_ID = "lbl_ship_orders_connection_check";

export type ConnectionVerified = {
  mode: LabelSettings["mode"];
  keyHint: string | null;
  /** The service's request id for the probe, for support. */
  requestId: string | null;
};

export type TestConnectionError = SettingsError | ShippingError;

export type TestConnectionOptions = { baseUrl?: string; fetch?: FetchLike; timeoutMs?: number };

export async function testShippingConnection(
  db: PrismaClient,
  shop: string,
  options: TestConnectionOptions = {},
): Promise<Result<ConnectionVerified, TestConnectionError>> {
  const client = await createShippingClientForShop(db, shop, {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (!client.ok) return client;
  const probe = await probeShippingKey(client.value, options);
  if (!probe.ok) return probe;
  const view = await getSettingsView(db, shop);
  return ok({ mode: view.mode, keyHint: view.apiKey.hint, requestId: probe.value.requestId });
}

/**
 * Asks the service whether the client's key works, with one free read. Ok: the key is accepted
 * and attached to an organization; otherwise the service's answer (refusal, outage) as it came.
 */
export async function probeShippingKey(
  client: Pick<ShippingClient, "getLabel">,
  options: Pick<TestConnectionOptions, "timeoutMs"> = {},
): Promise<Result<{ requestId: string | null }, ShippingError>> {
  // A merchant waits on this button: give up well before the client's own budget.
  const probe = await client.getLabel(CONNECTION_PROBE_LABEL_ID, {
    deadline: Date.now() + (options.timeoutMs ?? 10_000),
  });
  // 200 would mean the id exists in this organization: the key is just as proven.
  if (probe.ok) return ok({ requestId: null });
  if (probe.error.code === "NOT_FOUND") return ok({ requestId: probe.error.requestId });
  return err(probe.error);
}

/**
 * Whether the service's answer is about the key itself: unknown or revoked (401), forbidden (403),
 * or without an organization. Anything else (outage, timeout, throttling) says nothing of the key.
 */
export function isKeyRefusal(error: ShippingError): boolean {
  return error.code === "UNAUTHENTICATED" || error.code === "NO_ORGANIZATION" || error.status === 403;
}

/** What the merchant reads when the check fails: what was found and what to do about it. */
export function describeConnectionProblem(error: TestConnectionError): string {
  switch (error.code) {
    case "API_KEY_MISSING":
      return "No API key is saved yet. Enter the key from your shipping account, then test again.";
    case "API_KEY_UNREADABLE":
      return "The saved API key can no longer be read. Enter it again, then test again.";
    case "UNAUTHENTICATED":
      return "The shipping service refused this API key. Copy the key again from your shipping account and save it.";
    case "NO_ORGANIZATION":
      return "The key is valid but not attached to an organization, so it cannot create labels. Attach it to an organization in your shipping account, or enter another key.";
    default:
      return error.message;
  }
}

// A proven key also (re)registers the shop's event endpoint: saving or testing the key is when the
// merchant expects the app and the service to be wired together. Its failure does not fail the
// check: labels work without events; the screen says tracking updates are not connected.
export async function connectEvents(
  db: PrismaClient,
  shop: string,
  options: TestConnectionOptions,
): Promise<{ connected: boolean; message: string | null }> {
  const client = await createShippingClientForShop(db, shop, {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (!client.ok) return { connected: false, message: client.error.message };
  const connected = await connectShippingEvents({ db, shop, shipping: client.value });
  if (connected.ok) return { connected: true, message: null };
  const message = connected.error.fixable
    ? connected.error.message
    : reportError(connected.error, { level: "warn" }).message;
  return { connected: false, message };
}

/** What the Settings screen shows after a check: always an answer, never a thrown error. */
export type ConnectionReport =
  | {
      status: "connected";
      mode: LabelSettings["mode"];
      keyHint: string | null;
      requestId: string | null;
      checkedAt: string;
      /** Whether the service now sends this shop its events (purchases elsewhere, tracking). */
      events: { connected: boolean; message: string | null };
    }
  | {
      status: "failed";
      code: TestConnectionError["code"];
      message: string;
      requestId: string | null;
      checkedAt: string;
    };

/**
 * Runs the check and words the answer. A problem on the service's or our side (timeout, 5xx) is
 * logged as a warning with a reference the merchant can quote; the merchant's own problems
 * (refused key, no organization) are not ours to log.
 */
export async function checkShippingConnection(
  db: PrismaClient,
  shop: string,
  options: TestConnectionOptions = {},
): Promise<ConnectionReport> {
  const result = await testShippingConnection(db, shop, options);
  const checkedAt = new Date().toISOString();
  if (result.ok)
    return { status: "connected", ...result.value, checkedAt, events: await connectEvents(db, shop, options) };
  const requestId = result.error.source === "shipping" ? result.error.requestId : null;
  const message = result.error.fixable
    ? describeConnectionProblem(result.error)
    : reportError(result.error, { level: "warn" }).message;
  return { status: "failed", code: result.error.code, message, requestId, checkedAt };
}
