import type { Label, Prisma } from "@prisma/client";

// The compliance webhooks' access to Label rows: a customer's data redacted, a shop's labels erased.

// They change no state, lease or token: only what the rows say of a person, or the shop's rows
// all at once.

/** The rows of these orders as stored (the request JSON as sent), oldest first: privacy reads them whole. */
export function listLabelRowsOfOrders(
  client: Prisma.TransactionClient,
  shop: string,
  orderGids: readonly string[],
): Promise<Label[]> {
  return client.label.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, orderBy: { createdAt: "asc" } });
}

export type LabelRedaction = {
  id: string;
  request: string | null;
  lastError: string | null;
  writeBackLastError: string | null;
};

/** customers/redact: the personal data in these labels' stored request and error texts, replaced. */
export async function redactLabelRequests(
  client: Prisma.TransactionClient,
  shop: string,
  updates: readonly LabelRedaction[],
): Promise<void> {
  for (const { id, ...data } of updates) await client.label.updateMany({ where: { id, shop }, data });
}

/** shop/redact: every label of the shop, gone. */
export async function deleteShopLabels(client: Prisma.TransactionClient, shop: string): Promise<number> {
  return (await client.label.deleteMany({ where: { shop } })).count;
}

// ---------- Retention: ship-to details of labels whose journey ended ----------

/**
 * A label's journey has ended when its shipment was delivered, or when the label was voided
 * (a discarded draft; for a voided label the row's last change is when it was voided). Drafts,
 * labels in transit and those not yet voided or delivered never match.
 */
function endedBefore(cutoff: Date): Prisma.LabelWhereInput {
  return {
    shipToRedactedAt: null,
    OR: [
      { trackingStatus: "delivered", trackingStatusAt: { lt: cutoff } },
      { status: "voided", updatedAt: { lt: cutoff } },
    ],
  };
}

/** Retention: the shop's labels whose journey ended before `cutoff` and whose ship-to is still kept, oldest first. */
export function listLabelsDueForShipToRedaction(
  client: Prisma.TransactionClient,
  shop: string,
  cutoff: Date,
  take: number,
): Promise<Label[]> {
  return client.label.findMany({ where: { shop, ...endedBefore(cutoff) }, orderBy: { createdAt: "asc" }, take });
}

/** Retention: the shops that have a label whose journey ended before `cutoff` with its ship-to still kept. */
export async function listShopsWithShipTosEndedBefore(
  client: Prisma.TransactionClient,
  cutoff: Date,
): Promise<string[]> {
  const rows = await client.label.findMany({
    where: endedBefore(cutoff),
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}

/**
 * Retention: these labels' ship-to details replaced, the address key the stale-draft check
 * compares dropped, and the label marked redacted at `at`. Only labels not marked yet are
 * written, so a second run (or a second worker) changes nothing.
 */
export async function redactLabelShipTos(
  client: Prisma.TransactionClient,
  shop: string,
  updates: readonly LabelRedaction[],
  at: Date,
): Promise<number> {
  let count = 0;
  for (const { id, ...data } of updates) {
    const written = await client.label.updateMany({
      where: { id, shop, shipToRedactedAt: null },
      data: { ...data, shipToKey: null, shipToRedactedAt: at },
    });
    count += written.count;
  }
  return count;
}
