import { describe, expect, it } from "vitest";

import { describeCustomsToSave, findCustomsToSave } from "./customs-to-product";
import type { CustomsProduct } from "./prefill";

const tote: CustomsProduct = {
  title: "Organic Cotton Market Tote",
  productId: "gid://shopify/Product/1",
  inventoryItemId: "gid://shopify/InventoryItem/2",
  hsCode: "420222",
  countryOfOrigin: "PT",
};

describe("findCustomsToSave", () => {
  it("finds an HS code or origin that differs from the product's", () => {
    expect(findCustomsToSave({ ...tote, hsCode: null }, { hs_code: "4202.22", country_of_origin: "PT" })).toEqual({
      hsCode: "4202.22",
    });
    expect(findCustomsToSave(tote, { hs_code: "420222", country_of_origin: "in" })).toEqual({ countryOfOrigin: "IN" });
  });

  it("finds nothing when the declaration says what the product holds, however the code is written", () => {
    expect(findCustomsToSave(tote, { hs_code: "4202.22", country_of_origin: "PT" })).toBeNull();
    expect(findCustomsToSave({ ...tote, hsCode: "4202.22" }, { hs_code: "420222 " })).toBeNull();
  });

  it("never clears the product's value when a field is emptied", () => {
    expect(findCustomsToSave(tote, { hs_code: "", country_of_origin: null })).toBeNull();
  });

  it("finds nothing to save without a product or an inventory item to write to", () => {
    expect(findCustomsToSave(null, { hs_code: "420222" })).toBeNull();
    expect(findCustomsToSave({ ...tote, inventoryItemId: null, hsCode: null }, { hs_code: "420222" })).toBeNull();
  });
});

describe("describeCustomsToSave", () => {
  it("names what is saved the way the merchant's messages do", () => {
    expect(describeCustomsToSave({ hsCode: "420222" })).toBe("the HS code");
    expect(describeCustomsToSave({ countryOfOrigin: "PT" })).toBe("the country of origin");
    expect(describeCustomsToSave({ hsCode: "420222", countryOfOrigin: "PT" })).toBe(
      "the HS code and country of origin",
    );
  });
});
