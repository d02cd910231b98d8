import { describe, expect, it } from "vitest";

import { callApi, errorOf, fieldPaths, getOrganization, setUpEmulatorServer } from "./test-support";

const server = setUpEmulatorServer();
const validate = (body: unknown, key?: string, path = "/v1/addresses/validate") =>
  callApi(server.url(), "POST", path, { body, key });

describe("address validation", () => {
  it("standardizes a US address to USPS style with Publication 28 suffix, directional and unit abbreviations", async () => {
    const res = await validate({
      street1: "500 west 56th street",
      street2: "Apartment 2b",
      city: "new york",
      state: "ny",
      zip: "10019",
    });
    expect(res.status).toBe(200);
    expect(res.body.address).toEqual({
      street1: "500 W 56TH ST",
      street2: "APT 2B",
      city: "NEW YORK",
      state: "NY",
      zip: "10019",
      zip4: res.body.zip4,
      country: "US",
    });
    const inline = await validate({
      street1: "1000 North Lake Shore Drive Suite 12",
      city: "Chicago",
      state: "IL",
      zip: "60611",
    });
    expect((inline.body.address as { street1: string }).street1).toBe("1000 N LAKE SHORE DR STE 12");
  });

  it("returns ZIP+4, carrier route, DPV match code, residential flag and billed", async () => {
    const res = await validate({
      street1: "1600 Amphitheatre Parkway",
      city: "Mountain View",
      state: "CA",
      zip: "94043",
    });
    expect(res.body).toMatchObject({
      dpv: { match_code: "Y", deliverable: true, vacant: false },
      residential: false,
      billed: "0.05",
      mocked: false,
    });
    expect(res.body.zip4).toMatch(/^\d{4}$/);
    expect(res.body.carrier_route).toMatch(/^C\d{3}$/);
    const home = await validate({ street1: "42 Elm Street", city: "Springfield", state: "IL", zip: "62701" });
    expect(home.body.residential).toBe(true);
  });

  it("checks ZIP, city and state against the US ZIP code data set", async () => {
    const wrongState = await validate({ street1: "42 Elm Street", city: "Mountain View", state: "NV", zip: "94043" });
    expect(wrongState.body.dpv).toMatchObject({ match_code: "N", deliverable: false });
    const unknownZip = await validate({ street1: "42 Elm Street", city: "Nowhere", state: "CA", zip: "00000" });
    expect(unknownZip.body.dpv).toMatchObject({ match_code: "N" });
    const wrongCity = await validate({ street1: "42 Elm Street", city: "Springfeld", state: "IL", zip: "62701" });
    expect(wrongCity.body.address).toMatchObject({ city: "SPRINGFIELD" });
    expect((wrongCity.body.messages as string[]).length).toBe(1);
  });

  it("gives DPV D when the unit of a known multi-unit building is missing", async () => {
    const res = await validate({ street1: "500 W 56th St", city: "New York", state: "NY", zip: "10019" });
    expect(res.body.dpv).toMatchObject({ match_code: "D", deliverable: false });
  });

  it("gives DPV S when the unit given does not exist in a known multi-unit building", async () => {
    const res = await validate({
      street1: "500 W 56th St",
      street2: "Apt 99Z",
      city: "New York",
      state: "NY",
      zip: "10019",
    });
    expect(res.body.dpv).toMatchObject({ match_code: "S" });
  });

  it("bills every live call, cached or not, and never saves the address", async () => {
    const body = { street1: "42 Elm Street", city: "Springfield", state: "IL", zip: "62701" };
    const first = await validate(body);
    const second = await validate(body);
    expect(first.body.billed).toBe("0.05");
    expect(second.body).toMatchObject({ billed: "0.05", cached: true });
    expect(second.body).not.toHaveProperty("id");
    const org = await getOrganization(server.url(), "org_demo");
    expect(org.validations_billed).toBe(2);
    expect(org.balance).toBe("99999.90");
    expect(org.labels_created).toBe(0);
  });

  it("bills the verify alias identically", async () => {
    const res = await validate(
      { street1: "42 Elm Street", city: "Springfield", state: "IL", zip: "62701" },
      undefined,
      "/v1/addresses/verify",
    );
    expect(res.status).toBe(200);
    expect(res.body.billed).toBe("0.05");
    expect((await getOrganization(server.url(), "org_demo")).validations_billed).toBe(1);
  });

  it("makes validation free and mocked with a sandbox key", async () => {
    const res = await validate(
      { street1: "42 Elm Street", city: "Springfield", state: "IL", zip: "62701" },
      "sk_test_demo",
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ billed: "0.00", mocked: true });
    expect((await getOrganization(server.url(), "org_demo")).validations_billed).toBe(0);
  });

  it("returns 400 NO_ORGANIZATION for a key with no organization", async () => {
    const res = await validate(
      { street1: "42 Elm Street", city: "Springfield", state: "IL", zip: "62701" },
      "sk_live_noorg",
    );
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("NO_ORGANIZATION");
  });

  it("rejects an invalid payload with 400 VALIDATION_FAILED listing every field", async () => {
    const res = await validate({ street1: "", state: "California", zip: "9404" });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_FAILED");
    expect(fieldPaths(res).sort()).toEqual(["city", "state", "street1", "zip"]);
    expect((await getOrganization(server.url(), "org_demo")).validations_billed).toBe(0);
  });

  it("rejects a non-US country with 400 VALIDATION_FAILED", async () => {
    const res = await validate({ street1: "10 Downing St", city: "London", state: "LN", zip: "12345", country: "GB" });
    expect(res.status).toBe(400);
    expect(fieldPaths(res)).toEqual(["country"]);
  });
});
