import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { type GuardedPage, openGuardedPage } from "./support/browser";
import { demo, openApp, resetDemo, shopifyOrder, withDemoBrowser } from "./support/demo";
import { checkScreen, chooseRate, openOrderFromList, ratesShown, see } from "./support/label-flow";

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

/** Opens the Orders list on one of its tabs, as a merchant does: by clicking it. */
async function openTab(guarded: GuardedPage, name: string, id: string): Promise<Frame> {
  const frame = await openApp(guarded.page, "/app/orders");
  const named = new RegExp(`^${name}(\\s*\\d+)?$`);
  const tab = frame.getByRole("tab", { name: named });
  if (await tab.isVisible()) await tab.click();
  else {
    await frame.getByRole("button", { name: /more views/i }).click();
    await frame.getByRole("button", { name: named }).click();
  }
  await frame.waitForURL(new RegExp(`tab=${id}`));
  await frame.waitForLoadState("networkidle");
  return frame;
}

/** Types an order number into the Orders list's search (opening the search field first if folded). */
async function searchOrders(frame: Frame, name: string): Promise<void> {
  const field = frame.getByPlaceholder("Search by order number, e.g. #1001");
  if (!(await field.isVisible())) {
    await frame
      .getByRole("button", { name: /search/i })
      .first()
      .click();
  }
  await field.fill(name);
}

/** The number a Home tile shows, read from the tile whose link is `title`. */
async function tileCount(frame: Frame, title: string): Promise<number> {
  const tile = frame
    .locator("div")
    .filter({ has: frame.getByRole("link", { name: title, exact: true }) })
    .last();
  const text = await tile.innerText();
  return Number(/\n\s*(\d+)\s*\n/.exec(`${text}\n`)?.[1] ?? Number.NaN);
}

describe("one truth on the Orders list, its tabs and Home's tiles", () => {
  it("blocks what the order page cannot buy, counts alike, fills its tabs, and opens from each tile what it counts", async () => {
    // The store as seeded: the run of the test above leaves drafts behind.
    await resetDemo();
    const guarded = await openGuardedPage(browser(), "orders-one-truth");
    // Two drafts made on their order pages, then Shopify holds one of them.
    for (const name of ["#1001", "#1002"]) {
      const page = await openApp(guarded.page, "/app/orders");
      await openOrderFromList(page, name);
      await ratesShown(page);
      await chooseRate(page);
    }
    const heldFulfillmentOrder = (await shopifyOrder("#1002")).fulfillmentOrders[0]?.id.split("/").pop() ?? "";
    const hold = await fetch(`${demo().shopifyUrl}/__emulator/fulfillment-orders/${heldFulfillmentOrder}/hold`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ reason: "OTHER" }),
    });
    expect(hold.ok).toBe(true);
    const tiles = async (...titles: string[]) => {
      const home = await openApp(guarded.page, "/app");
      return Promise.all(titles.map((title) => tileCount(home, title)));
    };
    await expect
      .poll(() => tiles("Drafts to buy", "On hold"), { timeout: RUN_TIMEOUT_MS, interval: 2_000 })
      .toEqual([1, 1]);

    // Each tile opens the tab of exactly the orders it counts, and the tab's badge says the same.
    for (const [title, tab, tabName] of [
      ["Drafts to buy", "drafts", "Drafts"],
      ["On hold", "on_hold", "On hold"],
      ["Flagged", "problems", "Flagged"],
    ] as const) {
      const home = await openApp(guarded.page, "/app");
      const count = await tileCount(home, title);
      await home.getByRole("link", { name: title, exact: true }).click();
      await see(home.getByRole("heading", { name: "Orders", level: 1 }));
      expect(new URL(home.url()).searchParams.get("tab"), title).toBe(tab);
      await home.waitForLoadState("networkidle");
      expect(await home.locator("tbody tr").count(), title).toBe(count);
      expect(await home.getByRole("tab", { name: new RegExp(`^${tabName}\\s*${count}`) }).count(), tabName).toBe(1);
      if (tab === "problems") await checkScreen(guarded, home, "orders-problems-tab");
    }

    // An export declaration (AES ITN) and duties paid at checkout (DDP): the list blocks them,
    // with the count the order page states, never a harmless "Check customs".
    for (const name of ["#1011", "#1020"]) {
      const orders = await openApp(guarded.page, "/app/orders");
      await searchOrders(orders, name);
      const row = orders.locator("tbody tr").filter({ has: orders.getByRole("link", { name, exact: true }) });
      await see(row);
      const badge = (await see(row.getByText(/^\d+ to fix/))).innerText();
      const fix = Number(/^(\d+)/.exec(await badge)?.[1]);
      expect(await row.getByText("Check customs").count(), name).toBe(0);
      await row.getByRole("link", { name, exact: true }).click();
      await see(orders.getByRole("heading", { name: `Order ${name}` }));
      await see(
        orders.getByText(
          new RegExp(`^${fix} ${fix === 1 ? "detail needs" : "details need"} fixing before this label can be bought`),
        ),
      );
    }

    // Needs label: a full first page, and never "Try the next page".
    const needs = await openTab(guarded, "Needs label", "needs_label");
    await see(needs.locator("tbody tr").first());
    expect(await needs.locator("tbody tr").count()).toBe(20);
    expect(await needs.getByText(/Try the next page/).count()).toBe(0);
    await checkScreen(guarded, needs, "orders-needs-label");

    // A customer's return request: its own tab, found by its number, and open on its order page.
    const returns = (await (await fetch(`${demo().shopifyUrl}/__emulator/returns`)).json()) as {
      returns: { orderName: string; status: string; name: string }[];
    };
    const requested = returns.returns.find((r) => r.status === "REQUESTED");
    if (!requested) throw new Error("the demo store has no requested return");
    const tab = await openTab(guarded, "Return requested", "returns");
    await see(tab.getByRole("link", { name: requested.orderName, exact: true }));
    await checkScreen(guarded, tab, "orders-return-requested");
    const search = await openApp(guarded.page, "/app/orders");
    await searchOrders(search, requested.orderName);
    const found = search.locator("tbody tr").filter({ has: search.getByRole("link", { name: requested.orderName }) });
    await see(found.getByText("Return requested"));
    await found.getByRole("link", { name: requested.orderName, exact: true }).click();
    const section = search.getByRole("region", { name: `Return ${requested.name}` });
    await see(section.getByText("Requested by the customer"));

    guarded.assertClean();
    await guarded.close();
  }, 300_000);
});
