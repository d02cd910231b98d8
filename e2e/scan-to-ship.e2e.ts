import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyFulfillments, shopifyOrder, withDemoBrowser } from "./support/demo";
import { checkScreen, chooseRate, getRates, openOrderFromList, recordPrints, see } from "./support/label-flow";

const browser = withDemoBrowser();

const cents = (amount: string) => Math.round(Number(amount.replace(/[$,]/g, "")) * 100);

describe("scan to ship, buying on scan", () => {
  it("buys a scanned order's draft and prints it on the home; a second scan opens the order and charges nothing", async () => {
    const guarded = await openGuardedPage(browser(), "scan-to-ship");
    const printed = await recordPrints(guarded);

    // The merchant turns it on in Settings: off by default, since it buys without a confirmation.
    const settings = await openApp(guarded.page, "/app/settings");
    const setting = settings.getByLabel("Scanning an order on Home buys its draft label and prints it");
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    await settings.getByRole("button", { name: "Save label settings" }).click();
    await see(guarded.page.getByRole("status").getByText("Settings saved"));

    // A draft for #1002, made on its page as usual (free).
    const orders = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(orders, "#1002");
    await getRates(orders);
    const amount = await chooseRate(orders);
    expect((await shippingAccount()).charges).toHaveLength(0);

    // The scanner types the number and Enter on the home.
    const home = await openApp(guarded.page);
    const field = home.getByLabel("Order number");
    await field.pressSequentially("1002");
    await field.press("Enter");
    await see(home.getByText(`Label bought for #1002`), 30_000);
    await see(home.getByText(amount, { exact: false }));
    const { charges } = await shippingAccount();
    expect(charges).toHaveLength(1);
    expect(cents(charges[0]?.amount ?? "")).toBe(cents(amount));
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
    expect(printed[0]).toMatch(/^blob:/);
    // The tracking is on the order's fulfillment in Shopify.
    const fulfillments = await shopifyFulfillments("#1002");
    expect(fulfillments.flatMap((f) => f.trackingInfo.map((t) => t.number)).filter(Boolean)).toHaveLength(1);
    // Ready for the next scan: the field is empty and focused.
    expect(await field.inputValue()).toBe("");
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await checkScreen(guarded, home, "bought-by-scan");

    // Scanned again (a double beep): the label is bought, so the order opens; nothing more is charged.
    await field.pressSequentially("#1002");
    await field.press("Enter");
    await see(home.getByRole("heading", { name: /#1002/, level: 1 }), 30_000);
    const order = await shopifyOrder("#1002");
    expect(new URL(home.url()).pathname).toBe(`/app/orders/${order.numericId}`);
    expect((await shippingAccount()).charges).toHaveLength(1);

    guarded.assertClean();
    await guarded.close();
  }, 180_000);
});
