import { describe, expect, it } from "vitest";

import { assertAccessibleRegion, openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyWebhookLog, withDemoBrowser } from "./support/demo";
import { checkScreen, openOrderFromList, see } from "./support/label-flow";

const browser = withDemoBrowser();

// The worker polls its queue about once a second, then asks Shopify and the shipping service.
const DRAFT_TIMEOUT_MS = 45_000;

describe("an order placed in the store", () => {
  it("reaches the app by webhook and shows on the Orders list with a draft label, nothing bought", async () => {
    const guarded = await openGuardedPage(browser(), "new-order");
    const { page } = guarded;
    let frame = await openApp(page);
    await see(frame.getByRole("link", { name: "#1001", exact: true }));

    // Shopify's side, in the admin's top bar: a customer checks out.
    const store = page.getByRole("group", { name: "Simulate a customer" });
    await store.getByRole("button", { name: "New order" }).click();
    const toast = await see(page.getByText(/^Order #\d+ placed/));
    const orderName = /Order (#\d+) placed/.exec(await toast.innerText())?.[1];
    if (!orderName) throw new Error(`no order name in "${await toast.innerText()}"`);
    expect(await toast.innerText()).toContain("Shopify is notifying the app");
    await guarded.screenshot("order-placed");
    // Only the store control: the rest of the emulated admin's chrome is the emulator's.
    await assertAccessibleRegion(page, ".simulate", "the admin's New order control");

    // The app hears of it as from Shopify: signed deliveries, each acknowledged.
    await expect
      .poll(async () => (await shopifyWebhookLog()).deliveries.every((d) => !d.pending), { timeout: 15_000 })
      .toBe(true);
    const { deliveries } = await shopifyWebhookLog();
    expect(deliveries.map((d) => [d.topic, d.lastStatus])).toContainEqual([
      "fulfillment_orders/order_routing_complete",
      200,
    ]);
    expect(deliveries.filter((d) => !d.delivered)).toEqual([]);

    // The worker drafts the label a moment later: the list, reloaded as a merchant would, shows it.
    const deadline = Date.now() + DRAFT_TIMEOUT_MS;
    let labelCell = "";
    for (;;) {
      frame = await openApp(page);
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name: orderName, exact: true }) });
      await see(row);
      labelCell = await row.innerText();
      if (/\bDraft\b/.test(labelCell) || Date.now() > deadline) break;
      await page.waitForTimeout(1000);
    }
    expect(labelCell, `${orderName}'s row on the Orders list`).toMatch(/\bDraft\b/);
    await checkScreen(guarded, frame, "orders-with-draft");

    // Its label page shows the free draft, ready to buy.
    await openOrderFromList(frame, orderName);
    await see(frame.getByText("Draft (free)"));
    await see(frame.getByRole("button", { name: /^Buy label for / }));
    await checkScreen(guarded, frame, "order-draft");

    // At the shipping service: one draft since the reset, and no charge.
    const account = await shippingAccount();
    expect(account.labels_created).toBe(1);
    expect(account.charges).toEqual([]);

    guarded.assertClean();
    await guarded.close();
  });
});
