import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import { readPageText } from "../test/helpers/pdf-text";
import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyFulfillments, withDemoBrowser } from "./support/demo";
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
  trackingNumbersOnPage,
} from "./support/label-flow";

const browser = withDemoBrowser();

describe("a domestic order", () => {
  it("goes from the Orders list to a printed label whose tracking is on the Shopify fulfillment", async () => {
    const guarded = await openGuardedPage(browser(), "domestic-label");
    const frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));
    await checkScreen(guarded, frame, "orders");

    await openOrderFromList(frame, "#1001");
    await checkScreen(guarded, frame, "order-1001");

    // Validate the address (free in the sandbox) and see the carrier's answer.
    await frame.getByRole("button", { name: /^Validate address/ }).click();
    await see(frame.getByText("Deliverable address"));

    await getRates(frame);
    await checkScreen(guarded, frame, "rates");
    const amount = await chooseRate(frame);
    await see(frame.getByText("Draft (free)"));
    await checkScreen(guarded, frame, "draft");

    const dialog = await openBuyConfirmation(frame);
    expect(await dialog.innerText()).toContain(`charged ${amount}`);
    await checkScreen(guarded, frame, "buy-confirmation");
    await confirmBuy(dialog, amount);

    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    const tracking = await trackingNumbersOnPage(frame);
    // For a picture worth showing: the PDF preview drawn and the admin's toasts gone.
    await frame.childFrames()[0]?.waitForLoadState("load");
    await guarded.page.locator(".toast").first().waitFor({ state: "detached", timeout: 10_000 });
    await guarded.page.waitForTimeout(500);
    await checkScreen(guarded, frame, "bought-label");

    // Download saves the label as a PDF named after the order, the label the service drew.
    const pdf = await PDFDocument.load(await downloadLabel(guarded, frame));
    expect(pdf.getPages().map((page) => readPageText(page).join(" "))[0]).toContain("#1001");

    // One charge at the shipping service; one fulfillment in Shopify with that tracking, covering
    // exactly the order's items.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(1);
    expect(`$${account.charges[0]?.amount}`).toBe(amount);
    const fulfillments = await shopifyFulfillments("#1001");
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual(tracking);
    expect(fulfillments[0]?.notifyCustomer).toBe(true);
    expect(fulfillments[0]?.lineItems.map((l) => [l.sku, l.quantity]).sort()).toEqual([
      ["HP-MUG-SLATE", 2],
      ["LF-JOURNAL-A5", 1],
    ]);

    // Labels lists it as bought with its tracking in Shopify; Activity lists the validation and the purchase.
    await openFromSidebar(guarded, frame, "Labels", "Labels");
    const labelRow = frame.getByRole("row").filter({ hasText: "#1001" });
    await see(labelRow);
    expect(await labelRow.innerText()).toMatch(/Fulfilled[\s\S]*In Shopify/);
    expect(await labelRow.innerText()).toContain(tracking[0] ?? "no tracking");
    await checkScreen(guarded, frame, "labels");

    await openFromSidebar(guarded, frame, "Activity", "Activity");
    const activityRows = frame.getByRole("row").filter({ hasText: "#1001" });
    await see(activityRows);
    expect(await activityRows.count()).toBe(2);
    await checkScreen(guarded, frame, "activity");

    guarded.assertClean();
    await guarded.close();
  });
});
