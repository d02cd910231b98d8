import { describe, expect, it } from "vitest";

import { listAutoDraftOutcomesForOrders } from "~/auto-draft/auto-draft-outcomes.server";
import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { listParcels } from "~/labels/parcel-tracking.server";
import { sealPersonal } from "~/settings/personal-data-box.server";
import { findAddressValidation, storedAddressKey, toAddressKey } from "~/shipments/validate-address.server";
import type { AddressValidationRequest } from "~/shipping/schemas";

import { insertLabelRow } from "../../test/helpers/label-rows";
import { TEST_SHOP } from "../../test/setup/test-env";
import { listCustomerDataRequests } from "./privacy.server";
import { sealLegacyPersonalData } from "./seal-legacy-rows.server";

// Rows written before ADR 28 hold the ship-to in clear: they are read as they are, and the
// retention schedule seals them in place, after which they read the same.

const ADDRESS: AddressValidationRequest = {
  street1: "500 W 56th St",
  street2: "Apt 2B",
  city: "New York",
  state: "NY",
  zip: "10019",
  country: "US",
};
const REQUEST = JSON.stringify({ to_address: { name: "Grace Buyer", ...ADDRESS, phone: "+1 212 555 0100" } });
const SHIP_TO_KEY = JSON.stringify(["500 w 56th st", "apt 2b", "new york", "ny", "10019", "us"]);
const RESULT = {
  address: { street1: "500 W 56TH ST", street2: "APT 2B", city: "NEW YORK", state: "NY", zip: "10019" },
  dpv: { match_code: "Y", deliverable: true },
  residential: true,
  billed: "0.05",
};
const OUTCOME_ORDER = "gid://shopify/Order/2";
const PROBLEMS = [{ path: "to_address.zip", message: 'The recipient\'s ZIP code "1001" is not a US ZIP code.' }];
const REPORT = { orders: ["gid://shopify/Order/1"], labels: [], audit: [], addressValidations: [] };

async function seedLegacyRows() {
  const label = await insertLabelRow({
    request: REQUEST,
    shipToKey: SHIP_TO_KEY,
    updatedAt: new Date("2026-01-01T00:00:00Z"),
  });
  await db.addressValidation.create({
    data: { shop: TEST_SHOP, addressKey: toAddressKey(ADDRESS), result: JSON.stringify(RESULT), billedCents: 5 },
  });
  await db.customerDataRequest.create({
    data: { shop: TEST_SHOP, ordersRequested: JSON.stringify(REPORT.orders), report: JSON.stringify(REPORT) },
  });
  await db.parcelTracking.create({
    data: {
      shop: TEST_SHOP,
      labelId: label.id,
      trackingNumber: "1Z999",
      status: "delivered",
      occurredAt: new Date("2026-01-02T00:00:00Z"),
      location: JSON.stringify({ city: "New York", state: "NY", zip: "10019", country: "US" }),
    },
  });
  await db.autoDraftOutcome.create({
    data: {
      shop: TEST_SHOP,
      orderGid: OUTCOME_ORDER,
      orderName: "#2",
      fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/2",
      status: "blocked",
      problems: JSON.stringify(PROBLEMS),
    },
  });
  return label;
}

async function readBack(labelId: string) {
  const label = await findLabel(db, TEST_SHOP, labelId);
  return {
    request: label?.request,
    validation: (await findAddressValidation(db, TEST_SHOP, ADDRESS, null))?.result,
    reports: (await listCustomerDataRequests(db, TEST_SHOP)).map((request) => request.report),
    parcels: (await listParcels(db, TEST_SHOP, [labelId])).map((parcel) => parcel.location),
    problems: (await listAutoDraftOutcomesForOrders(db, TEST_SHOP, [OUTCOME_ORDER])).map((outcome) => outcome.problems),
  };
}

describe("rows stored before sealing", () => {
  it("are read as they are, sealed in place by the sweep, and read the same after", async () => {
    const label = await seedLegacyRows();
    const before = await readBack(label.id);
    expect(before).toEqual({
      request: JSON.parse(REQUEST),
      validation: RESULT,
      reports: [REPORT],
      parcels: [{ city: "New York", state: "NY", zip: "10019", country: "US" }],
      problems: [PROBLEMS],
    });

    expect(await sealLegacyPersonalData(db)).toEqual({
      labels: 1,
      addressValidations: 1,
      dataRequests: 1,
      parcels: 1,
      problems: 1,
    });

    const row = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(row.request).toMatch(/^pd1:/);
    expect(row.shipToKey).toMatch(/^pdh1:/);
    // Sealing is no change of the label: its last change (the Orders list's token) stays.
    expect(row.updatedAt).toEqual(new Date("2026-01-01T00:00:00Z"));
    const validation = await db.addressValidation.findFirstOrThrow();
    expect(validation.addressKey).toBe(storedAddressKey(ADDRESS));
    expect(validation.result).toMatch(/^pd1:/);
    expect((await db.customerDataRequest.findFirstOrThrow()).report).toMatch(/^pd1:/);
    expect((await db.parcelTracking.findFirstOrThrow()).location).toMatch(/^pd1:/);
    expect((await db.autoDraftOutcome.findFirstOrThrow()).problems).toMatch(/^pd1:/);
    const everything = JSON.stringify(await Promise.all([db.label.findMany(), db.addressValidation.findMany()]));
    for (const value of ["Grace", "56th", "56TH", "10019", "212 555"]) expect(everything).not.toContain(value);

    expect(await readBack(label.id)).toEqual(before);
    // Once sealed, nothing is matched again.
    expect(await sealLegacyPersonalData(db)).toEqual({
      labels: 0,
      addressValidations: 0,
      dataRequests: 0,
      parcels: 0,
      problems: 0,
    });
  });

  it("drops a clear validation when the same address was validated again since, sealed", async () => {
    await db.addressValidation.create({
      data: { shop: TEST_SHOP, addressKey: toAddressKey(ADDRESS), result: JSON.stringify(RESULT), billedCents: 5 },
    });
    await db.addressValidation.create({
      data: {
        shop: TEST_SHOP,
        addressKey: storedAddressKey(ADDRESS),
        result: sealPersonal(JSON.stringify(RESULT)),
        billedCents: 5,
      },
    });
    expect((await sealLegacyPersonalData(db)).addressValidations).toBe(1);
    const rows = await db.addressValidation.findMany();
    expect(rows.map((row) => row.addressKey)).toEqual([storedAddressKey(ADDRESS)]);
  });
});
