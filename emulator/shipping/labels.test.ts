import { describe, expect, it } from "vitest";

import {
  advanceClock,
  callApi,
  CUSTOMS,
  DE_TO,
  domesticDraft,
  errorOf,
  fieldPaths,
  getOrganization,
  getRates,
  internationalDraft,
  PARCEL,
  setUpEmulatorServer,
  US_FROM,
  US_TO,
} from "./test-support";

const server = setUpEmulatorServer();
const createLabel = (body: unknown, key?: string) => callApi(server.url(), "POST", "/v1/labels", { body, key });

describe("authentication", () => {
  it("returns 401 UNAUTHENTICATED without a key or with an unknown key", async () => {
    const missing = await callApi(server.url(), "POST", "/v1/labels", { body: domesticDraft(), key: null });
    expect(missing.status).toBe(401);
    expect(errorOf(missing).code).toBe("UNAUTHENTICATED");
    expect(missing.headers.get("x-request-id")).toMatch(/^req_/);
    const unknown = await createLabel(domesticDraft(), "sk_live_nope");
    expect(unknown.status).toBe(401);
    const validate = await callApi(server.url(), "POST", "/v1/addresses/validate", { key: null, body: {} });
    expect(validate.status).toBe(401);
  });

  it("returns 400 NO_ORGANIZATION for a key with no organization on label creation", async () => {
    const res = await createLabel(domesticDraft(), "sk_live_noorg");
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("NO_ORGANIZATION");
    expect(res.body.request_id).toMatch(/^req_/);
  });
});

describe("label creation: body rules", () => {
  it("creates a draft with status draft, null rate and label_url and empty warnings", async () => {
    const res = await createLabel(domesticDraft());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "draft",
      rate: null,
      label_url: null,
      warnings: {},
      carrier: "USPS",
      service_code: "svc_usps_priority",
    });
    expect(res.body.id).toMatch(/^lbl_/);
    expect(res.body).not.toHaveProperty("package_count");
  });

  it("also answers label creation on POST /api/v1/labels", async () => {
    const res = await callApi(server.url(), "POST", "/api/v1/labels", { body: domesticDraft() });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("draft");
  });

  it("lists every missing required address field with its path in one VALIDATION_FAILED", async () => {
    const res = await createLabel(
      domesticDraft({ from_address: { country: "US" }, to_address: { ...US_TO, street1: "" } }),
    );
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(
      expect.arrayContaining([
        "from_address.name",
        "from_address.street1",
        "from_address.city",
        "from_address.zip",
        "from_address.state",
        "to_address.street1",
      ]),
    );
  });

  it("rejects parcel field problems with indexed paths and unknown units", async () => {
    const res = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        parcel: undefined,
        parcels: [
          PARCEL,
          PARCEL,
          { length: 1, width: 1, height: 1 },
          { ...PARCEL, weight_unit: "stone", dimension_unit: "ft", height: -1 },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(
      expect.arrayContaining([
        "parcels[2].weight",
        "parcels[3].weight_unit",
        "parcels[3].dimension_unit",
        "parcels[3].height",
      ]),
    );
  });

  it("requires parcel unless parcels is used", async () => {
    const res = await createLabel(domesticDraft({ parcel: undefined }));
    expect(res.status).toBe(400);
    expect(fieldPaths(res)).toContain("parcel");
  });

  it("refuses both parcel and parcels with 400 VALIDATION_ERROR", async () => {
    const res = await createLabel(domesticDraft({ parcels: [PARCEL, PARCEL] }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("refuses more than 20 boxes", async () => {
    const parcels = Array.from({ length: 21 }, () => PARCEL);
    const res = await createLabel(domesticDraft({ carrier: "UPS", service: "UPS Ground", parcel: undefined, parcels }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toContain("parcels");
    const twenty = await createLabel(
      domesticDraft({ carrier: "UPS", service: "UPS Ground", parcel: undefined, parcels: parcels.slice(0, 20) }),
    );
    expect(twenty.status).toBe(201);
  });

  it("returns package_count equal to the boxes sent on a multi-piece draft", async () => {
    const res = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        parcel: undefined,
        parcels: [PARCEL, PARCEL, PARCEL],
        package_count: 1,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.package_count).toBe(3);
  });

  it("accepts country omitted as US", async () => {
    const { country: _from, ...from } = US_FROM;
    const { country: _to, ...to } = US_TO;
    const res = await createLabel(domesticDraft({ from_address: from, to_address: to }));
    expect(res.status).toBe(201);
    expect((res.body.to_address as { country: string }).country).toBe("US");
  });

  it("requires state only for US, CA and AU addresses", async () => {
    const { state: _s, ...noState } = US_TO;
    const us = await createLabel(domesticDraft({ to_address: noState }));
    expect(fieldPaths(us)).toEqual(["to_address.state"]);
    for (const country of ["CA", "AU"]) {
      const res = await createLabel(internationalDraft({ to_address: { ...DE_TO, country } }));
      expect(res.status).toBe(400);
      expect(fieldPaths(res)).toEqual(["to_address.state"]);
    }
    const germany = await createLabel(internationalDraft({ to_address: { ...DE_TO, state: null } }));
    expect(germany.status).toBe(201);
  });

  it("refuses service and service_code sent together", async () => {
    const res = await createLabel(domesticDraft({ service_code: "svc_usps_priority" }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(["service_code"]);
  });

  it("rejects customs.value that is not greater than 0", async () => {
    const res = await createLabel(internationalDraft({ customs: { ...CUSTOMS, value: 0 } }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res)).toEqual(["customs.value"]);
  });

  it("requires carrier_account_id with billing, accountNumber for recipient and third_party, countryCode and postalCode for third_party", async () => {
    const noAccount = await createLabel(domesticDraft({ billing: { payer: "shipper" } }));
    expect(fieldPaths(noAccount)).toEqual(["carrier_account_id"]);
    const recipient = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        carrier_account_id: "ca_demo_ups",
        billing: { payer: "recipient" },
      }),
    );
    expect(fieldPaths(recipient)).toEqual(["billing.accountNumber"]);
    const third = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        carrier_account_id: "ca_demo_ups",
        billing: { payer: "third_party" },
      }),
    );
    expect(fieldPaths(third).sort()).toEqual(["billing.accountNumber", "billing.countryCode", "billing.postalCode"]);
    const ok = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        carrier_account_id: "ca_demo_ups",
        billing: { payer: "third_party", accountNumber: "A1B2C3", countryCode: "US", postalCode: "10001" },
      }),
    );
    expect(ok.status).toBe(201);
  });

  it("truncates delivery_instructions at 35 characters with a warning", async () => {
    const note = "Leave the parcel behind the blue gate next to the garage";
    const res = await createLabel(domesticDraft({ to_address: { ...US_TO, delivery_instructions: note } }));
    expect(res.status).toBe(201);
    expect(res.body.warnings).toHaveProperty(["to_address.delivery_instructions"]);
    expect((res.body.to_address as { delivery_instructions: string }).delivery_instructions).toBe(note.slice(0, 35));
  });

  it("stores and returns platform, platform_order_id and order_id, and accepts channel and external_order_id as aliases", async () => {
    const direct = await createLabel(
      domesticDraft({ platform: "shopify", platform_order_id: "5512345678901", order_id: "ord_1", reference: "#1001" }),
    );
    expect(direct.body).toMatchObject({
      platform: "shopify",
      platform_order_id: "5512345678901",
      order_id: "ord_1",
      reference: "#1001",
    });
    const aliased = await createLabel(domesticDraft({ channel: "shopify", external_order_id: "777" }));
    expect(aliased.status).toBe(201);
    const fetched = await callApi(server.url(), "GET", `/v1/labels/${String(aliased.body.id)}`);
    expect(fetched.body).toMatchObject({
      platform: "shopify",
      platform_order_id: "777",
      channel: "shopify",
      external_order_id: "777",
    });
  });

  it("stores and returns label_custom_fields", async () => {
    const fields = { order: "#1001", picker: "AB", long: "x".repeat(80) };
    const res = await createLabel(domesticDraft({ label_custom_fields: fields }));
    const fetched = await callApi(server.url(), "GET", `/v1/labels/${String(res.body.id)}`);
    expect(fetched.body.label_custom_fields).toEqual(fields);
  });

  it("accepts ship_date at top level and inside options", async () => {
    const top = await createLabel(domesticDraft({ ship_date: "2026-11-25" }));
    expect(top.body.ship_date).toBe("2026-11-25");
    const inOptions = await createLabel(domesticDraft({ options: { ship_date: "2026-11-26", signature: "standard" } }));
    expect(inOptions.body.ship_date).toBe("2026-11-26");
    const bad = await createLabel(domesticDraft({ options: { ship_date: "26/11/2026" } }));
    expect(fieldPaths(bad)).toEqual(["options.ship_date"]);
  });

  it("charges nothing on creation", async () => {
    const before = await getOrganization(server.url(), "org_demo");
    const res = await createLabel(domesticDraft());
    expect(res.status).toBe(201);
    const after = await getOrganization(server.url(), "org_demo");
    expect(after.balance).toBe(before.balance);
    expect(after.charges).toHaveLength(0);
  });
});

describe("label creation: rate and service resolution", () => {
  const quoteBody = { from_address: US_FROM, to_address: US_TO, parcel: PARCEL };

  it("answers 400 SERVICE_REQUIRED, not 404, for an unknown rate_id", async () => {
    const res = await createLabel({ ...quoteBody, rate_id: "rate_doesnotexist" });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("SERVICE_REQUIRED");
  });

  it("answers 400 SERVICE_REQUIRED for a rate_id expired 24 hours after quoting", async () => {
    const [rate] = await getRates(server.url(), quoteBody);
    await advanceClock(server.url(), 24 * 3600 + 1);
    const res = await createLabel({ ...quoteBody, rate_id: rate?.rate_id });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("SERVICE_REQUIRED");
  });

  it("derives carrier and service from rate_id alone", async () => {
    const rates = await getRates(server.url(), quoteBody);
    const ups = rates.find((r) => r.service_code === "svc_ups_2nd_day_air");
    const res = await createLabel({ ...quoteBody, rate_id: ups?.rate_id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ carrier: "UPS", service_code: "svc_ups_2nd_day_air", rate_id: ups?.rate_id });
  });

  it("lets an explicit carrier and service override the rate", async () => {
    const rates = await getRates(server.url(), quoteBody);
    const usps = rates.find((r) => r.service_code === "svc_usps_priority");
    const res = await createLabel({ ...quoteBody, rate_id: usps?.rate_id, carrier: "FEDEX", service: "FedEx 2Day" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ carrier: "FEDEX", service_code: "svc_fedex_2day", rate_id: null });
    expect(res.body.warnings).toHaveProperty(["rate_id"]);
  });

  it("keeps the rate's service when a svc_ code of the same carrier is sent with the rate_id", async () => {
    const rates = await getRates(server.url(), quoteBody);
    const ground = rates.find((r) => r.service_code === "svc_usps_ground_advantage");
    const res = await createLabel({
      ...quoteBody,
      rate_id: ground?.rate_id,
      service_code: "svc_usps_priority_express",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ service_code: "svc_usps_ground_advantage", rate_id: ground?.rate_id });
  });

  it("refuses a svc_ code naming another carrier than the rate with 400 SERVICE_MISMATCH", async () => {
    const rates = await getRates(server.url(), quoteBody);
    const usps = rates.find((r) => r.carrier === "USPS");
    const res = await createLabel({ ...quoteBody, rate_id: usps?.rate_id, service_code: "svc_ups_ground" });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("SERVICE_MISMATCH");
    expect(fieldPaths(res)).toEqual(["service_code"]);
  });

  it("defaults carrier to USPS when neither carrier nor rate_id is sent", async () => {
    const res = await createLabel({ ...quoteBody, service: "Ground Advantage" });
    expect(res.status).toBe(201);
    expect(res.body.carrier).toBe("USPS");
    const upsName = await createLabel({ ...quoteBody, service: "UPS Ground" });
    expect(upsName.status).toBe(400);
    expect(errorOf(upsName).code).toBe("SERVICE_REQUIRED");
  });

  it("answers 400 SERVICE_REQUIRED when no service can be resolved", async () => {
    const none = await createLabel({ ...quoteBody, carrier: "UPS" });
    expect(none.status).toBe(400);
    expect(errorOf(none).code).toBe("SERVICE_REQUIRED");
    const unknown = await createLabel({ ...quoteBody, carrier: "UPS", service: "Teleport" });
    expect(errorOf(unknown).code).toBe("SERVICE_REQUIRED");
  });
});

describe("label creation: international rules", () => {
  it("requires customs when sender and recipient countries differ with 400 CUSTOMS_REQUIRED", async () => {
    const res = await createLabel(internationalDraft({ customs: undefined }));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("CUSTOMS_REQUIRED");
  });

  it("requires customs.tax_id for Brazil and Italy with 400 TAX_ID_REQUIRED", async () => {
    const brazil = await createLabel(
      internationalDraft({ to_address: { ...DE_TO, city: "São Paulo", zip: "01310-100", country: "BR" } }),
    );
    expect(brazil.status).toBe(400);
    expect(errorOf(brazil).code).toBe("TAX_ID_REQUIRED");
    expect(fieldPaths(brazil)).toEqual(["customs.tax_id"]);
    const italy = await createLabel(
      internationalDraft({ to_address: { ...DE_TO, city: "Roma", zip: "00184", country: "IT" } }),
    );
    expect(errorOf(italy).code).toBe("TAX_ID_REQUIRED");
    const withTaxId = await createLabel(
      internationalDraft({
        to_address: { ...DE_TO, city: "Roma", zip: "00184", country: "IT" },
        customs: { ...CUSTOMS, tax_id: "RSSMRA80A01H501U" },
      }),
    );
    expect(withTaxId.status).toBe(201);
  });

  it("requires usable phones on both addresses internationally, rejecting missing, too short and placeholder values", async () => {
    const { phone: _p, ...fromNoPhone } = US_FROM;
    const missing = await createLabel(
      internationalDraft({ from_address: fromNoPhone, to_address: { ...DE_TO, phone: "12345" } }),
    );
    expect(missing.status).toBe(400);
    expect(errorOf(missing).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(missing).sort()).toEqual(["from_address.phone", "to_address.phone"]);
    for (const placeholder of ["000-000-0000", "1234567890", "0123456789", "+1 123 456 789", "(123) 456-7890"]) {
      const res = await createLabel(internationalDraft({ to_address: { ...DE_TO, phone: placeholder } }));
      expect(res.status, placeholder).toBe(400);
      expect(fieldPaths(res), placeholder).toEqual(["to_address.phone"]);
    }
    const domesticWithoutPhones = await createLabel(domesticDraft({ from_address: fromNoPhone }));
    expect(domesticWithoutPhones.status).toBe(201);
  });

  it("rejects a vague customs description with VALIDATION_FAILED", async () => {
    for (const description of ["Gift", "goods", "Merchandise", "clothing", "Misc items and stuff", "SAMPLE PRODUCTS"]) {
      const res = await createLabel(internationalDraft({ customs: { ...CUSTOMS, description } }));
      expect(res.status, description).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_FAILED");
      expect(fieldPaths(res)).toEqual(["customs.description"]);
    }
    const specific = await createLabel(
      internationalDraft({ customs: { ...CUSTOMS, description: "Ceramic coffee mugs" } }),
    );
    expect(specific.status).toBe(201);
  });

  it("refuses blocked destinations CU, IR, KP and SY with 400 ADDRESS_BLOCKED", async () => {
    for (const country of ["CU", "IR", "KP", "SY"]) {
      const res = await createLabel(internationalDraft({ to_address: { ...DE_TO, country } }));
      expect(res.status, country).toBe(400);
      expect(errorOf(res).code).toBe("ADDRESS_BLOCKED");
    }
  });
});

describe("label creation: account rules", () => {
  it("refuses a carrier account of another organization with 400 CARRIER_ACCOUNT_NOT_FOUND", async () => {
    const res = await createLabel(
      domesticDraft({ carrier: "FEDEX", service: "FedEx Ground", carrier_account_id: "ca_other_fedex" }),
    );
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("CARRIER_ACCOUNT_NOT_FOUND");
    const own = await createLabel(
      domesticDraft({ carrier: "FEDEX", service: "FedEx Ground", carrier_account_id: "ca_other_fedex" }),
      "sk_live_other",
    );
    expect(own.status).toBe(201);
  });

  it("returns 403 PLAN_LIMIT_REACHED once the plan's label allowance is exhausted", async () => {
    const first = await createLabel(domesticDraft(), "sk_live_limit");
    expect(first.status).toBe(201);
    const second = await createLabel(domesticDraft(), "sk_live_limit");
    expect(second.status).toBe(403);
    expect(errorOf(second).code).toBe("PLAN_LIMIT_REACHED");
  });

  it("reports the documented precedence: shape problems before service, customs and blocking", async () => {
    const res = await createLabel({
      ...internationalDraft({ customs: undefined, to_address: { ...DE_TO, country: "CU", name: "" } }),
      rate_id: "rate_nope",
    });
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    const next = await createLabel({
      ...internationalDraft({ customs: undefined, to_address: { ...DE_TO, country: "CU" } }),
      rate_id: "rate_nope",
    });
    expect(errorOf(next).code).toBe("SERVICE_REQUIRED");
    const then = await createLabel(internationalDraft({ customs: undefined, to_address: { ...DE_TO, country: "CU" } }));
    expect(errorOf(then).code).toBe("CUSTOMS_REQUIRED");
  });

  it("answers 404 NOT_FOUND for another organization's label", async () => {
    const res = await createLabel(domesticDraft());
    const other = await callApi(server.url(), "GET", `/v1/labels/${String(res.body.id)}`, { key: "sk_live_other" });
    expect(other.status).toBe(404);
    expect(errorOf(other).code).toBe("NOT_FOUND");
  });
});
