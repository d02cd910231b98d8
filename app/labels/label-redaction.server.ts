import type { Label, Prisma } from "@prisma/client";

import {
  DIGEST_PREFIX,
  digestPersonal,
  isSealed,
  openPersonalOrNull,
  SEALED_PREFIX,
  sealPersonal,
  sealPersonalOrNull,
} from "~/settings/personal-data-box.server";

import { recordPersonalDataAccess } from "./personal-data-access.server";

// The compliance webhooks' access to Label rows: a customer's data redacted, a shop's labels
// erased, the retention sweep's redaction, and the sealing of rows written before ADR 28.

// They change no state, lease or token: only what the rows say of a person, or the shop's rows
// all at once.

/**
 * Rows with their sealed request opened (the JSON as sent; ADR 28), the access written to the
 * log under `reader`. The compliance code reads rows whole: it needs every text that may name
 * the customer.
 */
async function openedRows(
  client: Prisma.TransactionClient,
  shop: string,
  rows: Label[],
  reader: string,
): Promise<Label[]> {
  await recordPersonalDataAccess(client, {
    shop,
    reader,
    orderGids: rows.flatMap((row) => (row.request === null ? [] : [row.orderGid])),
  });
  return rows.map((row) => ({ ...row, request: openPersonalOrNull(row.request) }));
}

/** The rows of these orders, their request opened (the JSON as sent), oldest first: privacy reads them whole. */
export async function listLabelRowsOfOrders(
  client: Prisma.TransactionClient,
  shop: string,
  orderGids: readonly string[],
  reader: string,
): Promise<Label[]> {
  const rows = await client.label.findMany({
    where: { shop, orderGid: { in: [...orderGids] } },
    orderBy: { createdAt: "asc" },
  });
  return openedRows(client, shop, rows, reader);
}

/** A redacted request stored as every request is, sealed: what was sealed before is gone. */
const sealedRedaction = <T extends { request: string | null }>(update: T): T => ({
  ...update,
  request: sealPersonalOrNull(update.request),
});

export type LabelRedaction = {
  id: string;
  request: string | null;
  lastError: string | null;
  writeBackLastError: string | null;
};

/**
 * customers/redact: the personal data in these labels' stored request and error texts replaced
 * (the request sealed again, so the old ciphertext is gone), and the digest of the ship-to dropped.
 */
export async function redactLabelRequests(
  client: Prisma.TransactionClient,
  shop: string,
  updates: readonly LabelRedaction[],
): Promise<void> {
  for (const { id, ...data } of updates.map(sealedRedaction)) {
    await client.label.updateMany({ where: { id, shop }, data: { ...data, shipToKey: null } });
  }
}

/** shop/redact: every label of the shop, gone. */
export async function deleteShopLabels(client: Prisma.TransactionClient, shop: string): Promise<number> {
  return (await client.label.deleteMany({ where: { shop } })).count;
}

// ---------- Retention: ship-to details of labels no longer in use ----------

/** When the shop's retention period, and twice it, began: labels that ended before are due. */
export type ShipToRetentionCutoffs = {
  /** Delivered, voided or failed before this: the shop's period ago. */
  readonly ended: Date;
  /** Bought before this and never delivered: twice the shop's period ago. */
  readonly undelivered: Date;
};

/**
 * A label is no longer in use when:
 * - its shipment was delivered (counted from the delivery);
 * - it was voided (a discarded draft) or it failed (a draft that never was): for both the row's
 *   last change is when that happened;
 * - it was bought but its parcels were never delivered (lost, a carrier that reports nothing,
 *   returned to the sender) and the purchase is older than twice the period, the longer wait
 *   leaving time for a late scan, a claim or a reshipment. A row without a purchase time (from
 *   before they were recorded) counts from its creation.
 * Drafts, labels being created or bought, and bought labels within twice the period never match.
 */
function dueBefore(cutoffs: ShipToRetentionCutoffs): Prisma.LabelWhereInput {
  const undelivered: Prisma.LabelWhereInput = {
    status: { in: ["purchased", "fulfilled"] },
    // `not: "delivered"` alone would skip the labels with no tracking status at all (SQL's NULL).
    OR: [{ trackingStatus: null }, { trackingStatus: { not: "delivered" } }],
  };
  return {
    shipToRedactedAt: null,
    OR: [
      { trackingStatus: "delivered", trackingStatusAt: { lt: cutoffs.ended } },
      { status: { in: ["voided", "failed"] }, updatedAt: { lt: cutoffs.ended } },
      { AND: [undelivered, { purchasedAt: { lt: cutoffs.undelivered } }] },
      { AND: [undelivered, { purchasedAt: null, createdAt: { lt: cutoffs.undelivered } }] },
    ],
  };
}

/**
 * Retention: the shop's labels no longer in use by `cutoffs` whose ship-to is still kept, oldest
 * first, their request opened (the sweep reads it to find every text naming the recipient).
 */
export async function listLabelsDueForShipToRedaction(
  client: Prisma.TransactionClient,
  shop: string,
  cutoffs: ShipToRetentionCutoffs,
  take: number,
): Promise<Label[]> {
  const rows = await client.label.findMany({
    where: { shop, ...dueBefore(cutoffs) },
    orderBy: { createdAt: "asc" },
    take,
  });
  return openedRows(client, shop, rows, "ship-to retention");
}

/** Retention: the shops that have a label no longer in use by `cutoffs` with its ship-to still kept. */
export async function listShopsWithShipTosDue(
  client: Prisma.TransactionClient,
  cutoffs: ShipToRetentionCutoffs,
): Promise<string[]> {
  const rows = await client.label.findMany({
    where: dueBefore(cutoffs),
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}

/** A label's ship-to redaction, with the row's last change as it was before (kept, see below). */
export type LabelShipToRedaction = LabelRedaction & { updatedAt: Date };

/**
 * Retention: these labels' ship-to details replaced, the address key the stale-draft check
 * compares dropped, and the label marked redacted at `at`. Only labels not marked yet are
 * written, so a second run (or a second worker) changes nothing. The row's `updatedAt` stays as
 * it was: for a failed or voided label it is when that happened, which the auto-draft hold on
 * an unconfirmed draft reads (findUnconfirmedDrafts), and a redaction is not a change of state.
 */
export async function redactLabelShipTos(
  client: Prisma.TransactionClient,
  shop: string,
  updates: readonly LabelShipToRedaction[],
  at: Date,
): Promise<number> {
  let count = 0;
  for (const { id, ...data } of updates.map(sealedRedaction)) {
    const written = await client.label.updateMany({
      where: { id, shop, shipToRedactedAt: null },
      data: { ...data, shipToKey: null, shipToRedactedAt: at },
    });
    count += written.count;
  }
  return count;
}

// ---------- Sealing rows written before ADR 28 ----------

/**
 * Up to `take` labels whose request or ship-to key is still in clear (written before ADR 28),
 * sealed and digested in place. Each write is conditional on the clear values it replaces, so a
 * label changed meanwhile is left for the next run; the row's last change stays as it was (sealing
 * is no change of the label). Returns how many were sealed; fewer than `take` seen means done.
 */
export async function sealLegacyLabelRows(
  client: Prisma.TransactionClient,
  take: number,
): Promise<{ seen: number; sealed: number }> {
  const rows = await client.label.findMany({
    where: {
      OR: [
        { request: { not: null }, NOT: { request: { startsWith: SEALED_PREFIX } } },
        { shipToKey: { not: null }, NOT: { shipToKey: { startsWith: DIGEST_PREFIX } } },
      ],
    },
    select: { id: true, shop: true, request: true, shipToKey: true, updatedAt: true },
    orderBy: { createdAt: "asc" },
    take,
  });
  let sealed = 0;
  for (const row of rows) {
    const written = await client.label.updateMany({
      where: { id: row.id, shop: row.shop, request: row.request, shipToKey: row.shipToKey },
      data: {
        request: row.request === null || isSealed(row.request) ? row.request : sealPersonal(row.request),
        shipToKey:
          row.shipToKey === null || row.shipToKey.startsWith(DIGEST_PREFIX)
            ? row.shipToKey
            : digestPersonal(row.shipToKey),
        updatedAt: row.updatedAt,
      },
    });
    sealed += written.count;
  }
  return { seen: rows.length, sealed };
}
