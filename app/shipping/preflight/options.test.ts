import { describe, expect, it } from "vitest";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { box, dhlToGermany, sender, upsGroundDomestic, usRecipient } from "../../../test/fixtures/shipping-requests";
import { createShippingClient } from "../client.server";
import { checkOptionsForService, isBlocking, type LabelRequestInput, preflightLabelRequest } from "../preflight";
import type { CreateLabelRequest, Rate } from "../schemas";
import { findServiceByCode } from "../services";

const now = new Date("2026-11-22T12:00:00Z");

function blocking(request: LabelRequestInput, quote?: Rate) {
  return preflightLabelRequest(request, { now, ...(quote ? { quote } : {}) })
    .filter((p) => p.severity === "blocking")
    .map((p) => ({ path: p.path, code: p.code }));
}

const insurance = (amount: string | null, currency: string | null = "USD") => ({ insurance: { amount, currency } });

describe("preflight: label options", () => {
  it("passes every valid option on a service that carries them", () => {
    const request: CreateLabelRequest = {
      ...upsGroundDomestic,
      options: {
        insurance: { amount: "5000.00", currency: "USD" },
        signature: "adult",
        hazmat: "lithium_batteries",
        ship_date: "2026-11-22",
      },
    };
    expect(blocking(request)).toEqual([]);
    expect(blocking({ ...upsGroundDomestic, options: { ...insurance("0.01"), hazmat: "none" } })).toEqual([]);
  });

  it.each([
    [insurance("0.00"), "options.insurance.amount", "INSURANCE_AMOUNT_INVALID"],
    [insurance("5000.01"), "options.insurance.amount", "INSURANCE_AMOUNT_INVALID"],
    [insurance("-5"), "options.insurance.amount", "INSURANCE_AMOUNT_INVALID"],
    [insurance("abc"), "options.insurance.amount", "INSURANCE_AMOUNT_INVALID"],
    [insurance(null), "options.insurance.amount", "INSURANCE_AMOUNT_INVALID"],
    [insurance("100.00", "EUR"), "options.insurance.currency", "INSURANCE_CURRENCY_INVALID"],
    [{ signature: "indirect" }, "options.signature", "SIGNATURE_INVALID"],
    [{ hazmat: "dry_ice" }, "options.hazmat", "HAZMAT_INVALID"],
    [{ saturday_delivery: "yes" }, "options.saturday_delivery", "OPTION_UNKNOWN"],
  ])("blocks %j at %s with %s", (options, path, code) => {
    const request = { ...upsGroundDomestic, options } as LabelRequestInput;
    expect(blocking(request)).toEqual([{ path, code }]);
  });

  it("blocks a signature on DHL Express Worldwide, by service code or from a DHL quote", () => {
    expect(blocking({ ...dhlToGermany, options: { signature: "standard" } })).toEqual([
      { path: "options.signature", code: "SIGNATURE_NOT_OFFERED" },
    ]);
    const dhlQuote: Rate = {
      rate_id: "rate_dhl",
      service_code: "svc_dhl_express_worldwide",
      carrier: "DHL",
      service: "DHL Express Worldwide",
      amount: "60.00",
      currency: "USD",
      ship_date: "2026-11-22",
      expires_at: "2026-11-23T00:00:00Z",
    };
    const fromRate: LabelRequestInput = {
      from_address: dhlToGermany.from_address,
      to_address: dhlToGermany.to_address,
      parcel: box,
      customs: dhlToGermany.customs ?? null,
      rate_id: "rate_dhl",
      options: { signature: "adult" },
    };
    expect(blocking(fromRate, dhlQuote)).toEqual([{ path: "options.signature", code: "SIGNATURE_NOT_OFFERED" }]);
  });

  it("blocks lithium batteries on air services and names the ground ones", () => {
    const air = preflightLabelRequest(
      { ...upsGroundDomestic, service_code: "svc_ups_2nd_day_air", options: { hazmat: "lithium_batteries" } },
      { now },
    );
    const problem = air.find((p) => p.code === "LITHIUM_GROUND_ONLY");
    expect(problem).toMatchObject({ path: "options.hazmat", severity: "blocking" });
    expect(problem?.message).toBe(
      "Lithium batteries travel by ground only (USPS Ground Advantage, UPS Ground, FedEx Ground); UPS 2nd Day Air flies. Choose a ground service.",
    );
    expect(blocking({ ...dhlToGermany, options: { hazmat: "lithium_batteries" } })).toEqual([
      { path: "options.hazmat", code: "LITHIUM_GROUND_ONLY" },
    ]);
  });

  it("stops lithium batteries abroad before any rate: no ground service leaves the country", () => {
    const quote = { ...dhlToGermany, options: { hazmat: "lithium_batteries" } } as LabelRequestInput;
    delete quote.service_code;
    delete quote.carrier;
    delete quote.service;
    const problems = preflightLabelRequest(quote, { now }).filter((p) => p.code === "LITHIUM_GROUND_ONLY");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "options.hazmat", severity: "blocking" });
    expect(problems[0]?.message).toContain("no ground service");
    expect(problems[0]?.message).toContain("to DE");
    // At home a ground service carries them.
    const domestic = { ...upsGroundDomestic, options: { hazmat: "lithium_batteries" } } as LabelRequestInput;
    delete domestic.service_code;
    expect(blocking(domestic).filter((p) => p.path.startsWith("options"))).toEqual([]);
  });

  it("checks a service on its own, for a page that lists rates", () => {
    const dhl = findServiceByCode("svc_dhl_express_worldwide") ?? null;
    const fedexGround = findServiceByCode("svc_fedex_ground") ?? null;
    expect(checkOptionsForService({ signature: "adult", hazmat: "lithium_batteries" }, dhl).map((p) => p.code)).toEqual(
      ["SIGNATURE_NOT_OFFERED", "LITHIUM_GROUND_ONLY"],
    );
    expect(checkOptionsForService({ signature: "adult", hazmat: "lithium_batteries" }, fedexGround)).toEqual([]);
    expect(checkOptionsForService({ signature: "adult" }, null)).toEqual([]);
  });

  it("agrees with the service: what preflight passes is created, what it blocks the service refuses on the same field", async () => {
    const shipping = createShippingEmulator({ baseUrl: "http://shipping.test" });
    const client = createShippingClient({
      baseUrl: "http://shipping.test",
      apiKey: "sk_live_demo",
      fetch: shipping.fetch,
      sleep: async () => {},
    });
    const cases: CreateLabelRequest[] = [
      { ...upsGroundDomestic, options: { signature: "adult", hazmat: "lithium_batteries" } },
      { ...upsGroundDomestic, service_code: "svc_ups_next_day_air", options: { hazmat: "lithium_batteries" } },
      { ...dhlToGermany, options: { signature: "standard" } },
      { ...dhlToGermany, options: { insurance: { amount: "4999.99", currency: "USD" } } },
      {
        from_address: sender,
        to_address: usRecipient,
        parcel: box,
        carrier: "FEDEX",
        service: "FedEx Ground",
        options: { hazmat: "lithium_batteries", signature: "standard" },
      },
    ];
    for (const request of cases) {
      const problems = preflightLabelRequest(request, { now });
      const created = await client.createDraftLabel(request);
      if (isBlocking(problems)) {
        expect(!created.ok && created.error.fields.map((f) => f.path)).toEqual(
          problems.filter((p) => p.severity === "blocking").map((p) => p.path),
        );
      } else {
        expect(created.ok).toBe(true);
      }
    }
  });
});
