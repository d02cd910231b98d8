import { describe, expect, it } from "vitest";

import { createShippingEmulator } from "./emulator";
import {
  callApi,
  CUSTOMS,
  DE_TO,
  domesticDraft,
  errorOf,
  fieldPaths,
  PARCEL,
  type Rate,
  US_FROM,
  US_TO,
} from "./test-support";

const BASE = "http://shipping.test";
const DOMESTIC = { from_address: US_FROM, to_address: US_TO, parcel: PARCEL, ship_date: "2026-11-23" };
const INTERNATIONAL = { from_address: US_FROM, to_address: DE_TO, parcel: PARCEL, ship_date: "2026-11-23" };
const dhlDraft = (options: Record<string, unknown>) => ({
  ...INTERNATIONAL,
  customs: CUSTOMS,
  carrier: "DHL",
  service: "DHL Express Worldwide",
  options,
});
const GROUND = ["svc_fedex_ground", "svc_ups_ground", "svc_usps_ground_advantage"];

function setUp() {
  const shipping = createShippingEmulator({ baseUrl: BASE });
  shipping.setNow(new Date("2026-11-22T10:00:00Z"));
  const call = (path: string, body: unknown) => callApi(BASE, "POST", path, { body, fetch: shipping.fetch });
  const quote = async (body: Record<string, unknown>): Promise<Rate[]> => {
    const res = await call("/v1/rates", body);
    if (res.status !== 200) throw new Error(`rates failed: ${JSON.stringify(res.body)}`);
    return res.body.rates as Rate[];
  };
  const byCode = (rates: Rate[]) => new Map(rates.map((r) => [r.service_code, toCents(r.amount)]));
  return { shipping, call, quote, byCode };
}

function toCents(amount: string): number {
  return Math.round(Number(amount) * 100);
}

describe("options on POST /v1/rates", () => {
  it("prices insurance at 1 % of the amount, at least 1.00, on every service", async () => {
    const { quote, byCode } = setUp();
    const plain = byCode(await quote(DOMESTIC));
    const insured = byCode(await quote({ ...DOMESTIC, options: { insurance: { amount: "250.00", currency: "USD" } } }));
    const small = byCode(await quote({ ...DOMESTIC, options: { insurance: { amount: "20.00", currency: "USD" } } }));
    expect(insured.size).toBe(plain.size);
    for (const [code, cents] of plain) {
      expect(insured.get(code)).toBe(cents + 250);
      expect(small.get(code)).toBe(cents + 100);
    }
  });

  it("prices a standard signature at +2.95 and an adult one at +6.95", async () => {
    const { quote, byCode } = setUp();
    const plain = byCode(await quote(DOMESTIC));
    const standard = byCode(await quote({ ...DOMESTIC, options: { signature: "standard" } }));
    const adult = byCode(await quote({ ...DOMESTIC, options: { signature: "adult" } }));
    for (const [code, cents] of plain) {
      expect(standard.get(code)).toBe(cents + 295);
      expect(adult.get(code)).toBe(cents + 695);
    }
  });

  it("leaves DHL Express Worldwide out of rates with a signature", async () => {
    const { quote } = setUp();
    const codes = (await quote({ ...INTERNATIONAL, options: { signature: "adult" } })).map((r) => r.service_code);
    expect(codes.sort()).toEqual(["svc_fedex_intl_priority", "svc_ups_worldwide_saver", "svc_usps_priority_intl"]);
  });

  it("offers only ground services for lithium batteries; hazmat none changes nothing", async () => {
    const { quote, byCode } = setUp();
    const lithium = await quote({ ...DOMESTIC, options: { hazmat: "lithium_batteries" } });
    expect(lithium.map((r) => r.service_code).sort()).toEqual(GROUND);
    expect(await quote({ ...INTERNATIONAL, options: { hazmat: "lithium_batteries" } })).toEqual([]);
    expect(byCode(await quote({ ...DOMESTIC, options: { hazmat: "none" } }))).toEqual(byCode(await quote(DOMESTIC)));
  });

  it.each([
    [{ insurance: { amount: "0.00", currency: "USD" } }, ["options.insurance.amount"]],
    [{ insurance: { amount: "5000.01", currency: "USD" } }, ["options.insurance.amount"]],
    [{ insurance: { amount: 250, currency: "USD" } }, ["options.insurance.amount"]],
    [{ insurance: { amount: "250.00", currency: "EUR" } }, ["options.insurance.currency"]],
    [{ insurance: { amount: "250.00", currency: "USD", deductible: "5" } }, ["options.insurance.deductible"]],
    [{ insurance: "250.00" }, ["options.insurance"]],
    [{ signature: "indirect" }, ["options.signature"]],
    [{ signature: true }, ["options.signature"]],
    [{ hazmat: "dry_ice" }, ["options.hazmat"]],
    [{ saturday_delivery: true }, ["options.saturday_delivery"]],
  ])("refuses options %j with 400 VALIDATION_ERROR naming %j", async (options, fields) => {
    const { call } = setUp();
    for (const path of ["/v1/rates", "/v1/labels"]) {
      const res = await call(path, path === "/v1/rates" ? { ...DOMESTIC, options } : domesticDraft({ options }));
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(fieldPaths(res)).toEqual(fields);
    }
  });

  it("accepts the bounds: 0.01 and 5000.00", async () => {
    const { call } = setUp();
    for (const amount of ["0.01", "5000.00", "5000"]) {
      const res = await call("/v1/rates", { ...DOMESTIC, options: { insurance: { amount, currency: "USD" } } });
      expect(res.status).toBe(200);
    }
  });

  it("reads options.ship_date as the quote's ship date", async () => {
    const { quote } = setUp();
    const [rate] = await quote({ ...DOMESTIC, ship_date: undefined, options: { ship_date: "2026-11-25" } });
    expect(rate?.ship_date).toBe("2026-11-25");
  });
});

describe("options on POST /v1/labels", () => {
  it("creates with a rate quoted with the same options, stores them, and charges the options' price", async () => {
    const { quote, call, shipping } = setUp();
    const options = { insurance: { amount: "250.00", currency: "USD" }, signature: "adult" };
    const rate = (await quote({ ...DOMESTIC, options })).find((r) => r.service_code === "svc_ups_ground");
    const draft = await call("/v1/labels", { ...DOMESTIC, rate_id: rate?.rate_id, options });
    expect(draft.status).toBe(201);
    expect(draft.body.options).toEqual(options);
    const bought = await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/purchase`, {
      fetch: shipping.fetch,
    });
    expect(bought.body.charged).toBe(rate?.amount);
  });

  it("prices the options into a carrier + service draft at purchase", async () => {
    const { quote, call, shipping } = setUp();
    const plainRate = (await quote(DOMESTIC)).find((r) => r.service_code === "svc_usps_priority");
    const draft = await call("/v1/labels", {
      ...DOMESTIC,
      carrier: "USPS",
      service: "Priority Mail",
      options: { signature: "standard", insurance: { amount: "1000.00", currency: "USD" } },
    });
    const bought = await callApi(BASE, "POST", `/v1/labels/${String(draft.body.id)}/purchase`, {
      fetch: shipping.fetch,
    });
    expect(toCents(String(bought.body.charged))).toBe(toCents(plainRate?.amount ?? "0") + 295 + 1000);
  });

  it("answers 400 SERVICE_REQUIRED for a rate quoted with other options", async () => {
    const { quote, call } = setUp();
    const [plain] = await quote(DOMESTIC);
    const [insured] = await quote({ ...DOMESTIC, options: { insurance: { amount: "100.00", currency: "USD" } } });
    const cases = [
      { rate_id: plain?.rate_id, options: { signature: "standard" } },
      { rate_id: insured?.rate_id },
      { rate_id: insured?.rate_id, options: { insurance: { amount: "100.01", currency: "USD" } } },
    ];
    for (const extra of cases) {
      const res = await call("/v1/labels", { ...DOMESTIC, ...extra });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("SERVICE_REQUIRED");
    }
    // hazmat "none" is the default: the same options as none at all.
    expect(
      (await call("/v1/labels", { ...DOMESTIC, rate_id: plain?.rate_id, options: { hazmat: "none" } })).status,
    ).toBe(201);
  });

  it("refuses a signature on DHL Express Worldwide with 400 OPTION_NOT_SUPPORTED on options.signature", async () => {
    const { call } = setUp();
    const res = await call("/v1/labels", dhlDraft({ signature: "standard" }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("OPTION_NOT_SUPPORTED");
    expect(fieldPaths(res)).toEqual(["options.signature"]);
  });

  it("refuses lithium batteries by air with 400 OPTION_NOT_SUPPORTED on options.hazmat, and takes them by ground", async () => {
    const { call } = setUp();
    const air = await call("/v1/labels", domesticDraft({ options: { hazmat: "lithium_batteries" } }));
    expect(air.status).toBe(400);
    expect(errorOf(air).code).toBe("OPTION_NOT_SUPPORTED");
    expect(fieldPaths(air)).toEqual(["options.hazmat"]);
    const ground = await call(
      "/v1/labels",
      domesticDraft({ service: "Ground Advantage", options: { hazmat: "lithium_batteries" } }),
    );
    expect(ground.status).toBe(201);
  });

  it("names both options when DHL gets a signature and lithium batteries", async () => {
    const { call } = setUp();
    const res = await call("/v1/labels", dhlDraft({ signature: "adult", hazmat: "lithium_batteries" }));
    expect(fieldPaths(res)).toEqual(["options.signature", "options.hazmat"]);
  });
});
