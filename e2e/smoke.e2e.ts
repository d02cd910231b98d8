import { describe, expect, it } from "vitest";

import { assertAccessible, openGuardedPage } from "./support/browser";
import { openApp, withDemoBrowser } from "./support/demo";

const browser = withDemoBrowser();

describe("the demo", () => {
  it("opens the app inside the emulated admin with nothing leaving the machine", async () => {
    const guarded = await openGuardedPage(browser(), "smoke");
    const frame = await openApp(guarded.page);
    await guarded.screenshot("home");
    expect(await frame.locator("body").innerText()).toContain("Demo store");
    await assertAccessible(frame, "home");
    guarded.assertClean();
    await guarded.close();
  });
});
