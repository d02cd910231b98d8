import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, chooseRate, getRates, openFromSidebar, openOrderFromList, see } from "./support/label-flow";

const browser = withDemoBrowser();

describe("a drafted label", () => {
  it("opens for changes with Edit and is replaced by one draft for the new details, nothing charged", async () => {
    const guarded = await openGuardedPage(browser(), "edit-draft");
    const frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));
    await openOrderFromList(frame, "#1001");
    await getRates(frame);
    await chooseRate(frame);
    await see(frame.getByText("Draft (free)"));

    // Drafted: the details are legible but read-only, and Edit is offered.
    const weight = frame.getByRole("textbox", { name: "Weight" }).or(frame.getByRole("spinbutton", { name: "Weight" }));
    expect(await weight.first().getAttribute("readonly")).not.toBeNull();
    expect(await weight.first().isDisabled()).toBe(false);
    const before = await weight.first().inputValue();
    await checkScreen(guarded, frame, "draft-read-only");

    await frame.getByRole("button", { name: "Edit", exact: true }).click();
    await see(frame.getByText("Editing this draft"));
    expect(await weight.first().getAttribute("readonly")).toBeNull();
    const heavier = String(Number(before) + 1);
    await weight.first().fill(heavier);
    await getRates(frame);
    await checkScreen(guarded, frame, "editing-draft");
    await frame
      .getByRole("button", { name: /^Choose / })
      .first()
      .click();

    // The new draft replaces the old one; the page is read-only again, with the new weight.
    await see(guarded.page.getByText("Draft label updated (free)"));
    await see(frame.getByRole("button", { name: "Edit", exact: true }));
    expect(await weight.first().inputValue()).toBe(heavier);
    expect(await weight.first().getAttribute("readonly")).not.toBeNull();
    await checkScreen(guarded, frame, "draft-replaced");

    // At the shipping service: two drafts made (both free), nothing charged. In the app: the
    // first discarded, exactly one active draft for the order.
    const account = await shippingAccount();
    expect(account.labels_created).toBe(2);
    expect(account.charges).toEqual([]);
    await openFromSidebar(guarded, frame, "Labels", "Labels");
    const rows = frame.getByRole("row").filter({ hasText: "#1001" });
    await see(rows);
    const texts = await rows.allInnerTexts();
    expect(texts.filter((t) => /\bDraft\b/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /\bVoided\b|\bDiscarded\b/i.test(t)).length).toBeLessThanOrEqual(1);

    guarded.assertClean();
    await guarded.close();
  });
});
