import { describe, expect, it } from "vitest";

import { createShippingEmulator } from "./emulator";
import {
  advanceClock,
  callApi,
  domesticDraft,
  errorOf,
  getOrganization,
  getRates,
  PARCEL,
  setFaults,
  setUpEmulatorServer,
  US_FROM,
  US_TO,
} from "./test-support";

const server = setUpEmulatorServer();
const createLabel = (body: unknown) => callApi(server.url(), "POST", "/v1/labels", { body });
const purchase = (id: unknown) => callApi(server.url(), "POST", `/v1/labels/${String(id)}/purchase`);

describe("control endpoints", () => {
  it("restores the initial state on POST /__emulator/reset", async () => {
    const draft = await createLabel(domesticDraft());
    await purchase(draft.body.id);
    expect((await getOrganization(server.url(), "org_demo")).balance).not.toBe("100000.00");
    await fetch(`${server.url()}/__emulator/reset`, { method: "POST" });
    expect((await getOrganization(server.url(), "org_demo")).balance).toBe("100000.00");
    expect((await callApi(server.url(), "GET", `/v1/labels/${String(draft.body.id)}`)).status).toBe(404);
  });

  it("injects 429 RATE_LIMITED with Retry-After for the given number of times, then clears", async () => {
    await setFaults(server.url(), {
      failures: [{ endpoint: "POST /v1/labels", kind: "rate_limited", times: 2, retry_after: 3 }],
    });
    const first = await createLabel(domesticDraft());
    expect(first.status).toBe(429);
    expect(errorOf(first).code).toBe("RATE_LIMITED");
    expect(first.headers.get("retry-after")).toBe("3");
    expect((await createLabel(domesticDraft())).status).toBe(429);
    expect((await createLabel(domesticDraft())).status).toBe(201);
  });

  it("injects 503 on the chosen endpoint only", async () => {
    await setFaults(server.url(), { failures: [{ endpoint: "POST /v1/rates", kind: "unavailable", times: 1 }] });
    expect((await createLabel(domesticDraft())).status).toBe(201);
    expect(
      (
        await callApi(server.url(), "POST", "/v1/rates", {
          body: { from_address: US_FROM, to_address: US_TO, parcel: PARCEL },
        })
      ).status,
    ).toBe(503);
  });

  it("drops the connection before the response", async () => {
    await setFaults(server.url(), { failures: [{ endpoint: "POST /v1/labels", kind: "drop_connection" }] });
    await expect(createLabel(domesticDraft())).rejects.toThrow(TypeError);
    expect((await getOrganization(server.url(), "org_demo")).labels_created).toBe(0);
  });

  it("charges but loses the purchase response, and a retry answers 409 without charging again", async () => {
    const draft = await createLabel(domesticDraft());
    await setFaults(server.url(), {
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge" }],
    });
    await expect(purchase(draft.body.id)).rejects.toThrow(TypeError);
    expect((await getOrganization(server.url(), "org_demo")).charges).toHaveLength(1);
    const retry = await purchase(draft.body.id);
    expect(retry.status).toBe(409);
    expect((await getOrganization(server.url(), "org_demo")).charges).toHaveLength(1);
  });

  it("adds injected latency per endpoint", async () => {
    await setFaults(server.url(), { latency_ms: { "POST /v1/labels": 150 } });
    const started = performance.now();
    await createLabel(domesticDraft());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("rejects an unknown fault endpoint or kind", async () => {
    const res = await fetch(`${server.url()}/__emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ failures: [{ endpoint: "POST /v2/nothing", kind: "explode" }] }),
    });
    expect(res.status).toBe(400);
  });

  it("gives the same ids, prices and tracking numbers for the same inputs after a reset", async () => {
    const run = async (): Promise<unknown[]> => {
      const rates = await getRates(server.url(), {
        from_address: US_FROM,
        to_address: US_TO,
        parcel: PARCEL,
        ship_date: "2026-12-01",
      });
      const draft = await createLabel({
        from_address: US_FROM,
        to_address: US_TO,
        parcel: PARCEL,
        rate_id: rates[0]?.rate_id,
      });
      const bought = await purchase(draft.body.id);
      return [
        rates.map((r) => [r.rate_id, r.amount]),
        draft.body.id,
        bought.body.tracking_numbers,
        bought.body.charged,
      ];
    };
    const first = await run();
    await fetch(`${server.url()}/__emulator/reset`, { method: "POST" });
    expect(await run()).toEqual(first);
  });

  it("moves the test clock with POST /__emulator/clock", async () => {
    const res = await fetch(`${server.url()}/__emulator/clock`, {
      method: "POST",
      body: JSON.stringify({ now: "2027-01-02T10:00:00Z" }),
    });
    expect(((await res.json()) as { now: string }).now).toBe("2027-01-02T10:00:00.000Z");
    await advanceClock(server.url(), 3600);
    const draft = await createLabel(domesticDraft());
    expect(draft.body.created_at).toBe("2027-01-02T11:00:00.000Z");
  });
});

describe("in-process emulator", () => {
  it("gives the same answers through emulator.fetch as through HTTP", async () => {
    const emulator = createShippingEmulator();
    const body = JSON.stringify({ from_address: US_FROM, to_address: US_TO, parcel: PARCEL, ship_date: "2026-12-01" });
    const headers = { authorization: "Bearer sk_live_demo", "content-type": "application/json" };
    const local = await emulator.fetch("http://shipping.test/v1/rates", { method: "POST", headers, body });
    const remote = await fetch(`${server.url()}/v1/rates`, { method: "POST", headers, body });
    const strip = (json: unknown): unknown => {
      const { request_id: _r, rates, ...rest } = json as { request_id: string; rates: Array<Record<string, unknown>> };
      return { ...rest, rates: rates.map(({ expires_at: _e, ...r }) => r) };
    };
    expect(local.status).toBe(remote.status);
    expect(strip(await local.json())).toEqual(strip(await remote.json()));
    const invalid = await emulator.fetch(
      new Request("http://shipping.test/v1/labels", {
        method: "POST",
        headers,
        body: JSON.stringify({ parcel: PARCEL, parcels: [PARCEL] }),
      }),
    );
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
  });

  it("rejects with TypeError('fetch failed') on a lost purchase response but records the charge", async () => {
    const emulator = createShippingEmulator({ baseUrl: "http://labels.example" });
    const headers = { authorization: "Bearer sk_live_demo", "content-type": "application/json" };
    const draft = await emulator.fetch("http://shipping.test/v1/labels", {
      method: "POST",
      headers,
      body: JSON.stringify(domesticDraft()),
    });
    const { id } = (await draft.json()) as { id: string };
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 }],
    });
    await expect(
      emulator.fetch(`http://shipping.test/v1/labels/${id}/purchase`, { method: "POST", headers }),
    ).rejects.toThrow("fetch failed");
    expect(emulator.charges("org_demo")).toHaveLength(1);
    expect(emulator.balanceCents("org_demo")).toBeLessThan(10_000_000);
    const label = await emulator.fetch(`http://shipping.test/v1/labels/${id}`, { headers });
    expect(((await label.json()) as { label_url: string }).label_url).toBe(`http://labels.example/files/${id}.pdf`);
    emulator.reset();
    expect(emulator.balanceCents("org_demo")).toBe(10_000_000);
    expect(emulator.validationsBilled("org_demo")).toBe(0);
  });
});
