import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import { readPageText } from "../../test/helpers/pdf-text";
import type { LabelLineItem } from "./label-repository.server";
import { appendPackingSlip, describePackingSlip } from "./packing-slip";

const line = (fields: Partial<LabelLineItem>): LabelLineItem => ({
  id: "gid://shopify/FulfillmentOrderLineItem/1" as LabelLineItem["id"],
  quantity: 1,
  ...fields,
});
const request = {
  from_address: {
    name: "Brooklyn Kettlebells",
    street1: "1 Main St",
    city: "Brooklyn",
    state: "NY",
    zip: "11201",
    country: "US",
  },
  to_address: {
    name: "Ana Souza",
    company: "Souza Ltda",
    street1: "Av. Paulista 1000",
    street2: "Apto 12",
    city: "São Paulo",
    state: "SP",
    zip: "01310-100",
    country: "BR",
  },
};

describe("a shipment's packing slip", () => {
  it("reads the order, both addresses and the items from the label as drafted", () => {
    const slip = describePackingSlip(
      {
        orderName: "#1007",
        packageCount: 2,
        request,
        lineItems: [
          line({ title: "Kettlebell 16 kg", sku: "KB-16", quantity: 2 }),
          line({ title: "Chalk", sku: null }),
        ],
      },
      "Thank you!",
    );
    expect(slip).toEqual({
      orderName: "#1007",
      from: { name: "Brooklyn Kettlebells", lines: ["1 Main St", "Brooklyn, NY 11201", "US"] },
      shipTo: {
        name: "Ana Souza",
        lines: ["Souza Ltda", "Av. Paulista 1000", "Apto 12", "São Paulo, SP 01310-100", "BR"],
      },
      items: [
        { title: "Kettlebell 16 kg", sku: "KB-16", quantity: 2 },
        { title: "Chalk", sku: null, quantity: 1 },
      ],
      boxes: 2,
      note: "Thank you!",
    });
  });

  it("has none without a request, and says so when an item's title was not kept", () => {
    expect(describePackingSlip({ orderName: "#1", packageCount: 1, request: null, lineItems: [] }, null)).toBeNull();
    const slip = describePackingSlip({ orderName: "#1", packageCount: 1, request, lineItems: [line({})] }, null);
    expect(slip?.items).toEqual([{ title: "Item (see the order in Shopify)", sku: null, quantity: 1 }]);
  });

  it("prints on the label's stock, wraps long lines, and prints characters the font lacks as ?", async () => {
    const doc = await PDFDocument.create();
    await appendPackingSlip(
      doc,
      {
        orderName: "#1007",
        from: { name: "Shop", lines: [] },
        shipTo: { name: "Ana 🙂 Souza", lines: ["São Paulo"] },
        items: [{ title: "A very long product title ".repeat(6).trim(), sku: null, quantity: 3 }],
        boxes: 1,
        note: null,
      },
      [288, 432],
    );
    // Read back as a printer gets it: saved, then loaded.
    const page = (await PDFDocument.load(await doc.save())).getPage(0);
    expect(page.getSize()).toEqual({ width: 288, height: 432 });
    const text = readPageText(page);
    expect(text).toContain("Ana ? Souza");
    expect(text).toContain("São Paulo");
    const itemLines = text.filter((l) => l.includes("very long"));
    expect(itemLines.length).toBeGreaterThan(1);
    expect(itemLines[0]?.startsWith("3 × A very long")).toBe(true);
  });

  it("says the ship-to was removed when retention redacted it", async () => {
    const doc = await PDFDocument.create();
    await appendPackingSlip(
      doc,
      {
        orderName: "#1",
        from: { name: "Shop", lines: [] },
        shipTo: { name: "", lines: [] },
        items: [],
        boxes: 1,
        note: null,
      },
      [288, 432],
    );
    expect(readPageText((await PDFDocument.load(await doc.save())).getPage(0)).join(" ")).toContain(
      "The ship-to address was removed after delivery",
    );
  });
});
