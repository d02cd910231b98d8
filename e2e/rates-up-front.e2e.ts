import { afterAll, describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, setShippingFaults, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, ratesShown, see } from "./support/label-flow";

const browser = withDemoBrowser();
// The next file starts from a service without faults.
afterAll(async () => setShippingFaults({}));

const cents = (price: string) => Math.round(Number(price.replace(/[^0-9.]/g, "")) * 100);

type Shift = { value: number; hadRecentInput: boolean; startTime: number };

describe("rates up front on the order page", () => {
  it("shows the rates without a click, in a space held for them, and C drafts the marked one for free", async () => {
    const guarded = await openGuardedPage(browser(), "rates-up-front", { width: 1440, height: 900 });
    // Every layout shift in the app's frame, from its first paint (Chromium's Layout Instability API).
    await guarded.context.addInitScript(() => {
      const shifts: Shift[] = [];
      (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & Omit<Shift, "startTime">)[]) {
          shifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput, startTime: entry.startTime });
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const frame = await openApp(guarded.page, "/app/orders");

    // The service takes its time: the page is there before the rates, which stream in after it.
    await setShippingFaults({ latency_ms: { "POST /v1/rates": 2_500 } });
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
    expect(await frame.getByRole("button", { name: /^Choose / }).count()).toBe(0);
    // What the customer chose and paid is known before the rates come.
    await see(frame.getByText("The customer chose USPS Priority Mail at checkout and paid $19.50 for shipping."));
    const below = frame.getByRole("heading", { name: "Ship from" });
    const before = await below.boundingBox();
    const since = await frame.evaluate(() => performance.now());
    await checkScreen(guarded, frame, "rates-loading");

    // No click: the rates arrive in the skeleton's place, and nothing below it moves.
    const choose = await ratesShown(frame);
    expect(await skeleton.count()).toBe(0);
    const after = await below.boundingBox();
    expect(before && after).toBeTruthy();
    expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThanOrEqual(1);
    const shifts = await frame.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
    const shifted = shifts
      .filter((s) => s.startTime >= since && !s.hadRecentInput)
      .reduce((sum, s) => sum + s.value, 0);
    expect(shifted).toBeLessThanOrEqual(0.05);

    // Cheapest first, the carrier written once, days and the day of arrival; each mark once.
    const labels = (await choose.evaluateAll((buttons) =>
      buttons.map((b) => b.getAttribute("aria-label") ?? ""),
    )) as string[];
    const prices = labels.map((label) => cents(/ for (\$[\d.,]+)/.exec(label)?.[1] ?? ""));
    expect(prices.length).toBeGreaterThan(3);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(labels.some((l) => /USPS USPS|UPS UPS|FedEx FedEx/i.test(l))).toBe(false);
    const rows = frame.getByRole("listitem").filter({ has: frame.getByRole("button", { name: /^Choose / }) });
    expect(await rows.first().innerText()).toMatch(/Cheapest[\s\S]*\d days? · by \w{3}, \w{3} \d+/);
    for (const mark of ["Cheapest", "Fastest", "Customer's choice"]) {
      expect(await rows.filter({ hasText: mark }).count()).toBe(1);
    }
    // The customer's choice is the rate C takes, and its row says so in words.
    const marked = rows.filter({ hasText: "Customer's choice" });
    expect(await marked.innerText()).toMatch(/^USPS Priority Mail[\s\S]*Press\s*C/);
    expect(await rows.filter({ hasText: /Press\s*C/ }).count()).toBe(1);
    const markedPrice = cents(/\$[\d.,]+/.exec(await marked.innerText())?.[0] ?? "");
    await checkScreen(guarded, frame, "order-rates");

    // C drafts the marked rate: free, nothing charged.
    await frame.getByRole("heading", { name: "Order #1002" }).click();
    await guarded.page.keyboard.press("c");
    const buy = await see(frame.getByRole("button", { name: /^Buy label for / }), 30_000);
    await see(frame.getByRole("heading", { name: /^Draft label: USPS Priority Mail/ }));
    expect(cents(await buy.innerText())).toBe(markedPrice);
    expect((await shippingAccount()).charges).toEqual([]);
    await checkScreen(guarded, frame, "draft-of-marked-rate");

    guarded.assertClean();
    await guarded.close();
  });
});
