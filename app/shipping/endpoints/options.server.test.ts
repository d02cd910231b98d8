import { beforeEach, describe, expect, it } from "vitest";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { box, deRecipient, dhlToGermany, sender, usRecipient } from "../../../test/fixtures/shipping-requests";
import { buildCreateLabelBody, createShippingClient } from "../client.server";
import { type CreateLabelRequest, type RatesRequest, ShippingEventSchema } from "../schemas";

const BASE_URL = "http://shipping.test";
const emulator = createShippingEmulator({ baseUrl: BASE_URL });
const domestic: RatesRequest = { from_address: sender, to_address: usRecipient, parcel: box };
const insured = { insurance: { amount: "250.00", currency: "USD" as const }, signature: "adult" as const };

function makeClient() {
  return createShippingClient({
    baseUrl: BASE_URL,
    apiKey: "sk_live_demo",
    fetch: emulator.fetch,
    sleep: async () => {},
  });
}

async function quote(request: RatesRequest) {
  const rates = await makeClient().getRates(request);
  if (!rates.ok) throw new Error(`rates failed: ${rates.error.logMessage}`);
  return rates.value.rates;
}

beforeEach(() => {
  emulator.reset();
  emulator.setNow(new Date("2026-11-22T15:00:00Z"));
});

describe("options on rates and labels", () => {
  it("quotes with options and buys a label from that rate with the same options, charged the quote", async () => {
    const plain = await quote(domestic);
    const rates = await quote({ ...domestic, options: insured });
    const rate = rates.find((r) => r.service_code === "svc_ups_ground");
    const plainRate = plain.find((r) => r.service_code === "svc_ups_ground");
    if (!rate || !plainRate) throw new Error("no UPS Ground rate");
    // 1 % of 250.00 and the adult signature.
    expect(Math.round(Number(rate.amount) * 100) - Math.round(Number(plainRate.amount) * 100)).toBe(250 + 695);
    const client = makeClient();
    const draft = await client.createDraftLabel(
      { ...domestic, rate_id: rate.rate_id, options: insured },
      { quote: rate },
    );
    expect(draft.ok && draft.value["options"]).toEqual(insured);
    if (!draft.ok) return;
    const bought = await client.purchaseLabel(draft.value.id);
    expect(bought.ok && bought.value.charged).toBe(rate.amount);
  });

  it("sends a ship date given inside options at top level for rates", async () => {
    const [rate] = await quote({ ...domestic, options: { ship_date: "2026-11-25", signature: "standard" } });
    expect(rate?.ship_date).toBe("2026-11-25");
    const conflict = await makeClient().getRates({
      ...domestic,
      ship_date: "2026-11-24",
      options: { ship_date: "2026-11-25" },
    });
    expect(!conflict.ok && conflict.error.fields).toEqual([
      { path: "options.ship_date", message: "differs from ship_date" },
    ]);
  });

  it("leaves DHL Express Worldwide out of rates with a signature, and air services with lithium batteries", async () => {
    const intl = await quote({
      from_address: sender,
      to_address: deRecipient,
      parcel: box,
      options: { signature: "standard" },
    });
    expect(intl.map((r) => r.service_code)).not.toContain("svc_dhl_express_worldwide");
    const ground = await quote({ ...domestic, options: { hazmat: "lithium_batteries" } });
    expect(ground.map((r) => r.service_code).sort()).toEqual([
      "svc_fedex_ground",
      "svc_ups_ground",
      "svc_usps_ground_advantage",
    ]);
  });

  it.each([
    [{ insurance: { amount: "0", currency: "USD" } }, "options.insurance.amount"],
    [{ insurance: { amount: "5000.01", currency: "USD" } }, "options.insurance.amount"],
    [{ insurance: { amount: "250.00", currency: "EUR" } }, "options.insurance.currency"],
    [{ signature: "indirect" }, "options.signature"],
    [{ hazmat: "dry_ice" }, "options.hazmat"],
    [{ saturday: true }, "options"],
  ])("refuses options %j before sending, naming %s", async (options, path) => {
    const request = { ...domestic, options } as unknown as RatesRequest;
    const rates = await makeClient().getRates(request);
    expect(!rates.ok && rates.error.code).toBe("INVALID_REQUEST");
    expect(!rates.ok && rates.error.fields.map((f) => f.path)).toContain(path);
    const body = buildCreateLabelBody({ ...(request as CreateLabelRequest), carrier: "UPS", service: "UPS Ground" });
    expect(!body.ok && body.error.fields.map((f) => f.path)).toContain(path);
  });

  it("maps the service's OPTION_NOT_SUPPORTED to a merchant message naming the option", async () => {
    const draft = await makeClient().createDraftLabel({ ...dhlToGermany, options: { signature: "adult" } });
    expect(!draft.ok && draft.error).toMatchObject({
      code: "OPTION_NOT_SUPPORTED",
      status: 400,
      fixable: true,
      fields: [{ path: "options.signature", message: expect.any(String) }],
    });
    expect(!draft.ok && draft.error.message).toMatch(
      /^The chosen service does not offer an option you selected \(options\.signature: .+\)\. Remove the option or choose another service\.$/,
    );
  });

  it("reports a rate used with other options as an expired quote: quote again", async () => {
    const [rate] = await quote(domestic);
    const draft = await makeClient().createDraftLabel({ ...domestic, rate_id: rate?.rate_id, options: insured });
    expect(!draft.ok && draft.error.code).toBe("RATE_EXPIRED");
  });
});

describe("void events", () => {
  it("reads label.voided and label.void_rejected as the emulator sends them", async () => {
    const client = makeClient();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const draft = await client.createDraftLabel({ ...domestic, carrier: "UPS", service_code: "svc_ups_ground" });
      if (!draft.ok) throw new Error("draft failed");
      await client.purchaseLabel(draft.value.id);
      await client.voidLabel(draft.value.id);
      ids.push(draft.value.id);
    }
    await emulator.decideVoid(ids[0] ?? "", "refunded");
    await emulator.decideVoid(ids[1] ?? "", "rejected");
    const events = emulator.events("org_demo").filter((e) => e.type.startsWith("label.void"));
    const parsed = events.map((e) => ShippingEventSchema.parse(e));
    expect(parsed.map((e) => e.type)).toEqual(["label.voided", "label.void_rejected"]);
    expect(parsed.map((e) => ("label" in e.data ? e.data.label.refund?.status : null))).toEqual([
      "refunded",
      "rejected",
    ]);
  });
});
