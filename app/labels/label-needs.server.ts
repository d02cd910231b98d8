import type { Prisma, PrismaClient } from "@prisma/client";

import type { LabelNeed, LabelStatus } from "./label-state";

// What "a tracking exception", "a failed write-back" and "bought for a held order" are, exactly, in one place: the Labels
// list's filters show these rows and the home page's tiles count them, so a tile's number is the
// length of the list it links to.

const BOUGHT: LabelStatus[] = ["purchased", "fulfilled"];

/** The label rows of the shop that have this need now, as a where clause of `db.label`. */
export async function whereLabelsNeed(
  db: PrismaClient,
  shop: string,
  need: LabelNeed,
): Promise<Prisma.LabelWhereInput> {
  if (need === "write_back_failed") {
    // Bought, and Shopify refused the tracking (or the retries ran out): the order shows unshipped.
    return { shop, status: "purchased", writeBackStatus: "failed" };
  }
  if (need === "bought_while_held") {
    // Charged for a shipment Shopify held or cancelled in the instant of the purchase, not voided
    // yet (a void moves the label out of the bought states).
    return { shop, status: { in: BOUGHT }, attention: "bought_while_held" };
  }
  // One ParcelTracking row per parcel holds its latest status: a parcel now reported "exception"
  // (delayed, damaged, undeliverable), on a label still bought (a voided one ships nothing).
  const delayed = await db.parcelTracking.findMany({
    where: { shop, status: "exception" },
    select: { labelId: true },
    distinct: ["labelId"],
  });
  return { shop, status: { in: BOUGHT }, id: { in: delayed.map((row) => row.labelId) } };
}

/** How many labels of the shop have this need now: the length of its filtered Labels list. */
export async function countLabelsNeeding(db: PrismaClient, shop: string, need: LabelNeed): Promise<number> {
  return db.label.count({ where: await whereLabelsNeed(db, shop, need) });
}
