import { describe, expect, it } from "vitest";

import db from "~/db.server";

// Each test starts from a fresh copy of the migrated database (test/setup/), so order and
// leftovers never matter. The two tests below run in this order within one worker.
describe("test database isolation", () => {
  it("starts migrated and empty, and lets a test write", async () => {
    expect(await db.session.count()).toBe(0);
    await db.session.create({
      data: { id: "offline_a.myshopify.com", shop: "a.myshopify.com", state: "", accessToken: "t" },
    });
    expect(await db.session.count()).toBe(1);
  });

  it("gives the next test a fresh copy without the previous test's rows", async () => {
    expect(await db.session.count()).toBe(0);
  });
});
