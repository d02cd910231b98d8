import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { openPersonalOrNull, sealPersonal } from "~/settings/personal-data-box.server";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";
import { parseStoredJson } from "~/utils/stored-json";

// What the auto-draft job (and the stale-draft re-check) concluded for a fulfillment order, so the
// Orders list can show an order that needs the merchant instead of a draft. One row per
// fulfillment order; each run replaces it.

export type OutcomeProblem = { path: string; message: string };
export type AutoDraftOutcomeStatus = "drafted" | "blocked";

export type AutoDraftOutcomeView = {
  orderGid: string;
  orderName: string;
  fulfillmentOrderGid: string;
  status: AutoDraftOutcomeStatus;
  problems: OutcomeProblem[];
  note: string | null;
  labelId: string | null;
  updatedAt: Date;
};

const ProblemsSchema = z.array(z.object({ path: z.string(), message: z.string() }));

export async function recordAutoDraftOutcome(
  db: PrismaClient,
  shop: string,
  outcome: {
    orderGid: OrderGid;
    orderName: string;
    fulfillmentOrderGid: FulfillmentOrderGid;
    status: AutoDraftOutcomeStatus;
    problems?: readonly OutcomeProblem[];
    note?: string | null;
    labelId?: string | null;
  },
): Promise<void> {
  const data = {
    orderGid: outcome.orderGid,
    orderName: outcome.orderName,
    status: outcome.status,
    // A problem may quote the recipient (the ZIP code as typed): sealed at rest like the label (ADR 28).
    problems: outcome.problems?.length ? sealPersonal(JSON.stringify(outcome.problems)) : "[]",
    note: outcome.note ?? null,
    labelId: outcome.labelId ?? null,
  };
  await db.autoDraftOutcome.upsert({
    where: { shop_fulfillmentOrderGid: { shop, fulfillmentOrderGid: outcome.fulfillmentOrderGid } },
    create: { shop, fulfillmentOrderGid: outcome.fulfillmentOrderGid, ...data },
    update: data,
  });
}

/** The fulfillment order was dealt with (labelled by the merchant, cancelled): nothing to show any more. */
export async function clearAutoDraftOutcome(
  db: Prisma.TransactionClient,
  shop: string,
  fulfillmentOrderGid: string,
): Promise<void> {
  await db.autoDraftOutcome.deleteMany({ where: { shop, fulfillmentOrderGid } });
}

/** The order was cancelled: it needs no label, so nothing auto-draft said about it matters. */
export async function clearAutoDraftOutcomesForOrder(
  db: Prisma.TransactionClient,
  shop: string,
  orderGid: string,
): Promise<void> {
  await db.autoDraftOutcome.deleteMany({ where: { shop, orderGid } });
}

/** Fulfillment orders of the order that auto-draft could not draft: a change to the order may fix them. */
export async function listBlockedFulfillmentOrders(
  db: Prisma.TransactionClient,
  shop: string,
  orderGid: string,
): Promise<string[]> {
  const rows = await db.autoDraftOutcome.findMany({
    where: { shop, orderGid, status: "blocked" },
    select: { fulfillmentOrderGid: true },
  });
  return rows.map((row) => row.fulfillmentOrderGid);
}

export async function listAutoDraftOutcomesForOrders(
  db: PrismaClient,
  shop: string,
  orderGids: readonly string[],
): Promise<AutoDraftOutcomeView[]> {
  const rows = await db.autoDraftOutcome.findMany({
    where: { shop, orderGid: { in: [...orderGids] } },
    orderBy: { updatedAt: "desc" },
  });
  return rows.map((row) => ({
    orderGid: row.orderGid,
    orderName: row.orderName,
    fulfillmentOrderGid: row.fulfillmentOrderGid,
    status: row.status === "drafted" ? "drafted" : "blocked",
    problems: parseStoredJson(openPersonalOrNull(row.problems), ProblemsSchema, []),
    note: row.note,
    labelId: row.labelId,
    updatedAt: row.updatedAt,
  }));
}
