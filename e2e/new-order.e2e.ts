import { describe, expect, it } from "vitest";

import { assertAccessibleRegion, openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyWebhookLog, withDemoBrowser } from "./support/demo";
import { checkScreen, openOrderFromList, see } from "./support/label-flow";

const browser = withDemoBrowser();

// The worker polls its queue about once a second, then asks Shopify and the shipping service; the
// open list checks for new labels every 3 seconds.
const DRAFT_TIMEOUT_MS = 45_000;

describe("an order placed in the store", () => {
  it("reaches the app by webhook and shows on the open Orders list with a draft label, without a reload, nothing bought", async () => {
    const guarded = await openGuardedPage(browser(), "new-order");
    const { page } = guarded;
    const frame = await openApp(page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));
    await frame.evaluate(() => ((window as { keptOpen?: boolean }).keptOpen = true));

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

    // The worker drafts the label a moment later, and the open list shows it without a reload:
    // the marker set on the app's window before would be gone after one.
    const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name: orderName, exact: true }) });
    await see(row, DRAFT_TIMEOUT_MS);
    // innerText, as the merchant reads it (the badge's hidden tone word runs into "Draft" in textContent).
    await expect.poll(() => row.innerText(), { timeout: DRAFT_TIMEOUT_MS, interval: 250 }).toMatch(/\bDraft\b/);
    expect(await frame.evaluate(() => (window as { keptOpen?: boolean }).keptOpen)).toBe(true);
    expect(page.frames()).toContain(frame);
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
