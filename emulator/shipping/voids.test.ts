import { describe, expect, it } from "vitest";

import { createShippingEmulator, EmulatorControlError } from "./emulator";
import { callApi, createReceiver, domesticDraft, errorOf, PARCEL, US_FROM, US_TO } from "./test-support";

const BASE = "http://shipping.test";
const T0 = new Date("2026-11-22T10:00:00Z");
const MINUTE = 60_000;
const DAY = 86_400_000;

type Refund = { amount: string; currency: string; status: string; requested_at: string; reason?: string };
type Label = { id: string; status: string; charged: string; refund: Refund | null; tracking_numbers: string[] };

/** An in-process emulator on a fixed clock, its events going to an in-process receiver. */
async function setUp(events: string[] = ["label.voided", "label.void_rejected"]) {
  const receiver = createReceiver();
  const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { fetch: receiver.fetch } });
  shipping.setNow(T0);
  const call = (method: string, path: string, key?: string) =>
    callApi(BASE, method, path, { key, fetch: shipping.fetch });
  const registered = await callApi(BASE, "POST", "/v1/webhook_endpoints", {
    fetch: shipping.fetch,
    body: { url: "https://app.example/webhooks/shipping/demo", events },
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
  const createDraft = async (body: Record<string, unknown> = domesticDraft()): Promise<string> => {
    const draft = await callApi(BASE, "POST", "/v1/labels", { body, fetch: shipping.fetch });
    if (draft.status !== 201) throw new Error(`draft failed: ${JSON.stringify(draft.body)}`);
    return String(draft.body.id);
  };
  const buy = async (body?: Record<string, unknown>): Promise<Label> => {
    const id = await createDraft(body);
    const bought = await call("POST", `/v1/labels/${id}/purchase`);
    if (bought.status !== 200) throw new Error(`purchase failed: ${JSON.stringify(bought.body)}`);
    return bought.body as unknown as Label;
  };
  const voidLabel = (id: string, key?: string) => call("POST", `/v1/labels/${id}/void`, key);
  const getLabel = async (id: string): Promise<Label> => {
    const { request_id: _requestId, ...label } = (await call("GET", `/v1/labels/${id}`)).body;
    return label as unknown as Label;
  };
  const organization = async () =>
    (await fetchJson(shipping.fetch, `${BASE}/__emulator/organizations/org_demo`)) as {
      balance: string;
      refunds: Array<{ label_id: string; amount: string }>;
      voids_pending: string[];
    };
  return { shipping, receiver, call, createDraft, buy, voidLabel, getLabel, organization };
}

async function fetchJson(send: typeof fetch, url: string, body?: unknown): Promise<unknown> {
  const res = await send(url, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  return (await res.json()) as unknown;
}

function toCents(amount: string): number {
  return Math.round(Number(amount) * 100);
}

describe("POST /v1/labels/{id}/void", () => {
  it("answers 200 void_pending with a pending refund of the charged amount, and GET shows the same", async () => {
    const { buy, voidLabel, getLabel, shipping } = await setUp();
    const label = await buy();
    const res = await voidLabel(label.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("void_pending");
    expect(res.body.refund).toEqual({
      amount: label.charged,
      currency: "USD",
      status: "pending",
      requested_at: T0.toISOString(),
    });
    expect(res.body.request_id).toMatch(/^req_/);
    const { request_id: _requestId, ...record } = res.body;
    expect(await getLabel(label.id)).toEqual(record);
    expect(shipping.refunds("org_demo")).toEqual([]);
  });

  it("refunds after 15 minutes on the emulator's clock: voided, refunded, the balance credited once, label.voided sent", async () => {
    const { buy, voidLabel, getLabel, shipping, receiver, organization } = await setUp();
    const before = shipping.balanceCents("org_demo");
    const label = await buy();
    expect(shipping.balanceCents("org_demo")).toBe(before - toCents(label.charged));
    await voidLabel(label.id);

    await shipping.advanceTime(15 * MINUTE - 1000);
    expect((await getLabel(label.id)).status).toBe("void_pending");
    await shipping.advanceTime(1000);
    await shipping.flushDeliveries();

    const after = await getLabel(label.id);
    expect(after.status).toBe("voided");
    expect(after.refund).toMatchObject({ status: "refunded", amount: label.charged });
    expect(shipping.balanceCents("org_demo")).toBe(before);
    expect((await organization()).refunds).toEqual([
      { label_id: label.id, amount: label.charged, refunded_at: new Date(T0.getTime() + 15 * MINUTE).toISOString() },
    ]);
    expect(receiver.received.map((d) => d.event.type)).toEqual(["label.voided"]);
    expect(receiver.received[0]?.event.data).toEqual({ label: after });

    await shipping.advanceTime(DAY);
    expect(shipping.refunds("org_demo")).toHaveLength(1);
    expect(shipping.balanceCents("org_demo")).toBe(before);
  });

  it("answers a repeat for void_pending and voided labels with 200 and the same record, never a second refund", async () => {
    const { buy, voidLabel, shipping } = await setUp();
    const label = await buy();
    const first = await voidLabel(label.id);
    const again = await voidLabel(label.id);
    expect(again.status).toBe(200);
    expect({ ...again.body, request_id: null }).toEqual({ ...first.body, request_id: null });
    await shipping.advanceTime(15 * MINUTE);
    const afterVoided = await voidLabel(label.id);
    expect(afterVoided.status).toBe(200);
    expect(afterVoided.body.status).toBe("voided");
    expect((afterVoided.body.refund as Refund).requested_at).toBe(T0.toISOString());
    await shipping.advanceTime(15 * MINUTE);
    expect(shipping.refunds("org_demo")).toHaveLength(1);
  });

  it("credits once when the same label is voided many times concurrently", async () => {
    const { buy, voidLabel, shipping } = await setUp();
    const before = shipping.balanceCents("org_demo");
    const label = await buy();
    const answers = await Promise.all(Array.from({ length: 10 }, () => voidLabel(label.id)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => (a.body.refund as Refund).requested_at)).size).toBe(1);
    await shipping.advanceTime(15 * MINUTE);
    await Promise.all([
      voidLabel(label.id),
      shipping.decideVoid(label.id, "refunded").catch((e: unknown) => e),
      voidLabel(label.id),
    ]);
    expect(shipping.refunds("org_demo")).toHaveLength(1);
    expect(shipping.balanceCents("org_demo")).toBe(before);
  });

  it("a lost answer to a void still leaves one pending void, and asking again returns it", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const label = await buy();
    shipping.setFaults({ failures: [{ endpoint: "POST /v1/labels/{id}/void", kind: "lost_after_charge" }] });
    await expect(voidLabel(label.id)).rejects.toThrow(TypeError);
    expect((await getLabel(label.id)).status).toBe("void_pending");
    const retry = await voidLabel(label.id);
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe("void_pending");
    await shipping.advanceTime(15 * MINUTE);
    expect(shipping.refunds("org_demo")).toHaveLength(1);
  });

  it("voids a multi-piece label as a whole", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const label = await buy({
      from_address: US_FROM,
      to_address: US_TO,
      parcels: [PARCEL, PARCEL, PARCEL],
      carrier: "UPS",
      service: "UPS Ground",
    });
    expect(label.tracking_numbers).toHaveLength(3);
    expect((await voidLabel(label.id)).body.refund).toMatchObject({ amount: label.charged });
    await shipping.advanceTime(15 * MINUTE);
    expect((await getLabel(label.id)).status).toBe("voided");
    expect(shipping.refunds("org_demo")).toEqual([
      expect.objectContaining({ labelId: label.id, amountCents: toCents(label.charged) }),
    ]);
  });

  it("refuses a draft with 409 NOT_VOIDABLE reason draft", async () => {
    const { createDraft, voidLabel } = await setUp();
    const res = await voidLabel(await createDraft());
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: "NOT_VOIDABLE", reason: "draft" });
  });

  it("refuses a label a parcel of which was scanned with 409 NOT_VOIDABLE reason scanned; pre_transit does not count", async () => {
    const { buy, voidLabel, shipping } = await setUp();
    const preTransit = await buy();
    await shipping.emitTracking(preTransit.id, { status: "pre_transit" });
    expect((await voidLabel(preTransit.id)).status).toBe(200);

    const multi = await buy({
      from_address: US_FROM,
      to_address: US_TO,
      parcels: [PARCEL, PARCEL],
      carrier: "UPS",
      service: "UPS Ground",
    });
    await shipping.emitTracking(multi.id, { status: "in_transit", tracking_number: multi.tracking_numbers[1] });
    const res = await voidLabel(multi.id);
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: "NOT_VOIDABLE", reason: "scanned" });
  });

  it("allows a void on the 30th day after purchase and refuses it after with reason too_old", async () => {
    const { buy, voidLabel, shipping } = await setUp();
    const onTime = await buy();
    const late = await buy();
    shipping.setNow(new Date(T0.getTime() + 30 * DAY));
    expect((await voidLabel(onTime.id)).status).toBe(200);
    shipping.setNow(new Date(T0.getTime() + 30 * DAY + 1000));
    const res = await voidLabel(late.id);
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: "NOT_VOIDABLE", reason: "too_old" });
  });

  it("answers 404 for an unknown label and for another organization's label", async () => {
    const { buy, voidLabel } = await setUp();
    const label = await buy();
    expect((await voidLabel("lbl_nope")).status).toBe(404);
    const other = await voidLabel(label.id, "sk_live_other");
    expect(other.status).toBe(404);
    expect(errorOf(other).code).toBe("NOT_FOUND");
  });

  it("answers 401 without a key", async () => {
    const { buy, shipping } = await setUp();
    const label = await buy();
    const res = await callApi(BASE, "POST", `/v1/labels/${label.id}/void`, { key: null, fetch: shipping.fetch });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHENTICATED");
  });
});

describe("a void racing a scan", () => {
  it("a scan before the decision returns the label to purchased with refund rejected (scanned), no credit, label.void_rejected sent", async () => {
    const { buy, voidLabel, shipping, getLabel, receiver } = await setUp();
    const before = shipping.balanceCents("org_demo");
    const label = await buy();
    await voidLabel(label.id);
    await shipping.advanceTime(5 * MINUTE);
    await shipping.emitTracking(label.id, { status: "in_transit" });
    await shipping.advanceTime(15 * MINUTE);
    await shipping.flushDeliveries();

    const after = await getLabel(label.id);
    expect(after.status).toBe("purchased");
    expect(after.refund).toMatchObject({ status: "rejected", reason: "scanned", amount: label.charged });
    expect(shipping.refunds("org_demo")).toEqual([]);
    expect(shipping.balanceCents("org_demo")).toBe(before - toCents(label.charged));
    expect(receiver.received.map((d) => d.event.type)).toEqual(["label.void_rejected"]);
    expect(receiver.received[0]?.event.data).toEqual({ label: after });
    // Asked again, it is now a scanned label: refused, still no credit.
    const again = await voidLabel(label.id);
    expect(errorOf(again)).toMatchObject({ code: "NOT_VOIDABLE", reason: "scanned" });
  });

  it("a scan after the refund is refused: the label stays voided, credited once", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const label = await buy();
    await voidLabel(label.id);
    await shipping.advanceTime(15 * MINUTE);
    await expect(shipping.emitTracking(label.id, { status: "in_transit" })).rejects.toMatchObject({
      status: 409,
      code: "LABEL_VOIDED",
    });
    expect((await getLabel(label.id)).status).toBe("voided");
    expect(shipping.refunds("org_demo")).toHaveLength(1);
  });

  it("a scan and a decision at the same instant end in one state with at most one credit", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const label = await buy();
    await voidLabel(label.id);
    await Promise.allSettled([
      shipping.emitTracking(label.id, { status: "in_transit" }),
      shipping.decideVoid(label.id, "refunded"),
      shipping.advanceTime(15 * MINUTE),
    ]);
    const final = await getLabel(label.id);
    const refunds = shipping.refunds("org_demo");
    if (final.status === "voided") {
      expect(final.refund?.status).toBe("refunded");
      expect(refunds).toHaveLength(1);
    } else {
      expect(final).toMatchObject({ status: "purchased", refund: { status: "rejected", reason: "scanned" } });
      expect(refunds).toHaveLength(0);
    }
    const events = shipping
      .events("org_demo")
      .filter((e) => e.type === "label.voided" || e.type === "label.void_rejected");
    expect(events).toHaveLength(1);
  });
});

describe("POST /__emulator/labels/{id}/void_decision", () => {
  it("settles a pending void at once, either way", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const refunded = await buy();
    const rejected = await buy();
    await voidLabel(refunded.id);
    await voidLabel(rejected.id);
    const answer = (await fetchJson(shipping.fetch, `${BASE}/__emulator/labels/${refunded.id}/void_decision`, {
      outcome: "refunded",
    })) as Label;
    expect(answer.status).toBe("voided");
    expect((await shipping.decideVoid(rejected.id, "rejected")).status).toBe("purchased");
    expect((await getLabel(rejected.id)).refund).toMatchObject({ status: "rejected", reason: "scanned" });
    expect(shipping.refunds("org_demo").map((r) => r.labelId)).toEqual([refunded.id]);
  });

  it("answers 409 for a label with no pending void, 404 for an unknown one, 400 for another outcome", async () => {
    const { buy, shipping } = await setUp();
    const label = await buy();
    await expect(shipping.decideVoid(label.id, "refunded")).rejects.toMatchObject({ status: 409 });
    await expect(shipping.decideVoid("lbl_nope", "refunded")).rejects.toBeInstanceOf(EmulatorControlError);
    const bad = await shipping.fetch(`${BASE}/__emulator/labels/${label.id}/void_decision`, {
      method: "POST",
      body: JSON.stringify({ outcome: "maybe" }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("void decision timing", () => {
  it("is settable by a control and by the emulator's options; reset restores the config's", async () => {
    const { buy, voidLabel, shipping, getLabel } = await setUp();
    const res = await shipping.fetch(`${BASE}/__emulator/voids`, {
      method: "POST",
      body: JSON.stringify({ decision_seconds: 20 }),
    });
    expect(res.status).toBe(200);
    const label = await buy();
    await voidLabel(label.id);
    await shipping.advanceTime(20_000);
    expect((await getLabel(label.id)).status).toBe("voided");

    const quick = createShippingEmulator({ baseUrl: BASE, voidDecisionSeconds: 1 });
    quick.setNow(T0);
    const draft = await callApi(BASE, "POST", "/v1/labels", { body: domesticDraft(), fetch: quick.fetch });
    await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/purchase`, { fetch: quick.fetch });
    await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/void`, { fetch: quick.fetch });
    await quick.advanceTime(1000);
    expect(quick.refunds("org_demo")).toHaveLength(1);
  });

  it("decides on a running clock without anybody asking (a real timer)", async () => {
    let now = T0.getTime();
    const receiver = createReceiver();
    const shipping = createShippingEmulator({
      baseUrl: BASE,
      now: () => new Date(now),
      voidDecisionSeconds: 0.05,
      delivery: { fetch: receiver.fetch },
    });
    await callApi(BASE, "POST", "/v1/webhook_endpoints", {
      fetch: shipping.fetch,
      body: { url: "https://app.example/webhooks/shipping/demo", events: ["label.voided"] },
    });
    const draft = await callApi(BASE, "POST", "/v1/labels", { body: domesticDraft(), fetch: shipping.fetch });
    await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/purchase`, { fetch: shipping.fetch });
    await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/void`, { fetch: shipping.fetch });
    now += 50;
    await expect.poll(() => receiver.received.length, { timeout: 2000 }).toBe(1);
    expect(receiver.received[0]?.event.type).toBe("label.voided");
  });
});
