import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import { readPageText } from "../test/helpers/pdf-text";
import { openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  downloadLabel,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openOrderFromList,
  see,
} from "./support/label-flow";

const browser = withDemoBrowser();

describe("packing slips", () => {
  it("print after the label when the shop asks for them: a label page, then the order's slip with the note", async () => {
    const guarded = await openGuardedPage(browser(), "packing-slip");
    let frame = await openApp(guarded.page, "/app/orders");
    await openFromSidebar(guarded, frame, "Settings", "Settings");
    await frame.getByLabel("Packing slips").selectOption("after_each");
    await frame.getByLabel("Packing slip note").fill("Thank you for shopping with us!");
    await frame.getByRole("button", { name: "Save label settings" }).click();
    await see(guarded.page.getByRole("status").getByText("Settings saved"));
    await checkScreen(guarded, frame, "settings-packing-slips");

    frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    await getRates(frame);
    const amount = await chooseRate(frame);
    await confirmBuy(await openBuyConfirmation(frame), amount);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    await see(frame.getByText("Its packing slip prints with it, as Settings asks."));
    // For a picture worth showing: the PDF preview drawn and the admin's toasts gone.
    await frame.childFrames()[0]?.waitForLoadState("load");
    await guarded.page.locator(".toast").first().waitFor({ state: "detached", timeout: 10_000 });
    await checkScreen(guarded, frame, "bought-label-with-slip");

    // Download and Print take the same file: the label, then its slip.
    const pdf = await PDFDocument.load(await downloadLabel(guarded, frame));
    const pages = pdf.getPages().map((page) => readPageText(page));
    expect(pages).toHaveLength(2);
    // The label as the service drew it (its reference is the order), then the slip.
    expect(pages[0]?.join(" ")).toContain("#1001");
    expect(pages[1]?.[0]).toBe("Packing slip");
    expect(pages[1]?.[1]).toBe("Order #1001");
    expect(pages[1]?.at(-1)).toBe("Thank you for shopping with us!");
    expect(pages[1]?.some((line) => /^\d+ × /.test(line))).toBe(true);

    guarded.assertClean();
    await guarded.close();
  });
});
