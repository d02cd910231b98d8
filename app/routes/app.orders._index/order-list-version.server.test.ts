import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { databaseKindOf } from "~/db/database-kind.server";

import { insertLabelRow } from "../../../test/helpers/label-rows";
import { TEST_SHOP } from "../../../test/setup/test-env";
import { readOrderListVersion } from "./order-list.server";

// The Orders list polls readOrderListVersion every 3 seconds per open tab: each of its two reads
// must find the shop's newest row through an index, not by sorting all of the shop's rows. (The
// SQL is what Prisma sends for those reads; the tie-break on id is sorted among equal times only.)

const onPostgres = databaseKindOf(db) === "postgresql";

/** The query plan, in SQLite's words or PostgreSQL's (sequential scans off: the tables are tiny here). */
async function planOf(sql: string): Promise<string> {
  if (!onPostgres) {
    const rows = await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`, TEST_SHOP);
    return rows.map((row) => row.detail).join("\n");
  }
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql.replace("?", "$1")}`, TEST_SHOP);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/** Found through the index, never by sorting all of the shop's rows. */
function expectIndexed(plan: string, index: string) {
  if (onPostgres) {
    expect(plan).toContain(`using "${index}"`);
    // The index gives the rows in the order asked (time, then id): nothing is sorted.
    expect(plan).not.toMatch(/Sort/);
  } else {
    expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} \\(shop=\\?\\)`));
    expect(plan).not.toContain("TEMP B-TREE");
  }
}

describe("the Orders list's change token", () => {
  it("reads the shop's most recently changed label through the [shop, updatedAt, id] index", async () => {
    const plan = await planOf(
      `SELECT "id", "updatedAt" FROM "Label" WHERE "shop" = ? ORDER BY "updatedAt" DESC, "id" DESC LIMIT 1`,
    );
    expectIndexed(plan, "Label_shop_updatedAt_id_idx");
  });

  it("reads the shop's most recently changed auto-draft outcome through the [shop, updatedAt, id] index", async () => {
    const plan = await planOf(
      `SELECT "id", "updatedAt" FROM "AutoDraftOutcome" WHERE "shop" = ? ORDER BY "updatedAt" DESC, "id" DESC LIMIT 1`,
    );
    expectIndexed(plan, "AutoDraftOutcome_shop_updatedAt_id_idx");
  });

  it("changes when a label of the shop changes", async () => {
    const label = await insertLabelRow({ updatedAt: new Date("2026-01-01T00:00:00Z") });
    const before = await readOrderListVersion(db, TEST_SHOP);
    await db.label.update({ where: { id: label.id }, data: { updatedAt: new Date("2026-01-02T00:00:00Z") } });
    expect(await readOrderListVersion(db, TEST_SHOP)).not.toBe(before);
  });
});
