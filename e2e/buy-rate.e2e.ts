import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { type GuardedPage, openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  buyRate,
  checkScreen,
  confirmBuy,
  openOrderFromList,
  ratesShown,
  recordPrints,
  see,
} from "./support/label-flow";

// Issue 40, item 7: from the order page to a printed label in three clicks, Buy on a rate, its
// confirmation (naming the price), Print; one charge at the shipping service, at that price.

const browser = withDemoBrowser();
const PHONE = { width: 390, height: 844 };

/** The three clicks on an order's page, counted, from its rates to the print; returns the price confirmed. */
async function threeClicksToPrint(guarded: GuardedPage, frame: Frame, printed: string[], screen: string) {
  const clicks = { count: 0 };
  await ratesShown(frame);
  await checkScreen(guarded, frame, `${screen}-rates`);

  const { dialog, amount } = await buyRate(frame);
  clicks.count += 1;
  expect(await dialog.innerText()).toContain(`charged ${amount}`);
  await checkScreen(guarded, frame, `${screen}-buy-confirmation`);
  await confirmBuy(dialog, amount);
  clicks.count += 1;

  await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
  const print = await see(frame.getByRole("button", { name: "Print", exact: true }));
  // The button that bought it is gone: focus is on Print, the next step, not the page's body.
  expect(await print.evaluate((button) => document.activeElement === button)).toBe(true);
  await print.click();
  clicks.count += 1;
  await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
  await checkScreen(guarded, frame, `${screen}-bought`);
  expect(clicks.count).toBe(3);
  return amount;
}

describe("Buy on a rate", () => {
  it("goes from the order page to a printed label in three clicks, charged once at the price confirmed", async () => {
    const guarded = await openGuardedPage(browser(), "buy-rate");
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    const before = (await shippingAccount()).charges.length;

    const amount = await threeClicksToPrint(guarded, frame, printed, "order-1001");

    const account = await shippingAccount();
    expect(account.charges).toHaveLength(before + 1);
    expect(`$${account.charges.at(-1)?.amount}`).toBe(amount);
    expect(await shopifyFulfillments("#1001")).toHaveLength(1);
    guarded.assertClean();
    await guarded.close();
  });

  it("does the same on a phone, every step within the screen", async () => {
    const guarded = await openGuardedPage(browser(), "buy-rate-phone", PHONE);
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1002");
    const before = (await shippingAccount()).charges.length;

    const amount = await threeClicksToPrint(guarded, frame, printed, "order-1002-phone");

    const { scrollWidth, clientWidth } = await frame.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(before + 1);
    expect(`$${account.charges.at(-1)?.amount}`).toBe(amount);
    guarded.assertClean();
    await guarded.close();
  });
});
