import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openLabelToPrint,
  openOrderFromList,
  see,
} from "./support/label-flow";

const browser = withDemoBrowser();

describe("settings", () => {
  it("are saved and used by the next label: a 4 × 8 label and no e-mail to the customer", async () => {
    const guarded = await openGuardedPage(browser(), "settings");
    let frame = await openApp(guarded.page);
    await openFromSidebar(guarded, frame, "Settings", "Settings");
    await checkScreen(guarded, frame, "settings");

    await frame.getByLabel("Label size").selectOption("4x8");
    await frame.getByLabel("Notify the customer when tracking is added").uncheck({ force: true });
    await frame.getByRole("button", { name: "Save", exact: true }).click();
    await see(guarded.page.getByRole("status").getByText("Settings saved"));

    // Saved, not only shown: a fresh load of Settings has them.
    frame = await openApp(guarded.page, "/app/settings");
    await see(frame.getByRole("heading", { name: "Settings", level: 1 }));
    expect(await frame.getByLabel("Label size").inputValue()).toBe("4x8");
    expect(await frame.getByLabel("Notify the customer when tracking is added").isChecked()).toBe(false);
    await checkScreen(guarded, frame, "settings-saved");

    // The next label starts from them.
    frame = await openApp(guarded.page);
    await openOrderFromList(frame, "#1002");
    expect(await frame.getByLabel("Size").inputValue()).toBe("4x8");
    await getRates(frame);
    const amount = await chooseRate(frame);
    expect(await frame.getByLabel("Notify the customer with the tracking link").isChecked()).toBe(false);
    const dialog = await openBuyConfirmation(frame);
    expect(await dialog.innerText()).not.toContain("the customer is notified");
    await checkScreen(guarded, frame, "buy-confirmation");
    await confirmBuy(dialog, amount);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    await see(frame.getByText("The customer was not notified."));
    await checkScreen(guarded, frame, "bought-label");

    // The file is a 4 × 8 in page (288 × 576 pt); Shopify was told not to notify the customer.
    const file = await fetch(await openLabelToPrint(guarded, frame));
    const pdf = await PDFDocument.load(await file.arrayBuffer());
    const size = pdf.getPage(0).getSize();
    expect([Math.round(size.width), Math.round(size.height)]).toEqual([288, 576]);
    const [fulfillment] = await shopifyFulfillments("#1002");
    expect(fulfillment?.notifyCustomer).toBe(false);

    guarded.assertClean();
    await guarded.close();
  });
});
