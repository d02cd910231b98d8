import type { PrismaClient } from "@prisma/client";

import { type AutoDraftOutcomeView, listAutoDraftOutcomesForOrders } from "~/auto-draft/auto-draft-outcomes.server";
import type { LabelTab } from "~/labels/label-figures.server";
import { findNewestLabelChange, type LabelView, listActiveLabelsForOrders } from "~/labels/label-repository.server";
import { LABEL_ATTENTION_TEXT } from "~/labels/label-state";
import { describeLabelProgress, type LabelProgress, summarizeLabelProgress } from "~/labels/label-state";
import type { LabelSettings } from "~/settings/settings";
import { getShopSettings } from "~/settings/settings.server";
import { chooseShipFrom } from "~/settings/ship-from";
import { checkShipment } from "~/shipments/check-shipment";
import { unitToGrams } from "~/shipments/parcels";
import { toGrams } from "~/shipments/parcels";
import { countProblems } from "~/shipments/problem-count";
import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LocationGid, OrderGid } from "~/shopify/ids";
import { getNumericId } from "~/shopify/ids";
import {
  ORDER_LIST_PAGE_SIZE,
  type OrderListCustomsFacts,
  type OrderListScope,
  type ShopifyOrderListItem,
  type ShopifyOrderListPage,
} from "~/shopify/order-list";
import type { ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyLocation, ShopifyShop, ShopifyShopAndLocations } from "~/shopify/shop";
import { ok, type Result } from "~/utils/result";

import { countOrderTabs, listOrdersOfTab, type OrderTabCounts } from "../../labels/order-tabs.server";
import { type OrderListReader, readCustomsFactsFromShopify, readOrderListFromShopify } from "./order-list-reads.server";

// The Orders screen's read model. Tabs filter before they page: a page is full unless it is the
// last. "Awaiting shipment" and "Return requested" are Shopify's own searches, one call a page;
// "Needs label" reads Shopify's pages on, leaving out the orders with a label, until it has a full
// page (one call when few orders have labels; MAX_SCAN_PAGES at most); Drafts, On hold, Bought and
// Problems are the app's own records (order-tabs.server.ts, which Home's tiles count with), the
// Problems rows read from Shopify by id in one call. Beside each page: one call for the shop and
// its locations, one database query for the labels of its orders, one Shopify call for what the
// one judge needs of its international orders (prices, duties terms), and the judge in memory.

export const ORDER_LIST_TABS = ["all", "needs_label", "drafts", "on_hold", "bought", "problems", "returns"] as const;
export type OrderListTab = (typeof ORDER_LIST_TABS)[number];

/** How many Shopify pages "Needs label" reads at most for one page of its own. */
export const MAX_SCAN_PAGES = 5;

export type OrderRowProblems = {
  /** Fields that block the label, counted as the order page counts them (problem-count.ts). */
  blocking: number;
  warnings: number;
  /** The first few fields' messages, for the badge's tooltip. */
  messages: string[];
  /**
   * What the list cannot judge from its short read, or null: then the badge never says "Ready"
   * (the order page, which reads everything, may still block it). `badge` names it in two words,
   * `why` says it in the merchant's words.
   */
  unchecked: { badge: string; why: string } | null;
};

export type OrderRow = {
  orderGid: string;
  /** The numeric id, for /app/orders/:orderId. */
  orderId: string;
  name: string;
  createdAt: string;
  customer: string | null;
  destination: string | null;
  items: number;
  weightGrams: number | null;
  label: { progress: LabelProgress; count: number };
  /** null where the list does not compute problems (labels already drafted or bought, nothing left to ship). */
  problems: OrderRowProblems | null;
  /** Shopify shows the order fulfilled: nothing left to ship (a search or the returns tab finds it). */
  shipped: boolean;
  /** Shopify needs no fulfillment for it (FULFILLMENT_NOT_REQUIRED): cancelled or refunded, nothing to ship. */
  nothingToShip: boolean;
  /** The customer asked for a return that waits for the merchant (approve or decline it on the order page). */
  returnRequested: boolean;
  /**
   * What happened that the merchant must act on: a bought label whose order was cancelled or
   * changed, or a shipment automatic drafting could not draft. Empty when nothing.
   */
  attention: string[];
};

export type OrderListPage = {
  tab: OrderListTab;
  search: string;
  rows: OrderRow[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** How many orders the app's own tabs hold, as Home's tiles count them. */
  counts: OrderTabCounts;
  /**
   * How many seconds old the orders are, when an earlier read from Shopify was reused while a
   * bulk run spends the shop's rate limit (order-list-reads.server.ts); null when read for this load.
   */
  shopifyAgeSeconds: number | null;
};

export type OrderListDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

// What the list cannot judge of an order with more lines than it reads (three): the order page
// reads them all. Everything else the one judge judges as the order page does: an international
// order's prices and duties terms are read for it (getOrderListCustomsFacts), so a blocker (an
// export declaration above 2,500 USD, duties paid at checkout) blocks here too.
const NOT_KNOWN_WITH_LINES_LEFT = new Set<string>([
  "CUSTOMS_VALUE_REQUIRED",
  "CUSTOMS_VALUE_USD_REQUIRED",
  "VALUE_NOT_POSITIVE",
  "EXPORT_DECLARATION_NEEDED",
  "EXPORT_DECLARATION_REQUIRED",
  "EXPORT_DECLARATION_EXEMPT",
  "ITEMS_TRUNCATED",
  "LINE_ITEM_MISSING",
  "CUSTOMS_LINES_DIFFER",
]);
// Without the prices (a domestic order reads none; Shopify failed to answer), whatever preflight
// says of the declared value is for the order page to judge.
const VALUE_CODES = new Set<string>([
  "CUSTOMS_VALUE_REQUIRED",
  "CUSTOMS_VALUE_USD_REQUIRED",
  "VALUE_NOT_POSITIVE",
  "EXPORT_DECLARATION_NEEDED",
  "EXPORT_DECLARATION_REQUIRED",
  "EXPORT_DECLARATION_EXEMPT",
]);
const isCustomsValue = (p: KnownPreflightProblem) => p.path === "customs.value" || VALUE_CODES.has(p.code);
const MAX_MESSAGES = 3;

const ZERO_USD = {
  shop: { amount: "0.00", currencyCode: "USD" },
  presentment: { amount: "0.00", currencyCode: "USD" },
};

/**
 * The order as prefill reads it, from the list's short read: one fulfillment order shipped by a
 * carrier from the shop's ship-from location to the order's shipping address, holding the lines
 * read, with the prices and duties terms of `customs` when they were read (international orders).
 */
export function toOrderForListPrefill(
  item: ShopifyOrderListItem,
  shipFrom: ShopifyLocation | null,
  customs: OrderListCustomsFacts | null = null,
): ShopifyOrderForLabel {
  const incoterm = customs?.incoterms.find((t) => t.trim().toUpperCase() !== "DAP") ?? customs?.incoterms[0] ?? null;
  const address = item.shippingAddress;
  const fulfillmentOrderId = `gid://shopify/FulfillmentOrder/list-${item.legacyId}` as FulfillmentOrderGid;
  const waiting =
    item.displayFulfillmentStatus === "ON_HOLD" || item.displayFulfillmentStatus === "SCHEDULED"
      ? item.displayFulfillmentStatus
      : null;
  return {
    id: item.id,
    legacyId: item.legacyId,
    name: item.name,
    email: item.email,
    phone: item.phone,
    shopCurrencyCode: item.currencyCode,
    presentmentCurrencyCode: item.currencyCode,
    displayFulfillmentStatus: item.displayFulfillmentStatus,
    displayFinancialStatus: null,
    totalWeightGrams: item.totalWeightGrams,
    totalPrice: ZERO_USD,
    shippingAddress: address,
    shippingLine: item.shippingLine,
    localizedFields: item.localizedFields,
    customsTaxId: item.customsTaxId,
    lineItems: item.lines.map((line) => ({
      id: line.id,
      title: line.title,
      name: line.title,
      variantTitle: null,
      sku: line.sku,
      vendor: null,
      productType: line.productType,
      // Not read for the list: option rules only price and filter services, never block a badge.
      productTags: [],
      quantity: line.quantity,
      currentQuantity: line.quantity,
      unfulfilledQuantity: line.unfulfilledQuantity,
      requiresShipping: line.requiresShipping,
      unitPrice: customs?.paidUnitPrices.get(line.id) ?? ZERO_USD,
      paidUnitPrice: customs?.paidUnitPrices.get(line.id) ?? ZERO_USD,
      weight: line.weight,
      hsCode: line.hsCode,
      countryOfOrigin: line.countryOfOrigin,
      provinceOfOrigin: null,
      productId: null,
      variantId: null,
      inventoryItemId: null,
    })),
    fulfillmentOrders: [
      {
        id: fulfillmentOrderId,
        // Held or scheduled, as far as the order's display status tells: not fulfillable now.
        status: waiting ?? "OPEN",
        requestStatus: "UNSUBMITTED",
        supportedActions: waiting ? [] : ["CREATE_FULFILLMENT"],
        canCreateFulfillment: !waiting,
        deliveryMethod: { methodType: "SHIPPING", rawMethodType: "SHIPPING", serviceCode: null, presentedName: null },
        internationalDuties: incoterm ? { incoterm } : null,
        assignedLocation: {
          locationId: (shipFrom?.id ?? null) as LocationGid | null,
          name: shipFrom?.name ?? "",
          address1: shipFrom?.address.address1 ?? null,
          address2: shipFrom?.address.address2 ?? null,
          city: shipFrom?.address.city ?? null,
          province: shipFrom?.address.province ?? null,
          zip: shipFrom?.address.zip ?? null,
          countryCode: shipFrom?.address.countryCode ?? "US",
          phone: shipFrom?.address.phone ?? null,
        },
        destination: address
          ? {
              firstName: address.firstName,
              lastName: address.lastName,
              company: address.company,
              address1: address.address1,
              address2: address.address2,
              city: address.city,
              province: address.province,
              zip: address.zip,
              countryCode: address.countryCode,
              phone: address.phone,
              email: item.email,
            }
          : null,
        lineItems: item.lines.map((line, i) => ({
          id: `gid://shopify/FulfillmentOrderLineItem/list-${item.legacyId}-${i}` as FulfillmentOrderLineItemGid,
          lineItemId: line.id,
          totalQuantity: line.quantity,
          remainingQuantity: line.unfulfilledQuantity,
          sku: line.sku,
          productTitle: line.title,
          variantTitle: null,
          requiresShipping: line.requiresShipping,
          weight: line.weight,
        })),
        lineItemsComplete: true,
      },
    ],
  };
}

/** Whether the order's shipment crosses a border from the shop's ship-from location. */
export function crossesBorder(item: ShopifyOrderListItem, shipFrom: ShopifyLocation | null): boolean {
  const from = shipFrom?.address.countryCode ?? null;
  const to = item.shippingAddress?.countryCode ?? null;
  return Boolean(from && to && from !== to);
}

/**
 * The problems badge of one listed order: the one judge (checkShipment), as the order page runs it,
 * counted as the page counts (one per field). `customs` holds the prices and duties terms of an
 * international order: "unread" when Shopify did not answer for them (then value and duties are
 * left to the order page, and said so).
 */
export function computeListProblems(
  item: ShopifyOrderListItem,
  context: {
    settings: LabelSettings;
    shop: ShopifyShop;
    locations: readonly ShopifyLocation[];
    shipFrom: ShopifyLocation | null;
  },
  customs: OrderListCustomsFacts | "unread" | null = null,
): OrderRowProblems {
  const facts = customs === "unread" ? null : customs;
  const order = toOrderForListPrefill(item, context.shipFrom, facts);
  const fulfillmentOrder = order.fulfillmentOrders[0];
  if (!fulfillmentOrder) throw new Error("toOrderForListPrefill gives every order one fulfillment order");
  const check = checkShipment({
    order,
    fulfillmentOrder,
    shopAndLocations: { shop: context.shop, locations: context.locations },
    settings: context.settings,
  });
  const international = crossesBorder(item, context.shipFrom);
  // Prices are read for international orders only (a domestic label declares no value).
  const valueKnown = international && facts !== null;
  const problems = check.problems.filter(
    (p) =>
      p.severity !== "info" &&
      !(!item.linesComplete && NOT_KNOWN_WITH_LINES_LEFT.has(p.code)) &&
      !(!valueKnown && isCustomsValue(p)),
  );
  return {
    ...countProblems(problems, MAX_MESSAGES),
    unchecked: !item.linesComplete
      ? {
          badge: "Check items",
          why: "Only the first items of this order are checked here: open the order to check the rest.",
        }
      : international && customs === "unread"
        ? {
            badge: "Not checked",
            why: "Shopify did not send this order's prices and duties terms: open the order to check its customs declaration.",
          }
        : null,
  };
}

function describeCustomer(address: { name?: string | null; company?: string | null } | null | undefined) {
  return address?.name?.trim() || address?.company?.trim() || null;
}

function describeDestination(
  address:
    | {
        city?: string | null;
        provinceCode?: string | null;
        state?: string | null;
        countryCode?: string | null;
        country?: string | null;
      }
    | null
    | undefined,
): string | null {
  if (!address) return null;
  const parts = [address.city, address.provinceCode ?? address.state, address.countryCode ?? address.country]
    .map((p) => p?.trim())
    .filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : null;
}

/**
 * The row's attention messages: flagged labels first, then what automatic drafting could not draft
 * (only for shipments still without a label: once the merchant made one, the report is moot).
 */
export function describeAttention(labels: readonly LabelView[], outcomes: readonly AutoDraftOutcomeView[]): string[] {
  const labelled = new Set(labels.map((l) => l.fulfillmentOrderGid as string));
  const flagged = labels.flatMap((l) => (l.attention ? [LABEL_ATTENTION_TEXT[l.attention.reason]] : []));
  const blocked = outcomes
    .filter((o) => o.status === "blocked" && !labelled.has(o.fulfillmentOrderGid))
    .map((o) => {
      const [first, ...rest] = o.problems;
      const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
      return `No automatic draft: ${first?.message ?? "open the order to see why."}${more}`;
    });
  return [...new Set([...flagged, ...blocked])];
}

/** The active labels of the orders on a page, in one query, grouped by order. */
async function listActiveLabelsByOrder(db: PrismaClient, shop: string, orderGids: readonly string[]) {
  const byOrder = new Map<string, LabelView[]>();
  for (const view of await listActiveLabelsForOrders(db, shop, orderGids)) {
    byOrder.set(view.orderGid, [...(byOrder.get(view.orderGid) ?? []), view]);
  }
  return byOrder;
}

/**
 * A token that changes whenever a label of the shop or an automatic draft's outcome changes: the
 * Orders list asks for it every few seconds, and re-reads its page (and Shopify) only when it
 * moved. Two reads of the app's own database, each finding the shop's newest row through its
 * table's [shop, updatedAt, id] index (order-list-version.server.test.ts checks the plan) rather than
 * sorting every row of the shop; no Shopify call, so polling costs nothing of the shop's API
 * budget. Compared for equality only: the newest row's id and time, never ordered across
 * processes' clocks.
 */
export async function readOrderListVersion(db: PrismaClient, shop: string): Promise<string> {
  const [newest, outcome] = await Promise.all([
    findNewestLabelChange(db, shop),
    db.autoDraftOutcome.findFirst({
      where: { shop },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      select: { id: true, updatedAt: true },
    }),
  ]);
  return [
    newest ? `${newest.id}@${newest.updatedAt.getTime()}` : "-",
    outcome ? `${outcome.id}@${outcome.updatedAt.getTime()}` : "-",
  ].join("|");
}

export type OrderListInput = {
  tab: OrderListTab;
  search?: string | null;
  after?: string | null;
  before?: string | null;
};

type PageInfo = OrderListPage["pageInfo"];
type ListContext = {
  settings: LabelSettings;
  shopAndLocations: ShopifyShopAndLocations;
  /** Whether Shopify's part was an earlier read, reused while a bulk run spends the allowance. */
  reusedAgeSeconds: number | null;
};
type Read = {
  items: ShopifyOrderListItem[];
  /** Rows the app's own records make, after those read from Shopify. */
  extraRows?: OrderRow[];
  pageInfo: PageInfo;
  context: ListContext | null;
};

const NO_PAGES: PageInfo = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };

export async function listOrdersAwaitingShipment(
  deps: OrderListDeps,
  input: OrderListInput,
  options: { reuseDuringRuns?: boolean; read?: OrderListReader } = {},
): Promise<Result<OrderListPage, ShopifyError>> {
  const search = input.search?.trim() ?? "";
  const reader = options.read ?? readOrderListFromShopify;
  const reuseDuringRuns = options.reuseDuringRuns ?? false;
  const [settings, counts] = await Promise.all([
    getShopSettings(deps.db, deps.shop),
    countOrderTabs(deps.db, deps.shop),
  ]);
  if (input.tab === "drafts" || input.tab === "on_hold" || input.tab === "bought") {
    return ok({ ...(await listLabelledOrders(deps, input.tab, search)), counts });
  }

  const readPage = async (cursor: { after: string | null; before: string | null }, scope: OrderListScope) => {
    const reads = await reader(deps, { ...cursor, search, scope }, { reuseDuringRuns });
    if (!reads.ok) return reads;
    const context: ListContext = {
      settings,
      shopAndLocations: reads.value.shopAndLocations,
      reusedAgeSeconds: reads.value.reused ? reads.value.ageSeconds : null,
    };
    return ok({ page: reads.value.page, context });
  };

  let read: Result<Read, ShopifyError>;
  if (input.tab === "needs_label") read = await readUnlabelled(deps, input, readPage);
  else if (input.tab === "problems") read = await readProblemOrders(deps, input, search, readPage);
  else if (input.tab === "all" && search) read = await readSearch(readPage);
  else {
    const scope: OrderListScope = input.tab === "returns" ? "return_requested" : "awaiting_shipment";
    const page = await readPage({ after: input.after ?? null, before: input.before ?? null }, scope);
    read = page.ok
      ? ok({ items: [...page.value.page.orders], pageInfo: page.value.page.pageInfo, context: page.value.context })
      : page;
  }
  if (!read.ok) return read;
  const { context } = read.value;
  const rows = [...(context ? await buildRows(deps, read.value.items, context) : []), ...(read.value.extraRows ?? [])];
  return ok({
    tab: input.tab,
    search,
    rows,
    pageInfo: read.value.pageInfo,
    counts,
    shopifyAgeSeconds: context?.reusedAgeSeconds ?? null,
  });
}

type PageReader = (
  cursor: { after: string | null; before: string | null },
  scope: OrderListScope,
) => Promise<Result<{ page: ShopifyOrderListPage; context: ListContext }, ShopifyError>>;

/**
 * "Needs label": the orders awaiting shipment without an active label, a full page of them. Reads
 * Shopify's pages on from the cursor, leaving out the labelled orders, until it holds one order
 * more than a page (so it knows whether a next page has any) or Shopify has no more, at most
 * MAX_SCAN_PAGES pages. The page ends at the last order it shows, and the next starts after it.
 */
async function readUnlabelled(
  deps: OrderListDeps,
  input: OrderListInput,
  readPage: PageReader,
): Promise<Result<Read, ShopifyError>> {
  const backwards = Boolean(input.before) && !input.after;
  const kept: { item: ShopifyOrderListItem; cursor: string }[] = [];
  let cursor = backwards ? (input.before ?? null) : (input.after ?? null);
  let context: ListContext | null = null;
  let moreInShopify = false;
  let scanEdge: string | null = null;
  for (let pages = 0; pages < MAX_SCAN_PAGES; pages++) {
    const read = await readPage(
      backwards ? { after: null, before: cursor } : { after: cursor, before: null },
      "awaiting_shipment",
    );
    if (!read.ok) return read;
    const { page } = read.value;
    context = read.value.context;
    const labelled = await listActiveLabelsByOrder(
      deps.db,
      deps.shop,
      page.orders.map((o) => o.id),
    );
    const found = page.orders.flatMap((item, i) =>
      labelled.has(item.id) ? [] : [{ item, cursor: page.cursors[i] ?? "" }],
    );
    if (backwards) kept.unshift(...found);
    else kept.push(...found);
    moreInShopify = backwards ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage;
    scanEdge = backwards ? page.pageInfo.startCursor : page.pageInfo.endCursor;
    if (kept.length > ORDER_LIST_PAGE_SIZE || !moreInShopify || !scanEdge) break;
    cursor = scanEdge;
  }
  if (!context) throw new Error("readUnlabelled reads at least one page");
  const trimmed = kept.length > ORDER_LIST_PAGE_SIZE;
  const shown = backwards ? kept.slice(-ORDER_LIST_PAGE_SIZE) : kept.slice(0, ORDER_LIST_PAGE_SIZE);
  // More orders to show beyond this page: one already found, or Shopify's pages not read yet.
  const beyond = trimmed || moreInShopify;
  // Where the next read in that direction starts: after the last order shown, or after the last
  // order read when every order read is shown (the labelled ones past it need no second look).
  const edgeCursor = trimmed ? ((backwards ? shown[0] : shown.at(-1))?.cursor ?? null) : scanEdge;
  const first = shown[0]?.cursor ?? null;
  const last = shown.at(-1)?.cursor ?? null;
  return ok({
    items: shown.map((k) => k.item),
    pageInfo: backwards
      ? { hasNextPage: true, hasPreviousPage: beyond, startCursor: beyond ? edgeCursor : first, endCursor: last }
      : {
          hasNextPage: beyond,
          hasPreviousPage: Boolean(input.after),
          startCursor: first,
          endCursor: beyond ? edgeCursor : last,
        },
    context,
  });
}

/**
 * A search by order number finds the order awaiting shipment, or the shipped order whose customer
 * asked for a return (that request is the merchant's to answer on the order page): two searches
 * in parallel, made only when the merchant searches. An order number names one order, so the
 * answer is a page.
 */
async function readSearch(readPage: PageReader): Promise<Result<Read, ShopifyError>> {
  const [awaiting, returns] = await Promise.all([
    readPage({ after: null, before: null }, "awaiting_shipment"),
    readPage({ after: null, before: null }, "return_requested"),
  ]);
  if (!awaiting.ok) return awaiting;
  if (!returns.ok) return returns;
  const seen = new Set(awaiting.value.page.orders.map((o) => o.id as string));
  const items = [...awaiting.value.page.orders, ...returns.value.page.orders.filter((o) => !seen.has(o.id))];
  return ok({ items, pageInfo: NO_PAGES, context: awaiting.value.context });
}

const OFFSET_CURSOR = /^offset:(\d{1,6})$/;
const readOffset = (cursor: string | null | undefined) => Number(OFFSET_CURSOR.exec(cursor ?? "")?.[1] ?? 0);

/**
 * "Flagged" (tab `problems`): the orders order-tabs.server.ts counts (Home's tile), a page of them read from
 * Shopify by id in one call, so each row shows the order as it is now, judged as on every tab.
 */
async function readProblemOrders(
  deps: OrderListDeps,
  input: OrderListInput,
  search: string,
  readPage: PageReader,
): Promise<Result<Read, ShopifyError>> {
  const all = await listOrdersOfTab(deps.db, deps.shop, "problems", search);
  const start = input.before
    ? Math.max(0, readOffset(input.before) - ORDER_LIST_PAGE_SIZE)
    : Math.min(readOffset(input.after), Math.max(0, all.length - 1));
  const ids = all.slice(start, start + ORDER_LIST_PAGE_SIZE) as OrderGid[];
  const end = start + ids.length;
  const pageInfo: PageInfo = {
    hasNextPage: end < all.length,
    hasPreviousPage: start > 0,
    startCursor: `offset:${start}`,
    endCursor: `offset:${end}`,
  };
  // No problem (or none on this page): nothing to ask Shopify.
  if (ids.length === 0) return ok({ items: [], pageInfo: NO_PAGES, context: null });
  const read = await readPage({ after: null, before: null }, { ids });
  if (!read.ok) return read;
  // In the tab's own order (most recent problem first), whatever order Shopify answered in.
  const byId = new Map(read.value.page.orders.map((o) => [o.id as string, o]));
  const items = ids.flatMap((id) => byId.get(id) ?? []);
  // An order Shopify no longer finds still counts on Home: its row comes from its labels.
  const missing = ids.filter((id) => !byId.has(id));
  const labels =
    missing.length > 0 ? await listActiveLabelsByOrder(deps.db, deps.shop, missing) : new Map<string, LabelView[]>();
  const extraRows = missing.flatMap((id) => {
    const row = toLabelledRow(id, labels.get(id) ?? []);
    return row ? [row] : [];
  });
  return ok({ items, extraRows, pageInfo, context: read.value.context });
}

/** The rows of the orders read: their labels, automatic drafts' outcomes and the one judge's verdict. */
async function buildRows(
  deps: OrderListDeps,
  items: readonly ShopifyOrderListItem[],
  context: ListContext,
): Promise<OrderRow[]> {
  const { shop, locations } = context.shopAndLocations;
  const shipFrom = chooseShipFrom(locations, context.settings.shipFromLocationGid);
  const orderGids = items.map((o) => o.id);
  const [labels, outcomes] = await Promise.all([
    listActiveLabelsByOrder(deps.db, deps.shop, orderGids),
    listAutoDraftOutcomesForOrders(deps.db, deps.shop, orderGids),
  ]);
  const isShipped = (item: ShopifyOrderListItem) => item.displayFulfillmentStatus === "FULFILLED";
  const needsNoFulfillment = (item: ShopifyOrderListItem) =>
    item.displayFulfillmentStatus === "FULFILLMENT_NOT_REQUIRED";
  const isSettled = (item: ShopifyOrderListItem) => isShipped(item) || needsNoFulfillment(item);
  const judged = items.filter((item) => !labels.has(item.id) && !isSettled(item));
  // One call for what the judge needs of the international orders judged (prices, duties terms).
  const crossing = judged.filter((item) => crossesBorder(item, shipFrom)).map((item) => item.id);
  // Reused with the page while a bulk run spends the shop's allowance (order-list-reads.server.ts).
  const customs = await readCustomsFactsFromShopify(deps, crossing, { reuse: context.reusedAgeSeconds !== null });
  const judgeContext = { settings: context.settings, shop, locations, shipFrom };
  return items.map((item): OrderRow => {
    const orderLabels = labels.get(item.id) ?? [];
    const progress = summarizeLabelProgress(orderLabels.map((l) => describeLabelProgress(l)));
    const facts = crossesBorder(item, shipFrom)
      ? customs.ok
        ? (customs.value.get(item.id) ?? "unread")
        : "unread"
      : null;
    return {
      orderGid: item.id,
      orderId: getNumericId(item.id) ?? item.legacyId,
      name: item.name,
      createdAt: item.createdAt,
      customer: describeCustomer(item.shippingAddress),
      destination: describeDestination(item.shippingAddress),
      // What is left to ship; for a shipped order (a return request), what was shipped.
      items: item.lines.reduce(
        (n, l) => n + (l.requiresShipping ? (isShipped(item) ? l.quantity : l.unfulfilledQuantity) : 0),
        0,
      ),
      weightGrams: (isShipped(item) ? null : weighLines(item)) ?? item.totalWeightGrams,
      label: { progress: orderLabels.length > 0 ? progress : "none", count: orderLabels.length },
      problems: orderLabels.length > 0 || isSettled(item) ? null : computeListProblems(item, judgeContext, facts),
      shipped: isShipped(item),
      nothingToShip: needsNoFulfillment(item),
      returnRequested: item.returnRequested,
      attention: describeAttention(
        orderLabels,
        outcomes.filter((o) => o.orderGid === item.id),
      ),
    };
  });
}

/**
 * Every order a tab and search show, page after page, up to `limit`: "Create labels" for all the
 * orders matching the filter, not only the page on screen.
 */
export async function listAllMatchingOrders(
  deps: OrderListDeps,
  input: { tab: OrderListTab; search?: string | null },
  limit: number,
): Promise<Result<{ orderGid: string; orderName: string }[], ShopifyError>> {
  const found: { orderGid: string; orderName: string }[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listOrdersAwaitingShipment(deps, { tab: input.tab, search: input.search ?? null, after });
    if (!page.ok) return page;
    for (const row of page.value.rows) {
      if (found.length >= limit) return ok(found);
      found.push({ orderGid: row.orderGid, orderName: row.name });
    }
    const next = page.value.pageInfo;
    if (!next.hasNextPage || !next.endCursor) return ok(found);
    after = next.endCursor;
  }
}

// The weight still to ship (unfulfilled units), when every line read has one.
function weighLines(item: ShopifyOrderListItem): number | null {
  if (!item.linesComplete) return null;
  let grams = 0;
  for (const line of item.lines) {
    if (!line.requiresShipping || line.unfulfilledQuantity === 0) continue;
    if (!line.weight) return null;
    grams += toGrams(line.weight) * line.unfulfilledQuantity;
  }
  return Math.round(grams);
}

const LABELLED_PAGE_SIZE = 50;

type AddressLike = {
  name?: string | null;
  company?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
};
function readToAddress(request: unknown): AddressLike | null {
  if (!request || typeof request !== "object" || !("to_address" in request)) return null;
  const to = (request as { to_address?: unknown }).to_address;
  return to && typeof to === "object" ? (to as AddressLike) : null;
}

function readRequestGrams(request: unknown): number | null {
  if (!request || typeof request !== "object") return null;
  const r = request as {
    parcel?: { weight?: unknown; weight_unit?: unknown };
    parcels?: { weight?: unknown; weight_unit?: unknown }[];
  };
  const parcels = r.parcels ?? (r.parcel ? [r.parcel] : []);
  let grams = 0;
  for (const p of parcels) {
    // The service's default unit is oz.
    const parcelGrams =
      typeof p.weight === "number"
        ? unitToGrams(p.weight, typeof p.weight_unit === "string" ? p.weight_unit : "oz")
        : null;
    if (parcelGrams === null) return null;
    grams += parcelGrams;
  }
  return parcels.length > 0 ? Math.round(grams) : null;
}

/** An order's row from its labels alone (what they were drafted with); null without one. */
function toLabelledRow(orderGid: string, labels: readonly LabelView[]): OrderRow | null {
  const first = labels[0];
  if (!first) return null;
  const to = readToAddress(first.request);
  return {
    orderGid,
    orderId: getNumericId(orderGid) ?? orderGid,
    name: first.orderName,
    createdAt: first.createdAt.toISOString(),
    customer: describeCustomer(to),
    destination: describeDestination(to),
    items: labels.reduce((n, l) => n + l.lineItems.reduce((m, li) => m + li.quantity, 0), 0),
    weightGrams: labels.reduce<number | null>((sum, l) => {
      const grams = readRequestGrams(l.request);
      return sum === null || grams === null ? null : sum + grams;
    }, 0),
    label: { progress: summarizeLabelProgress(labels.map((l) => describeLabelProgress(l))), count: labels.length },
    problems: null,
    shipped: false,
    nothingToShip: false,
    returnRequested: false,
    attention: describeAttention(labels, []),
  };
}

/**
 * The Drafts, On hold and Bought tabs come from the database, not from a Shopify page: a draft made
 * a week ago must show however many newer orders there are. The orders of the tab as
 * order-tabs.server.ts defines it (Home's tiles count the same), the newest 50, each row with its
 * order's active labels.
 */
async function listLabelledOrders(
  deps: OrderListDeps,
  tab: LabelTab,
  search: string,
): Promise<Omit<OrderListPage, "counts">> {
  const orderGids = (await listOrdersOfTab(deps.db, deps.shop, tab, search)).slice(0, LABELLED_PAGE_SIZE);
  const byOrder = await listActiveLabelsByOrder(deps.db, deps.shop, orderGids);
  const orderRows = orderGids.flatMap((orderGid) => {
    const row = toLabelledRow(orderGid, byOrder.get(orderGid) ?? []);
    return row ? [row] : [];
  });
  return {
    tab,
    search,
    rows: orderRows,
    pageInfo: NO_PAGES,
    shopifyAgeSeconds: null,
  };
}
