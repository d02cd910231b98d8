import { getExtension } from "@shopify/ui-extensions-tester";
import { waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";

import type { ExtensionPrintSummary } from "../../../app/extension-api/contract";
import { harnessExtension, json, query, routeFetch, screenText } from "../../shared/testing";

const extension = getExtension("admin.order-details.print-action.render");

const ORDER_GID = "gid://shopify/Order/42";
const SUMMARY = "GET /api/extensions/print/summary";

const harness = harnessExtension(extension, [ORDER_GID]);
const serve = (summary: ExtensionPrintSummary) => harness.serve({ [SUMMARY]: () => json(summary) });

const printAction = () => query("s-admin-print-action");

describe("order label print action", () => {
  it("prints the order's PDF label from the path the app gives", async () => {
    const { requests } = serve({
      printable: [{ orderName: "#1042", labelId: "lbl_1" }],
      zplOnly: [],
      withoutLabel: [],
      pdfPath: "/api/extensions/print/pdf?orders=42",
    });
    await extension.render();

    await waitFor(() =>
      expect(printAction().getAttribute("src")).toMatch(/^\/api\/extensions\/print\/pdf\?orders=42&id_token=[\w.-]+$/),
    );
    expect(requests.map((r) => r.search.get("orderIds"))).toEqual([ORDER_GID]);
    expect(screenText()).toContain("#1042: shipping label");
    expect(screenText()).not.toContain("Nothing to print");
  });

  it("renews the session token in the PDF's URL before it expires, so Print works after a minute", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      serve({
        printable: [{ orderName: "#1042", labelId: "lbl_1" }],
        zplOnly: [],
        withoutLabel: [],
        pdfPath: "/api/extensions/print/pdf?orders=42",
      });
      let issued = 0;
      extension.shopify.auth.idToken = async () => `token-${++issued}`;
      await extension.render();
      await waitFor(() => expect(printAction().getAttribute("src")).toMatch(/&id_token=token-1$/));
      vi.advanceTimersByTime(40_000);
      await waitFor(() => expect(printAction().getAttribute("src")).toMatch(/&id_token=token-2$/));
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves Print off for a ZPL-only label and says where to get it", async () => {
    serve({
      printable: [],
      zplOnly: [
        { orderName: "#1042", howTo: "ZPL labels download from the app's order page for your thermal printer." },
      ],
      withoutLabel: [],
      pdfPath: null,
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("ZPL labels download from the app's order page"));
    expect(printAction().hasAttribute("src")).toBe(false);
    expect(screenText()).toContain("this order's label is a ZPL file for thermal printers");
  });

  it("leaves Print off and says so when the order has no label", async () => {
    serve({ printable: [], zplOnly: [], withoutLabel: ["#1042"], pdfPath: null });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("this order has no bought shipping label yet"));
    expect(printAction().hasAttribute("src")).toBe(false);
  });

  it("leaves Print off and shows the app's message when the summary fails", async () => {
    const mock = routeFetch({
      [SUMMARY]: () =>
        json({ error: { code: "SHOPIFY_UNAVAILABLE", message: "Shopify didn't answer. Try again." } }, 503),
    });
    extension.fetch = mock.fetch;
    await extension.render();

    await waitFor(() => expect(query('s-banner[tone="critical"]').textContent).toContain("Shopify didn't answer."));
    expect(printAction().hasAttribute("src")).toBe(false);
  });
});
