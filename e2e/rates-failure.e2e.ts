import { afterAll, describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, setShippingFaults, withDemoBrowser } from "./support/demo";
import { checkScreen, openOrderFromList, see } from "./support/label-flow";

const browser = withDemoBrowser();
// The next file starts from a service without faults.
afterAll(async () => setShippingFaults({}));

describe("a failed Get rates", () => {
  it("shows why where the merchant is looking: the message scrolls into view and takes focus", async () => {
    const guarded = await openGuardedPage(browser(), "rates-failure");
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");

    // The service is down for rates (longer than the app's own retries), and slow to say so.
    await setShippingFaults({
      latency_ms: { "POST /v1/rates": 1_500 },
      failures: [{ endpoint: "POST /v1/rates", kind: "unavailable", times: 10 }],
    });
    // The browser logs the app's 500 answer (a system problem, quoted by reference) to the console.
    guarded.expectConsoleError(/status of 5\d\d .*\/app\/orders\/\d+\.data/);
    await frame.getByRole("button", { name: "Get rates" }).click();
    // While waiting, the merchant scrolls back up to check the order's details.
    await frame.evaluate(() => window.scrollTo(0, 0));
    await guarded.page.evaluate(() => window.scrollTo(0, 0));

    // The failure, in the Rates card under the button.
    const failure = frame.getByText(/The shipping service is temporarily unavailable/);
    await see(failure, 60_000);
    // It has focus (a screen reader reads it) …
    const focused = await failure.evaluate((element) => {
      const active = document.activeElement;
      return active !== null && active !== document.body && active.contains(element);
    });
    expect(focused).toBe(true);
    // … and it is on screen, whichever way the admin page and the app's frame were scrolled.
    await guarded.page.waitForTimeout(800); // the smooth scroll
    const box = await failure.boundingBox();
    const viewport = guarded.page.viewportSize();
    expect(box && viewport).toBeTruthy();
    if (box && viewport) {
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    }
    expect(await failure.innerText()).not.toBe("");
    await checkScreen(guarded, frame, "rates-failed");

    guarded.assertClean();
    await guarded.close();
  });
});
