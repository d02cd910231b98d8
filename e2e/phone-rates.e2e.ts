import type { Frame } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, setShippingFaults, withDemoBrowser } from "./support/demo";
import { checkScreen, ratesShown, see } from "./support/label-flow";

const browser = withDemoBrowser();
// The next file starts from a service without faults.
afterAll(async () => setShippingFaults({}));

const PHONE = { width: 390, height: 844 };

/** The heights of a list's rows, top to bottom, in CSS pixels. */
const rowHeights = (frame: Frame, selector: string) =>
  frame.$$eval(selector, (rows) => rows.map((row) => Math.round(row.getBoundingClientRect().height)));

// Issue 25: at 390 px a rate row with its marks ("Cheapest", "Fastest", "Customer's choice") and
// "Press C" wrapped onto more lines than the skeleton row standing in for it, so every row that
// arrived pushed the rest of the page down.
describe("the rates on a phone while they load", () => {
  it("arrive in a skeleton of their size: each row as tall as the skeleton's, nothing below moves", async () => {
    const guarded = await openGuardedPage(browser(), "phone-rates", PHONE);
    const frame = await openApp(guarded.page, "/app/orders");
    // The service takes its time, so the skeleton is on screen long enough to be measured.
    await setShippingFaults({ latency_ms: { "POST /v1/rates": 1_500 } });
    // #1002: the customer chose a service, so the cheapest, the fastest and their choice are marked.
    // Opened by hand, not openOrderFromList: that waits for the network to settle, the rates too.
    const search = frame.getByPlaceholder("Search by order number, e.g. #1001");
    if (!(await search.isVisible()))
      await frame
        .getByRole("button", { name: /search/i })
        .first()
        .click();
    await search.fill("#1002");
    await frame.getByRole("link", { name: "#1002", exact: true }).click();
    await see(frame.getByRole("heading", { name: "Order #1002" }));
    const skeleton = await see(frame.getByRole("status").filter({ hasText: "Loading rates" }));
    const below = frame.getByRole("heading", { name: "Ship from" });
    const belowBefore = await below.boundingBox();
    const skeletonRows = await rowHeights(frame, "[role=status][aria-busy=true] > * > *");
    await checkScreen(guarded, frame, "rates-loading-on-a-phone");

    await ratesShown(frame);
    expect(await skeleton.count()).toBe(0);
    const rates = await rowHeights(frame, "li:has(> * button[aria-label^='Choose '])");
    await checkScreen(guarded, frame, "rates-on-a-phone");
    const marked = await frame.$$eval("li:has(> * button[aria-label^='Choose '])", (rows) =>
      rows.map((row) => /Cheapest|Fastest|Customer's choice/.test(row.textContent ?? "")),
    );
    expect(marked.filter(Boolean).length, "rows with a mark").toBeGreaterThanOrEqual(2);

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

    guarded.assertClean();
    await guarded.close();
  });
});
