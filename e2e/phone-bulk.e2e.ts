import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, recordPrints, see } from "./support/label-flow";

const browser = withDemoBrowser();

const PHONE = { width: 390, height: 844 };
// The worker checks and buys item by item (it polls its queue about once a second).
const RUN_TIMEOUT_MS = 90_000;
// #1013's address cannot be shipped to as it is: checked, listed with its reason, left out.
const ORDERS = ["#1001", "#1002", "#1003", "#1013"];

/**
 * What a merchant would have to scroll sideways to read: the page wider than the screen, or any
 * element drawn past its right edge (a table scrolling in its own box counts: its last columns are
 * off the screen all the same). Returns those elements, named.
 */
async function offScreen(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`the page: ${document.documentElement.scrollWidth}px`);
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      // Screen-reader-only text is 1 px wide and clipped on purpose.
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden" || style.display === "none") continue;
      // Polaris's tab strip scrolls sideways on a phone by design; every tab is a swipe away.
      if (box.right <= width + 1 || element.closest("[role=tablist]")) continue;
      // What a box clips on purpose (Polaris's tabs past the edge, reached through "More views")
      // is not there to be read; what a box scrolls sideways to is.
      let clipped = false;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === "auto" || overflow === "scroll") break;
        if (overflow === "hidden" || overflow === "clip") {
          clipped = parent.getBoundingClientRect().right <= width + 1;
          break;
        }
      }
      if (!clipped) {
        found.push(
          `${element.tagName.toLowerCase()}.${String(element.className).split(" ")[0] ?? ""} "${(element.textContent ?? "").trim().slice(0, 40)}" ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
      }
    }
    return found;
  });
}

describe("bulk labels on a phone", () => {
  it("selects orders, reviews the exact total, buys them and prints, all within the screen", async () => {
    const guarded = await openGuardedPage(browser(), "phone-bulk", PHONE);
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));
    // A phone's list is Polaris's condensed one: each order is ticked by its own box.
    for (const name of ORDERS) await frame.getByRole("checkbox", { name: `Select ${name}`, exact: true }).check();
    const create = frame.getByRole("button", { name: "Create labels", exact: true });
    await see(create);
    expect(await offScreen(frame), "orders, selected").toEqual([]);
    await checkScreen(guarded, frame, "orders-selected-on-a-phone");
    await create.click();

    // Checking spends nothing; then the review says what will be bought and for how much.
    await see(frame.getByRole("heading", { name: "Review and buy" }), RUN_TIMEOUT_MS);
    const buy = frame.getByRole("button", { name: /^Buy \d+ labels? for \$[\d,.]+$/ });
    await see(buy);
    const [, count, total] = /^Buy (\d+) labels? for (\$[\d,.]+)$/.exec((await buy.innerText()).trim()) ?? [];
    expect(Number(count)).toBe(ORDERS.length - 1);
    for (const name of ORDERS) await see(frame.getByRole("link", { name: new RegExp(`^${name}\\b`) }));
    // The blocked shipment's reason is read on the screen, not behind a sideways scroll.
    await see(frame.getByText("Needs fixing", { exact: true }));
    await see(frame.getByText(/International shipments need the recipient's phone number/));
    expect((await shippingAccount()).charges).toEqual([]);
    expect(await offScreen(frame), "review").toEqual([]);
    await checkScreen(guarded, frame, "bulk-review-on-a-phone");

    // Buying asks first, with the exact total; a phone's modal is a sheet at the bottom.
    await buy.click();
    const dialog = frame.getByRole("dialog", { name: `Buy ${count} labels?` });
    const confirm = dialog.getByRole("button", { name: `Buy for ${total}` });
    await see(confirm);
    expect(await offScreen(frame), "confirmation").toEqual([]);
    await checkScreen(guarded, frame, "bulk-confirm-on-a-phone");
    expect((await shippingAccount()).charges).toEqual([]);
    await confirm.click();
    await see(frame.getByRole("heading", { name: "Labels bought" }), RUN_TIMEOUT_MS);
    await see(frame.getByText(`100% · ${count} bought · 0 failed · 0 remaining`));

    // The total the merchant confirmed is what the shipping service charged, label by label.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(Number(count));
    const charged = account.charges.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    expect(`$${(charged / 100).toFixed(2)}`).toBe(total?.replace(/,/g, ""));

    const print = frame.getByRole("button", { name: "Print labels" });
    await see(print);
    expect(await offScreen(frame), "bought").toEqual([]);
    await checkScreen(guarded, frame, "bulk-done-on-a-phone");
    await print.click();
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);

    guarded.assertClean();
    await guarded.close();
  });
});
