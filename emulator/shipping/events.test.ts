import { describe, expect, it } from "vitest";

import { createShippingEmulator, EmulatorControlError } from "./emulator";
import {
  callApi,
  createReceiver,
  domesticDraft,
  errorOf,
  fieldPaths,
  PARCEL,
  type ReceivedDelivery,
  signatureTimestamp,
  US_FROM,
  US_TO,
  verifyShippingSignature,
} from "./test-support";

const BASE = "http://shipping.test";
const T0 = new Date("2026-11-22T10:00:00Z");
const ALL_EVENTS = ["label.purchased", "label.tracking_updated"];

/** An in-process emulator on a fixed clock whose deliveries go to an in-process receiver. */
async function setUp(options: { events?: string[]; url?: string } = {}) {
  const receiver = createReceiver();
  const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { fetch: receiver.fetch } });
  shipping.setNow(T0);
  const call = (method: string, path: string, opts: { key?: string | null; body?: unknown } = {}) =>
    callApi(BASE, method, path, { ...opts, fetch: shipping.fetch });
  const endpoint = await call("POST", "/v1/webhook_endpoints", {
    body: { url: options.url ?? "https://app.example/webhooks/shipping/demo", events: options.events ?? ALL_EVENTS },
  });
  if (endpoint.status !== 201) throw new Error(`registration failed: ${JSON.stringify(endpoint.body)}`);
  const createDraft = async (body: Record<string, unknown> = domesticDraft(), key?: string) => {
    const draft = await call("POST", "/v1/labels", { body, key });
    if (draft.status !== 201) throw new Error(`draft failed: ${JSON.stringify(draft.body)}`);
    return String(draft.body.id);
  };
  const getLabel = async (id: string, key?: string) => {
    const { request_id: _requestId, ...label } = (await call("GET", `/v1/labels/${id}`, { key })).body;
    return label;
  };
  return { shipping, receiver, call, secret: String(endpoint.body.secret), createDraft, getLabel };
}

const MULTI_PIECE = {
  from_address: US_FROM,
  to_address: US_TO,
  parcels: [PARCEL, { ...PARCEL, weight: 30 }, { ...PARCEL, weight: 12 }],
  carrier: "UPS",
  service: "UPS Ground",
};

describe("label.purchased", () => {
  it("is sent once for a purchase through the API, with the label exactly as GET /v1/labels/{id} returns it", async () => {
    const { shipping, receiver, call, createDraft, getLabel } = await setUp();
    const id = await createDraft();
    expect((await call("POST", `/v1/labels/${id}/purchase`)).status).toBe(200);
    await shipping.flushDeliveries();

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received as [ReceivedDelivery];
    expect(delivery.url).toBe("https://app.example/webhooks/shipping/demo");
    expect(delivery.headers.get("content-type")).toBe("application/json");
    expect(delivery.event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]+$/),
      type: "label.purchased",
      created_at: T0.toISOString(),
      organization: "org_demo",
      data: { label: await getLabel(id) },
    });
    expect(delivery.headers.get("shipping-event-id")).toBe(delivery.event.id);
    expect((delivery.event.data.label as { status: string }).status).toBe("purchased");
  });

  it("is signed: HMAC-SHA256 of t.body with the endpoint's secret verifies, another secret or a changed body does not", async () => {
    const { shipping, receiver, call, secret, createDraft } = await setUp();
    const id = await createDraft();
    await call("POST", `/v1/labels/${id}/purchase`);
    await shipping.flushDeliveries();
    const [delivery] = receiver.received as [ReceivedDelivery];
    const signature = delivery.headers.get("shipping-signature");
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureTimestamp(signature)).toBe(T0.getTime() / 1000);
    expect(verifyShippingSignature(secret, signature, delivery.body)).toBe(true);
    expect(verifyShippingSignature(`${secret}x`, signature, delivery.body)).toBe(false);
    expect(verifyShippingSignature(secret, signature, delivery.body.replace("org_demo", "org_evil"))).toBe(false);
    expect(verifyShippingSignature(secret, signature, `${delivery.body} `)).toBe(false);
  });

  it("is sent when the dashboard buys the draft through the control endpoint, which charges the organization", async () => {
    const { shipping, receiver, call, createDraft, getLabel } = await setUp();
    const id = await createDraft();
    const res = await shipping.fetch(`${BASE}/__emulator/labels/${id}/purchase`, { method: "POST" });
    expect(res.status).toBe(200);
    await shipping.flushDeliveries();
    expect(shipping.charges("org_demo")).toEqual([{ labelId: id, amountCents: expect.any(Number) }]);
    expect(receiver.received.map((d) => d.event.type)).toEqual(["label.purchased"]);
    expect(receiver.received[0]?.event.data.label).toEqual(await getLabel(id));
    // The app's own purchase afterwards finds it bought.
    const again = await call("POST", `/v1/labels/${id}/purchase`);
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_PURCHASED");
    await shipping.flushDeliveries();
    expect(receiver.received).toHaveLength(1);
  });

  it("is sent for purchaseAsDashboard in-process, which resolves to the purchased label", async () => {
    const { shipping, receiver, createDraft, getLabel } = await setUp();
    const id = await createDraft();
    const label = await shipping.purchaseAsDashboard(id);
    await shipping.flushDeliveries();
    const { request_id: _requestId, ...record } = label;
    expect(record).toEqual(await getLabel(id));
    expect(receiver.received.map((d) => d.event.data.label)).toEqual([record]);
    await expect(shipping.purchaseAsDashboard(id)).rejects.toMatchObject({ status: 409, code: "ALREADY_PURCHASED" });
    await expect(shipping.purchaseAsDashboard("lbl_nothing")).rejects.toBeInstanceOf(EmulatorControlError);
  });

  it("applies the purchase rules on the dashboard too: 402 for a poor organization, and then no event", async () => {
    const { shipping, receiver, call } = await setUp();
    const poor = await call("POST", "/v1/labels", { body: domesticDraft(), key: "sk_live_poor" });
    const res = await shipping.fetch(`${BASE}/__emulator/labels/${String(poor.body.id)}/purchase`, {
      method: "POST",
    });
    expect(res.status).toBe(402);
    await shipping.flushDeliveries();
    expect(receiver.received).toEqual([]);
    expect(shipping.events()).toEqual([]);
  });

  it("carries platform and platform_order_id when the draft was linked to an order", async () => {
    const { shipping, receiver, call, createDraft } = await setUp();
    const id = await createDraft(domesticDraft({ platform: "shopify", platform_order_id: "5512345678901" }));
    await call("POST", `/v1/labels/${id}/purchase`);
    await shipping.flushDeliveries();
    expect(receiver.received[0]?.event.data.label).toMatchObject({
      id,
      platform: "shopify",
      platform_order_id: "5512345678901",
    });
  });

  it("is still sent when the purchase response is lost after the charge", async () => {
    const { shipping, receiver, createDraft, getLabel } = await setUp();
    const id = await createDraft();
    shipping.setFaults({ failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge" }] });
    await expect(
      shipping.fetch(`${BASE}/v1/labels/${id}/purchase`, {
        method: "POST",
        headers: { authorization: "Bearer sk_live_demo" },
      }),
    ).rejects.toThrow("fetch failed");
    await shipping.flushDeliveries();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.event.data.label).toEqual(await getLabel(id));
  });

  it("answers the purchase first and delivers afterwards, without waiting for the receiver", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const receiver = createReceiver(async () => {
      order.push("delivered");
      await held;
      return new Response(null, { status: 200 });
    });
    const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { fetch: receiver.fetch } });
    shipping.setNow(T0);
    const call = (method: string, path: string, body?: unknown) =>
      callApi(BASE, method, path, { body, fetch: shipping.fetch });
    await call("POST", "/v1/webhook_endpoints", { url: "https://app.example/a", events: ALL_EVENTS });
    const draft = await call("POST", "/v1/labels", domesticDraft());
    const bought = await shipping.fetch(`${BASE}/v1/labels/${String(draft.body.id)}/purchase`, {
      method: "POST",
      headers: { authorization: "Bearer sk_live_demo" },
    });
    order.push("answered");
    expect(bought.status).toBe(200);
    release();
    await shipping.flushDeliveries();
    expect(order).toEqual(["answered", "delivered"]);
    expect(shipping.deliveries().map((d) => d.status)).toEqual(["delivered"]);
  });
});

describe("label.tracking_updated", () => {
  it("is sent once per tracking number of a multi-piece label, each with the contract's data", async () => {
    const { shipping, receiver, call, createDraft } = await setUp();
    const id = await createDraft(MULTI_PIECE);
    const bought = await call("POST", `/v1/labels/${id}/purchase`);
    const numbers = bought.body.tracking_numbers as string[];
    expect(numbers).toHaveLength(3);
    const res = await shipping.fetch(`${BASE}/__emulator/labels/${id}/tracking`, {
      method: "POST",
      body: JSON.stringify({ status: "in_transit" }),
    });
    expect(res.status).toBe(200);
    await shipping.flushDeliveries();

    const tracking = receiver.received.filter((d) => d.event.type === "label.tracking_updated");
    expect(tracking.map((d) => d.event.data.tracking_number)).toEqual(numbers);
    expect(new Set(tracking.map((d) => d.event.id)).size).toBe(3);
    expect(tracking[0]?.event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "label.tracking_updated",
      created_at: T0.toISOString(),
      organization: "org_demo",
      data: {
        label_id: id,
        tracking_number: numbers[0],
        status: "in_transit",
        status_detail: expect.any(String),
        occurred_at: T0.toISOString(),
        estimated_delivery_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/),
        location: { city: "MOUNTAIN VIEW", state: "CA", zip: "94043", country: "US" },
      },
    });
  });

  it("is sent for the one tracking number given, with the fields given", async () => {
    const { shipping, receiver, call, createDraft } = await setUp({ events: ["label.tracking_updated"] });
    const id = await createDraft(MULTI_PIECE);
    const numbers = (await call("POST", `/v1/labels/${id}/purchase`)).body.tracking_numbers as string[];
    const update = {
      status: "delivered" as const,
      tracking_number: numbers[1],
      status_detail: "Left at front door",
      occurred_at: "2026-11-24T15:04:00Z",
      estimated_delivery_at: "2026-11-24T00:00:00Z",
      location: { city: "NEW YORK", state: "NY", zip: "10019", country: "US" },
    };
    const events = await shipping.emitTracking(id, update);
    await shipping.flushDeliveries();
    expect(events).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const { status, tracking_number, status_detail, occurred_at, estimated_delivery_at, location } = update;
    expect(receiver.received[0]?.event.data).toEqual({
      label_id: id,
      tracking_number,
      status,
      status_detail,
      occurred_at,
      estimated_delivery_at,
      location,
    });
    expect(receiver.received[0]?.event.id).toBe(events[0]?.id);
  });

  it("places a delivery scan at the recipient's address by default", async () => {
    const { shipping, call, createDraft } = await setUp();
    const id = await createDraft();
    await call("POST", `/v1/labels/${id}/purchase`);
    const [event] = await shipping.emitTracking(id, { status: "out_for_delivery" });
    expect(event?.data.location).toEqual({ city: "NEW YORK", state: "NY", zip: "10019", country: "US" });
  });

  it("refuses a draft (409), an unknown label (404), an unknown status and a tracking number not of the label (400)", async () => {
    const { shipping, receiver, call, createDraft } = await setUp();
    const id = await createDraft();
    const post = (labelId: string, body: unknown) =>
      callApi(BASE, "POST", `/__emulator/labels/${labelId}/tracking`, { body, fetch: shipping.fetch, key: null });
    const draft = await post(id, { status: "in_transit" });
    expect(draft.status).toBe(409);
    expect(errorOf(draft).code).toBe("LABEL_NOT_PURCHASED");
    expect((await post("lbl_nothing", { status: "in_transit" })).status).toBe(404);
    await call("POST", `/v1/labels/${id}/purchase`);
    const badStatus = await post(id, { status: "lost_in_space", occurred_at: "yesterday" });
    expect(badStatus.status).toBe(400);
    expect(fieldPaths(badStatus)).toEqual(["status", "occurred_at"]);
    const badNumber = await post(id, { status: "in_transit", tracking_number: "1Z999" });
    expect(badNumber.status).toBe(400);
    expect(fieldPaths(badNumber)).toEqual(["tracking_number"]);
    await shipping.flushDeliveries();
    expect(receiver.received.map((d) => d.event.type)).toEqual(["label.purchased"]);
  });
});

describe("who receives an event", () => {
  it("sends an event type only to the endpoints subscribed to it", async () => {
    const byUrl = new Map<string, string[]>();
    const receiver = createReceiver((delivery) => {
      byUrl.set(delivery.url, [...(byUrl.get(delivery.url) ?? []), delivery.event.type]);
      return new Response(null, { status: 200 });
    });
    const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { fetch: receiver.fetch } });
    shipping.setNow(T0);
    const call = (method: string, path: string, body?: unknown) =>
      callApi(BASE, method, path, { body, fetch: shipping.fetch });
    await call("POST", "/v1/webhook_endpoints", { url: "https://app.example/purchases", events: ["label.purchased"] });
    await call("POST", "/v1/webhook_endpoints", {
      url: "https://app.example/tracking",
      events: ["label.tracking_updated"],
    });
    const draft = await call("POST", "/v1/labels", domesticDraft());
    await call("POST", `/v1/labels/${String(draft.body.id)}/purchase`);
    await shipping.emitTracking(String(draft.body.id), { status: "pre_transit" });
    await shipping.flushDeliveries();
    expect(Object.fromEntries(byUrl)).toEqual({
      "https://app.example/purchases": ["label.purchased"],
      "https://app.example/tracking": ["label.tracking_updated"],
    });
  });

  it("sends an organization's events only to its own endpoints", async () => {
    const { shipping, receiver, call, createDraft } = await setUp({ url: "https://demo.example/hook" });
    await call("POST", "/v1/webhook_endpoints", {
      key: "sk_live_other",
      body: { url: "https://other.example/hook", events: ALL_EVENTS },
    });
    const demoLabel = await createDraft();
    await call("POST", `/v1/labels/${demoLabel}/purchase`);
    const otherLabel = await createDraft(domesticDraft(), "sk_live_other");
    await call("POST", `/v1/labels/${otherLabel}/purchase`, { key: "sk_live_other" });
    await shipping.emitTracking(otherLabel, { status: "in_transit" });
    await shipping.flushDeliveries();
    const seen = receiver.received.map((d) => [
      d.url,
      d.event.organization,
      d.event.type,
      (d.event.data.label as { id?: string } | undefined)?.id ?? d.event.data.label_id,
    ]);
    expect(seen).toEqual([
      ["https://demo.example/hook", "org_demo", "label.purchased", demoLabel],
      ["https://other.example/hook", "org_other", "label.purchased", otherLabel],
      ["https://other.example/hook", "org_other", "label.tracking_updated", otherLabel],
    ]);
  });

  it("records events even when no endpoint is registered, and delivers nothing", async () => {
    const receiver = createReceiver();
    const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { fetch: receiver.fetch } });
    const call = (method: string, path: string, body?: unknown) =>
      callApi(BASE, method, path, { body, fetch: shipping.fetch });
    const draft = await call("POST", "/v1/labels", domesticDraft());
    await call("POST", `/v1/labels/${String(draft.body.id)}/purchase`);
    await shipping.flushDeliveries();
    expect(shipping.events("org_demo").map((e) => e.type)).toEqual(["label.purchased"]);
    expect(shipping.deliveries()).toEqual([]);
    expect(receiver.received).toEqual([]);
  });
});
