import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { currentAccessContext, onceInAccessContext } from "~/utils/access-context.server";
import { parseStoredJson } from "~/utils/stored-json";

// The personal-data access log (issue 40, item 8; ADR 28): every read that opens a customer's
// sealed ship-to details writes who (the staff member, or the job), for which shop and orders,
// when and why. It names orders, never the details: no name, address, phone or e-mail is
// written here, nor logged. Kept a year, through customers/redact and shop/redact (the record that
// the data was handled outlives the data), then pruned by the retention sweep.

/** How long the log is kept: a year, the span an audit of the shop's handling looks back over. */
export const PERSONAL_DATA_ACCESS_RETENTION_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;

export type PersonalDataRead = {
  readonly shop: string;
  /** The orders whose details were opened. */
  readonly orderGids: readonly string[];
  /** The read that opened them: a repository function, or the privacy request. */
  readonly reader: string;
};

/**
 * One access written, attributed to the current request or job (access-context.server.ts), or
 * to no one when there is none. Nothing is written when no order's details were opened, nor when
 * this request or job already logged the same read of the same orders.
 */
export async function recordPersonalDataAccess(
  client: PrismaClient | Prisma.TransactionClient,
  read: PersonalDataRead,
): Promise<void> {
  const orderGids = [...new Set(read.orderGids)].sort();
  if (orderGids.length === 0) return;
  // The same read of the same orders again within one request or job (a purchase reads its
  // label several times) is the same access: logged once.
  const context = currentAccessContext();
  await onceInAccessContext(`${read.shop} ${read.reader} ${orderGids.join(",")}`, () =>
    client.personalDataAccess.create({
      data: {
        shop: read.shop,
        actor: context?.actor ?? "unattributed",
        purpose: context?.purpose ?? read.reader,
        reader: read.reader,
        orderGids: JSON.stringify(orderGids),
      },
    }),
  );
}

export type PersonalDataAccessView = {
  actor: string;
  purpose: string;
  reader: string;
  orderGids: string[];
  at: Date;
};

/** The shop's access log, newest first. */
export async function listPersonalDataAccess(
  db: PrismaClient,
  shop: string,
  filter: { take: number; orderGid?: string },
): Promise<PersonalDataAccessView[]> {
  const rows = await db.personalDataAccess.findMany({
    where: { shop, ...(filter.orderGid ? { orderGids: { contains: JSON.stringify(filter.orderGid) } } : {}) },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: filter.take,
  });
  return rows.map((row) => ({
    actor: row.actor,
    purpose: row.purpose,
    reader: row.reader,
    orderGids: parseStoredJson(row.orderGids, z.array(z.string()), []),
    at: row.at,
  }));
}

/** The retention sweep: entries older than the log's year, of every shop, deleted. */
export async function prunePersonalDataAccess(db: PrismaClient, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - PERSONAL_DATA_ACCESS_RETENTION_DAYS * DAY_MS);
  return (await db.personalDataAccess.deleteMany({ where: { at: { lt: cutoff } } })).count;
}
