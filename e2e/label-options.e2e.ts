import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openOrderFromList,
  see,
} from "./support/label-flow";
import { readLabelAtService } from "./support/shipping-service";

const browser = withDemoBrowser();

describe("label options", () => {
  it("applies the shop's rules to a new label, and buys it insured and signed for at the price shown", async () => {
    const guarded = await openGuardedPage(browser(), "label-options");
    let frame = await openApp(guarded.page, "/app/orders");
    await openFromSidebar(guarded, frame, "Settings", "Settings");
    await frame.getByLabel("Insure shipments worth more than").fill("50");
    await frame.getByLabel("Adult signature for product types").fill("Notebooks");
    await frame.getByRole("button", { name: "Save option rules" }).click();
    await see(guarded.page.getByRole("status").getByText("Option rules saved"));
    await checkScreen(guarded, frame, "settings-option-rules");

    // #1001 ships two mugs and a leather notebook, for more than $50.
    frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    await see(frame.getByText(/Adult signature: "Leather Field Journal" is a Notebooks \(your rule\)/));
    expect(await frame.getByLabel("Insure this shipment").isChecked()).toBe(true);
    const insured = await frame.getByLabel("Insured value").inputValue();
    expect(Number(insured)).toBeGreaterThan(50);
    expect(await frame.getByLabel("Signature on delivery").inputValue()).toBe("adult");
    await checkScreen(guarded, frame, "options-from-rules");

    await getRates(frame);
    const amount = await chooseRate(frame);
    const dialog = await openBuyConfirmation(frame);
    const confirmation = await dialog.innerText();
    expect(confirmation).toContain(`Insured for $${insured}`);
    expect(confirmation).toContain("Adult signature");
    await checkScreen(guarded, frame, "buy-with-options");
    await confirmBuy(dialog, amount);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    await see(frame.getByText(`Insured for $${insured}`));
    await checkScreen(guarded, frame, "bought-with-options");

    // The service's records: one charge, at the price shown, for a label carrying both options.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(1);
    const charge = account.charges[0];
    expect(`$${charge?.amount}`).toBe(amount);
    const label = await readLabelAtService(charge?.label_id ?? "");
    expect(label.options).toMatchObject({ insurance: { amount: insured, currency: "USD" }, signature: "adult" });

    guarded.assertClean();
    await guarded.close();
  });
});
