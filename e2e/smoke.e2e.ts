import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { assertAccessible, launchBrowser, openGuardedPage } from "./support/browser";
import { openApp, resetDemo } from "./support/demo";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await resetDemo();
});
afterAll(async () => browser.close());

describe("the demo", () => {
  it("opens the app inside the emulated admin with nothing leaving the machine", async () => {
    const guarded = await openGuardedPage(browser, "smoke");
    const frame = await openApp(guarded.page);
    await guarded.screenshot("orders");
    expect(await frame.locator("body").innerText()).toContain("Demo store");
    await assertAccessible(frame, "orders");
    guarded.assertClean();
    await guarded.close();
  });
});
