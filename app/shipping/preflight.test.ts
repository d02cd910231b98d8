import { describe, expect, it } from "vitest";

import {
  box,
  deRecipient,
  dhlToGermany,
  sender,
  upsGroundDomestic,
  usRecipient,
} from "../../test/fixtures/shipping-requests";
import {
  checkDraftPackageCount,
  isBlocking,
  type KnownPreflightProblem,
  type LabelRequestInput,
  type PreflightCode,
  type PreflightContext,
  preflightLabelRequest,
  type PreflightProblem,
} from "./preflight";
import type { Address, CreateLabelRequest, Rate } from "./schemas";

const quote: Rate = {
  rate_id: "rate_1",
  service_code: "svc_ups_ground",
  carrier: "UPS",
  service: "UPS Ground",
  amount: "18.40",
  currency: "USD",
  ship_date: "2026-11-22",
  expires_at: "2026-11-23T00:00:00Z",
};
const now = new Date("2026-11-22T12:00:00Z");

const domestic = upsGroundDomestic;
const fromRate: CreateLabelRequest = { from_address: sender, to_address: usRecipient, parcel: box, rate_id: "rate_1" };
const international = dhlToGermany;

function run(request: LabelRequestInput, context: PreflightContext = {}): PreflightProblem[] {
  return preflightLabelRequest(request, { now, ...context });
}
function find(problems: PreflightProblem[], code: string): PreflightProblem | undefined {
  return problems.find((p) => p.code === code);
}
function intl(patch: Partial<CreateLabelRequest>, to: Partial<Address> = {}): CreateLabelRequest {
  return { ...international, ...patch, to_address: { ...deRecipient, ...to } };
}

describe("preflight baselines", () => {
  it("finds nothing blocking in a complete domestic request", () => {
    expect(isBlocking(run(domestic))).toBe(false);
  });
  it("finds nothing blocking in a complete request from a quote", () => {
    expect(isBlocking(run(fromRate, { quote }))).toBe(false);
  });
  it("finds nothing blocking in a complete international request", () => {
    expect(run(international).filter((p) => p.severity === "blocking")).toEqual([]);
  });
  it("reports every problem at once", () => {
    const problems = run({ ...international, to_address: { ...deRecipient, name: "", phone: "" }, customs: null });
    expect(problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(["FIELD_REQUIRED", "PHONE_REQUIRED", "CUSTOMS_REQUIRED"]),
    );
  });
});

describe("address rules", () => {
  it("ADDRESS_REQUIRED trips when an address is missing", () => {
    expect(find(run({ ...domestic, to_address: null }), "ADDRESS_REQUIRED")?.path).toBe("to_address");
  });
  it("ADDRESS_REQUIRED passes when both addresses are there", () => {
    expect(find(run(domestic), "ADDRESS_REQUIRED")).toBeUndefined();
  });
  it.each(["name", "street1", "city", "zip"] as const)("FIELD_REQUIRED trips for a blank %s", (field) => {
    const problem = find(run({ ...domestic, from_address: { ...sender, [field]: " " } }), "FIELD_REQUIRED");
    expect(problem).toMatchObject({ path: `from_address.${field}`, severity: "blocking" });
  });
  it("FIELD_REQUIRED passes when name, street1, city and zip are filled", () => {
    expect(find(run(domestic), "FIELD_REQUIRED")).toBeUndefined();
  });
  it("COUNTRY_INVALID trips for a country that is not a two-letter code", () => {
    expect(find(run({ ...domestic, to_address: { ...usRecipient, country: "USA" } }), "COUNTRY_INVALID")?.path).toBe(
      "to_address.country",
    );
  });
  it("COUNTRY_INVALID passes for a two-letter code", () => {
    expect(find(run(domestic), "COUNTRY_INVALID")).toBeUndefined();
  });
  it.each(["9404", "940431", "94043-13", "ABCDE", "94043 1351"])(
    "ZIP_INVALID flags the US ZIP code %s, which is neither 5 nor 9 digits",
    (zip) => {
      const problem = find(run({ ...domestic, to_address: { ...usRecipient, zip } }), "ZIP_INVALID");
      expect(problem).toMatchObject({ path: "to_address.zip", severity: "blocking" });
    },
  );
  it.each(["94043", "94043-1351", "940431351", " 94043 "])("ZIP_INVALID passes the US ZIP code %s", (zip) => {
    expect(find(run({ ...domestic, to_address: { ...usRecipient, zip } }), "ZIP_INVALID")).toBeUndefined();
  });
  it("ZIP_INVALID leaves postal codes of other countries alone", () => {
    expect(find(run(intl({}, { zip: "10115" })), "ZIP_INVALID")).toBeUndefined();
    expect(find(run(intl({}, { country: "CA", state: "ON", zip: "M5V 2T6" })), "ZIP_INVALID")).toBeUndefined();
  });
  it("ZIP_INVALID names the sender's ZIP code on its own field", () => {
    const problem = find(run({ ...domestic, from_address: { ...sender, zip: "1124" } }), "ZIP_INVALID");
    expect(problem?.path).toBe("from_address.zip");
  });
  it.each(["US", "CA", "AU"])("STATE_REQUIRED trips for a %s address without state", (country) => {
    const problems = run(intl({}, { country, state: null }));
    expect(find(problems, "STATE_REQUIRED")).toMatchObject({ path: "to_address.state", severity: "blocking" });
  });
  it("STATE_REQUIRED passes when the state is given", () => {
    expect(
      find(
        run(intl({ carrier: "UPS", service_code: "svc_ups_standard" }, { country: "CA", state: "ON" })),
        "STATE_REQUIRED",
      ),
    ).toBeUndefined();
  });
  it("STATE_DROPPED warns that a state of another country will not be sent", () => {
    const problem = find(run(intl({}, { state: "Berlin" })), "STATE_DROPPED");
    expect(problem).toMatchObject({ path: "to_address.state", severity: "warning" });
  });
  it("STATE_DROPPED passes when a non-US/CA/AU address has no state", () => {
    expect(find(run(international), "STATE_DROPPED")).toBeUndefined();
  });
  it("ADDRESS_BLOCKED trips for a destination on the block list", () => {
    expect(find(run(intl({}, { country: "CU" })), "ADDRESS_BLOCKED")?.severity).toBe("blocking");
  });
  it("ADDRESS_BLOCKED passes for other destinations", () => {
    expect(find(run(international), "ADDRESS_BLOCKED")).toBeUndefined();
  });
});

describe("phone rules (international)", () => {
  it("PHONE_REQUIRED trips when either address has no phone", () => {
    const problems = run({ ...intl({}, { phone: undefined }), from_address: { ...sender, phone: null } });
    expect(problems.filter((p) => p.code === "PHONE_REQUIRED").map((p) => p.path)).toEqual([
      "from_address.phone",
      "to_address.phone",
    ]);
  });
  it("PHONE_REQUIRED passes for a domestic shipment without phones", () => {
    expect(find(run({ ...domestic, from_address: { ...sender, phone: null } }), "PHONE_REQUIRED")).toBeUndefined();
  });
  it("PHONE_TOO_SHORT trips for fewer than 7 digits", () => {
    expect(find(run(intl({}, { phone: "12345" })), "PHONE_TOO_SHORT")?.path).toBe("to_address.phone");
  });
  it("PHONE_TOO_SHORT passes for a full number", () => {
    expect(find(run(international), "PHONE_TOO_SHORT")).toBeUndefined();
  });
  it.each(["0000000000", "1234567890", "+1 123 456 7890"])("PHONE_PLACEHOLDER trips for %j", (phone) => {
    expect(find(run(intl({}, { phone })), "PHONE_PLACEHOLDER")?.severity).toBe("blocking");
  });
  it("PHONE_PLACEHOLDER passes for a real number", () => {
    expect(find(run(international), "PHONE_PLACEHOLDER")).toBeUndefined();
  });
});

describe("truncation warnings", () => {
  const long = "Leave at the back door behind the blue gate";
  it("DELIVERY_INSTRUCTIONS_TRUNCATED quotes the text that will be cut", () => {
    const problem = find(
      run({ ...domestic, to_address: { ...usRecipient, delivery_instructions: long } }),
      "DELIVERY_INSTRUCTIONS_TRUNCATED",
    );
    expect(problem?.severity).toBe("warning");
    expect(problem?.message).toContain(`"${long.slice(35)}"`);
  });
  it("DELIVERY_INSTRUCTIONS_TRUNCATED passes at 35 characters", () => {
    const instructions = long.slice(0, 35);
    expect(
      find(
        run({ ...domestic, to_address: { ...usRecipient, delivery_instructions: instructions } }),
        "DELIVERY_INSTRUCTIONS_TRUNCATED",
      ),
    ).toBeUndefined();
  });
  const longCompany = "International Widgets and Gadgets Company";
  const longName = "Maximiliana Alexandra Featherstonehaugh";
  it("UPS_LINE_TRUNCATED quotes the cut text of company and name for UPS", () => {
    const problems = run({ ...domestic, to_address: { ...usRecipient, company: longCompany, name: longName } });
    const cut = problems.filter((p) => p.code === "UPS_LINE_TRUNCATED");
    expect(cut.map((p) => p.path)).toEqual(["to_address.company", "to_address.name"]);
    expect(cut[0]?.message).toContain(`"${longCompany.slice(35)}"`);
    expect(cut[1]?.message).toContain(`"${longName.slice(35)}"`);
  });
  it("UPS_LINE_TRUNCATED passes for a carrier that prints two separate lines", () => {
    const request = {
      ...domestic,
      carrier: "FEDEX" as const,
      service_code: "svc_fedex_ground",
      to_address: { ...usRecipient, company: longCompany, name: longName },
    };
    expect(find(run(request), "UPS_LINE_TRUNCATED")).toBeUndefined();
  });
  it("CUSTOM_FIELD_NOT_PRINTED warns for a field the carrier does not print", () => {
    const problem = find(run({ ...domestic, label_custom_fields: { po_number: "PO-1" } }), "CUSTOM_FIELD_NOT_PRINTED");
    expect(problem).toMatchObject({ path: "label_custom_fields.po_number", severity: "warning" });
  });
  it("CUSTOM_FIELD_NOT_PRINTED passes for a field the carrier prints", () => {
    expect(
      find(run({ ...domestic, label_custom_fields: { reference1: "Order 1001" } }), "CUSTOM_FIELD_NOT_PRINTED"),
    ).toBeUndefined();
  });
  it("CUSTOM_FIELD_TRUNCATED quotes what the carrier cuts", () => {
    const value = "R".repeat(35) + "TAIL";
    expect(
      find(run({ ...domestic, label_custom_fields: { reference1: value } }), "CUSTOM_FIELD_TRUNCATED")?.message,
    ).toContain('"TAIL"');
  });
});

describe("parcel rules", () => {
  it("PARCEL_REQUIRED trips without parcel or parcels", () => {
    expect(find(run({ ...domestic, parcel: undefined }), "PARCEL_REQUIRED")?.severity).toBe("blocking");
  });
  it("PARCEL_REQUIRED passes with one parcel", () => {
    expect(find(run(domestic), "PARCEL_REQUIRED")).toBeUndefined();
  });
  it("PARCEL_AND_PARCELS trips when both are sent", () => {
    expect(find(run({ ...domestic, parcels: [box] }), "PARCEL_AND_PARCELS")?.severity).toBe("blocking");
  });
  it("PARCEL_AND_PARCELS passes with parcels alone", () => {
    expect(find(run({ ...domestic, parcel: undefined, parcels: [box, box] }), "PARCEL_AND_PARCELS")).toBeUndefined();
  });
  it("VALUE_NOT_POSITIVE trips for a zero weight and FIELD_REQUIRED for a missing height", () => {
    const problems = run({ ...domestic, parcel: { ...box, weight: 0, height: null } });
    expect(find(problems, "VALUE_NOT_POSITIVE")?.path).toBe("parcel.weight");
    expect(problems.find((p) => p.code === "FIELD_REQUIRED")?.path).toBe("parcel.height");
  });
  it("VALUE_NOT_POSITIVE passes for positive measures", () => {
    expect(find(run(domestic), "VALUE_NOT_POSITIVE")).toBeUndefined();
  });
  it("UNIT_INVALID trips for units outside their enums", () => {
    const problems = run({ ...domestic, parcel: { ...box, weight_unit: "stone", dimension_unit: "mm" } });
    expect(problems.filter((p) => p.code === "UNIT_INVALID").map((p) => p.path)).toEqual([
      "parcel.weight_unit",
      "parcel.dimension_unit",
    ]);
  });
  it("UNIT_INVALID passes for allowed units", () => {
    expect(
      find(run({ ...domestic, parcel: { ...box, weight_unit: "kg", dimension_unit: "cm" } }), "UNIT_INVALID"),
    ).toBeUndefined();
  });
  it("TOO_MANY_PARCELS trips above 20 boxes", () => {
    expect(
      find(run({ ...domestic, parcel: undefined, parcels: Array.from({ length: 21 }, () => box) }), "TOO_MANY_PARCELS")
        ?.severity,
    ).toBe("blocking");
  });
  it("TOO_MANY_PARCELS passes at 20 boxes", () => {
    expect(
      find(run({ ...domestic, parcel: undefined, parcels: Array.from({ length: 20 }, () => box) }), "TOO_MANY_PARCELS"),
    ).toBeUndefined();
  });
  it("MULTI_PIECE_SERVICE_UNSUPPORTED trips for several boxes on FedEx Ground, with the reason", () => {
    const problem = find(
      run({ ...domestic, carrier: "FEDEX", service_code: "svc_fedex_ground", parcel: undefined, parcels: [box, box] }),
      "MULTI_PIECE_SERVICE_UNSUPPORTED",
    );
    expect(problem?.severity).toBe("blocking");
    expect(problem?.message).toContain("only UPS Ground");
  });
  it("MULTI_PIECE_SERVICE_UNSUPPORTED trips for several boxes with no carrier (USPS assumed)", () => {
    const request = {
      ...domestic,
      carrier: undefined,
      service_code: undefined,
      service: "Priority Mail",
      parcel: undefined,
      parcels: [box, box],
    };
    expect(find(run(request), "MULTI_PIECE_SERVICE_UNSUPPORTED")).toBeDefined();
  });
  it("MULTI_PIECE_SERVICE_UNSUPPORTED passes for UPS Ground", () => {
    expect(
      find(run({ ...domestic, parcel: undefined, parcels: [box, box] }), "MULTI_PIECE_SERVICE_UNSUPPORTED"),
    ).toBeUndefined();
  });
  it("PACKAGE_COUNT_MISMATCH blocks the purchase when the draft counts other boxes than sent", () => {
    const request = { ...domestic, parcel: undefined, parcels: [box, box, box] };
    const problems = checkDraftPackageCount(request, { package_count: 2 });
    expect(problems[0]).toMatchObject({ code: "PACKAGE_COUNT_MISMATCH", severity: "blocking" });
    expect(checkDraftPackageCount(request, {})).toHaveLength(1);
  });
  it("PACKAGE_COUNT_MISMATCH passes when the draft counts every box", () => {
    expect(
      checkDraftPackageCount({ ...domestic, parcel: undefined, parcels: [box, box, box] }, { package_count: 3 }),
    ).toEqual([]);
    expect(checkDraftPackageCount(domestic, {})).toEqual([]);
  });
});

describe("customs rules", () => {
  it("CUSTOMS_REQUIRED trips for an international shipment without customs", () => {
    expect(find(run(intl({ customs: undefined })), "CUSTOMS_REQUIRED")?.severity).toBe("blocking");
  });
  it("CUSTOMS_REQUIRED passes for a domestic shipment without customs", () => {
    expect(find(run(domestic), "CUSTOMS_REQUIRED")).toBeUndefined();
  });
  it("CUSTOMS_DESCRIPTION_VAGUE trips for 'goods' and suggests one from the products", () => {
    const problem = find(
      run(intl({ customs: { description: "goods", value: 40 } }), {
        products: [{ title: "Cotton T-shirt", productType: "Shirts" }],
      }),
      "CUSTOMS_DESCRIPTION_VAGUE",
    );
    expect(problem).toMatchObject({
      path: "customs.description",
      severity: "blocking",
      suggestion: "Cotton T-shirt (Shirts)",
    });
  });
  it("CUSTOMS_DESCRIPTION_VAGUE passes for a specific description", () => {
    expect(find(run(international), "CUSTOMS_DESCRIPTION_VAGUE")).toBeUndefined();
  });
  it("VALUE_NOT_POSITIVE trips for a declared value of 0", () => {
    expect(find(run(intl({ customs: { description: "Cotton T-shirts", value: 0 } })), "VALUE_NOT_POSITIVE")?.path).toBe(
      "customs.value",
    );
  });
  it("CONTENTS_TYPE_INVALID trips for a contents type outside the enum, and passes for 'gift'", () => {
    const request: LabelRequestInput = {
      ...international,
      customs: { description: "Wool scarf", value: 40, contents_type: "present" },
    };
    expect(find(run(request), "CONTENTS_TYPE_INVALID")).toBeDefined();
    expect(
      find(
        run(intl({ customs: { description: "Wool scarf", value: 40, contents_type: "gift" } })),
        "CONTENTS_TYPE_INVALID",
      ),
    ).toBeUndefined();
  });
  it.each(["BR", "IT"])("TAX_ID_REQUIRED trips for %s without tax id", (country) => {
    expect(find(run(intl({}, { country })), "TAX_ID_REQUIRED")?.path).toBe("customs.tax_id");
  });
  it("TAX_ID_REQUIRED passes for Germany without tax id", () => {
    expect(find(run(international), "TAX_ID_REQUIRED")).toBeUndefined();
  });
  it("TAX_ID_INVALID trips for a CPF with a wrong check digit and a codice fiscale with a wrong check character", () => {
    expect(
      find(
        run(intl({ customs: { description: "Wool scarf", value: 40, tax_id: "52998224726" } }, { country: "BR" })),
        "TAX_ID_INVALID",
      ),
    ).toBeDefined();
    expect(
      find(
        run(intl({ customs: { description: "Wool scarf", value: 40, tax_id: "RSSMRA85T10A562T" } }, { country: "IT" })),
        "TAX_ID_INVALID",
      ),
    ).toBeDefined();
  });
  it("TAX_ID_INVALID passes for a valid CNPJ to Brazil and partita IVA to Italy", () => {
    expect(
      find(
        run(
          intl({ customs: { description: "Wool scarf", value: 40, tax_id: "11.222.333/0001-81" } }, { country: "BR" }),
        ),
        "TAX_ID_INVALID",
      ),
    ).toBeUndefined();
    expect(
      find(
        run(intl({ customs: { description: "Wool scarf", value: 40, tax_id: "12345670017" } }, { country: "IT" })),
        "TAX_ID_INVALID",
      ),
    ).toBeUndefined();
  });
  it("TAX_ID_INVALID passes for an alphanumeric CNPJ, and names the field and the CNPJ's letters when it trips", () => {
    const brazil = (taxId: string) =>
      find(
        run(intl({ customs: { description: "Wool scarf", value: 40, tax_id: taxId } }, { country: "BR" })),
        "TAX_ID_INVALID",
      );
    expect(brazil("12.ABC.345/01DE-35")).toBeUndefined();
    expect(brazil("12.ABC.345/01DE-36")?.message).toMatch(
      /^The recipient tax id is not valid for Brazil: .*CNPJ \(14 characters: 12 letters or digits, then 2 check digits\)/,
    );
  });
  const highValue = { description: "Mechanical wristwatch", value: 3000 };
  it("EXPORT_DECLARATION_REQUIRED blocks above 2,500 USD for USPS", () => {
    const problem = find(
      run(intl({ carrier: "USPS", service_code: "svc_usps_priority_intl", customs: highValue })),
      "EXPORT_DECLARATION_REQUIRED",
    );
    expect(problem?.severity).toBe("blocking");
  });
  it("EXPORT_DECLARATION_REQUIRED only warns above 2,500 USD for other carriers", () => {
    expect(find(run(intl({ customs: highValue })), "EXPORT_DECLARATION_REQUIRED")?.severity).toBe("warning");
  });
  it("EXPORT_DECLARATION_REQUIRED passes with an eel_pfc", () => {
    expect(
      find(
        run(
          intl({
            carrier: "USPS",
            service_code: "svc_usps_priority_intl",
            customs: { ...highValue, eel_pfc: "AES X20261122123456" },
          }),
        ),
        "EXPORT_DECLARATION_REQUIRED",
      ),
    ).toBeUndefined();
  });
  it("EXPORT_DECLARATION_EXEMPT notes the exemption at or below 2,500 USD, and not above", () => {
    expect(find(run(international), "EXPORT_DECLARATION_EXEMPT")?.severity).toBe("info");
    expect(find(run(intl({ customs: highValue })), "EXPORT_DECLARATION_EXEMPT")).toBeUndefined();
  });
  it("DUTIES_BILLED_TO_RECIPIENT is stated for international shipments and not for domestic ones", () => {
    expect(find(run(international), "DUTIES_BILLED_TO_RECIPIENT")?.severity).toBe("info");
    expect(find(run(domestic), "DUTIES_BILLED_TO_RECIPIENT")).toBeUndefined();
  });
});

describe("service rules", () => {
  it("RATE_OVERRIDDEN trips for a rate_id sent with a carrier", () => {
    expect(find(run({ ...fromRate, carrier: "UPS" }, { quote }), "RATE_OVERRIDDEN")?.severity).toBe("blocking");
  });
  it("RATE_OVERRIDDEN passes when the override is explicit", () => {
    expect(
      find(
        run({ ...fromRate, carrier: "UPS", service: "UPS 2nd Day Air" }, { quote, overrideRate: true }),
        "RATE_OVERRIDDEN",
      ),
    ).toBeUndefined();
  });
  it("SERVICE_MISMATCH trips for a svc_ code of another carrier than the rate", () => {
    expect(
      find(run({ ...fromRate, service_code: "svc_fedex_ground" }, { quote, overrideRate: true }), "SERVICE_MISMATCH")
        ?.severity,
    ).toBe("blocking");
  });
  it("SERVICE_MISMATCH passes for a svc_ code of the rate's carrier", () => {
    expect(
      find(run({ ...fromRate, service_code: "svc_ups_ground" }, { quote, overrideRate: true }), "SERVICE_MISMATCH"),
    ).toBeUndefined();
  });
  it("SERVICE_AND_SERVICE_CODE trips when both are sent", () => {
    expect(find(run({ ...domestic, service: "UPS Ground" }), "SERVICE_AND_SERVICE_CODE")?.severity).toBe("blocking");
  });
  it("SERVICE_AND_SERVICE_CODE passes with one of them", () => {
    expect(find(run(domestic), "SERVICE_AND_SERVICE_CODE")).toBeUndefined();
  });
  it("SERVICE_REQUIRED trips with no rate, service or service code", () => {
    expect(find(run({ ...domestic, service_code: undefined }), "SERVICE_REQUIRED")?.severity).toBe("blocking");
  });
  it("SERVICE_REQUIRED passes with a service name", () => {
    expect(
      find(run({ ...domestic, service_code: undefined, service: "UPS Ground" }), "SERVICE_REQUIRED"),
    ).toBeUndefined();
  });
  it("SERVICE_UNKNOWN trips for a service the carrier does not offer", () => {
    expect(
      find(run({ ...domestic, service_code: undefined, service: "UPS Teleport" }), "SERVICE_UNKNOWN")?.severity,
    ).toBe("blocking");
  });
  it("SERVICE_CARRIER_MISMATCH trips for a UPS code with carrier FEDEX, and passes with UPS", () => {
    expect(find(run({ ...domestic, carrier: "FEDEX" }), "SERVICE_CARRIER_MISMATCH")).toBeDefined();
    expect(find(run(domestic), "SERVICE_CARRIER_MISMATCH")).toBeUndefined();
  });
  it("SERVICE_NOT_OFFERED_ON_ROUTE trips for a domestic service to Germany, and passes for an international one", () => {
    expect(
      find(run(intl({ carrier: "USPS", service_code: "svc_usps_priority" })), "SERVICE_NOT_OFFERED_ON_ROUTE"),
    ).toBeDefined();
    expect(find(run(international), "SERVICE_NOT_OFFERED_ON_ROUTE")).toBeUndefined();
  });
  it("CARRIER_INVALID trips for an unknown carrier", () => {
    expect(find(run({ ...domestic, carrier: "ROYALMAIL" }), "CARRIER_INVALID")).toBeDefined();
  });
  it("LABEL_FORMAT_INVALID trips for gif and passes for zpl", () => {
    expect(find(run({ ...domestic, label_format: "gif" }), "LABEL_FORMAT_INVALID")).toBeDefined();
    expect(find(run({ ...domestic, label_format: "zpl" }), "LABEL_FORMAT_INVALID")).toBeUndefined();
  });
});

describe("billing rules", () => {
  it("BILLING_NEEDS_CARRIER_ACCOUNT trips for billing without carrier_account_id", () => {
    expect(find(run({ ...domestic, billing: { payer: "shipper" } }), "BILLING_NEEDS_CARRIER_ACCOUNT")?.path).toBe(
      "carrier_account_id",
    );
  });
  it("BILLING_NEEDS_CARRIER_ACCOUNT passes with a carrier account", () => {
    expect(
      find(
        run({ ...domestic, carrier_account_id: "ca_demo_ups", billing: { payer: "shipper" } }),
        "BILLING_NEEDS_CARRIER_ACCOUNT",
      ),
    ).toBeUndefined();
  });
  it("billing FIELD_REQUIRED trips for a recipient payer without account number", () => {
    const problems = run({ ...domestic, carrier_account_id: "ca_demo_ups", billing: { payer: "recipient" } });
    expect(problems.map((p) => p.path)).toContain("billing.accountNumber");
  });
  it("billing FIELD_REQUIRED trips for a third party without account number, country and postal code", () => {
    const problems = run({ ...domestic, carrier_account_id: "ca_demo_ups", billing: { payer: "third_party" } });
    expect(problems.filter((p) => p.code === "FIELD_REQUIRED").map((p) => p.path)).toEqual([
      "billing.accountNumber",
      "billing.countryCode",
      "billing.postalCode",
    ]);
  });
  it("billing FIELD_REQUIRED passes for a complete third party", () => {
    const billing = { payer: "third_party" as const, accountNumber: "A1B2C3", countryCode: "US", postalCode: "10001" };
    expect(isBlocking(run({ ...domestic, carrier_account_id: "ca_demo_ups", billing }))).toBe(false);
  });
  it("PAYER_INVALID trips for a payer outside the enum", () => {
    expect(
      find(run({ ...domestic, carrier_account_id: "ca_demo_ups", billing: { payer: "sender" } }), "PAYER_INVALID"),
    ).toBeDefined();
  });
});

describe("quote and ship date rules", () => {
  it("SHIP_DATE_DIFFERS_FROM_QUOTE blocks with re-quote when the date would re-price", () => {
    const problem = find(run({ ...fromRate, ship_date: "2026-11-23" }, { quote }), "SHIP_DATE_DIFFERS_FROM_QUOTE");
    expect(problem).toMatchObject({ severity: "blocking", suggestion: "Re-quote" });
  });
  it("SHIP_DATE_DIFFERS_FROM_QUOTE also reads options.ship_date", () => {
    expect(
      find(run({ ...fromRate, options: { ship_date: "2026-11-24" } }, { quote }), "SHIP_DATE_DIFFERS_FROM_QUOTE")?.path,
    ).toBe("options.ship_date");
  });
  it("SHIP_DATE_DIFFERS_FROM_QUOTE passes for the quote's date", () => {
    expect(
      find(run({ ...fromRate, ship_date: "2026-11-22" }, { quote }), "SHIP_DATE_DIFFERS_FROM_QUOTE"),
    ).toBeUndefined();
  });
  it("QUOTE_EXPIRED blocks with re-quote after expires_at", () => {
    const problem = find(run(fromRate, { quote, now: new Date("2026-11-23T00:00:01Z") }), "QUOTE_EXPIRED");
    expect(problem).toMatchObject({ severity: "blocking", suggestion: "Re-quote" });
  });
  it("QUOTE_EXPIRED passes before expires_at", () => {
    expect(find(run(fromRate, { quote }), "QUOTE_EXPIRED")).toBeUndefined();
  });
  it("SHIP_DATE_INVALID trips for a date that does not exist", () => {
    expect(find(run({ ...domestic, ship_date: "2026-02-30" }), "SHIP_DATE_INVALID")).toBeDefined();
  });
});

describe("order link, alias and format rules", () => {
  it("PLATFORM_ORDER_ID_REQUIRED trips for a platform without order id", () => {
    expect(find(run({ ...domestic, platform: "shopify" }), "PLATFORM_ORDER_ID_REQUIRED")?.severity).toBe("blocking");
  });
  it("PLATFORM_ORDER_ID_REQUIRED passes with the pair, also sent through the aliases", () => {
    expect(isBlocking(run({ ...domestic, platform: "shopify", platform_order_id: "5512345678901" }))).toBe(false);
    expect(isBlocking(run({ ...domestic, channel: "shopify", external_order_id: "5512345678901" }))).toBe(false);
  });
  it("PLATFORM_REQUIRED trips for an order id without platform", () => {
    expect(find(run({ ...domestic, platform_order_id: "5512345678901" }), "PLATFORM_REQUIRED")).toBeDefined();
  });
  it("ALIAS_CONFLICT trips when platform and channel differ, and passes when they agree", () => {
    const base = { ...domestic, platform: "shopify", platform_order_id: "1" };
    expect(find(run({ ...base, channel: "etsy" }), "ALIAS_CONFLICT")?.path).toBe("channel");
    expect(find(run({ ...base, channel: "shopify" }), "ALIAS_CONFLICT")).toBeUndefined();
  });
  it("LABEL_SIZE_INVALID trips for 6x4 and passes for 4x8", () => {
    expect(find(run({ ...domestic, label_size: "6x4" }), "LABEL_SIZE_INVALID")).toBeDefined();
    expect(find(run({ ...domestic, label_size: "4x8" }), "LABEL_SIZE_INVALID")).toBeUndefined();
  });
  it("SHIP_DATE_CONFLICT trips when ship_date and options.ship_date differ, and passes when they agree", () => {
    expect(
      find(run({ ...domestic, ship_date: "2026-11-22", options: { ship_date: "2026-11-23" } }), "SHIP_DATE_CONFLICT"),
    ).toBeDefined();
    expect(
      find(run({ ...domestic, ship_date: "2026-11-22", options: { ship_date: "2026-11-22" } }), "SHIP_DATE_CONFLICT"),
    ).toBeUndefined();
  });
  it("QUOTE_MISMATCH trips when the rate_id is not the quote's", () => {
    expect(find(run({ ...fromRate, rate_id: "rate_other" }, { quote }), "QUOTE_MISMATCH")).toBeDefined();
    expect(find(run(fromRate, { quote }), "QUOTE_MISMATCH")).toBeUndefined();
  });
  it("SERVICE_UNKNOWN trips for a service_code that is not a svc_ code, sent with a rate", () => {
    expect(
      find(run({ ...fromRate, service_code: "GROUND" }, { quote, overrideRate: true }), "SERVICE_UNKNOWN"),
    ).toBeDefined();
  });
  it("SERVICE_CODE_IGNORED warns that a svc_ code of the rate's carrier does not change the rate", () => {
    expect(
      find(
        run({ ...fromRate, service_code: "svc_ups_next_day_air" }, { quote, overrideRate: true }),
        "SERVICE_CODE_IGNORED",
      )?.severity,
    ).toBe("warning");
    expect(
      find(run({ ...fromRate, service_code: "svc_ups_ground" }, { quote, overrideRate: true }), "SERVICE_CODE_IGNORED"),
    ).toBeUndefined();
  });
  it("a customs object on a domestic label is still checked, and noted as not needed", () => {
    const problems = run({ ...domestic, customs: { description: "Cotton T-shirts", value: 0 } });
    expect(find(problems, "VALUE_NOT_POSITIVE")?.path).toBe("customs.value");
    expect(find(problems, "CUSTOMS_NOT_NEEDED")?.severity).toBe("info");
  });
  it("QUANTITY_INVALID trips for 0 and passes for 2", () => {
    expect(
      find(run(intl({ customs: { description: "Wool scarf", value: 40, quantity: 0 } })), "QUANTITY_INVALID"),
    ).toBeDefined();
    expect(
      find(run(intl({ customs: { description: "Wool scarf", value: 40, quantity: 2 } })), "QUANTITY_INVALID"),
    ).toBeUndefined();
  });
  it("COUNTRY_INVALID trips for a country of origin and a billing country that are not two-letter codes", () => {
    const problems = run({
      ...intl({ customs: { description: "Wool scarf", value: 40, country_of_origin: "China" } }),
      carrier_account_id: "ca_demo_ups",
      billing: { payer: "recipient", accountNumber: "A1", countryCode: "usa" },
    });
    expect(problems.filter((p) => p.code === "COUNTRY_INVALID").map((p) => p.path)).toEqual([
      "customs.country_of_origin",
      "billing.countryCode",
    ]);
  });
  it.each(["abc", "4202", "42022212345", "4202.2A"])("HS_CODE_INVALID trips for the HS code %s", (hs_code) => {
    const problem = find(run(intl({ customs: { description: "Wool scarf", value: 40, hs_code } })), "HS_CODE_INVALID");
    expect(problem).toMatchObject({ path: "customs.hs_code", severity: "blocking" });
    expect(problem?.message).toContain("6 to 10 digits");
  });
  it.each(["6109.10", "610910", "6109 10 00", "6109.10.0010"])("HS_CODE_INVALID passes for %s", (hs_code) => {
    expect(
      find(run(intl({ customs: { description: "Wool scarf", value: 40, hs_code } })), "HS_CODE_INVALID"),
    ).toBeUndefined();
  });
  it("PARCEL_REQUIRED trips for an empty parcels list", () => {
    expect(find(run({ ...domestic, parcel: undefined, parcels: [] }), "PARCEL_REQUIRED")?.path).toBe("parcels");
  });
});

describe("isBlocking", () => {
  it("is true only when a blocking problem is present", () => {
    expect(isBlocking([{ path: "x", code: "FIELD_REQUIRED", severity: "warning", message: "" }])).toBe(false);
    expect(isBlocking([{ path: "x", code: "FIELD_REQUIRED", severity: "blocking", message: "" }])).toBe(true);
  });
});

describe("problem codes", () => {
  it("are a closed set: a code outside PreflightCode does not compile", () => {
    // @ts-expect-error: not a PreflightCode (typecheck fails here if the union is ever opened up)
    const problem: KnownPreflightProblem = { path: "x", code: "NOT_A_CODE", severity: "info", message: "" };
    const codes: PreflightCode[] = [
      "INVALID",
      "SERVICE_WARNING",
      "SERVICE_REQUIRED",
      "MULTI_PIECE_SERVICE_UNSUPPORTED",
    ];
    expect([problem.code, ...codes]).toHaveLength(5);
  });
});
