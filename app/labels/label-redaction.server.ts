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
