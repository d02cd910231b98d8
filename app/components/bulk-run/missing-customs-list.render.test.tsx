import { describe, expect, it } from "vitest";

import type { ProductMissingCustoms } from "~/bulk/missing-customs";

import { renderScreen } from "../../../test/helpers/render-screen";
import { MissingCustomsList } from "./missing-customs-list";

async function renderList(products: ProductMissingCustoms[]): Promise<string> {
  const Screen = () => <MissingCustomsList products={products} />;
  return (await renderScreen("/app/bulk/run1", Screen, {})).replace(/<!-- -->/g, "").replace(/&amp;/g, "&");
}

describe("the bulk review's products missing customs data", () => {
  it("names each product once, what it lacks, its orders and a link to fix it once", async () => {
    const html = await renderList([
      {
        title: "Organic Cotton Market Tote",
        missing: ["hs_code", "country_of_origin"],
        orderNames: ["#1020", "#1022"],
        fix: { kind: "order", url: "/app/orders/5501", orderName: "#1020" },
      },
      {
        title: "Olive Oil Castile Soap Bar",
        missing: ["hs_code"],
        orderNames: ["#1020"],
        fix: { kind: "product", url: "shopify:admin/products/8841000007" },
      },
    ]);
    expect(html).toContain("2 products shipped abroad lack customs data");
    expect(html).toContain("No HS code or country of origin in Shopify · #1020, #1022");
    expect(html).toMatch(/href="\/app\/orders\/5501"[^>]*>.*Fix on order #1020/s);
    expect(html).toContain("No HS code in Shopify · #1020");
    expect(html).toMatch(/href="shopify:admin\/products\/8841000007"[^>]*>.*Fix in Shopify/s);
  });

  it("shows nothing when every product has its customs data", async () => {
    expect(await renderList([])).not.toContain("customs data");
  });
});
