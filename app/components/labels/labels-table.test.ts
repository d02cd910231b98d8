import { describe, expect, it } from "vitest";

import { statusOf } from "./labels-table";

describe("a label's badge on the Labels list", () => {
  it("reads a return label as a return: bought is a return label, on Shopify's return it is attached, never Fulfilled", () => {
    expect(statusOf({ kind: "return", status: "purchased", refund: null }).label).toBe("Return label");
    expect(statusOf({ kind: "return", status: "fulfilled", refund: null }).label).toBe("Attached to return");
  });

  it("reads an outbound label by its state, and a refunded one as refunded whatever its kind", () => {
    expect(statusOf({ kind: "outbound", status: "fulfilled", refund: null }).label).toBe("Fulfilled");
    expect(statusOf({ kind: "outbound", status: "purchased", refund: null }).label).toBe("Bought");
    const refunded = { status: "refunded", cents: 612, refusal: null } as never;
    expect(statusOf({ kind: "return", status: "voided", refund: refunded }).label).toBe("Refunded");
  });
});
