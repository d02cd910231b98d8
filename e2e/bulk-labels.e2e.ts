import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, setShippingFaults, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, recordPrints, see } from "./support/label-flow";

const browser = withDemoBrowser();

// The worker checks and buys item by item (it polls its queue about once a second).
const RUN_TIMEOUT_MS = 90_000;
// #1013's address cannot be shipped to as it is: checked, listed with its problem, left out.
const ORDERS = ["#1001", "#1002", "#1003", "#1004", "#1013"];

describe("bulk labels", () => {
  it("selects orders, reviews the exact total, buys them, follows progress to 100% and downloads one PDF", async () => {
    const guarded = await openGuardedPage(browser(), "bulk-labels");
    const printed = await recordPrints(guarded);
    const { page } = guarded;
    const frame = await openApp(page, "/app/orders");
    for (const name of ORDERS) {
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
      await row.getByRole("checkbox").check();
    }
    await frame.getByRole("button", { name: "Create labels", exact: true }).click();

    // Checking spends nothing; then the review says what will be bought and for how much.
    await see(frame.getByRole("heading", { name: "Review and buy" }), RUN_TIMEOUT_MS);
    const buy = frame.getByRole("button", { name: /^Buy \d+ labels? for \$[\d,.]+$/ });
    await see(buy);
    const [, count, total] = /^Buy (\d+) labels? for (\$[\d,.]+)$/.exec((await buy.innerText()).trim()) ?? [];
    expect(Number(count)).toBe(ORDERS.length - 1);
    const blocked = frame.getByRole("row").filter({ has: frame.getByRole("link", { name: "#1013", exact: true }) });
    await see(blocked.getByText("Needs fixing"));
    await see(frame.getByText(/1 shipment needs fixing and is left out/));
    expect((await shippingAccount()).charges).toEqual([]);
    await checkScreen(guarded, frame, "bulk-review");

    // Buying asks first, with the exact total, as a single label's Buy does.
    await buy.click();
    const confirm = await see(frame.getByRole("dialog", { name: `Buy ${count} labels?` }));
    await checkScreen(guarded, frame, "bulk-confirm");
    expect((await shippingAccount()).charges).toEqual([]);
    await confirm.getByRole("button", { name: `Buy for ${total}` }).click();
    await see(frame.getByRole("heading", { name: "Labels bought" }), RUN_TIMEOUT_MS);
    await see(frame.getByText(`100% · ${count} bought · 0 failed · 0 remaining`));
    await checkScreen(guarded, frame, "bulk-done");

    // What the service charged: one charge per bought label, summing to the confirmed total.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(Number(count));
    const charged = account.charges.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    expect(`$${(charged / 100).toFixed(2)}`).toBe(total?.replace(/,/g, ""));

    // One PDF, one page per box, downloaded from inside the admin.
    const downloading = page.waitForEvent("download");
    await frame.getByRole("button", { name: "Download labels (PDF)" }).click();
    const download = await downloading;
    const path = await download.path();
    const pdf = await PDFDocument.load(await import("node:fs/promises").then((fs) => fs.readFile(path)));
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(Number(count));

    // The same PDF prints in place: the print dialog over the app, no tab, no download first.
    const runUrl = page.url();
    await frame.getByRole("button", { name: "Print labels" }).click();
    await expect.poll(() => printed.length, { timeout: 15_000 }).toBe(1);
    expect(printed[0]).toMatch(/^blob:/);
    expect(page.url()).toBe(runUrl);
    expect(guarded.context.pages()).toHaveLength(1);

    guarded.assertClean();
    await guarded.close();
  });

  it("lets the run choose its services instead of the shop's rules, and says so on the review", async () => {
    const guarded = await openGuardedPage(browser(), "bulk-services");
    const { page } = guarded;
    const frame = await openApp(page, "/app/orders");
    for (const name of ["#1005", "#1010"]) {
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
      await row.getByRole("checkbox").check();
    }
    await frame.getByRole("button", { name: /^(More actions|Actions)$/ }).click();
    await frame
      .getByRole("button", { name: "Create labels: choose services…" })
      .or(frame.getByRole("menuitem", { name: "Create labels: choose services…" }))
      .click();
    const dialog = frame.getByRole("dialog", { name: "Choose services for these labels" });
    await see(dialog);
    await dialog.getByLabel("International shipments").selectOption({ label: "DHL Express Worldwide" });
    await checkScreen(guarded, frame, "bulk-services");
    await dialog.getByRole("button", { name: "Create labels" }).click();

    await see(frame.getByRole("heading", { name: "Review and buy" }), RUN_TIMEOUT_MS);
    await see(frame.getByText(/International shipments: DHL Express Worldwide\./));
    for (const name of ["#1005", "#1010"]) {
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
      await see(row.getByText(/DHL Express Worldwide/));
    }
    await frame.getByRole("button", { name: "Cancel", exact: true }).click();
    await see(frame.getByRole("heading", { name: /cancelled/i }), RUN_TIMEOUT_MS);

    guarded.assertClean();
    await guarded.close();
  });
  it("cancels a run mid-way: nothing leaves after the cancel, and the page's counts and amounts are the service's charges", async () => {
    const guarded = await openGuardedPage(browser(), "bulk-cancel");
    const { page } = guarded;
    // The account keeps the charges of the file's earlier tests: this run's are the ones after them.
    const before = (await shippingAccount()).charges.length;
    const chargesOfThisRun = async () => (await shippingAccount()).charges.slice(before);
    const frame = await openApp(page, "/app/orders");
    // Orders the other tests leave unbought (#1005 and #1010 with the drafts the run above left);
    // #1016 ships from two locations: two shipments of one order. More than two rounds of the
    // worker's four shipping slots, so some are still waiting for one when the merchant cancels.
    for (const name of ["#1005", "#1006", "#1008", "#1010", "#1012", "#1016", "#1017", "#1020", "#1021", "#1022"]) {
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
      await row.getByRole("checkbox").check();
    }
    await frame.getByRole("button", { name: "Create labels", exact: true }).click();
    await see(frame.getByRole("heading", { name: "Review and buy" }), RUN_TIMEOUT_MS);
    await see(frame.getByText(/shipments from 10 orders/));
    await see(frame.getByRole("link", { name: "#1016 · shipment 2 of 2" }));
    await see(frame.getByText("Shipment 2 of 2"));
    const buy = frame.getByRole("button", { name: /^Buy \d+ labels? for \$[\d,.]+$/ });
    const ready = Number(/^Buy (\d+)/.exec((await buy.innerText()).trim())?.[1]);
    expect(ready).toBeGreaterThan(8);

    // Each purchase stays on the wire for a while (a slow shipping service), so the run is still
    // buying when we cancel.
    await setShippingFaults({ latency_ms: { "POST /v1/labels/{id}/purchase": 8_000 } });
    await buy.click();
    await frame
      .getByRole("dialog")
      .getByRole("button", { name: /^Buy for / })
      .click();
    await see(frame.getByRole("heading", { name: "Buying labels" }), RUN_TIMEOUT_MS);
    // The first labels land at the slow service's pace: the estimate says the shipping service is
    // what is slow, as measured, and does not blame Shopify's limit for the store.
    const estimate = frame.getByText(/^\d+% · [1-9]\d* bought · .* left/);
    await see(estimate, RUN_TIMEOUT_MS);
    const estimateText = await estimate.innerText();
    expect(estimateText).toMatch(
      /\(the shipping service is answering slowly: about [\d.]+ s a label; Shopify would allow faster\)/,
    );
    expect(estimateText).not.toMatch(/pace Shopify allows/);
    await checkScreen(guarded, frame, "bulk-slow-shipping");
    // The merchant cancels while purchases are on the wire and the rest wait for a slot.
    await see(frame.getByRole("row").filter({ hasText: "Buying" }), RUN_TIMEOUT_MS);
    const chargedBeforeCancel = (await chargesOfThisRun()).length;
    await frame.getByRole("button", { name: "Cancel the rest" }).click();
    await see(frame.getByRole("heading", { name: "Buying cancelled" }));
    const chargedWhenCancelled = (await chargesOfThisRun()).length;

    // The rows and counts move on without a reload while what was on the wire lands.
    await see(frame.getByText(/· 0 remaining/), RUN_TIMEOUT_MS);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const account = { charges: await chargesOfThisRun() };
    await setShippingFaults({ latency_ms: {} });
    const progress = await frame.getByText(/% · \d+ bought · /).innerText();
    const [, percent, bought, notStarted] =
      /^(\d+)% · (\d+) bought · 0 failed · 0 remaining · (\d+) not started/.exec(progress.trim()) ?? [];
    expect(Number(bought), progress).toBe(account.charges.length);
    expect(Number(bought) + Number(notStarted), progress).toBe(ready);
    expect(Number(percent), progress).toBeLessThan(100);
    // Only requests already on the wire (the worker's four slots) were charged after the cancel.
    expect(account.charges.length - chargedWhenCancelled).toBeLessThanOrEqual(4);
    expect(account.charges.length).toBeLessThan(ready);

    const banner = await frame.getByText(/after you cancelled/).innerText();
    const charged = account.charges.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    const after = /(\d+) labels? (?:was|were) already on the way .* for \$([\d,.]+)\./.exec(banner);
    // The page's "bought after you cancelled" is the service's charges made after the click (those
    // landing while the cancel was being answered may count either way), with their amounts.
    const afterCount = after ? Number(after[1]) : 0;
    if (!after) expect(banner).toMatch(/Nothing was bought after you cancelled/);
    expect(afterCount, banner).toBeGreaterThanOrEqual(account.charges.length - chargedWhenCancelled);
    expect(afterCount, banner).toBeLessThanOrEqual(account.charges.length - chargedBeforeCancel);
    const lastCharges = account.charges.slice(account.charges.length - afterCount);
    const lastAmount = lastCharges.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    expect(after ? Math.round(Number(after[2]?.replace(/,/g, "")) * 100) : 0, banner).toBe(lastAmount);
    // What the page lists as bought costs what the service charged.
    const rows = frame.getByRole("row").filter({ has: frame.getByText("Bought", { exact: true }) });
    const texts = await rows.allInnerTexts();
    const prices = texts.map((text) => /\$([\d,.]+)/.exec(text)?.[1] ?? "0");
    expect(texts).toHaveLength(account.charges.length);
    expect(
      prices.reduce((sum, p) => sum + Math.round(Number(p.replace(/,/g, "")) * 100), 0),
      texts.join("\n"),
    ).toBe(charged);
    // What the run charged, counted from the labels bought: the service's charges.
    await see(frame.getByText(`This run charged ${dollars(charged)} for ${labelCount(account.charges.length)}.`));
    await checkScreen(guarded, frame, "bulk-cancelled");

    // The labels it did not start: offered with their total, bought once confirmed like any bulk purchase.
    const rest = frame.getByRole("button", { name: /^Buy the (\d+ labels|label) not bought for \$[\d,.]+$/ });
    await see(rest);
    const [, restCount, restTotal] =
      /^Buy the (?:(\d+) labels|label) not bought for (\$[\d,.]+)$/.exec((await rest.innerText()).trim()) ?? [];
    const notBought = restCount ? Number(restCount) : 1;
    expect(notBought).toBe(Number(notStarted));
    const notStartedPrices = (await frame.getByRole("row").filter({ hasText: "Not started" }).allInnerTexts()).map(
      (text) => Math.round(Number(/\$([\d,.]+)/.exec(text)?.[1]?.replace(/,/g, "") ?? "0") * 100),
    );
    expect(restTotal).toBe(dollars(notStartedPrices.reduce((a, b) => a + b, 0)));

    // The same page on a phone, axe clean.
    const phone = await openGuardedPage(browser(), "bulk-cancelled-on-a-phone", { width: 390, height: 844 });
    const phoneFrame = await openApp(phone.page, new URL(frame.url()).pathname);
    await see(phoneFrame.getByRole("heading", { name: "Buying cancelled" }));
    await checkScreen(phone, phoneFrame, "bulk-cancelled-on-a-phone");
    phone.assertClean();
    await phone.close();

    await rest.click();
    const confirmRest = await see(frame.getByRole("dialog", { name: /not bought\?$/ }));
    await checkScreen(guarded, frame, "bulk-buy-not-bought-confirm");
    expect((await chargesOfThisRun()).length).toBe(account.charges.length);
    await confirmRest.getByRole("button", { name: `Buy for ${restTotal}` }).click();
    await see(frame.getByRole("heading", { name: "Labels bought" }), RUN_TIMEOUT_MS);
    const allCharges = await chargesOfThisRun();
    expect(allCharges).toHaveLength(ready);
    expect(new Set(allCharges.map((c) => c.label_id)).size).toBe(ready);
    const allCharged = allCharges.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    await see(frame.getByText(`This run charged ${dollars(allCharged)} for ${labelCount(ready)}.`));
    await checkScreen(guarded, frame, "bulk-all-bought");

    guarded.assertClean();
    await guarded.close();
  }, 300_000);
});

const labelCount = (n: number) => `${n} ${n === 1 ? "label" : "labels"}`;
const dollars = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
