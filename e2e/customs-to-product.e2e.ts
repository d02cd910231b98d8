import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";
import { checkScreen, chooseRate, getRates, openOrderFromList, see } from "./support/label-flow";

const browser = withDemoBrowser();

describe("customs fixed on an order", () => {
  it("are saved to the product once, and the next order of that product comes prefilled", async () => {
    const guarded = await openGuardedPage(browser(), "customs-to-product");
    const { page } = guarded;
    const frame = await openApp(page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));

    // #1014 ships a tote to the UK that has no weight, HS code or country of origin in Shopify.
    await openOrderFromList(frame, "#1014");
    const hsCode = frame.getByLabel("HS code", { exact: true });
    const origin = frame.getByLabel("Country of origin", { exact: true });
    expect(await hsCode.inputValue()).toBe("");
    const weight = frame.getByRole("textbox", { name: "Weight" }).or(frame.getByRole("spinbutton", { name: "Weight" }));
    await weight.first().fill("2");
    await hsCode.fill("4202.22");
    await origin.fill("PT");
    const save = frame.getByRole("checkbox", { name: "Save to product: Organic Cotton Market Tote" });
    await see(save);
    expect(await save.isChecked()).toBe(true);
    await checkScreen(guarded, frame, "customs-save-to-product");

    await getRates(frame);
    await chooseRate(frame);
    await see(
      page.getByText(
        /Draft label created \(free\); the HS code and country of origin saved to Organic Cotton Market Tote/,
      ),
    );

    // The customer orders the tote again: the store's checkout, then its webhooks to the app.
    const store = page.getByRole("group", { name: "Simulate a customer" });
    await store.getByLabel("Test order").selectOption("problem");
    await store.getByRole("button", { name: "New order" }).click();
    const toast = await see(page.getByText(/^Order #\d+ placed/));
    const orderName = /Order (#\d+) placed/.exec(await toast.innerText())?.[1];
    if (!orderName) throw new Error(`no order name in "${await toast.innerText()}"`);

    const list = await openApp(page, "/app/orders");
    await openOrderFromList(list, orderName);
    expect(await list.getByLabel("HS code", { exact: true }).inputValue()).toBe("420222");
    expect(await list.getByLabel("Country of origin", { exact: true }).inputValue()).toBe("PT");
    // Nothing left to save: the product already holds what the declaration says.
    expect(await list.getByRole("checkbox", { name: /^Save to product/ }).count()).toBe(0);
    await checkScreen(guarded, list, "customs-prefilled-from-product");

    guarded.assertClean();
    await guarded.close();
  });
});
