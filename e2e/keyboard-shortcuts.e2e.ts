import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, openOrderFromList, recordPrints, see } from "./support/label-flow";

const browser = withDemoBrowser();

const cents = (price: string) => Math.round(Number(price.replace(/[^0-9.]/g, "")) * 100);

describe("keyboard shortcuts on the order page", () => {
  it("get rates, choose the marked rate, and open the Buy confirmation without spending; P prints", async () => {
    const guarded = await openGuardedPage(browser(), "keyboard-shortcuts");
    const printed = await recordPrints(guarded);
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1002");
    const keyboard = guarded.page.keyboard;

    // ? shows the list behind the Keyboard shortcuts button.
    await frame.getByRole("heading", { name: "Order #1002" }).click();
    await keyboard.press("?");
    await see(frame.getByText("Get rates", { exact: true }));
    await see(frame.getByText("Buy the draft label (you confirm the amount first)"));
    await checkScreen(guarded, frame, "shortcuts-list");
    await keyboard.press("Escape");
    await frame.getByText("Buy the draft label (you confirm the amount first)").waitFor({ state: "hidden" });

    // A letter typed in a field is the field's: no rates are asked for.
    const quotes: string[] = [];
    guarded.page.on("request", (r) => {
      if (r.method() === "POST" && (r.postData() ?? "").includes("get-rates")) quotes.push(r.url());
    });
    const field = frame.getByLabel("Apartment, suite, etc.").last();
    const before = await field.inputValue();
    await field.click();
    await keyboard.press("End");
    await keyboard.press("r");
    expect(await field.inputValue()).toBe(`${before}r`);
    await field.fill(before);
    await frame.waitForLoadState("networkidle");
    expect(quotes).toEqual([]);

    // R gets rates again; C chooses the marked one, the rate the customer chose at checkout
    // (USPS Priority Mail here), whose row says so.
    await frame.getByRole("heading", { name: "Order #1002" }).click();
    const answered = guarded.page.waitForResponse((r) => (r.request().postData() ?? "").includes("get-rates"));
    await keyboard.press("r");
    await answered;
    const choose = await see(frame.getByRole("button", { name: /^Choose .* \(shortcut C\)$/ }));
    expect(await choose.getAttribute("aria-label")).toMatch(/^Choose USPS Priority Mail for /);
    const marked = cents(/ for (.+) \(shortcut C\)$/.exec((await choose.getAttribute("aria-label")) ?? "")?.[1] ?? "");
    await keyboard.press("c");
    const buy = await see(frame.getByRole("button", { name: /^Buy label for / }), 30_000);
    await see(frame.getByText("Draft (free)"));
    expect(cents(await buy.innerText())).toBe(marked);
    // Focus lands on Buy, the next step, not on the page's body.
    expect(await buy.evaluate((button) => document.activeElement === button)).toBe(true);

    // The admin's toast says so below the app, never over it, and one at a time.
    const toast = await see(guarded.page.locator(".toast").filter({ hasText: "Draft label created (free)" }));
    const toastBox = await toast.boundingBox();
    const appBox = await guarded.page.locator("#app-iframe").boundingBox();
    if (!toastBox || !appBox) throw new Error("no toast or app frame on screen");
    expect(toastBox.y).toBeGreaterThanOrEqual(appBox.y + appBox.height);
    expect(await guarded.page.locator(".toast").count()).toBe(1);
    await checkScreen(guarded, frame, "draft-with-toast");

    // B opens the same confirmation as the button; nothing is charged until it is confirmed, and
    // B again inside it does not buy.
    await frame.getByRole("heading", { name: "Order #1002" }).click();
    await keyboard.press("b");
    const dialog = await see(frame.getByRole("dialog", { name: "Buy this label?" }));
    await checkScreen(guarded, frame, "buy-confirmation-by-key");
    await keyboard.press("b");
    expect((await shippingAccount()).charges).toHaveLength(0);

    // Confirmed with the mouse, the label is bought; P prints it in place.
    const amount = (await buy.innerText()).replace(/^Buy label for /, "");
    await dialog.getByRole("button", { name: `Buy for ${amount}` }).click();
    await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
    expect((await shippingAccount()).charges).toHaveLength(1);
    await frame.getByRole("heading", { name: /^Label bought/ }).click();
    await keyboard.press("p");
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
    expect(printed[0]).toMatch(/^blob:/);
    expect(guarded.context.pages()).toHaveLength(1);

    guarded.assertClean();
    await guarded.close();
  });
});
