import { getExtension } from "@shopify/ui-extensions-tester";
import { waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";

import type { ExtensionPrintSummary } from "../../../app/extension-api/contract";
import { harnessExtension, json, query, screenText } from "../../shared/testing";

const extension = getExtension("admin.order-index.selection-print-action.render");

const ORDER_IDS = ["gid://shopify/Order/1", "gid://shopify/Order/2", "gid://shopify/Order/3"];
const SUMMARY = "GET /api/extensions/print/summary";

const harness = harnessExtension(extension, ORDER_IDS);
const serve = (summary: ExtensionPrintSummary) => harness.serve({ [SUMMARY]: () => json(summary) });

const printAction = () => query("s-admin-print-action");

describe("bulk label print action", () => {
  it("asks about every selected order and prints one PDF of their labels", async () => {
    const { requests } = serve({
      printable: [
        { orderName: "#1001", labelId: "lbl_1" },
        { orderName: "#1002", labelId: "lbl_2" },
      ],
      zplOnly: [],
      withoutLabel: ["#1003"],
      pdfPath: "/api/extensions/print/pdf?orders=1,2",
    });
    await extension.render();

    await waitFor(() =>
      expect(printAction().getAttribute("src")).toMatch(/^\/api\/extensions\/print\/pdf\?orders=1,2&id_token=[\w.-]+$/),
    );
    expect(requests.map((r) => r.search.get("orderIds")?.split(","))).toEqual([ORDER_IDS]);
    expect(screenText()).toContain("Prints 2 of the selected orders");
    expect(screenText()).toContain("#1001: shipping label");
    expect(screenText()).toContain("#1002: shipping label");
    expect(query('s-section[heading="No shipping label yet"]').textContent).toContain("#1003");
  });

  it("prints the PDF labels and says how to get the ZPL ones", async () => {
    serve({
      printable: [{ orderName: "#1001", labelId: "lbl_1" }],
      zplOnly: [{ orderName: "#1002", howTo: "Download #1002's ZPL file from the app's order page." }],
      withoutLabel: [],
      pdfPath: "/api/extensions/print/pdf?orders=1",
    });
    await extension.render();

    await waitFor(() =>
      expect(printAction().getAttribute("src")).toMatch(/^\/api\/extensions\/print\/pdf\?orders=1&id_token=[\w.-]+$/),
    );
    expect(screenText()).toContain("#1002: Download #1002's ZPL file from the app's order page.");
  });

  it("leaves Print off when only ZPL labels were selected, and says why", async () => {
    serve({
      printable: [],
      zplOnly: [
        { orderName: "#1001", howTo: "Download the ZPL file from the app's order page." },
        { orderName: "#1002", howTo: "Download the ZPL file from the app's order page." },
      ],
      withoutLabel: ["#1003"],
      pdfPath: null,
    });
    await extension.render();

    await waitFor(() =>
      expect(screenText()).toContain("the selected orders' labels are ZPL files for thermal printers"),
    );
    expect(printAction().hasAttribute("src")).toBe(false);
    expect(screenText()).toContain("#1001: Download the ZPL file from the app's order page.");
    expect(query('s-section[heading="No shipping label yet"]').textContent).toContain("#1003");
  });

  it("leaves Print off when none of the selected orders has a label", async () => {
    serve({ printable: [], zplOnly: [], withoutLabel: ["#1001", "#1002", "#1003"], pdfPath: null });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("none of the selected orders has a bought shipping label yet"));
    expect(printAction().hasAttribute("src")).toBe(false);
    expect(screenText()).toContain("#1001, #1002, #1003");
  });
});
