import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { sealPersonal } from "~/settings/personal-data-box.server";
import { runWithAccessContext } from "~/utils/access-context.server";

import { insertLabelRow } from "../../test/helpers/label-rows";
import { TEST_SHOP } from "../../test/setup/test-env";
import { countLabelsByStatus, findLabel, listLabels } from "./label-repository.server";
import {
  listPersonalDataAccess,
  PERSONAL_DATA_ACCESS_RETENTION_DAYS,
  prunePersonalDataAccess,
} from "./personal-data-access.server";

const REQUEST = JSON.stringify({
  to_address: { name: "Grace Buyer", street1: "500 W 56th St", zip: "10019", email: "grace@example.com" },
});

describe("the personal-data access log", () => {
  it("writes who, which shop, which orders and why for a read that opens a ship-to, and none of the ship-to", async () => {
    const sealed = await insertLabelRow({ request: sealPersonal(REQUEST) });
    const label = await runWithAccessContext({ actor: "staff:42", purpose: "GET /app/orders/:id" }, () =>
      findLabel(db, TEST_SHOP, sealed.id),
    );
    expect(label?.request).toEqual(JSON.parse(REQUEST));
    const rows = await db.personalDataAccess.findMany();
    expect(rows).toEqual([
      {
        id: expect.any(String),
        shop: TEST_SHOP,
        actor: "staff:42",
        purpose: "GET /app/orders/:id",
        reader: "findLabel",
        orderGids: JSON.stringify([sealed.orderGid]),
        at: expect.any(Date),
      },
    ]);
    for (const value of ["Grace", "56th", "10019", "grace@"]) expect(JSON.stringify(rows)).not.toContain(value);
  });

  it("writes one entry for a list, naming each order once, once per job, and as the job's", async () => {
    const first = await insertLabelRow({ request: sealPersonal(REQUEST) });
    await insertLabelRow({ request: sealPersonal(REQUEST), orderGid: first.orderGid });
    const other = await insertLabelRow({ request: REQUEST });
    // Read twice in one job: the same access, logged once.
    await runWithAccessContext({ actor: "job:auto-draft", purpose: "auto-draft" }, async () => {
      await listLabels(db, TEST_SHOP, { take: 10 });
      await listLabels(db, TEST_SHOP, { take: 10 });
    });
    const [entry, ...more] = await listPersonalDataAccess(db, TEST_SHOP, { take: 10 });
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor: "job:auto-draft", purpose: "auto-draft", reader: "listLabels" });
    expect(entry?.orderGids).toEqual([first.orderGid, other.orderGid].sort());
  });

  it("logs a read outside any request or job as unattributed, and nothing for reads that open no ship-to", async () => {
    const draft = await insertLabelRow({ request: null });
    await findLabel(db, TEST_SHOP, draft.id);
    await countLabelsByStatus(db, TEST_SHOP);
    expect(await db.personalDataAccess.count()).toBe(0);
    const sealed = await insertLabelRow({ request: sealPersonal(REQUEST) });
    await findLabel(db, TEST_SHOP, sealed.id);
    expect(await db.personalDataAccess.findFirstOrThrow()).toMatchObject({
      actor: "unattributed",
      purpose: "findLabel",
    });
  });

  it("keeps entries a year, then the sweep deletes them", async () => {
    const now = new Date("2026-12-01T00:00:00Z");
    const day = 24 * 60 * 60 * 1000;
    const at = (days: number) => new Date(now.getTime() - days * day);
    for (const days of [1, PERSONAL_DATA_ACCESS_RETENTION_DAYS - 1, PERSONAL_DATA_ACCESS_RETENTION_DAYS + 1]) {
      await db.personalDataAccess.create({
        data: { shop: TEST_SHOP, actor: "staff:42", purpose: "p", reader: "r", orderGids: "[]", at: at(days) },
      });
    }
    expect(await prunePersonalDataAccess(db, now)).toBe(1);
    expect(await db.personalDataAccess.count()).toBe(2);
  });
});
