import { describe, expect, it } from "vitest";

import { BulkChoiceSchema, rulesForOverride } from "./bulk-choice";
import { describeBulkChoice } from "./describe-bulk-choice";

describe("a bulk run's choice of services", () => {
  it("turns a per-destination choice into one rule for domestic and one for international shipments", () => {
    const choice = BulkChoiceSchema.parse({
      mode: "destination",
      domestic: { mode: "service", serviceCode: "svc_ups_ground" },
      international: { mode: "cheapest" },
    });
    expect(rulesForOverride(choice)).toEqual([
      expect.objectContaining({ destination: "domestic", choice: "service", serviceCode: "svc_ups_ground" }),
      expect.objectContaining({ destination: "international", choice: "cheapest", serviceCode: null }),
    ]);
    expect(describeBulkChoice(choice)).toBe(
      "Domestic shipments: UPS Ground. International shipments: the cheapest rate. Where a named service is not offered, the cheapest rate is drafted.",
    );
  });

  it("leaves the shop's own rules in charge for 'rules', and applies one pick everywhere otherwise", () => {
    expect(rulesForOverride({ mode: "rules" })).toBeNull();
    expect(rulesForOverride({ mode: "fastest" })).toEqual([
      expect.objectContaining({ destination: "any", choice: "fastest" }),
    ]);
    expect(describeBulkChoice({ mode: "fastest" })).toBe("The fastest rate for every shipment.");
  });

  it("refuses a service that cannot ship where it was chosen for, at its field", () => {
    const parsed = BulkChoiceSchema.safeParse({
      mode: "destination",
      domestic: { mode: "service", serviceCode: "svc_dhl_express_worldwide" },
      international: { mode: "service", serviceCode: "svc_usps_priority" },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      [
        "domestic.serviceCode",
        "DHL Express Worldwide does not ship within the country: choose another for domestic shipments.",
      ],
      [
        "international.serviceCode",
        "USPS Priority Mail does not ship abroad: choose another for international shipments.",
      ],
    ]);
  });
});
