import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { createShippingEmulator, type ShippingEmulator } from "./emulator";
import type { DeliveryOptions } from "./event-delivery";
import { startShippingEmulatorServer } from "./server";
import {
  callApi,
  createReceiver,
  domesticDraft,
  type ReceivedDelivery,
  signatureTimestamp,
  verifyShippingSignature,
} from "./test-support";

const BASE = "http://shipping.test";
const T0 = new Date("2026-11-22T10:00:00Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RETRY_DELAYS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR];

type Answer = Parameters<typeof createReceiver>[0];

/** An emulator on a fixed clock, one endpoint of org_demo, and a helper that buys a label. */
async function setUp(answer: Answer, delivery: Omit<DeliveryOptions, "fetch"> = {}) {
  const receiver = createReceiver(answer);
  const shipping = createShippingEmulator({ baseUrl: BASE, delivery: { ...delivery, fetch: receiver.fetch } });
  shipping.setNow(T0);
  const call = (method: string, path: string, body?: unknown) =>
    callApi(BASE, method, path, { body, fetch: shipping.fetch });
  const endpoint = await call("POST", "/v1/webhook_endpoints", {
    url: "https://app.example/hook",
    events: ["label.purchased", "label.tracking_updated"],
  });
  const buyLabel = async () => {
    const draft = await call("POST", "/v1/labels", domesticDraft());
    await call("POST", `/v1/labels/${String(draft.body.id)}/purchase`);
    return String(draft.body.id);
  };
  return { shipping, receiver, call, buyLabel, secret: String(endpoint.body.secret), endpointId: endpoint.body.id };
}

const status = (code: number) => () => new Response("nope", { status: code });
const attemptTimes = (shipping: ShippingEmulator) => shipping.deliveries()[0]?.attempts.map((a) => a.at);
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs).toISOString();

describe("delivery retries", () => {
  it("retries a 500 after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h, never early, with the same id and body and a new t", async () => {
    const { shipping, receiver, buyLabel, secret } = await setUp(status(500));
    await buyLabel();
    await shipping.flushDeliveries();
    expect(receiver.received).toHaveLength(1);

    let elapsed = 0;
    for (const [i, delay] of RETRY_DELAYS.entries()) {
      await shipping.advanceTime(delay - 1000);
      expect(receiver.received, `no retry ${i + 1} a second before its time`).toHaveLength(i + 1);
      await shipping.advanceTime(1000);
      elapsed += delay;
      expect(receiver.received, `retry ${i + 1} at its time`).toHaveLength(i + 2);
      expect(shipping.deliveries()[0]?.next_attempt_at ?? null).toBe(
        i + 1 < RETRY_DELAYS.length ? at(elapsed + (RETRY_DELAYS[i + 1] ?? 0)) : null,
      );
    }

    const [first, ...retries] = receiver.received as [ReceivedDelivery, ...ReceivedDelivery[]];
    for (const retry of retries) {
      expect(retry.headers.get("shipping-event-id")).toBe(first.event.id);
      expect(retry.body).toBe(first.body);
      expect(verifyShippingSignature(secret, retry.headers.get("shipping-signature"), retry.body)).toBe(true);
    }
    let expected = T0.getTime();
    const stamps = receiver.received.map((d) => signatureTimestamp(d.headers.get("shipping-signature")));
    expect(stamps).toEqual([0, ...RETRY_DELAYS].map((d) => (expected += d) / 1000));
  });

  it("gives up after the last retry, and the log says so", async () => {
    const { shipping, receiver, buyLabel } = await setUp(status(500));
    await buyLabel();
    await shipping.flushDeliveries();
    for (const delay of RETRY_DELAYS) await shipping.advanceTime(delay);
    await shipping.advanceTime(48 * HOUR);
    expect(receiver.received).toHaveLength(7);

    const [delivery] = shipping.deliveries();
    expect(delivery).toMatchObject({
      status: "given_up",
      reason: expect.stringContaining("7 attempts"),
      next_attempt_at: null,
      in_flight: false,
    });
    let offset = 0;
    expect(delivery?.attempts).toEqual(
      [0, ...RETRY_DELAYS].map((delay, i) => ({
        number: i + 1,
        at: at((offset += delay)),
        t: Date.parse(at(offset)) / 1000,
        status: 500,
        error: "HTTP 500",
        answer: "nope",
        duration_ms: expect.any(Number),
        manual: false,
      })),
    );
  });

  it("stops retrying once a retry is answered 2xx", async () => {
    const { shipping, receiver, buyLabel } = await setUp((_, index) =>
      index === 0 ? new Response(null, { status: 503 }) : new Response("ok", { status: 200 }),
    );
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[0]?.status).toBe("pending");
    await shipping.advanceTime(MINUTE);
    expect(shipping.deliveries()[0]).toMatchObject({ status: "delivered", next_attempt_at: null });
    await shipping.advanceTime(24 * HOUR);
    expect(receiver.received).toHaveLength(2);
    expect(attemptTimes(shipping)).toEqual([at(0), at(MINUTE)]);
  });

  it("counts a redirect as a failure (only 2xx delivers)", async () => {
    const { shipping, buyLabel } = await setUp(
      () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } }),
    );
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[0]).toMatchObject({ status: "pending", attempts: [{ status: 302 }] });
  });

  it("counts a 2xx answered more than 10 seconds after the attempt began as a failure, and retries it", async () => {
    let shippingRef: ShippingEmulator | null = null;
    // The receiver's clock: it takes exactly 10 s the first time (in time), 10.001 s the second (late).
    const answeredAt = [at(10_000), at(20_001)];
    const { shipping, receiver, buyLabel } = await setUp((_, index) => {
      shippingRef?.setNow(new Date(answeredAt[index] ?? at(0)));
      return new Response(null, { status: 200 });
    });
    shippingRef = shipping;
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[0]).toMatchObject({ status: "delivered", attempts: [{ error: null }] });

    await buyLabel(); // at T0 + 10 s
    await shipping.flushDeliveries();
    expect(receiver.received).toHaveLength(2);
    const late = shipping.deliveries()[1];
    expect(late?.status).toBe("pending");
    expect(late?.attempts).toMatchObject([{ at: at(10_000), status: 200, error: expect.stringMatching(/^timeout/) }]);
    expect(late?.next_attempt_at).toBe(at(20_001 + MINUTE));
  });

  it("fails an attempt that gets no answer within the timeout, and schedules the retry", async () => {
    const { shipping, receiver, buyLabel } = await setUp(() => new Promise<Response>(() => undefined), {
      timeoutMs: 50,
    });
    await buyLabel();
    await shipping.flushDeliveries();
    expect(receiver.received).toHaveLength(1);
    expect(shipping.deliveries()[0]).toMatchObject({
      status: "pending",
      next_attempt_at: at(MINUTE),
      attempts: [{ status: null, error: "timeout: no answer within 50 ms" }],
    });
  });

  it("records a receiver that cannot be reached and retries it", async () => {
    const { shipping, buyLabel } = await setUp(() => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    });
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[0]).toMatchObject({
      status: "pending",
      attempts: [{ status: null, error: "connection failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)" }],
    });
  });

  it("does not retry to an endpoint deleted in the meantime", async () => {
    const { shipping, receiver, buyLabel, call, endpointId } = await setUp(status(500));
    await buyLabel();
    await shipping.flushDeliveries();
    expect((await call("DELETE", `/v1/webhook_endpoints/${String(endpointId)}`)).status).toBe(204);
    await shipping.advanceTime(24 * HOUR);
    expect(receiver.received).toHaveLength(1);
    expect(shipping.deliveries()[0]).toMatchObject({ status: "given_up", reason: "the endpoint was deleted" });
  });

  it("redelivers an event on request, outside the schedule, and a success ends its retries", async () => {
    const { shipping, receiver, buyLabel } = await setUp((_, index) =>
      index === 0 ? new Response(null, { status: 500 }) : new Response(null, { status: 200 }),
    );
    await buyLabel();
    await shipping.flushDeliveries();
    const eventId = shipping.deliveries()[0]?.event_id ?? "";
    const res = await shipping.fetch(`${BASE}/__emulator/deliveries/${eventId}/redeliver`, { method: "POST" });
    expect(res.status).toBe(200);
    const [delivery] = ((await res.json()) as { deliveries: Array<{ status: string; attempts: unknown[] }> })
      .deliveries;
    expect(delivery).toMatchObject({ status: "delivered", attempts: [{ manual: false }, { manual: true }] });
    expect(receiver.received.map((d) => d.event.id)).toEqual([eventId, eventId]);
    await shipping.advanceTime(24 * HOUR);
    expect(receiver.received).toHaveLength(2);
    expect(
      (await shipping.fetch(`${BASE}/__emulator/deliveries/evt_nothing/redeliver`, { method: "POST" })).status,
    ).toBe(404);
  });

  it("reset forgets endpoints, events and pending deliveries", async () => {
    const { shipping, receiver, buyLabel, call } = await setUp(status(500));
    await buyLabel();
    await shipping.flushDeliveries();
    shipping.reset();
    shipping.setNow(T0);
    await shipping.advanceTime(24 * HOUR);
    expect(receiver.received).toHaveLength(1);
    expect(shipping.deliveries()).toEqual([]);
    expect(shipping.events()).toEqual([]);
    expect((await call("GET", "/v1/webhook_endpoints")).body.webhook_endpoints).toEqual([]);
  });
});

describe("delivery faults", () => {
  const setFaults = async (shipping: ShippingEmulator, faults: unknown) =>
    shipping.fetch(`${BASE}/__emulator/faults`, { method: "POST", body: JSON.stringify(faults) });

  it.each([
    ["server_error", 500, "HTTP 500 (injected fault)", 0],
    ["timeout", null, "timeout: no answer within 10000 ms (injected fault)", 0],
    ["drop_connection", null, "connection failed (injected fault)", 0],
    ["answer_lost", null, "timeout: no answer within 10000 ms (injected fault)", 1],
  ] as const)(
    "%s on DELIVERY fails the attempt, then clears and the retry delivers",
    async (kind, answerStatus, error, reached) => {
      const { shipping, receiver, buyLabel } = await setUp(status(200));
      expect((await setFaults(shipping, { failures: [{ endpoint: "DELIVERY", kind }] })).status).toBe(200);
      await buyLabel();
      await shipping.flushDeliveries();
      expect(shipping.deliveries()[0]).toMatchObject({
        status: "pending",
        attempts: [{ status: answerStatus, error }],
      });
      expect(receiver.received).toHaveLength(reached);
      await shipping.advanceTime(MINUTE);
      expect(shipping.deliveries()[0]?.status).toBe("delivered");
      expect(receiver.received).toHaveLength(reached + 1);
    },
  );

  it("counts `times` down per attempt", async () => {
    const { shipping, buyLabel } = await setUp(status(200));
    await setFaults(shipping, { failures: [{ endpoint: "DELIVERY", kind: "server_error", times: 2 }] });
    await buyLabel();
    await shipping.flushDeliveries();
    await shipping.advanceTime(MINUTE);
    await shipping.advanceTime(5 * MINUTE);
    expect(shipping.deliveries()[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it("slows deliveries with latency_ms, and a delay beyond the timeout is a timeout", async () => {
    const { shipping, receiver, buyLabel } = await setUp(status(200), { timeoutMs: 500 });
    await setFaults(shipping, { latency_ms: { DELIVERY: 30 } });
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[0]?.status).toBe("delivered");
    expect(shipping.deliveries()[0]?.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(25);
    await setFaults(shipping, { latency_ms: { DELIVERY: 600 } });
    await buyLabel();
    await shipping.flushDeliveries();
    expect(shipping.deliveries()[1]?.attempts).toMatchObject([{ error: "timeout: no answer within 500 ms" }]);
    expect(receiver.received).toHaveLength(1);
  });

  it("refuses a service fault kind on DELIVERY and a delivery kind on a service route", async () => {
    const { shipping } = await setUp(status(200));
    expect((await setFaults(shipping, { failures: [{ endpoint: "DELIVERY", kind: "rate_limited" }] })).status).toBe(
      400,
    );
    expect(
      (await setFaults(shipping, { failures: [{ endpoint: "POST /v1/labels", kind: "answer_lost" }] })).status,
    ).toBe(400);
  });

  it("leaves API calls alone when only deliveries are faulted", async () => {
    const { shipping, call } = await setUp(status(200));
    await setFaults(shipping, { failures: [{ endpoint: "DELIVERY", kind: "server_error", times: 5 }] });
    expect((await call("POST", "/v1/labels", domesticDraft())).status).toBe(201);
  });
});

describe("GET /__emulator/deliveries", () => {
  it("lists each delivery with its event, endpoint, state and attempts, filterable by event", async () => {
    const { shipping, buyLabel, endpointId } = await setUp(status(200));
    const labelId = await buyLabel();
    await shipping.emitTracking(labelId, { status: "in_transit" });
    await shipping.flushDeliveries();
    const res = await shipping.fetch(`${BASE}/__emulator/deliveries`);
    const { deliveries } = (await res.json()) as { deliveries: Array<Record<string, unknown>> };
    expect(deliveries.map((d) => d.event_type)).toEqual(["label.purchased", "label.tracking_updated"]);
    expect(deliveries[0]).toEqual({
      id: expect.stringMatching(/^dlv_/),
      event_id: expect.stringMatching(/^evt_/),
      event_type: "label.purchased",
      organization: "org_demo",
      endpoint_id: endpointId,
      url: "https://app.example/hook",
      status: "delivered",
      reason: null,
      in_flight: false,
      next_attempt_at: null,
      attempts: [
        {
          number: 1,
          at: T0.toISOString(),
          t: T0.getTime() / 1000,
          status: 200,
          error: null,
          answer: "nope",
          duration_ms: expect.any(Number),
          manual: false,
        },
      ],
      event: expect.objectContaining({ type: "label.purchased", organization: "org_demo" }),
    });
    const filtered = await shipping.fetch(`${BASE}/__emulator/deliveries?event_id=${String(deliveries[1]?.event_id)}`);
    expect(((await filtered.json()) as { deliveries: unknown[] }).deliveries).toHaveLength(1);
  });
});

describe("delivery over HTTP (loopback server and receiver)", () => {
  /** A real receiver on a free loopback port; `answers` are the statuses it gives, in order, then 200. */
  async function startReceiver(answers: number[] = []) {
    const received: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/webhooks/shipping/x`,
      received,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("posts a signed event to a loopback http URL with the real fetch", async () => {
    const receiver = await startReceiver();
    const shipping = await startShippingEmulatorServer({ port: 0 });
    try {
      const endpoint = await callApi(shipping.url, "POST", "/v1/webhook_endpoints", {
        body: { url: receiver.url, events: ["label.purchased"] },
      });
      const draft = await callApi(shipping.url, "POST", "/v1/labels", { body: domesticDraft() });
      await callApi(shipping.url, "POST", `/v1/labels/${String(draft.body.id)}/purchase`);
      expect((await fetch(`${shipping.url}/__emulator/deliveries/flush`, { method: "POST" })).status).toBe(200);
      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received;
      const signature = delivery?.headers["shipping-signature"];
      expect(typeof signature).toBe("string");
      expect(verifyShippingSignature(String(endpoint.body.secret), String(signature), delivery?.body ?? "")).toBe(true);
      expect(delivery?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(delivery?.body ?? "{}")).toMatchObject({
        id: delivery?.headers["shipping-event-id"],
        type: "label.purchased",
        data: { label: { id: draft.body.id, status: "purchased" } },
      });
    } finally {
      await shipping.close();
      await receiver.close();
    }
  });

  it("retries on real timers while the clock runs, on the schedule given", async () => {
    const receiver = await startReceiver([500]);
    const shipping = await startShippingEmulatorServer({ port: 0, delivery: { retryDelaysMs: [100] } });
    try {
      await callApi(shipping.url, "POST", "/v1/webhook_endpoints", {
        body: { url: receiver.url, events: ["label.purchased"] },
      });
      const draft = await callApi(shipping.url, "POST", "/v1/labels", { body: domesticDraft() });
      await callApi(shipping.url, "POST", `/v1/labels/${String(draft.body.id)}/purchase`);
      const deadline = Date.now() + 5_000;
      type Listed = { deliveries: Array<{ status: string; attempts: Array<{ status: number }> }> };
      let deliveries: Listed["deliveries"] = [];
      while (Date.now() < deadline) {
        deliveries = ((await (await fetch(`${shipping.url}/__emulator/deliveries`)).json()) as Listed).deliveries;
        if (deliveries[0]?.status !== "pending") break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(deliveries[0]?.status).toBe("delivered");
      expect(deliveries[0]?.attempts.map((a) => a.status)).toEqual([500, 200]);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await shipping.close();
      await receiver.close();
    }
  });

  it("runs the retries made due when the clock is moved through POST /__emulator/clock", async () => {
    const receiver = await startReceiver([500]);
    const shipping = await startShippingEmulatorServer({ port: 0 });
    try {
      await fetch(`${shipping.url}/__emulator/clock`, { method: "POST", body: JSON.stringify({ now: T0 }) });
      await callApi(shipping.url, "POST", "/v1/webhook_endpoints", {
        body: { url: receiver.url, events: ["label.purchased"] },
      });
      const draft = await callApi(shipping.url, "POST", "/v1/labels", { body: domesticDraft() });
      await callApi(shipping.url, "POST", `/v1/labels/${String(draft.body.id)}/purchase`);
      await fetch(`${shipping.url}/__emulator/deliveries/flush`, { method: "POST" });
      await fetch(`${shipping.url}/__emulator/clock`, {
        method: "POST",
        body: JSON.stringify({ advance_seconds: 59 }),
      });
      await fetch(`${shipping.url}/__emulator/deliveries/flush`, { method: "POST" });
      expect(receiver.received).toHaveLength(1);
      await fetch(`${shipping.url}/__emulator/clock`, { method: "POST", body: JSON.stringify({ advance_seconds: 1 }) });
      await fetch(`${shipping.url}/__emulator/deliveries/flush`, { method: "POST" });
      expect(receiver.received).toHaveLength(2);
    } finally {
      await shipping.close();
      await receiver.close();
    }
  });
});
