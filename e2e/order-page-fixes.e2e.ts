import type { Frame, Locator } from "playwright-core";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shopifyOrder, withDemoBrowser } from "./support/demo";
import { buyRate, checkScreen, confirmBuy, openOrderFromList, ratesShown, see } from "./support/label-flow";

// Issue 40 §5, the order page's gaps a merchant fell into: a phone's customs and ship date cut
// off, a weight error that stayed once fixed, "You changed the details" after a void.

const browser = withDemoBrowser();
const PHONE = { width: 390, height: 844 };

/** Where a field (its form layout item: label, control, help) is in the app's frame, in CSS pixels. */
const boxOf = (field: Locator) =>
  field.evaluate((element) => {
    const box = (element.closest(".Polaris-FormLayout__Item") ?? element).getBoundingClientRect();
    return { left: Math.round(box.left), right: Math.round(box.right), top: Math.round(box.top) };
  });

const frameWidth = (frame: Frame) => frame.evaluate(() => document.documentElement.clientWidth);

describe("the order page", () => {
  it("lays the customs and the label's fields out in one column on a phone, each whole on the screen", async () => {
    const guarded = await openGuardedPage(browser(), "phone-customs", PHONE);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1003");
    const width = await frameWidth(frame);
    const fields = [
      "customs-value",
      "customs-hs_code",
      "customs-country_of_origin",
      "customs-contents_type",
      "customs-tax_id",
      "customs-eel_pfc",
      "label_format",
      "label_size",
      "ship_date",
    ];
    const boxes = [];
    for (const field of fields) {
      const box = await boxOf(frame.locator(`#label-field-${field}`));
      expect(box.right, `${field} ends past the screen`).toBeLessThanOrEqual(width);
      // A field is as wide as its card: no field beside another, none cut to a few characters.
      expect(box.right - box.left, `${field} is narrower than a column`).toBeGreaterThan(width * 0.6);
      boxes.push({ field, ...box });
    }
    // One column: each field starts where the others do, each below the one before.
    expect(new Set(boxes.map((b) => b.left)).size).toBe(1);
    for (const [i, box] of boxes.entries()) if (i > 0) expect(box.top).toBeGreaterThan(boxes[i - 1]?.top ?? 0);
    await frame.locator("#label-field-customs-value").scrollIntoViewIfNeeded();
    await checkScreen(guarded, frame, "customs-on-a-phone");
    guarded.assertClean();
    await guarded.close();
  });

  it("drops the weight error Get rates answered once the merchant enters the weight", async () => {
    const guarded = await openGuardedPage(browser(), "stale-weight-error");
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    const weight = frame.locator('input[id^="label-field-parcel"][id$="-weight"]').first();
    await weight.fill("");
    // Get rates without a weight: the app refuses (422, which the browser logs) and says why.
    guarded.expectConsoleError(/status of 422/);
    const answered = guarded.page.waitForResponse((r) => (r.request().postData() ?? "").includes("get-rates"));
    await frame.getByRole("button", { name: "Get rates" }).click();
    expect((await answered).status()).toBe(422);
    const said = frame.getByText("Enter the box's weight.");
    await see(said);
    await checkScreen(guarded, frame, "weight-missing");

    await weight.fill("2");
    await said.first().waitFor({ state: "detached", timeout: 5_000 });
    expect(await frame.getByText(/box's weight/).count()).toBe(0);
    guarded.assertClean();
    await guarded.close();
  });

  it("shows the shipment as it is after a void, without saying the details changed", async () => {
    const guarded = await openGuardedPage(browser(), "void-then-rates");
    let frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1002");
    await ratesShown(frame);
    const { dialog, amount } = await buyRate(frame);
    await confirmBuy(dialog, amount);
    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);

    // The merchant comes back to the order later, and voids its label.
    frame = await openApp(guarded.page, `/app/orders/${(await shopifyOrder("#1002")).numericId}`);
    await frame.getByRole("button", { name: "Void label" }).click();
    const voiding = await see(frame.getByRole("dialog", { name: "Void this label?" }));
    await voiding.getByRole("button", { name: `Void label and refund ${amount}` }).click();
    await see(frame.getByText(`Refund pending: ${amount}`), 30_000);

    // The shipment's rates come with the page again; nothing was changed, and nothing says so.
    await ratesShown(frame);
    expect(await frame.getByText(/You changed the details/).count()).toBe(0);
    await checkScreen(guarded, frame, "after-void");
    guarded.assertClean();
    await guarded.close();
  });
});
