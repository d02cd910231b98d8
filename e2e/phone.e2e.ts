import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";
import { checkScreen, see } from "./support/label-flow";

const browser = withDemoBrowser();

describe("on a phone", () => {
  it("condenses the Orders list so each order's label and problems are on screen", async () => {
    const guarded = await openGuardedPage(browser(), "phone-orders", { width: 390, height: 844 });
    const frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001" }));
    // No column header row: one stacked cell per order, nothing past the screen's edge.
    expect(await frame.getByRole("columnheader", { name: "Problems" }).count()).toBe(0);
    const frameWidth = await frame.evaluate(() => document.documentElement.clientWidth);
    const scrollWidth = await frame.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(frameWidth);
    // Each order's label state and problems sit inside the screen, under its number.
    const order = frame.locator("li").filter({ has: frame.getByRole("link", { name: "#1001" }) });
    for (const text of [/^(No label|Draft|On hold|Bought)$/, /^(Ready|Check customs|\d+ to (fix|check).*)$/]) {
      const box = await order.getByText(text).first().boundingBox();
      expect(box && box.x + box.width, String(text)).toBeLessThanOrEqual(frameWidth);
    }
    await checkScreen(guarded, frame, "orders-on-a-phone");

    guarded.assertClean();
    await guarded.close();
  });
});
