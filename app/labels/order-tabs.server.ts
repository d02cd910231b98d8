import type { PrismaClient } from "@prisma/client";

import {
  findLabelledFulfillmentOrders,
  type LabelTab,
  listOrdersInLabelTab,
  listOrdersWithAttention,
} from "~/labels/label-figures.server";

// The Orders list's tabs that the app's own records make (Drafts, On hold, Bought, Problems), each
// defined once here: the tab lists these orders and Home's tile counts them with the same
// function, so a tile opens exactly the list it counts ("Problems 3" opens a tab of 3). Reads of
// the app's database only; no Shopify call.

/** What changed on an order after its label was bought, that the merchant must act on. */
const ATTENTION_AFTER_PURCHASE = [
  "order_cancelled",
  "address_changed",
  "shipment_closed",
  "bought_while_held",
] as const;

type RecordTab = LabelTab | "problems";

/**
 * Flagged (the `problems` tab): orders with a label flagged after purchase (cancelled, address
 * changed, shipment closed, bought while Shopify held it), or a shipment automatic drafting could not draft and nothing labelled since. Most
 * recent first.
 */
export async function listProblemOrders(
  db: PrismaClient,
  shop: string,
  options: { orderName?: string } = {},
): Promise<string[]> {
  const [flagged, blocked] = await Promise.all([
    listOrdersWithAttention(db, shop, ATTENTION_AFTER_PURCHASE, options),
    db.autoDraftOutcome.findMany({
      where: { shop, status: "blocked", ...(options.orderName ? { orderName: options.orderName } : {}) },
      select: { orderGid: true, fulfillmentOrderGid: true, updatedAt: true },
    }),
  ]);
  // An outcome whose shipment has a label since is moot, as on the Orders list's rows.
  const labelled = await findLabelledFulfillmentOrders(
    db,
    shop,
    blocked.map((b) => b.fulfillmentOrderGid),
  );
  const entries = [
    ...flagged,
    ...blocked
      .filter((b) => !labelled.has(b.fulfillmentOrderGid))
      .map((b) => ({ orderGid: b.orderGid, at: b.updatedAt })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
  return [...new Set(entries.map((e) => e.orderGid))];
}

/** The orders a tab of the app's own records holds, newest first; `search` is an order number. */
export async function listOrdersOfTab(db: PrismaClient, shop: string, tab: RecordTab, search = ""): Promise<string[]> {
  const name = search.trim().replace(/^#/, "");
  const options = name ? { orderName: `#${name}` } : {};
  return tab === "problems" ? listProblemOrders(db, shop, options) : listOrdersInLabelTab(db, shop, tab, options);
}

export type OrderTabCounts = { drafts: number; onHold: number; problems: number };

/** How many orders the Drafts, On hold and Flagged tabs hold: the tabs' badges and Home's tiles. */
export async function countOrderTabs(db: PrismaClient, shop: string): Promise<OrderTabCounts> {
  const [drafts, onHold, problems] = await Promise.all([
    listOrdersOfTab(db, shop, "drafts"),
    listOrdersOfTab(db, shop, "on_hold"),
    listOrdersOfTab(db, shop, "problems"),
  ]);
  return { drafts: drafts.length, onHold: onHold.length, problems: problems.length };
}
