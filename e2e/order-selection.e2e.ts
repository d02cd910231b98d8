import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";
import { checkScreen, see } from "./support/label-flow";

const browser = withDemoBrowser();

// The worker checks a run's orders item by item (it polls its queue about once a second).
const RUN_TIMEOUT_MS = 90_000;

describe("the Orders list's selection across pages", () => {
  it("keeps the orders selected on page 1 when more are selected on page 2, and the run has all of them", async () => {
    const guarded = await openGuardedPage(browser(), "order-selection");
    const frame = await openApp(guarded.page, "/app/orders");
    const rows = frame.locator("tbody tr");
    const nameOf = async (index: number) => (await rows.nth(index).getByRole("link").first().innerText()).trim();
    const tick = async (index: number) => {
      const name = await nameOf(index);
      await rows.nth(index).getByRole("checkbox").check();
      return name;
    };

    const onPage1 = [await tick(0), await tick(1), await tick(2)];
    await frame.getByRole("button", { name: "Next", exact: true }).click();
    // Page 2 has loaded when its first order is not page 1's.
    await frame.waitForFunction(
      (first) => document.querySelector("tbody tr a")?.textContent?.trim() !== first,
      onPage1[0],
      { timeout: 15_000 },
    );
    await see(frame.getByText("3 orders selected on another page, none on this one"));
    const onPage2 = [await tick(4), await tick(5)];
    await see(frame.getByText("5 orders selected across 2 pages (2 on this page)"));
    // The header checkbox is this page's: two of its rows, so neither checked nor empty.
    const header = frame.locator("thead").getByRole("checkbox").first();
    expect(await header.getAttribute("aria-checked")).toBe("mixed");
    await checkScreen(guarded, frame, "orders-selected-across-pages");

    // The table's action names the whole selection, not only this page's two rows.
    await frame.getByRole("button", { name: "Create labels for 5 orders", exact: true }).click();

    await see(frame.getByRole("heading", { name: "Review and buy" }), RUN_TIMEOUT_MS);
    await see(frame.getByText(/\b5 orders\b/));
    for (const name of [...onPage1, ...onPage2]) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      await see(frame.getByRole("link", { name: new RegExp(`^${escaped}( · shipment \\d+ of \\d+)?$`) }));
    }
    await checkScreen(guarded, frame, "run-of-orders-from-two-pages");
    await frame.getByRole("button", { name: "Cancel", exact: true }).click();
    await see(frame.getByRole("heading", { name: /cancelled/i }), RUN_TIMEOUT_MS);

    guarded.assertClean();
    await guarded.close();
  });
});
