import type { Frame } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";

import { type GuardedPage, openGuardedPage } from "./support/browser";
import { demo, openApp, setShippingFaults, shopifyOrder, withDemoBrowser } from "./support/demo";
import { checkScreen, ratesShown, see } from "./support/label-flow";

const browser = withDemoBrowser();
// The next file starts from a service without faults.
afterAll(async () => setShippingFaults({}));

const PHONE = { width: 390, height: 844 };

/** The heights of a list's rows, top to bottom, in CSS pixels. */
const rowHeights = (frame: Frame, selector: string) =>
  frame.$$eval(selector, (rows) => rows.map((row) => Math.round(row.getBoundingClientRect().height)));

/** The merchant renames an order's shipping method in Shopify (an order edit), so it names a service. */
async function renameShippingMethod(orderName: string, title: string): Promise<void> {
  const { numericId } = await shopifyOrder(orderName);
  const response = await fetch(`${demo().shopifyUrl}/__emulator/orders/${numericId}/shipping-line`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (!response.ok) throw new Error(`renaming ${orderName}'s shipping failed: ${response.status}`);
}

const RATE_ROWS = "li:has(> * button[aria-label^='Choose '])";

/**
 * Opens the order from the Orders list while the service takes its time over rates, measures the
 * skeleton, waits for the rates, and checks that they took the skeleton's place without moving
 * anything: as many rows, each as tall as its skeleton row, what is below where it was. Returns
 * each rate row's text as shown.
 */
async function expectRatesInTheirSkeleton(guarded: GuardedPage, orderName: string, screen: string): Promise<string[]> {
  const frame = await openApp(guarded.page, "/app/orders");
  // The service takes its time, so the skeleton is on screen long enough to be measured.
  await setShippingFaults({ latency_ms: { "POST /v1/rates": 1_500 } });
  // Opened by hand, not openOrderFromList: that waits for the network to settle, the rates too.
  const search = frame.getByPlaceholder("Search by order number, e.g. #1001");
  if (!(await search.isVisible()))
    await frame
      .getByRole("button", { name: /search/i })
      .first()
      .click();
  await search.fill(orderName);
  await frame.getByRole("link", { name: orderName, exact: true }).click();
  await see(frame.getByRole("heading", { name: `Order ${orderName}` }));
  const skeleton = await see(frame.getByRole("status").filter({ hasText: "Loading rates" }));
  const below = frame.getByRole("heading", { name: "Ship from" });
  const belowBefore = await below.boundingBox();
  const skeletonRows = await rowHeights(frame, "[role=status][aria-busy=true] > * > *");
  await checkScreen(guarded, frame, `${screen}-loading`);

  await ratesShown(frame);
  expect(await skeleton.count()).toBe(0);
  const rates = await rowHeights(frame, RATE_ROWS);
  await checkScreen(guarded, frame, screen);

  // As many rows as the skeleton held, each as tall as its skeleton row, marked or not.
  expect(rates.length, `rates ${JSON.stringify(rates)}`).toBe(skeletonRows.length);
  for (const [index, height] of rates.entries()) {
    expect(
      Math.abs(height - (skeletonRows[index] ?? 0)),
      `row ${index + 1}: ${height} vs ${skeletonRows[index]}`,
    ).toBeLessThanOrEqual(1);
  }
  const belowAfter = await below.boundingBox();
  expect(Math.abs((belowAfter?.y ?? 0) - (belowBefore?.y ?? 0)), "what is under the rates moved").toBeLessThanOrEqual(
    1,
  );
  return frame.$$eval(RATE_ROWS, (rows) => rows.map((row) => (row as HTMLElement).innerText));
}

// Issue 25: at 390 px a rate row with its marks ("Cheapest", "Fastest", "Customer's choice") and
// "Press C" wrapped onto more lines than the skeleton row standing in for it, so every row that
// arrived pushed the rest of the page down.
describe("the rates on a phone while they load", () => {
  it("arrive in a skeleton of their size: each row as tall as the skeleton's, nothing below moves", async () => {
    const guarded = await openGuardedPage(browser(), "phone-rates", PHONE);
    // #1002: the customer chose a service, so the cheapest, the fastest and their choice are marked.
    const rows = await expectRatesInTheirSkeleton(guarded, "#1002", "rates-on-a-phone");
    expect(rows.filter((text) => /Cheapest|Fastest|Customer's choice/.test(text)).length, "rows with a mark").toBe(3);
    guarded.assertClean();
    await guarded.close();
  });

  // At 360 px (a common Android width) a row with two marks wrapped them onto a fourth line.
  it("hold two marks of one rate in its row at 360 px: the customer chose the cheapest service", async () => {
    await renameShippingMethod("#1001", "USPS Ground Advantage");
    const guarded = await openGuardedPage(browser(), "phone-rates-two-marks", { width: 360, height: 780 });
    const rows = await expectRatesInTheirSkeleton(guarded, "#1001", "two-marks-on-a-narrow-phone");
    const both = rows.filter((text) => text.includes("Cheapest") && text.includes("Customer's choice"));
    expect(both, JSON.stringify(rows)).toHaveLength(1);
    guarded.assertClean();
    await guarded.close();
  });
});
