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
} from "./support/label-flow";
import { decideVoid } from "./support/shipping-service";

const browser = withDemoBrowser();

describe("voiding a label", () => {
  it("refunds a bought label once the carrier confirms, and frees the order for a replacement", async () => {
    const guarded = await openGuardedPage(browser(), "void-label");
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    await getRates(frame);
    const amount = await chooseRate(frame);
    await confirmBuy(await openBuyConfirmation(frame), amount);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);

    await frame.getByRole("button", { name: "Void label" }).click();
    const dialog = await see(frame.getByRole("dialog", { name: "Void this label?" }));
    expect(await dialog.innerText()).toContain(`${amount} goes back to your shipping balance`);
    await checkScreen(guarded, frame, "void-confirmation");
    await dialog.getByRole("button", { name: `Void label and refund ${amount}` }).click();

    // The refund waits for the carrier; the shipment is open again for a replacement label.
    await see(frame.getByText(`Refund pending: ${amount}`), 30_000);
    await see(frame.getByRole("button", { name: "Get rates" }));
    const [fulfillment] = await shopifyFulfillments("#1001");
    expect(fulfillment?.status).toBe("CANCELLED");

    // The carrier confirms (the emulator's control settles it at once); its event reaches the
    // app and the page follows without a reload.
    const account = await shippingAccount();
    const labelId = account.charges[0]?.label_id ?? "";
    await decideVoid(labelId, "refunded");
    await see(frame.getByText(`Refunded ${amount}`), 30_000);
    await checkScreen(guarded, frame, "voided-label");

    const after = await shippingAccount();
    expect(after.refunds.map((r) => `$${r.amount}`)).toEqual([amount]);
    expect(after.charges).toHaveLength(1);

    guarded.assertClean();
    await guarded.close();
  });
});
