import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { type GuardedPage, openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, chooseRate, confirmBuy, openOrderFromList, recordPrints, see } from "./support/label-flow";

const browser = withDemoBrowser();

describe("on a phone", () => {
  it("condenses the Orders list so each order's label and problems are on screen", async () => {
    const guarded = await openGuardedPage(browser(), "phone-orders", PHONE);
    const frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001" }));
    // No column header row: one stacked cell per order, nothing past the screen's edge.
    expect(await frame.getByRole("columnheader", { name: "Problems" }).count()).toBe(0);
    const frameWidth = await frame.evaluate(() => document.documentElement.clientWidth);
    const scrollWidth = await frame.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(frameWidth);
    // Each order's label state and problems sit inside the screen, under its number.
    const order = frame.locator("li").filter({ has: frame.getByRole("link", { name: "#1001" }) });
    for (const text of [/^(No label|Draft|On hold|Bought)$/, /^(Ready|\d+ to (fix|check).*)$/]) {
      const box = await order.getByText(text).first().boundingBox();
      expect(box && box.x + box.width, String(text)).toBeLessThanOrEqual(frameWidth);
    }
    await checkScreen(guarded, frame, "orders-on-a-phone");

    // The tabs scroll sideways in their own strip, which shows that it does (a shadow at each edge
    // with tabs beyond it), instead of ending mid-tab with the later ones out of sight.
    const last = frame.getByRole("tab", { name: /^Return requested/ });
    const strip = await last.evaluate((tab) => {
      let box: HTMLElement | null = tab.parentElement;
      while (box && !["auto", "scroll"].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      if (!box) return null;
      const style = getComputedStyle(box);
      return {
        scrolls: box.scrollWidth > box.clientWidth,
        right: box.getBoundingClientRect().right,
        shadows: (style.backgroundImage.match(/gradient/g) ?? []).length,
      };
    });
    expect(strip, "the tabs have a strip that scrolls").toMatchObject({ scrolls: true });
    expect(strip?.right ?? Infinity, "the strip ends on the screen").toBeLessThanOrEqual(frameWidth);
    expect(strip?.shadows, "the strip shows there are tabs beyond its edge").toBeGreaterThanOrEqual(2);
    await last.scrollIntoViewIfNeeded();
    const tabBox = await last.boundingBox();
    expect(tabBox && tabBox.x >= 0 && tabBox.x + tabBox.width <= frameWidth + 1, "the last tab is on the screen").toBe(
      true,
    );
    await last.click();
    await frame.waitForURL(/tab=returns/);
    await see(frame.getByRole("link", { name: /^#\d+$/ }).first());
    await checkScreen(guarded, frame, "orders-tabs-on-a-phone");

    guarded.assertClean();
    await guarded.close();
  });

  it("creates, buys and prints a label, and lists it, all within the screen", async () => {
    const guarded = await openGuardedPage(browser(), "phone-flows", PHONE);
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1001");
    await expectWithinScreen(frame, "order page");
    await checkScreen(guarded, frame, "order-on-a-phone");
    // No keys to press on a phone: the shortcuts' help is not offered there.
    expect(await frame.getByRole("button", { name: "Keyboard shortcuts" }).isVisible()).toBe(false);

    // Rates come with the page, or at "Get rates".
    const choose = frame.getByRole("button", { name: /^Choose / });
    if (!(await choose.first().isVisible())) await frame.getByRole("button", { name: "Get rates" }).click();
    await see(choose);
    await expectWithinScreen(frame, "rates", choose.first());
    await checkScreen(guarded, frame, "rates-on-a-phone");

    const amount = await chooseRate(frame);
    const buyButton = frame.getByRole("button", { name: /^Buy label for / });
    await expectWithinScreen(frame, "draft", buyButton);
    await checkScreen(guarded, frame, "draft-on-a-phone");
    const chargesBefore = (await shippingAccount()).charges.length;
    await buyButton.click();
    // A phone's modal is a sheet at the bottom of the screen; its dialog box has no size of its
    // own, so the sheet's button is what is waited for.
    const dialog = frame.getByRole("dialog", { name: "Buy this label?" });
    await see(dialog.getByRole("button", { name: `Buy for ${amount}` }));
    await expectWithinScreen(frame, "buy confirmation", dialog.getByRole("button", { name: `Buy for ${amount}` }));
    await checkScreen(guarded, frame, "buy-confirmation-on-a-phone");
    await confirmBuy(dialog, amount);
    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    expect((await shippingAccount()).charges).toHaveLength(chargesBefore + 1);

    const print = frame.getByRole("button", { name: "Print", exact: true });
    await expectWithinScreen(frame, "bought label", print);
    await print.click();
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
    await checkScreen(guarded, frame, "bought-on-a-phone");

    // The Labels list: one stacked cell per label, its links Polaris's, nothing off the screen.
    // A phone's admin folds its sidebar away: the screens are opened by their address.
    const labels = await openApp(guarded.page, "/app/labels");
    const label = labels.locator("li").filter({ has: labels.getByRole("link", { name: "#1001" }) });
    await see(label);
    expect(await labels.getByRole("columnheader", { name: "Tracking in Shopify" }).count()).toBe(0);
    await expectWithinScreen(labels, "Labels list", label.getByRole("button", { name: "Print label of #1001" }));
    expect(await label.getByRole("link", { name: "#1001" }).getAttribute("class")).toContain("Polaris-Link");
    await checkScreen(guarded, labels, "labels-on-a-phone");

    guarded.assertClean();
    await guarded.close();
  });
});

describe("the other screens on a phone", () => {
  it("fit the home, Settings and Activity within the screen, axe clean", async () => {
    const guarded = await openGuardedPage(browser(), "phone-screens", PHONE);
    for (const [path, heading, button] of [
      ["/app", "Home", "Open"],
      ["/app/settings", "Settings", "Save label settings"],
      ["/app/activity", "Activity", null],
    ] as const) {
      const frame = await openApp(guarded.page, path);
      await see(frame.getByRole("heading", { name: heading, level: 1 }));
      await expectWithinScreen(
        frame,
        heading,
        button ? frame.getByRole("button", { name: button, exact: true }).first() : undefined,
      );
      await checkScreen(guarded, frame, `${heading.toLowerCase()}-on-a-phone`);
    }
    guarded.assertClean();
    await guarded.close();
  });
});

const PHONE = { width: 390, height: 844 };

/** Nothing wider than the phone's screen, and the step's main button inside it once scrolled to. */
async function expectWithinScreen(
  frame: Frame,
  step: string,
  button?: Awaited<ReturnType<GuardedPage["page"]["locator"]>>,
) {
  const { scrollWidth, clientWidth } = await frame.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${step}: the page is wider than the screen`).toBeLessThanOrEqual(clientWidth);
  expect(clientWidth, `${step}: the app's frame is wider than the phone`).toBeLessThanOrEqual(PHONE.width);
  if (!button) return;
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  expect(box, `${step}: its button is not drawn`).not.toBeNull();
  if (box) {
    expect(box.x, `${step}: its button starts off the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${step}: its button ends off the screen`).toBeLessThanOrEqual(PHONE.width + 1);
  }
}
