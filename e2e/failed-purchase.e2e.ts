import { afterAll, describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, setShippingFaults, shippingAccount, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openOrderFromList,
  see,
  trackingNumbersOnPage,
} from "./support/label-flow";

const browser = withDemoBrowser();
// The next file starts from a service without faults.
afterAll(async () => setShippingFaults({}));

const PURCHASE = "POST /v1/labels/{id}/purchase";

describe("a failed purchase", () => {
  it("says what happened, charges nothing, and is bought exactly once when retried", async () => {
    const guarded = await openGuardedPage(browser(), "failed-purchase");
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1022");
    await getRates(frame);
    const amount = await chooseRate(frame);

    // The shipping service is down for the purchase (longer than the app's own retries).
    await setShippingFaults({ failures: [{ endpoint: PURCHASE, kind: "unavailable", times: 10 }] });
    // The browser logs the app's 500 answer (a system problem, quoted by reference) to the console.
    guarded.expectConsoleError(/status of 5\d\d .*\/app\/orders\/\d+\.data/);
    await confirmBuy(await openBuyConfirmation(frame), amount);
    const refusal = await see(frame.getByText("The label was not bought"), 30_000);
    const banner = refusal.locator("xpath=ancestor::*[contains(@class,'Polaris-Banner')][1]");
    expect(await banner.innerText()).toMatch(/Try again in a moment: the label will not be charged twice/);
    expect(await banner.innerText()).toMatch(/Reference: ERR-\w+/);
    await checkScreen(guarded, frame, "purchase-failed");
    expect((await shippingAccount()).charges).toEqual([]);
    expect(await shopifyFulfillments("#1022")).toEqual([]);

    // The service is back. Right after an unknown outcome the app first asks for a few seconds'
    // patience (it may still learn the first attempt's result); then the label is bought.
    await setShippingFaults({});
    for (let attempt = 0; attempt < 3; attempt++) {
      const dialog = await openBuyConfirmation(frame);
      const answered = guarded.page.waitForResponse(
        (r) => r.request().method() === "POST" && /\/app\/orders\/\d+\.data/.test(r.url()),
      );
      await confirmBuy(dialog, amount);
      await answered;
      const outcome = await Promise.race([
        see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000).then(() => "bought" as const),
        see(frame.getByText(/Try again in \d+ seconds?/), 30_000).then(() => "wait" as const),
      ]);
      if (outcome === "bought") break;
      const text = await frame
        .getByText(/Try again in \d+ seconds?/)
        .first()
        .innerText();
      if (attempt === 0) await checkScreen(guarded, frame, "try-again-in");
      const seconds = Number(/Try again in (\d+) second/.exec(text)?.[1] ?? "5");
      await guarded.page.waitForTimeout((seconds + 1) * 1000);
    }
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    const tracking = await trackingNumbersOnPage(frame);
    await checkScreen(guarded, frame, "bought-after-retry");

    // Bought exactly once: one charge, one fulfillment with its tracking.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(1);
    expect(`$${account.charges[0]?.amount}`).toBe(amount);
    const fulfillments = await shopifyFulfillments("#1022");
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual(tracking);

    // Labels shows one bought label; Activity shows the purchase attempts with their outcomes.
    await openFromSidebar(guarded, frame, "Labels", "Labels");
    const rows = frame.getByRole("row").filter({ hasText: "#1022" });
    await see(rows);
    expect(await rows.count()).toBe(1);
    await checkScreen(guarded, frame, "labels");
    await openFromSidebar(guarded, frame, "Activity", "Activity");
    const purchases = frame.getByRole("row").filter({ hasText: "#1022" }).filter({ hasText: "Label purchase" });
    await see(purchases);
    const charged = purchases.filter({ hasText: "Charged" }).filter({ hasNotText: "unconfirmed" });
    expect(await charged.count()).toBe(1);
    expect(await charged.innerText()).toContain(amount);
    await checkScreen(guarded, frame, "activity");

    guarded.assertClean();
    await guarded.close();
  });
});
