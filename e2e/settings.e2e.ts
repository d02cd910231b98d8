import { PDFDocument } from "@cantoo/pdf-lib";
import type { Frame, Locator } from "playwright-core";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  downloadLabel,
  getRates,
  openBuyConfirmation,
  openFromSidebar,
  openOrderFromList,
  see,
} from "./support/label-flow";

const browser = withDemoBrowser();

describe("settings", () => {
  it("are saved and used by the next label: a 4 × 8 label and no e-mail to the customer", async () => {
    const guarded = await openGuardedPage(browser(), "settings");
    let frame = await openApp(guarded.page, "/app/orders");
    await openFromSidebar(guarded, frame, "Settings", "Settings");
    await checkScreen(guarded, frame, "settings");

    await frame.getByLabel("Label size").selectOption("4x8");
    await frame.getByLabel("Notify the customer when tracking is added").uncheck({ force: true });
    await frame.getByRole("button", { name: "Save label settings" }).click();
    await see(guarded.page.getByRole("status").getByText("Settings saved"));

    // Saved, not only shown: a fresh load of Settings has them.
    frame = await openApp(guarded.page, "/app/settings");
    await see(frame.getByRole("heading", { name: "Settings", level: 1 }));
    expect(await frame.getByLabel("Label size").inputValue()).toBe("4x8");
    expect(await frame.getByLabel("Notify the customer when tracking is added").isChecked()).toBe(false);
    await checkScreen(guarded, frame, "settings-saved");

    // The next label starts from them.
    frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1002");
    expect(await frame.getByLabel("Size").inputValue()).toBe("4x8");
    await getRates(frame);
    const amount = await chooseRate(frame);
    expect(await frame.getByLabel("Notify the customer with the tracking link").isChecked()).toBe(false);
    const dialog = await openBuyConfirmation(frame);
    expect(await dialog.innerText()).not.toContain("the customer is notified");
    await checkScreen(guarded, frame, "buy-confirmation");
    await confirmBuy(dialog, amount);
    await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
    await see(frame.getByText("The customer was not notified."));
    await checkScreen(guarded, frame, "bought-label");

    // The file is a 4 × 8 in page (288 × 576 pt); Shopify was told not to notify the customer.
    const pdf = await PDFDocument.load(await downloadLabel(guarded, frame));
    const size = pdf.getPage(0).getSize();
    expect([Math.round(size.width), Math.round(size.height)]).toEqual([288, 576]);
    const [fulfillment] = await shopifyFulfillments("#1002");
    expect(fulfillment?.notifyCustomer).toBe(false);

    guarded.assertClean();
    await guarded.close();
  });

  it("refuse a key the shipping service refuses: the working key stays, the failure takes focus, rates still come", async () => {
    const guarded = await openGuardedPage(browser(), "settings-refused-key");
    // The refused key is answered 422, which the browser logs as a failed request.
    guarded.expectConsoleError(/status of 422/);
    let frame = await openApp(guarded.page, "/app/settings");
    const card = shippingAccountOf(frame);
    await see(card.getByText("Sandbox key"));

    await card.getByRole("button", { name: "Replace key" }).click();
    await card.getByLabel("New API key").fill("sk_live_not_a_real_key");
    await card.getByRole("button", { name: "Save and test key" }).click();
    const banner = card.getByText("The new key was not saved");
    await see(banner);
    await see(card.getByText("Your saved key ending in demo is still in use."));
    // The failure has the focus: a merchant scrolled elsewhere is brought to it, a screen reader reads it.
    expect(await frame.evaluate(() => document.activeElement?.textContent ?? "")).toContain(
      "The new key was not saved",
    );
    // One story: nothing says the new key was saved, live or connected.
    const text = await card.innerText();
    expect(text).not.toMatch(/API key saved|Live key|Connected to the shipping service/);
    expect(text).toContain("Sandbox key");
    expect(
      await guarded.page
        .getByRole("status")
        .getByText(/API key saved/)
        .count(),
    ).toBe(0);
    await checkScreen(guarded, frame, "settings-key-refused");

    // Stored is what works: after a reload the saved key still gets rates.
    frame = await openApp(guarded.page, "/app/settings");
    await see(frame.getByText("••••demo"));
    frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1003");
    await getRates(frame);

    guarded.assertClean();
    await guarded.close();
  });

  it("keep ship-to details for the days the merchant chooses, refusing a number of days that is not one", async () => {
    const guarded = await openGuardedPage(browser(), "settings-retention");
    guarded.expectConsoleError(/status of 422/);
    let frame = await openApp(guarded.page, "/app/settings");
    const days = frame.getByLabel("Keep ship-to details for");
    expect(await days.inputValue()).toBe("90");

    await days.fill("0");
    const save = frame.getByRole("button", { name: "Save retention period" });
    await save.click();
    await see(frame.getByText("Keep ship-to details for a whole number of days from 1 to 3650"));
    expect(await days.getAttribute("aria-invalid")).toBe("true");
    await checkScreen(guarded, frame, "retention-refused");

    await days.fill("30");
    await save.click();
    await see(guarded.page.getByRole("status").getByText("Ship-to details are kept for 30 days"));
    frame = await openApp(guarded.page, "/app/settings");
    expect(await frame.getByLabel("Keep ship-to details for").inputValue()).toBe("30");

    guarded.assertClean();
    await guarded.close();
  });

  it("make automatic drafts follow a saved rule, and refuse a service that cannot reach the rule's destination", async () => {
    const guarded = await openGuardedPage(browser(), "settings-auto-draft");
    // The refused save is a 422, which the browser logs as a failed request.
    guarded.expectConsoleError(/status of 422/);
    let frame = await openApp(guarded.page, "/app/settings");
    await see(frame.getByRole("heading", { name: "Automatic draft labels" }));
    await see(frame.getByText("No rules yet: every draft gets the cheapest rate in the default box."));

    await switchOf(frame).check({ force: true });
    await frame.getByRole("button", { name: "Add rule" }).click();
    const first = ruleNumber(frame, 1);
    await first.getByLabel("Destination").selectOption("international");
    await first.getByLabel("Draft with").selectOption("service");
    await first.getByLabel("Service", { exact: true }).selectOption({ label: "DHL Express Worldwide" });
    await first.getByLabel("Box", { exact: true }).selectOption({ label: "Small mailer" });
    await see(first.getByText("International → DHL Express Worldwide, in Small mailer"));
    await checkScreen(guarded, frame, "auto-draft-rule-edited");
    await frame.getByRole("button", { name: "Save automatic drafts" }).click();
    await see(guarded.page.getByRole("status").getByText("Automatic drafts are on"));

    // Saved, not only shown: a fresh load has the switch on and the rule.
    frame = await openApp(guarded.page, "/app/settings");
    await see(ruleNumber(frame, 1).getByText("International → DHL Express Worldwide, in Small mailer"));
    expect(await switchOf(frame).isChecked()).toBe(true);
    await checkScreen(guarded, frame, "auto-draft-saved");

    // DHL Express Worldwide only ships abroad: a domestic rule naming it is refused at its service.
    await frame.getByRole("button", { name: "Add rule" }).click();
    const second = ruleNumber(frame, 2);
    await second.getByLabel("Destination").selectOption("domestic");
    await second.getByLabel("Draft with").selectOption("service");
    const service = second.getByLabel("Service", { exact: true });
    await service.selectOption({ label: "DHL Express Worldwide" });
    await frame.getByRole("button", { name: "Save automatic drafts" }).click();
    await see(frame.getByText("Nothing was saved. Fix rule 2 below, then save again."));
    expect(await service.getAttribute("aria-invalid")).toBe("true");
    expect(await describedBy(service)).toContain(
      "DHL Express Worldwide cannot ship domestic orders from US. Choose another service or narrow the destination.",
    );
    await checkScreen(guarded, frame, "auto-draft-refused");

    frame = await openApp(guarded.page, "/app/settings");
    await see(ruleNumber(frame, 1));
    expect(await ruleNumber(frame, 2).count()).toBe(0);

    guarded.assertClean();
    await guarded.close();
  });
});

/** The Shipping account section: the API key card, its banners and buttons. */
const shippingAccountOf = (frame: Frame) =>
  frame.locator(".Polaris-Layout__AnnotatedSection").filter({ has: frame.getByRole("heading", { name: "API key" }) });

const switchOf = (frame: Frame) => frame.getByLabel("Create a draft label when an order is ready to ship");

/** A rule's inputs share their labels with the other rules'; each rule is a group named by its number. */
const ruleNumber = (frame: Frame, n: number) => frame.getByRole("group", { name: `Rule ${n}`, exact: true });

/** The text an input's aria-describedby points at: where Polaris puts a field's error. */
async function describedBy(input: Locator): Promise<string> {
  return input.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? "")
      .join(" "),
  );
}
