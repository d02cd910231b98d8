import { readFile } from "node:fs/promises";

import type { Frame, Locator } from "playwright-core";
import { expect } from "vitest";

import { assertAccessible, type GuardedPage } from "./browser";

// The steps a merchant takes on the Orders list and an order's label page, by role and text as
// they see them. Each step that lands on a new screen screenshots it and runs axe-core on it.

/** Screenshot and axe the screen as it is now. */
export async function checkScreen(guarded: GuardedPage, frame: Frame, name: string): Promise<void> {
  await guarded.screenshot(name);
  await assertAccessible(frame, name);
}

/** Waits until the locator is visible (playwright-core has no expect; this is its waitFor). */
export async function see(locator: Locator, timeout = 15_000): Promise<Locator> {
  await locator.first().waitFor({ state: "visible", timeout });
  return locator.first();
}

/** From the Orders list, opens an order's label page by clicking its row link. */
export async function openOrderFromList(frame: Frame, orderName: string): Promise<void> {
  const search = frame.getByPlaceholder("Search by order number, e.g. #1001");
  if (await search.isVisible()) {
    // The list is paged; search finds the order wherever it is.
    await search.fill(orderName);
  } else {
    await frame
      .getByRole("button", { name: /search/i })
      .first()
      .click();
    await frame.getByPlaceholder("Search by order number, e.g. #1001").fill(orderName);
  }
  await see(frame.getByRole("link", { name: orderName, exact: true }));
  await frame.getByRole("link", { name: orderName, exact: true }).click();
  await see(frame.getByRole("heading", { name: `Order ${orderName}` }));
  await frame.waitForLoadState("networkidle");
}

/**
 * Clicks Get rates and waits for its answer (it replaces the rates that loaded with the page);
 * returns the Choose buttons.
 */
export async function getRates(frame: Frame): Promise<Locator> {
  const answered = frame
    .page()
    .waitForResponse((r) => r.request().method() === "POST" && (r.request().postData() ?? "").includes("get-rates"));
  await frame.getByRole("button", { name: "Get rates" }).click();
  await answered;
  return ratesShown(frame);
}

/** Waits for the rates that load with the order page (no click); returns the Choose buttons. */
export async function ratesShown(frame: Frame): Promise<Locator> {
  const choose = frame.getByRole("button", { name: /^Choose / });
  await see(choose, 30_000);
  await frame.getByRole("status").filter({ hasText: "Loading rates" }).waitFor({ state: "detached" });
  return choose;
}

/** Chooses a rate (the first by default) and waits for the free draft; returns the buy amount, e.g. "$12.34". */
export async function chooseRate(frame: Frame, which: Locator | null = null): Promise<string> {
  const button = which ?? frame.getByRole("button", { name: /^Choose / }).first();
  await button.click();
  const buy = await see(frame.getByRole("button", { name: /^Buy label for / }));
  const text = (await buy.innerText()).trim();
  const amount = /for (.+)$/.exec(text)?.[1];
  if (!amount) throw new Error(`no amount on "${text}"`);
  return amount;
}

/**
 * Clicks a rate's own Buy (the first by default): its confirmation opens, naming the price.
 * Returns the dialog and the rate's price as its row shows it, e.g. "$12.34".
 */
export async function buyRate(
  frame: Frame,
  which: Locator | null = null,
): Promise<{ dialog: Locator; amount: string }> {
  // A rate's Buy names its service ("Buy UPS Ground for $20.31"), not a draft's or a return's label.
  const rateBuy = /^Buy (?!label for |return label for |\d+ labels? for ).+ for \$[\d,.]+$/;
  const button = which ?? frame.getByRole("button", { name: rateBuy }).first();
  const amount = / for (\$[\d,.]+)$/.exec((await button.getAttribute("aria-label")) ?? "")?.[1];
  if (!amount) throw new Error("no price on the rate's Buy button");
  await button.click();
  // Its confirm button is waited for: on a phone the modal is a sheet, its dialog box has no size.
  const dialog = frame.getByRole("dialog", { name: "Buy this label?" });
  await see(dialog.getByRole("button", { name: `Buy for ${amount}` }));
  return { dialog, amount };
}

/** Opens the Buy confirmation; returns its dialog. */
export async function openBuyConfirmation(frame: Frame): Promise<Locator> {
  await frame.getByRole("button", { name: /^Buy label for / }).click();
  return see(frame.getByRole("dialog", { name: "Buy this label?" }));
}

export async function confirmBuy(dialog: Locator, amount: string): Promise<void> {
  await dialog.getByRole("button", { name: `Buy for ${amount}` }).click();
}

/** The tracking numbers shown on a bought label. */
export async function trackingNumbersOnPage(frame: Frame): Promise<string[]> {
  const tracking = frame.getByRole("heading", { name: "Tracking" }).locator("xpath=..").getByRole("listitem");
  const texts = await tracking.allInnerTexts();
  expect(texts.length).toBeGreaterThan(0);
  return texts.map((t) => t.trim());
}

/** Clicks "Download PDF" (or "Download ZPL") on a bought label; returns the file the browser saved. */
export async function downloadLabel(guarded: GuardedPage, frame: Frame, name = "Download PDF"): Promise<Buffer> {
  const [download] = await Promise.all([
    guarded.page.waitForEvent("download", { timeout: 15_000 }),
    frame.getByRole("button", { name, exact: true }).click(),
  ]);
  return readFile(await download.path());
}

/**
 * Counts print() calls in every frame of the page, with the address of the document printed, in
 * place of the system print dialog (which a test cannot close). Call before the app is opened.
 */
export async function recordPrints(guarded: GuardedPage): Promise<string[]> {
  const printed: string[] = [];
  await guarded.context.exposeFunction("__recordPrint", (href: string) => void printed.push(href));
  await guarded.context.addInitScript(() => {
    const record = (globalThis as unknown as { __recordPrint: (href: string) => Promise<void> }).__recordPrint;
    window.print = () => void record(location.href);
  });
  return printed;
}

/** Goes to another screen of the app through the admin's sidebar (the app's <ui-nav-menu>). */
export async function openFromSidebar(
  guarded: GuardedPage,
  frame: Frame,
  link: "Labels" | "Activity" | "Settings",
  heading: string,
): Promise<void> {
  await guarded.page
    .getByRole("navigation", { name: "Store navigation" })
    .getByRole("link", { name: link, exact: true })
    .click();
  await see(frame.getByRole("heading", { name: heading, level: 1 }));
  await frame.waitForLoadState("networkidle");
}
