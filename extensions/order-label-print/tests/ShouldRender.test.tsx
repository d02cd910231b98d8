import { getExtension } from "@shopify/ui-extensions-tester";
import { describe, expect, it } from "vitest";

import type { ExtensionPrintSummary } from "../../../app/extension-api/contract";
import { harnessExtension, json } from "../../shared/testing";
import shouldRender from "../src/ShouldRender";

const extension = getExtension("admin.order-details.print-action.should-render");

const ORDER_GID = "gid://shopify/Order/42";
const SUMMARY = "GET /api/extensions/print/summary";

const harness = harnessExtension(extension, [ORDER_GID]);
const serve = (summary: Partial<ExtensionPrintSummary>) =>
  harness.serve({
    [SUMMARY]: () => json({ printable: [], zplOnly: [], withoutLabel: [], pdfPath: null, ...summary }),
  });

describe("whether the Shipping label print action shows on an order page", () => {
  it("shows on an order with a bought PDF label, asking the app about that order", async () => {
    const { requests } = serve({
      printable: [{ orderName: "#1042", labelId: "lbl_1" }],
      pdfPath: "/api/extensions/print/pdf?orders=42",
    });
    expect(await shouldRender()).toEqual({ display: true });
    expect(requests.map((r) => r.search.get("orderIds"))).toEqual([ORDER_GID]);
  });

  it("shows on an order whose bought label is ZPL, so the action says where to get it", async () => {
    serve({ zplOnly: [{ orderName: "#1042", howTo: "Download it from the app's order page." }] });
    expect(await shouldRender()).toEqual({ display: true });
  });

  it("hides on an order with no bought label", async () => {
    serve({ withoutLabel: ["#1042"] });
    expect(await shouldRender()).toEqual({ display: false });
  });

  it("shows when the app cannot answer, so the action can say what is wrong", async () => {
    harness.serve({ [SUMMARY]: () => json({ error: { code: "SERVICE_UNAVAILABLE", message: "Down" } }, 503) });
    expect(await shouldRender()).toEqual({ display: true });
  });
});
