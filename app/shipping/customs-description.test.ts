import { describe, expect, it } from "vitest";

import { isVagueCustomsDescription, suggestCustomsDescription } from "./customs-description";

describe("customs description", () => {
  it.each([
    "goods",
    "Gift",
    "merchandise",
    "items",
    "stuff",
    "sample",
    "Clothing",
    "gifts x2",
    "misc. items",
    "",
    "  ",
  ])("blocks the vague description %j", (description) => {
    expect(isVagueCustomsDescription(description)).toBe(true);
  });
  it.each(["Cotton T-shirts", "Ceramic coffee mug", "Leather wallet", "Children's wooden toy train"])(
    "accepts the specific description %j",
    (description) => {
      expect(isVagueCustomsDescription(description)).toBe(false);
    },
  );
  it("suggests a description built from the order's products", () => {
    expect(
      suggestCustomsDescription([
        { title: "Merino Wool Sweater", productType: "Knitwear" },
        { title: "Ceramic Mug", productType: null },
      ]),
    ).toBe("Merino Wool Sweater (Knitwear), Ceramic Mug");
  });
  it("suggests nothing when there are no products", () => {
    expect(suggestCustomsDescription([])).toBeNull();
  });
});
