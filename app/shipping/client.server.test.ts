import { beforeEach, describe, expect, it } from "vitest";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import {
  box,
  deRecipient,
  dhlToGermany,
  sender,
  upsGroundDomestic,
  usRecipient,
} from "../../test/fixtures/shipping-requests";
import {
  buildCreateLabelBody,
  createShippingClient,
  type FetchLike,
  type ShippingClientOptions,
  type ShippingLogEntry,
} from "./client.server";
import { checkDraftPackageCount } from "./preflight";
import type { CreateLabelRequest, Rate, RatesRequest } from "./schemas";

const BASE_URL = "http://shipping.test";
const NOW = new Date("2026-11-22T15:00:00Z");
const emulator = createShippingEmulator({ now: () => NOW });

const domesticRates: RatesRequest = { from_address: sender, to_address: usRecipient, parcel: box };

let sleeps: number[] = [];
let logs: ShippingLogEntry[] = [];

function makeClient(apiKey = "sk_live_demo", extra: Partial<ShippingClientOptions> = {}) {
  return createShippingClient({
    baseUrl: BASE_URL,
    apiKey,
    fetch: emulator.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    log: (entry) => logs.push(entry),
    ...extra,
  });
}

async function quoteFor(request: RatesRequest, serviceCode: string): Promise<Rate> {
  const rates = await makeClient().getRates(request);
  if (!rates.ok) throw new Error(`quote failed: ${rates.error.logMessage}`);
  const rate = rates.value.rates.find((r) => r.service_code === serviceCode);
  if (!rate) throw new Error(`no ${serviceCode} rate`);
  return rate;
}

async function createDraft(request: CreateLabelRequest, apiKey = "sk_live_demo"): Promise<string> {
  const draft = await makeClient(apiKey).createDraftLabel(request);
  if (!draft.ok) throw new Error(`draft failed: ${draft.error.logMessage}`);
  return draft.value.id;
}

beforeEach(() => {
  emulator.reset();
  sleeps = [];
  logs = [];
});

describe("happy path against the emulator", () => {
  it("quotes, creates a draft from the rate and buys it, charging the rate once", async () => {
    const client = makeClient();
    const rate = await quoteFor(domesticRates, "svc_ups_ground");
    const draft = await client.createDraftLabel(
      { from_address: sender, to_address: usRecipient, parcel: box, rate_id: rate.rate_id },
      { quote: rate },
    );
    expect(draft.ok && draft.value).toMatchObject({ status: "draft", rate: null, label_url: null, warnings: {} });
    if (!draft.ok) return;
    const balanceBefore = emulator.balanceCents("org_demo");
    const bought = await client.purchaseLabel(draft.value.id);
    expect(bought.ok && bought.value).toMatchObject({
      status: "purchased",
      alreadyPurchased: false,
      charged: rate.amount,
    });
    expect(emulator.charges("org_demo")).toHaveLength(1);
    expect(balanceBefore - emulator.balanceCents("org_demo")).toBe(Math.round(Number(rate.amount) * 100));
  });

  it("keeps response fields the schema does not name", async () => {
    const draft = await makeClient().createDraftLabel(upsGroundDomestic);
    expect(draft.ok && draft.value["created_at"]).toEqual(expect.any(String));
  });

  it("sends a rate_id without the carrier or service that would override it", async () => {
    const rate = await quoteFor(domesticRates, "svc_ups_ground");
    const request: CreateLabelRequest = {
      ...upsGroundDomestic,
      rate_id: rate.rate_id,
      carrier: "FEDEX",
      service_code: undefined,
      service: "FedEx Ground",
    };
    const draft = await makeClient().createDraftLabel(request);
    expect(draft.ok && draft.value).toMatchObject({
      carrier: "UPS",
      service_code: "svc_ups_ground",
      rate_id: rate.rate_id,
    });
  });

  it("sends only the quote's ship_date with a rate, whatever date the request carried", async () => {
    const rate = await quoteFor(domesticRates, "svc_ups_ground");
    const request: CreateLabelRequest = {
      from_address: sender,
      to_address: usRecipient,
      parcel: box,
      rate_id: rate.rate_id,
      ship_date: "2026-11-25",
      options: { ship_date: "2026-11-26" },
    };
    const withoutQuote = buildCreateLabelBody(request);
    expect(withoutQuote.ok && "ship_date" in withoutQuote.value).toBe(false);
    expect(withoutQuote.ok && withoutQuote.value.options).toEqual({});
    const client = makeClient();
    const draft = await client.createDraftLabel(request, { quote: rate });
    expect(draft.ok && draft.value.ship_date).toBe(rate.ship_date);
    if (!draft.ok) return;
    const bought = await client.purchaseLabel(draft.value.id);
    expect(bought.ok && bought.value.charged).toBe(rate.amount);
  });

  it("never sends both service and service_code, nor both parcel and parcels", async () => {
    const both = await makeClient().createDraftLabel({ ...upsGroundDomestic, service: "UPS Ground" });
    expect(!both.ok && both.error.code).toBe("INVALID_REQUEST");
    const boxes = await makeClient().createDraftLabel({ ...upsGroundDomestic, parcels: [box] });
    expect(!boxes.ok && boxes.error).toMatchObject({ code: "INVALID_REQUEST", fields: [{ path: "parcels" }] });
  });

  it("drops a state the destination country does not use", () => {
    const body = buildCreateLabelBody({ ...dhlToGermany, to_address: { ...deRecipient, state: "Berlin" } });
    expect(body.ok && "state" in body.value.to_address).toBe(false);
  });

  it("creates a multi-piece draft whose package_count matches the boxes sent", async () => {
    const request: CreateLabelRequest = { ...upsGroundDomestic, parcel: undefined, parcels: [box, box, box] };
    const draft = await makeClient().createDraftLabel(request);
    expect(draft.ok && draft.value.package_count).toBe(3);
    if (draft.ok) expect(checkDraftPackageCount(request, draft.value)).toEqual([]);
  });

  it("flags a draft whose package_count differs from the boxes sent, so the purchase can be blocked", async () => {
    const request: CreateLabelRequest = { ...upsGroundDomestic, parcel: undefined, parcels: [box, box, box] };
    const miscounting: FetchLike = async () =>
      Response.json(
        { id: "lbl_1", status: "draft", rate: null, label_url: null, package_count: 2, warnings: {} },
        { status: 201 },
      );
    const draft = await makeClient("sk_live_demo", { fetch: miscounting }).createDraftLabel(request);
    expect(draft.ok && checkDraftPackageCount(request, draft.value)[0]?.code).toBe("PACKAGE_COUNT_MISMATCH");
    expect(logs.some((l) => l.level === "warn" && l.message.includes("counts 2 boxes, 3 sent"))).toBe(true);
  });

  it("validates an address once and bills it once", async () => {
    const result = await makeClient().validateAddress({
      street1: "1600 Amphitheatre Pkwy",
      city: "Mountain View",
      state: "CA",
      zip: "94043",
    });
    expect(result.ok && result.value.billed).toBe("0.05");
    expect(emulator.validationsBilled("org_demo")).toBe(1);
  });
});

describe("the API key in the service's own words", () => {
  it("is cut out of the error's message, fields, log line and request id when the service quotes it back", async () => {
    const key = "sk_live_quoted_back_1234";
    const echo: FetchLike = async (_input, init) => {
      const authorization = new Headers(init?.headers).get("Authorization") ?? "";
      return Response.json(
        {
          error: {
            code: "VALIDATION_FAILED",
            message: `refused ${authorization}`,
            fields: [{ field: "to_address.zip", message: `checked with ${key}` }],
          },
          request_id: `req_${key}`,
        },
        { status: 400 },
      );
    };
    const result = await makeClient(key, { fetch: echo }).getRates(domesticRates);
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result) + JSON.stringify(logs);
    expect(text).not.toContain(key);
    expect(text).toContain("Bearer [redacted]");
    expect(result.ok ? null : result.error.fields).toEqual([
      { path: "to_address.zip", message: "checked with [redacted]" },
    ]);
  });
});

describe("every error code is mapped", () => {
  it("UNAUTHENTICATED for an unknown key, with a merchant message pointing to Settings", async () => {
    const result = await makeClient("sk_live_unknown").getRates(domesticRates);
    expect(!result.ok && result.error).toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
      requestId: expect.stringMatching(/^req_/),
    });
    expect(!result.ok && result.error.message).toContain("Settings");
  });
  it("NO_ORGANIZATION for a key without organization", async () => {
    const result = await makeClient("sk_live_noorg").createDraftLabel(upsGroundDomestic);
    expect(!result.ok && result.error).toMatchObject({ code: "NO_ORGANIZATION", status: 400 });
  });
  it("VALIDATION_FAILED with the field paths the service gave", async () => {
    const result = await makeClient().createDraftLabel({
      ...dhlToGermany,
      to_address: { ...deRecipient, phone: "0000000000" },
    });
    expect(!result.ok && result.error).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      fields: [{ path: "to_address.phone" }],
    });
  });
  it("VALIDATION_ERROR when parcel and parcels both reach the service", async () => {
    // The client never sends both; this fetch adds parcels on the way to show the mapping.
    const tampering: FetchLike = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return emulator.fetch(input, { ...init, body: JSON.stringify({ ...body, parcels: [box] }) });
    };
    const result = await makeClient("sk_live_demo", { fetch: tampering }).createDraftLabel(upsGroundDomestic);
    expect(!result.ok && result.error).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  });
  it("CUSTOMS_REQUIRED for an international shipment without customs", async () => {
    const result = await makeClient().createDraftLabel({ ...dhlToGermany, customs: undefined });
    expect(!result.ok && result.error).toMatchObject({ code: "CUSTOMS_REQUIRED", status: 400 });
  });
  it("TAX_ID_REQUIRED for Brazil without tax id", async () => {
    const result = await makeClient().createDraftLabel({
      ...dhlToGermany,
      to_address: { ...deRecipient, country: "BR", zip: "01310-100", city: "Sao Paulo", phone: "+55 11 3071 2345" },
    });
    expect(!result.ok && result.error).toMatchObject({ code: "TAX_ID_REQUIRED", status: 400 });
  });
  it("SERVICE_REQUIRED when no service can be resolved", async () => {
    const result = await makeClient().createDraftLabel({ ...upsGroundDomestic, service_code: undefined });
    expect(!result.ok && result.error).toMatchObject({
      code: "SERVICE_REQUIRED",
      status: 400,
      serviceCode: "SERVICE_REQUIRED",
    });
  });
  it("RATE_EXPIRED, apart from SERVICE_REQUIRED, for an expired rate_id", async () => {
    const rate = await quoteFor(domesticRates, "svc_ups_ground");
    emulator.setNow(new Date(NOW.getTime() + 25 * 3600_000));
    const result = await makeClient().createDraftLabel({
      from_address: sender,
      to_address: usRecipient,
      parcel: box,
      rate_id: rate.rate_id,
    });
    expect(!result.ok && result.error).toMatchObject({
      code: "RATE_EXPIRED",
      serviceCode: "SERVICE_REQUIRED",
      status: 400,
    });
  });
  it("SERVICE_MISMATCH for a svc_ code of another carrier than the rate", async () => {
    const rate = await quoteFor(domesticRates, "svc_ups_ground");
    const result = await makeClient().createDraftLabel(
      {
        from_address: sender,
        to_address: usRecipient,
        parcel: box,
        rate_id: rate.rate_id,
        service_code: "svc_fedex_ground",
      },
      { overrideRate: true },
    );
    expect(!result.ok && result.error).toMatchObject({ code: "SERVICE_MISMATCH", status: 400 });
  });
  it("ADDRESS_BLOCKED for a blocked destination", async () => {
    const result = await makeClient().createDraftLabel({
      ...dhlToGermany,
      to_address: { ...deRecipient, country: "CU", city: "Havana" },
    });
    expect(!result.ok && result.error).toMatchObject({ code: "ADDRESS_BLOCKED", status: 400, fixable: false });
  });
  it("CARRIER_ACCOUNT_NOT_FOUND for another organization's carrier account", async () => {
    const result = await makeClient().createDraftLabel({ ...upsGroundDomestic, carrier_account_id: "ca_other_fedex" });
    expect(!result.ok && result.error).toMatchObject({ code: "CARRIER_ACCOUNT_NOT_FOUND", status: 400 });
    expect(!result.ok && result.error.message).toContain("not on this shipping API key");
  });
  it("PLAN_LIMIT_REACHED once the allowance is used, telling the merchant to upgrade or wait", async () => {
    await createDraft(upsGroundDomestic, "sk_live_limit");
    const result = await makeClient("sk_live_limit").createDraftLabel(upsGroundDomestic);
    expect(!result.ok && result.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", status: 403 });
    expect(!result.ok && result.error.message).toMatch(/allowance is used up.*Upgrade.*wait/);
  });
  it("NOT_FOUND for an unknown label", async () => {
    const result = await makeClient().getLabel("lbl_missing");
    expect(!result.ok && result.error).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
  it("INSUFFICIENT_BALANCE when the balance does not cover the label", async () => {
    const id = await createDraft(upsGroundDomestic, "sk_live_poor");
    const result = await makeClient("sk_live_poor").purchaseLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "INSUFFICIENT_BALANCE", status: 402 });
  });
  it("EXPORT_DECLARATION_REQUIRED for USPS above 2,500 USD without eel_pfc", async () => {
    const id = await createDraft({
      ...dhlToGermany,
      carrier: "USPS",
      service_code: "svc_usps_priority_intl",
      customs: { description: "Mechanical wristwatch", value: 3000 },
    });
    const result = await makeClient().purchaseLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "EXPORT_DECLARATION_REQUIRED", status: 400 });
    expect(emulator.charges("org_demo")).toEqual([]);
  });
  it("RATE_LIMITED with Retry-After once retries are used up", async () => {
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/rates", kind: "rate_limited", times: 3, retry_after: 4 }] });
    const result = await makeClient("sk_live_demo", { maxRetries: 1 }).getRates(domesticRates);
    expect(!result.ok && result.error).toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      retryAfterMs: 4000,
      retryable: true,
    });
  });
  it("SERVICE_UNAVAILABLE for a 503", async () => {
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/rates", kind: "unavailable", times: 5 }] });
    const result = await makeClient("sk_live_demo", { maxRetries: 2 }).getRates(domesticRates);
    expect(!result.ok && result.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
    expect(sleeps).toHaveLength(2);
  });
  it("TIMEOUT when the service answers later than the per-attempt timeout", async () => {
    emulator.setFaults({ latency_ms: { "POST /v1/rates": 300 } });
    const result = await makeClient("sk_live_demo", { timeoutMs: 30, maxRetries: 0 }).getRates(domesticRates);
    expect(!result.ok && result.error).toMatchObject({ code: "TIMEOUT", status: null });
  });
  it("NETWORK_ERROR for a dropped connection on label creation, not retried and flagged as unknown outcome", async () => {
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/labels", kind: "drop_connection", times: 1 }] });
    const result = await makeClient().createDraftLabel(upsGroundDomestic);
    expect(!result.ok && result.error).toMatchObject({ code: "NETWORK_ERROR", outcomeUnknown: true });
    expect(sleeps).toEqual([]);
  });
  it("INVALID_RESPONSE for a body that is not JSON or breaks the schema", async () => {
    const notJson: FetchLike = async () => new Response("<html>oops</html>", { status: 200 });
    const wrongShape: FetchLike = async () =>
      Response.json({ rates: [{ rate_id: 42 }] }, { status: 200, headers: { "x-request-id": "req_fake" } });
    const a = await makeClient("sk_live_demo", { fetch: notJson }).getRates(domesticRates);
    const b = await makeClient("sk_live_demo", { fetch: wrongShape }).getRates(domesticRates);
    expect(!a.ok && a.error.code).toBe("INVALID_RESPONSE");
    expect(!b.ok && b.error).toMatchObject({ code: "INVALID_RESPONSE", requestId: "req_fake" });
    expect(!b.ok && b.error.fields.map((f) => f.path)).toContain("rates[0].rate_id");
  });
  it("INVALID_REQUEST before sending anything when our schema refuses the request", async () => {
    let called = false;
    const spy: FetchLike = async (input, init) => {
      called = true;
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { fetch: spy }).createDraftLabel({
      ...upsGroundDomestic,
      from_address: { ...sender, name: "" },
    });
    expect(!result.ok && result.error).toMatchObject({
      code: "INVALID_REQUEST",
      fields: [{ path: "from_address.name" }],
    });
    expect(called).toBe(false);
  });
  it("never logs the API key", async () => {
    await makeClient("sk_live_noorg").getRates(domesticRates);
    await makeClient("sk_live_unknown").getRates(domesticRates);
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toMatch(/sk_live/);
  });
});

describe("purchase is never repeated blindly", () => {
  it("charges once when the purchase response is lost after the charge", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 }],
    });
    const result = await makeClient().purchaseLabel(id);
    expect(result.ok && result.value).toMatchObject({ id, status: "purchased", alreadyPurchased: true });
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("buys once when the connection dropped before the purchase was made", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "drop_connection", times: 1 }],
    });
    const result = await makeClient().purchaseLabel(id);
    expect(result.ok && result.value.status).toBe("purchased");
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("treats ALREADY_PURCHASED as the purchase it was, without charging again", async () => {
    const id = await createDraft(upsGroundDomestic);
    const first = await makeClient().purchaseLabel(id);
    const second = await makeClient().purchaseLabel(id);
    expect(second.ok && second.value).toMatchObject({ id, alreadyPurchased: true });
    expect(first.ok && second.ok && second.value.tracking_numbers).toEqual(
      first.ok ? first.value.tracking_numbers : null,
    );
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("reports an unknown outcome when the label cannot be read back", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [
        { endpoint: "POST /v1/labels/{id}/purchase", kind: "lost_after_charge", times: 1 },
        { endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 10 },
      ],
    });
    const result = await makeClient().purchaseLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "NETWORK_ERROR", outcomeUnknown: true });
  });
});

describe("a purchase the caller withdraws before it leaves", () => {
  it("is not sent once it holds its slot and the caller says no, and is not retried", async () => {
    const id = await createDraft(upsGroundDomestic);
    let asked = 0;
    const result = await makeClient().purchaseLabel(id, {
      beforeSend: async () => {
        asked += 1;
        return "bulk run cancelled";
      },
    });
    expect(!result.ok && result.error).toMatchObject({ code: "WITHHELD" });
    expect(!result.ok && result.error.outcomeUnknown).toBeFalsy();
    expect(asked).toBe(1);
    expect(emulator.charges("org_demo")).toHaveLength(0);
  });
  it("asks again before repeating a purchase the service refused with 429", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 1, retry_after: 0 }],
    });
    const answers = [null, "bulk run cancelled"];
    const result = await makeClient().purchaseLabel(id, { beforeSend: async () => answers.shift() ?? null });
    expect(!result.ok && result.error.code).toBe("WITHHELD");
    expect(answers).toEqual([]);
    expect(emulator.charges("org_demo")).toHaveLength(0);
  });
  it("stays an unknown outcome when an earlier attempt of the same call may have been charged", async () => {
    const id = await createDraft(upsGroundDomestic);
    // The answer is lost before the charge lands; the read-back finds a draft; the repeat is withheld.
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "drop_connection", times: 1 }],
    });
    const answers = [null, "bulk run cancelled"];
    const result = await makeClient().purchaseLabel(id, { beforeSend: async () => answers.shift() ?? null });
    expect(!result.ok && result.error).toMatchObject({ code: "WITHHELD", outcomeUnknown: true });
  });
});

describe("a purchase the service may have made is never reported as refused", () => {
  it("takes 409 ALREADY_PURCHASED as the purchase it carries, even when the label cannot be read back", async () => {
    const id = await createDraft(upsGroundDomestic);
    const first = await makeClient().purchaseLabel(id);
    if (!first.ok) throw new Error(first.error.logMessage);
    emulator.setFaults({ failures: [{ endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 10 }] });
    const again = await makeClient().purchaseLabel(id);
    if (!again.ok) throw new Error(again.error.logMessage);
    expect(again.value).toMatchObject({ alreadyPurchased: true, tracking_numbers: first.value.tracking_numbers });
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("reports an unknown outcome, not a refusal, for a 409 whose label is unusable and cannot be read back", async () => {
    const conflictWithoutLabel: FetchLike = async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase"))
        return Response.json({ error: { code: "ALREADY_PURCHASED", message: "bought" } }, { status: 409 });
      return Response.json({ error: { code: "SERVICE_UNAVAILABLE", message: "down" } }, { status: 503 });
    };
    const result = await makeClient("sk_live_demo", { fetch: conflictWithoutLabel }).purchaseLabel("lbl_1");
    expect(!result.ok && result.error).toMatchObject({ outcomeUnknown: true });
  });
  it("reports an unknown outcome for a 2xx purchase answer it cannot read", async () => {
    const id = await createDraft(upsGroundDomestic);
    let purchases = 0;
    const garbledAfterCharge: FetchLike = async (input, init) => {
      const response = await emulator.fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase")) {
        purchases += 1;
        return new Response("<html>proxy error</html>", { status: 200 });
      }
      return response;
    };
    // The read-back finds the label bought: the unreadable answer was a purchase.
    const result = await makeClient("sk_live_demo", { fetch: garbledAfterCharge }).purchaseLabel(id);
    expect(result.ok && result.value.alreadyPurchased).toBe(true);
    expect(purchases).toBe(1);
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("keeps the outcome unknown when a retry after a lost answer is refused: the lost request may still land", async () => {
    const id = await createDraft(upsGroundDomestic);
    let purchases = 0;
    // A 502 leaves the outcome unknown; the read-back shows a draft (the request has not landed
    // yet); the retry is refused with 429. The first request may still be charged later.
    const flaky: FetchLike = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase")) {
        purchases += 1;
        if (purchases === 1) return Response.json({ error: { code: "X", message: "boom" } }, { status: 502 });
        return Response.json({ error: { code: "RATE_LIMITED", message: "slow down" } }, { status: 429 });
      }
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { fetch: flaky, maxRetries: 1 }).purchaseLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "RATE_LIMITED", outcomeUnknown: true });
  });
  it("takes any 409, whatever its body, as a purchase to recover, never as a refusal", async () => {
    const id = await createDraft(upsGroundDomestic);
    const first = await makeClient().purchaseLabel(id);
    if (!first.ok) throw new Error(first.error.logMessage);
    const proxyConflict: FetchLike = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase")) return new Response("Conflict", { status: 409 });
      return emulator.fetch(input, init);
    };
    const again = await makeClient("sk_live_demo", { fetch: proxyConflict }).purchaseLabel(id);
    expect(again.ok && again.value.tracking_numbers).toEqual(first.value.tracking_numbers);
  });
  it("reports an unknown outcome, not a refusal, for an error outside the contract", async () => {
    const id = await createDraft(upsGroundDomestic);
    const odd: FetchLike = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase")) return Response.json({ error: "teapot" }, { status: 418 });
      if (url.includes("/v1/labels/")) return new Response("down", { status: 503 });
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { fetch: odd, maxRetries: 0 }).purchaseLabel(id);
    expect(!result.ok && result.error.outcomeUnknown).toBe(true);
  });
  it("does not take another label's record as this label's purchase", async () => {
    const id = await createDraft(upsGroundDomestic);
    const other = await createDraft(upsGroundDomestic);
    const bought = await makeClient().purchaseLabel(other);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const misrouted: FetchLike = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/purchase")) return new Response("", { status: 502 });
      if (url.endsWith(`/v1/labels/${id}`)) return emulator.fetch(url.replace(id, other), init);
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { fetch: misrouted, maxRetries: 0 }).purchaseLabel(id);
    expect(!result.ok && result.error.outcomeUnknown).toBe(true);
  });
});

describe("a call never outlives its deadline", () => {
  function fakeClock(start = NOW.getTime()) {
    let t = start;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
    };
  }
  it("stops waiting for Retry-After when the wait would pass the deadline, and says it was not bought", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 10, retry_after: 30 }],
    });
    const clock = fakeClock();
    const client = makeClient("sk_live_demo", { ...clock, maxRetries: 5 });
    const deadline = clock.now() + 50_000;
    const result = await client.purchaseLabel(id, { deadline });
    expect(clock.now()).toBeLessThanOrEqual(deadline);
    expect(sleeps).toEqual([30_000]);
    expect(!result.ok && result.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 30_000 });
    expect(!result.ok && result.error.outcomeUnknown).toBeFalsy();
    expect(emulator.charges("org_demo")).toHaveLength(0);
  });
  it("bounds label creation the same way", async () => {
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels", kind: "rate_limited", times: 10, retry_after: 30 }],
    });
    const clock = fakeClock();
    const deadline = clock.now() + 50_000;
    const result = await makeClient("sk_live_demo", clock).createDraftLabel(upsGroundDomestic, { deadline });
    expect(!result.ok && result.error.code).toBe("RATE_LIMITED");
    expect(clock.now()).toBeLessThanOrEqual(deadline);
  });
  it("bounds a call without a deadline by the client's call budget", async () => {
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/rates", kind: "rate_limited", times: 10, retry_after: 20 }],
    });
    const clock = fakeClock();
    const start = clock.now();
    const result = await makeClient("sk_live_demo", { ...clock, callBudgetMs: 30_000, maxRetries: 5 }).getRates(
      domesticRates,
    );
    expect(!result.ok && result.error.code).toBe("RATE_LIMITED");
    expect(clock.now() - start).toBeLessThanOrEqual(30_000);
  });
  it("sends nothing once the deadline has passed", async () => {
    let sent = 0;
    const counting: FetchLike = async (input, init) => {
      sent += 1;
      return emulator.fetch(input, init);
    };
    const clock = fakeClock();
    const result = await makeClient("sk_live_demo", { ...clock, fetch: counting }).purchaseLabel("lbl_x", {
      deadline: clock.now() - 1,
    });
    expect(!result.ok && result.error).toMatchObject({ code: "TIMEOUT" });
    expect(!result.ok && result.error.outcomeUnknown).toBeFalsy();
    expect(sent).toBe(0);
  });
});

describe("retries", () => {
  it("honours Retry-After on 429 and then succeeds", async () => {
    const id = await createDraft(upsGroundDomestic);
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 1, retry_after: 2 }],
    });
    const result = await makeClient().purchaseLabel(id);
    expect(result.ok && result.value.alreadyPurchased).toBe(false);
    expect(sleeps).toEqual([2000]);
    expect(emulator.charges("org_demo")).toHaveLength(1);
  });
  it("retries rates after a 503 with growing, jittered backoff", async () => {
    let calls = 0;
    const unavailableTwice: FetchLike = async (input, init) => {
      calls += 1;
      if (calls <= 2)
        return Response.json({ error: { code: "SERVICE_UNAVAILABLE", message: "down" } }, { status: 503 });
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { maxRetries: 2, fetch: unavailableTwice }).getRates(domesticRates);
    expect(result.ok).toBe(true);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1] ?? 0).toBeGreaterThan(sleeps[0] ?? 0);
  });
  it("retries label creation after a connection refused before sending", async () => {
    let calls = 0;
    const refusingOnce: FetchLike = async (input, init) => {
      calls += 1;
      if (calls === 1) throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
      return emulator.fetch(input, init);
    };
    const result = await makeClient("sk_live_demo", { fetch: refusingOnce }).createDraftLabel(upsGroundDomestic);
    expect(result.ok).toBe(true);
    expect(calls).toBe(2);
  });
  it("does not retry label creation after a 503, which may have created the draft", async () => {
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/labels", kind: "unavailable", times: 1 }] });
    const result = await makeClient().createDraftLabel(upsGroundDomestic);
    expect(!result.ok && result.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", outcomeUnknown: true });
    expect(sleeps).toEqual([]);
  });
  it("never retries address validation, which is billed", async () => {
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/addresses/validate", kind: "unavailable", times: 1 }] });
    const result = await makeClient().validateAddress({
      street1: "1600 Amphitheatre Pkwy",
      city: "Mountain View",
      state: "CA",
      zip: "94043",
    });
    expect(!result.ok && result.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(sleeps).toEqual([]);
  });
});
