import { describe, expect, it } from "vitest";

import db from "~/db.server";

import { insertLabelRow } from "../../test/helpers/label-rows";
import { TEST_SHOP } from "../../test/setup/test-env";
import { readOrderListVersion } from "./order-list.server";

// The Orders list polls readOrderListVersion every 3 seconds per open tab: each of its two reads
// must find the shop's newest row through an index, not by sorting all of the shop's rows. (The
// SQL is what Prisma sends for those reads; the tie-break on id is sorted among equal times only.)

type PlanRow = { detail: string };

async function planOf(sql: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<PlanRow[]>(`EXPLAIN QUERY PLAN ${sql}`, TEST_SHOP);
  return rows.map((row) => row.detail).join("\n");
}

describe("the Orders list's change token", () => {
  it("reads the shop's most recently changed label through the [shop, updatedAt] index", async () => {
    const plan = await planOf(
      `SELECT "id", "updatedAt" FROM "Label" WHERE "shop" = ? ORDER BY "updatedAt" DESC, "id" DESC LIMIT 1`,
    );
    expect(plan).toContain("USING INDEX Label_shop_updatedAt_idx (shop=?)");
    expect(plan).not.toContain("TEMP B-TREE FOR ORDER BY");
  });

  it("reads the shop's most recently changed auto-draft outcome through the [shop, updatedAt] index", async () => {
    const plan = await planOf(
      `SELECT "id", "updatedAt" FROM "AutoDraftOutcome" WHERE "shop" = ? ORDER BY "updatedAt" DESC, "id" DESC LIMIT 1`,
    );
    expect(plan).toContain("USING INDEX AutoDraftOutcome_shop_updatedAt_idx (shop=?)");
    expect(plan).not.toContain("TEMP B-TREE FOR ORDER BY");
  });

  it("changes when a label of the shop changes", async () => {
    const label = await insertLabelRow({ updatedAt: new Date("2026-01-01T00:00:00Z") });
    const before = await readOrderListVersion(db, TEST_SHOP);
    await db.label.update({ where: { id: label.id }, data: { updatedAt: new Date("2026-01-02T00:00:00Z") } });
    expect(await readOrderListVersion(db, TEST_SHOP)).not.toBe(before);
  });
});
