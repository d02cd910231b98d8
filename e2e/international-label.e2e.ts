import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openOrderFromList,
  see,
  trackingNumbersOnPage,
} from "./support/label-flow";

const browser = withDemoBrowser();

describe("an international order", () => {
  it("has its problems fixed on the page, then is bought", async () => {
    const guarded = await openGuardedPage(browser(), "international-label");
    const frame = await openApp(guarded.page, "/app/orders");
    const row = frame.getByRole("row").filter({ hasText: "#1007" });
    await see(row);

    await openOrderFromList(frame, "#1007");
    const summary = await see(frame.getByText(/needs? fixing before this label can be bought/));
    await checkScreen(guarded, frame, "order-1007-problems");

    // Brazil needs the recipient's CPF: the merchant enters it where the page points.
    const taxId = frame.getByLabel("Recipient tax id (CPF, codice fiscale…)");
    expect(await taxId.getAttribute("aria-invalid")).toBe("true");
    await taxId.fill("381.447.926-29");
    await summary.waitFor({ state: "detached" });
    expect(await taxId.getAttribute("aria-invalid")).not.toBe("true");
    await checkScreen(guarded, frame, "order-1007-fixed");

    await getRates(frame);
    const amount = await chooseRate(frame);
    const dialog = await openBuyConfirmation(frame);
    expect(await dialog.innerText()).toContain(`charged ${amount}`);
    await confirmBuy(dialog, amount);
    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    const tracking = await trackingNumbersOnPage(frame);
    await checkScreen(guarded, frame, "bought-label");

    const account = await shippingAccount();
    expect(account.charges).toHaveLength(1);
    expect(`$${account.charges[0]?.amount}`).toBe(amount);
    const [fulfillment, ...others] = await shopifyFulfillments("#1007");
    expect(others).toEqual([]);
    expect(fulfillment?.trackingInfo.map((t) => t.number)).toEqual(tracking);
    expect(fulfillment?.lineItems.map((l) => [l.sku, l.quantity])).toEqual([["LF-JOURNAL-A5", 2]]);

    guarded.assertClean();
    await guarded.close();
  });
});
