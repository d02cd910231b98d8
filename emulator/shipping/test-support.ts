// Shared helpers for the emulator's HTTP tests: a real server on a free loopback port, a tiny
// client, and request fixtures written from the spec (not from the app).

import { createHmac, timingSafeEqual } from "node:crypto";

import { afterAll, beforeAll, beforeEach } from "vitest";

import { startShippingEmulatorServer } from "./server";

export interface ApiResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface ErrorBody {
  error: { code: string; message: string; fields?: Array<{ field: string; message: string }> };
  request_id: string;
}

/** Starts the emulator for the current test file and resets it before each test. */
export function setUpEmulatorServer(): { url: () => string } {
  let url = "";
  let close: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const server = await startShippingEmulatorServer({ port: 0, host: "127.0.0.1" });
    url = server.url;
    close = server.close;
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    const res = await fetch(`${url}/__emulator/reset`, { method: "POST" });
    if (res.status !== 200) throw new Error(`reset failed: ${res.status}`);
  });
  return { url: () => url };
}

export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; fetch?: typeof fetch } = {},
): Promise<ApiResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = options.key === undefined ? "sk_live_demo" : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const send = options.fetch ?? fetch;
  const res = await send(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

export function errorOf(result: ApiResult): ErrorBody["error"] {
  return (result.body as unknown as ErrorBody).error;
}

export function fieldPaths(result: ApiResult): string[] {
  return (errorOf(result).fields ?? []).map((f) => f.field);
}

export const US_FROM = {
  name: "Ada Shipper",
  street1: "1600 Amphitheatre Pkwy",
  city: "Mountain View",
  state: "CA",
  zip: "94043",
  country: "US",
  phone: "+1 650 253 0000",
};

export const US_TO = {
  name: "Grace Buyer",
  street1: "500 W 56th St",
  street2: "Apt 2B",
  city: "New York",
  state: "NY",
  zip: "10019",
  country: "US",
};

export const DE_TO = {
  name: "Hans Empfänger",
  street1: "Unter den Linden 77",
  city: "Berlin",
  zip: "10117",
  country: "DE",
  phone: "+49 30 22610",
};

export const PARCEL = { weight: 24, length: 10, width: 8, height: 4 };

export const CUSTOMS = { description: "Cotton t-shirts, men's, knitted", value: 120, hs_code: "6109.10" };

export function domesticDraft(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from_address: US_FROM,
    to_address: US_TO,
    parcel: PARCEL,
    carrier: "USPS",
    service: "Priority Mail",
    ...extra,
  };
}

export function internationalDraft(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from_address: US_FROM,
    to_address: DE_TO,
    parcel: PARCEL,
    carrier: "USPS",
    service: "Priority Mail International",
    customs: CUSTOMS,
    ...extra,
  };
}

export type Rate = {
  rate_id: string;
  service_code: string;
  carrier: string;
  service: string;
  amount: string;
  ship_date: string;
};

export async function getRates(baseUrl: string, body: Record<string, unknown>, key?: string): Promise<Rate[]> {
  const res = await callApi(baseUrl, "POST", "/v1/rates", { body, key });
  if (res.status !== 200) throw new Error(`rates failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rates as Rate[];
}

export async function getOrganization(
  baseUrl: string,
  orgId: string,
): Promise<{ balance: string; validations_billed: number; charges: unknown[]; labels_created: number }> {
  const res = await fetch(`${baseUrl}/__emulator/organizations/${orgId}`);
  return (await res.json()) as {
    balance: string;
    validations_billed: number;
    charges: unknown[];
    labels_created: number;
  };
}

export async function setFaults(baseUrl: string, faults: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/__emulator/faults`, { method: "POST", body: JSON.stringify(faults) });
  if (res.status !== 200) throw new Error(`faults failed: ${res.status} ${await res.text()}`);
}

export async function advanceClock(baseUrl: string, seconds: number): Promise<void> {
  await fetch(`${baseUrl}/__emulator/clock`, { method: "POST", body: JSON.stringify({ advance_seconds: seconds }) });
}

export interface ReceivedDelivery {
  url: string;
  headers: Headers;
  body: string;
  event: { id: string; type: string; created_at: string; organization: string; data: Record<string, unknown> };
}

/**
 * An in-process webhook receiver to pass as the emulator's `delivery.fetch`: it records every
 * request and answers with `answer` (204 by default).
 */
export function createReceiver(
  answer: (delivery: ReceivedDelivery, index: number) => Response | Promise<Response> = () =>
    new Response(null, { status: 204 }),
): { received: ReceivedDelivery[]; fetch: (url: string, init: RequestInit) => Promise<Response> } {
  const received: ReceivedDelivery[] = [];
  return {
    received,
    fetch: async (url, init) => {
      const request = new Request(url, init);
      const body = await request.text();
      const delivery: ReceivedDelivery = {
        url: request.url,
        headers: request.headers,
        body,
        event: JSON.parse(body) as ReceivedDelivery["event"],
      };
      received.push(delivery);
      return answer(delivery, received.length - 1);
    },
  };
}

/**
 * Verifies `Shipping-Signature` the way a receiver would, written from contract.md and not from
 * the emulator's code: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.
 */
export function verifyShippingSignature(secret: string, header: string | null, rawBody: string): boolean {
  const parts = new Map((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = parts.get("t");
  const v1 = parts.get("v1");
  if (t === undefined || v1 === undefined || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(v1, "hex"));
}

export function signatureTimestamp(header: string | null): number {
  const match = /(?:^|,)t=(\d+)(?:,|$)/.exec(header ?? "");
  if (match?.[1] === undefined) throw new Error(`No t= in ${String(header)}`);
  return Number(match[1]);
}
