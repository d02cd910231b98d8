import { describe, expect, it } from "vitest";

import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { stillApplies } from "./field-links";

// What the server said about the details it was sent, kept only while those details stand.

const weightMissing: KnownPreflightProblem = {
  path: "parcel.weight",
  code: "FIELD_REQUIRED",
  severity: "blocking",
  message: "Enter the box's weight.",
};
const shipment: KnownPreflightProblem = {
  path: "fulfillment_order",
  code: "ON_HOLD",
  severity: "blocking",
  message: "This shipment is on hold in Shopify.",
};

const posted: LabelRequestInput = {
  to_address: { city: "Austin", zip: "78701" },
  parcel: { weight: null, length: 12, width: 10, height: 6 },
};

describe("a server's answer about the details", () => {
  it("drops a problem about a field the merchant changed since: a weight entered after Get rates", () => {
    const now: LabelRequestInput = { ...posted, parcel: { ...posted.parcel, weight: 2 } };
    expect(stillApplies([weightMissing, shipment], posted, now)).toEqual([shipment]);
  });

  it("keeps it while the field is as it was sent, whatever else changed", () => {
    const now: LabelRequestInput = { ...posted, to_address: { city: "Dallas", zip: "75201" } };
    expect(stillApplies([weightMissing], posted, now)).toEqual([weightMissing]);
  });

  it("keeps everything when it does not know what was sent", () => {
    expect(stillApplies([weightMissing], null, posted)).toEqual([weightMissing]);
  });
});
