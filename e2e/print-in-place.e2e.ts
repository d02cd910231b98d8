import { PDFDocument } from "@cantoo/pdf-lib";
import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { readPageText } from "../test/helpers/pdf-text";
import { openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openOrderFromList,
  recordPrints,
  see,
} from "./support/label-flow";

const browser = withDemoBrowser();

/** The text of the PDF the app's hidden print frame holds (read back through its blob: URL). */
async function textOfPrintFrame(frame: Frame): Promise<string> {
  const hidden = frame.locator("iframe[data-print-frame]");
  expect(await hidden.count()).toBe(1);
  expect(await hidden.isVisible()).toBe(false);
  const src = (await hidden.getAttribute("src")) ?? "";
  expect(src).toMatch(/^blob:/);
  const bytes = await frame.evaluate(async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer())], src);
  const pdf = await PDFDocument.load(new Uint8Array(bytes));
  return pdf
    .getPages()
    .map((page) => readPageText(page).join(" "))
    .join("\n");
}

describe("printing a label", () => {
  it("opens the print dialog for the label from a hidden frame, without leaving the app or opening a tab", async () => {
    const guarded = await openGuardedPage(browser(), "print-in-place");
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    await getRates(frame);
    const amount = await chooseRate(frame);
    await confirmBuy(await openBuyConfirmation(frame), amount);
    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);

    const adminUrl = guarded.page.url();
    const appUrl = frame.url();
    await frame.getByRole("button", { name: "Print", exact: true }).click();
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
    // print() was called on the hidden frame's document (the label), not on the app's page.
    expect(printed[0]).toMatch(/^blob:/);
    expect(await textOfPrintFrame(frame)).toContain("#1001");
    expect(guarded.page.url()).toBe(adminUrl);
    expect(frame.url()).toBe(appUrl);
    expect(guarded.context.pages()).toHaveLength(1);
    await checkScreen(guarded, frame, "printed-from-order");

    // The Labels list prints the same way, from the row.
    // Through the sidebar, as openFromSidebar does, without its wait for an idle network: once a
    // frame has held a PDF from a blob: URL, Playwright no longer reports the app frame idle.
    await guarded.page
      .getByRole("navigation", { name: "Store navigation" })
      .getByRole("link", { name: "Labels", exact: true })
      .click();
    await see(frame.getByRole("button", { name: "Print label of #1001" }));
    const listUrl = guarded.page.url();
    expect(listUrl).toMatch(/\/labels$/);
    await checkScreen(guarded, frame, "labels");
    await frame.getByRole("button", { name: "Print label of #1001" }).click();
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(2);
    expect(printed[1]).toMatch(/^blob:/);
    expect(await textOfPrintFrame(frame)).toContain("#1001");
    expect(guarded.page.url()).toBe(listUrl);
    expect(guarded.context.pages()).toHaveLength(1);

    guarded.assertClean();
    await guarded.close();
  });
});
