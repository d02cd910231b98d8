import type { PrismaClient } from "@prisma/client";

import type { LabelStatus } from "./label-state";

// Reads of Label rows for the home page's figures (app/screens/home.server.ts): money columns over
// a date range, and the few columns that say what waits for the merchant. A seam of the label
// repository, like void-transitions.server.ts: reads only, every query filtered by shop.

/** A bought label's money, as the home's figures read it. */
export type LabelSpend = {
  id: string;
  orderGid: string;
  orderName: string;
  carrier: string | null;
  serviceName: string | null;
  chargedCents: number | null;
  currency: string;
  purchasedAt: Date;
  /** The void's refund (ADR 22): requesting | pending | refunded | rejected; null if never asked. */
  refundStatus: string | null;
  refundCents: number | null;
};

/** Labels bought since `since` with a charge on file, whatever state they are in now, oldest first. */
export async function listLabelSpend(db: PrismaClient, shop: string, since: Date): Promise<LabelSpend[]> {
  const rows = await db.label.findMany({
    where: { shop, purchasedAt: { gte: since }, chargedCents: { not: null } },
    select: {
      id: true,
      orderGid: true,
      orderName: true,
      carrier: true,
      serviceName: true,
      chargedCents: true,
      currency: true,
      purchasedAt: true,
      refundStatus: true,
      refundCents: true,
    },
    orderBy: [{ purchasedAt: "asc" }, { id: "asc" }],
  });
  return rows.flatMap((row) => (row.purchasedAt ? [{ ...row, purchasedAt: row.purchasedAt }] : []));
}

const ON_THE_WAY: LabelStatus[] = ["creating", "draft", "purchasing", "purchased"];
const HOLDS_A_SHIPMENT: LabelStatus[] = [...ON_THE_WAY, "fulfilled"];

/** The shop's labels whose shipment is not in Shopify as fulfilled yet: drafts, buying, bought. */
export async function listLabelsOnTheWay(db: PrismaClient, shop: string) {
  return db.label.findMany({
    where: { shop, status: { in: ON_THE_WAY } },
    select: { orderGid: true, status: true, attention: true },
  });
}

/** The orders with a label flagged for one of these reasons (LABEL_ATTENTIONS). */
export async function listOrdersWithAttention(
  db: PrismaClient,
  shop: string,
  reasons: readonly string[],
): Promise<string[]> {
  const rows = await db.label.findMany({
    where: { shop, attention: { in: [...reasons] } },
    select: { orderGid: true },
    distinct: ["orderGid"],
  });
  return rows.map((row) => row.orderGid);
}

/** Which of these fulfillment orders hold an active label. */
export async function findLabelledFulfillmentOrders(
  db: PrismaClient,
  shop: string,
  fulfillmentOrderGids: readonly string[],
): Promise<Set<string>> {
  if (fulfillmentOrderGids.length === 0) return new Set();
  const rows = await db.label.findMany({
    where: { shop, fulfillmentOrderGid: { in: [...fulfillmentOrderGids] }, status: { in: HOLDS_A_SHIPMENT } },
    select: { fulfillmentOrderGid: true },
  });
  return new Set(rows.map((row) => row.fulfillmentOrderGid));
}

/** The order a label of the shop was made for, by the order's name ("#1001"); null if none. */
export async function findLabelledOrderByName(db: PrismaClient, shop: string, orderName: string) {
  const row = await db.label.findFirst({ where: { shop, orderName }, select: { orderGid: true } });
  return row?.orderGid ?? null;
}
