import type { PrismaClient } from "@prisma/client";

import type { LabelStatus } from "./label-state";

// Reads of Label rows for the home page's figures (app/routes/app._index/home.server.ts): money columns over
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
    where: { shop, status: { in: ON_THE_WAY }, kind: "outbound" },
    select: { orderGid: true, status: true, attention: true },
  });
}

/** The orders with a label flagged for one of these reasons (LABEL_ATTENTIONS), most recently flagged first. */
export async function listOrdersWithAttention(
  db: PrismaClient,
  shop: string,
  reasons: readonly string[],
  options: { orderName?: string } = {},
): Promise<{ orderGid: string; at: Date }[]> {
  const rows = await db.label.findMany({
    where: {
      shop,
      attention: { in: [...reasons] },
      // A voided label's flag is settled with it.
      status: { in: HOLDS_A_SHIPMENT },
      ...(options.orderName ? { orderName: options.orderName } : {}),
    },
    select: { orderGid: true, attentionAt: true, updatedAt: true },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  const seen = new Map<string, Date>();
  for (const row of rows) if (!seen.has(row.orderGid)) seen.set(row.orderGid, row.attentionAt ?? row.updatedAt);
  return [...seen].map(([orderGid, at]) => ({ orderGid, at }));
}

/** The Orders list's tabs that the app's own labels make, and the Home tiles counting them. */
export type LabelTab = "drafts" | "on_hold" | "bought";

/**
 * The one definition of what each label tab holds (the tab lists these orders, Home's tile counts
 * them): orders with an outbound draft to buy (Drafts), a draft whose shipment Shopify holds (On
 * hold: it cannot be bought meanwhile), or a label bought (Bought). Newest change first.
 */
export async function listOrdersInLabelTab(
  db: PrismaClient,
  shop: string,
  tab: LabelTab,
  options: { orderName?: string } = {},
): Promise<string[]> {
  const statuses: LabelStatus[] = tab === "bought" ? ["purchasing", "purchased", "fulfilled"] : ["creating", "draft"];
  const rows = await db.label.findMany({
    where: {
      shop,
      kind: "outbound",
      status: { in: statuses },
      // A NULL attention is not "not on_hold" to SQL: said both ways.
      ...(tab === "on_hold"
        ? { attention: "on_hold" }
        : tab === "drafts"
          ? { OR: [{ attention: null }, { attention: { not: "on_hold" } }] }
          : {}),
      ...(options.orderName ? { orderName: options.orderName } : {}),
    },
    select: { orderGid: true },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  return [...new Set(rows.map((row) => row.orderGid))];
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
