import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openOrderFromList,
  see,
} from "./support/label-flow";
import { decideVoid } from "./support/shipping-service";

const browser = withDemoBrowser();

const money = (amount: string) => Math.round(Number(amount.replace(/[$,]/g, "")) * 100);

describe("voiding labels from the Labels list", () => {
  it("voids two bought labels at once, leaves out a draft with why, and shows each refund pending, then refunded", async () => {
    const guarded = await openGuardedPage(browser(), "void-labels-list");
    let frame = await openApp(guarded.page, "/app/orders");
    const amounts: string[] = [];
    for (const name of ["#1001", "#1002"]) {
      await openOrderFromList(frame, name);
      await getRates(frame);
      const amount = await chooseRate(frame);
      await confirmBuy(await openBuyConfirmation(frame), amount);
      await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
      amounts.push(amount);
      frame = await openApp(guarded.page, "/app/orders");
    }
    // A draft: free, so nothing to void.
    await openOrderFromList(frame, "#1003");
    await getRates(frame);
    await chooseRate(frame);

    await openFromSidebar(guarded, frame, "Labels", "Labels");
    for (const name of ["#1001", "#1002", "#1003"]) {
      const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
      await row.getByRole("checkbox").check();
    }
    await frame.getByRole("button", { name: "Void labels", exact: true }).click();

    // The confirmation names how many, the total refund, and the label it leaves out and why.
    const total = `$${((money(amounts[0] ?? "") + money(amounts[1] ?? "")) / 100).toFixed(2)}`;
    const dialog = await see(frame.getByRole("dialog", { name: "Void 2 labels?" }));
    const text = await dialog.innerText();
    expect(text).toContain(`${total} goes back to your shipping balance`);
    expect(text).toContain("1 selected label won't be voided");
    expect(text).toMatch(/#1003: Drafts cost nothing/);
    await checkScreen(guarded, frame, "void-labels-confirmation");
    expect((await shippingAccount()).refunds).toEqual([]);
    await dialog.getByRole("button", { name: `Void 2 labels and refund ${total}` }).click();

    await see(frame.getByText(`Refund pending for 2 labels: ${total}`), 30_000);
    const rowOf = (name: string) =>
      frame.getByRole("row").filter({ has: frame.getByRole("link", { name, exact: true }) });
    for (const name of ["#1001", "#1002"]) {
      await see(rowOf(name).getByText("Refund pending", { exact: true }));
      await see(rowOf(name).getByText("Fulfillment cancelled"));
    }
    await see(rowOf("#1003").getByText("Draft", { exact: true }));
    await checkScreen(guarded, frame, "void-labels-pending");

    // The carrier confirms both (the emulator's control settles them now); the events reach the
    // app and the list follows without a reload.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(2);
    for (const charge of account.charges) {
      await decideVoid(charge.label_id, "refunded");
    }
    for (const name of ["#1001", "#1002"]) await see(rowOf(name).getByText("Refunded", { exact: true }), 30_000);
    await see(frame.getByText(`Refunded 2 labels: ${total}`));
    await checkScreen(guarded, frame, "void-labels-refunded");

    const after = await shippingAccount();
    expect(after.refunds.map((r) => money(r.amount)).sort()).toEqual(amounts.map(money).sort());
    expect(after.charges).toHaveLength(2);

    guarded.assertClean();
    await guarded.close();
  });
});
