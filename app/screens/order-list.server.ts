import type { PrismaClient } from "@prisma/client";

import { type AutoDraftOutcomeView, listAutoDraftOutcomesForOrders } from "~/auto-draft/auto-draft-outcomes.server";
import {
  findNewestLabelChange,
  type LabelView,
  listActiveLabelsForOrders,
  listLabels,
} from "~/labels/label-repository.server";
import { LABEL_ATTENTION_TEXT, type LabelStatus } from "~/labels/label-state";
import { describeLabelProgress, type LabelProgress, summarizeLabelProgress } from "~/labels/label-state";
import type { LabelSettings } from "~/settings/settings";
import { getShopSettings } from "~/settings/settings.server";
import { chooseShipFrom } from "~/settings/ship-from";
import { checkShipment } from "~/shipments/check-shipment";
import { unitToGrams } from "~/shipments/parcels";
import { toGrams } from "~/shipments/parcels";
import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LocationGid } from "~/shopify/ids";
import { getNumericId } from "~/shopify/ids";
import type { ShopifyOrderListItem } from "~/shopify/order-list";
import type { ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyLocation, ShopifyShop } from "~/shopify/shop";
import { ok, type Result } from "~/utils/result";

import { type OrderListReader, readOrderListFromShopify } from "./order-list-reads.server";

// The Orders screen's read model: one Shopify call for a page of orders, one for the shop and
// its locations (in parallel), one database query for the labels of the orders on the page, and
// prefill + preflight in memory for each order's problems badge.

export const ORDER_LIST_TABS = ["all", "needs_label", "drafts", "bought", "problems"] as const;
export type OrderListTab = (typeof ORDER_LIST_TABS)[number];

export type OrderRowProblems = {
  blocking: number;
  warnings: number;
  /** The first few messages, for the badge's tooltip. */
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
  /** null where the list does not compute problems (labels already drafted or bought). */
  problems: OrderRowProblems | null;
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
  /** The tab filters the orders of this Shopify page (needs label, problems) rather than all orders. */
  filteredOnPage: boolean;
  /**
   * How many seconds old the orders are, when an earlier read from Shopify was reused while a
   * bulk run spends the shop's rate limit (order-list-reads.server.ts); null when read for this load.
   */
  shopifyAgeSeconds: number | null;
};

export type OrderListDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

// What the list cannot judge from its short read (no prices, no fulfillment orders, three lines at
// most); the order page reads the whole order and does. The list reports the pipeline's check on
// what it reads, and says "open to check" instead of "Ready" where these could still block:
// international shipments (customs value, duties terms) and orders with more lines than it reads.
const NOT_KNOWN_FROM_THE_LIST = new Set<string>([
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
// The list reads no prices, so whatever preflight says of the declared value (missing, as
// FIELD_REQUIRED at customs.value, or anything else on that field) is for the order page to judge.
const isCustomsValue = (path: string) => path === "customs.value";
const MAX_MESSAGES = 3;

const ZERO_USD = {
  shop: { amount: "0.00", currencyCode: "USD" },
  presentment: { amount: "0.00", currencyCode: "USD" },
};

/**
 * The order as prefill reads it, from the list's short read: one fulfillment order shipped by a
 * carrier from the shop's ship-from location to the order's shipping address, holding the lines
 * read. Prices are unknown here, so value problems are left to the order page.
 */
export function toOrderForListPrefill(
  item: ShopifyOrderListItem,
  shipFrom: ShopifyLocation | null,
): ShopifyOrderForLabel {
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
      unitPrice: ZERO_USD,
      paidUnitPrice: ZERO_USD,
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
        internationalDuties: null,
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

/** The problems badge of one listed order: prefill and preflight, as the order page would run them. */
export function computeListProblems(
  item: ShopifyOrderListItem,
  context: {
    settings: LabelSettings;
    shop: ShopifyShop;
    locations: readonly ShopifyLocation[];
    shipFrom: ShopifyLocation | null;
  },
): OrderRowProblems {
  const order = toOrderForListPrefill(item, context.shipFrom);
  const fulfillmentOrder = order.fulfillmentOrders[0];
  if (!fulfillmentOrder) throw new Error("toOrderForListPrefill gives every order one fulfillment order");
  // The pipeline's own check, on what the list reads; what it cannot read is left to the order page.
  const check = checkShipment({
    order,
    fulfillmentOrder,
    shopAndLocations: { shop: context.shop, locations: context.locations },
    settings: context.settings,
  });
  const problems: KnownPreflightProblem[] = check.problems.filter(
    (p) => p.severity !== "info" && !NOT_KNOWN_FROM_THE_LIST.has(p.code) && !isCustomsValue(p.path),
  );
  const blocking = problems.filter((p) => p.severity === "blocking");
  const from = check.request.from_address?.country;
  const to = check.request.to_address?.country;
  return {
    blocking: blocking.length,
    warnings: problems.length - blocking.length,
    messages: problems.slice(0, MAX_MESSAGES).map((p) => p.message),
    unchecked: !item.linesComplete
      ? { badge: "Check items", why: "Only the first items of this order are checked here: open the order to check the rest." }
      : from && to && from !== to
        ? {
            badge: "Check customs",
            why: "Customs values and duties aren't checked here: open the order to check its customs declaration.",
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

export async function listOrdersAwaitingShipment(
  deps: OrderListDeps,
  input: OrderListInput,
  options: { reuseDuringRuns?: boolean; read?: OrderListReader } = {},
): Promise<Result<OrderListPage, ShopifyError>> {
  const search = input.search?.trim() ?? "";
  if (input.tab === "drafts" || input.tab === "bought") return ok(await listLabelledOrders(deps, input.tab, search));

  const read = options.read ?? readOrderListFromShopify;
  const [reads, settings] = await Promise.all([
    read(
      deps,
      { after: input.after ?? null, before: input.before ?? null, search },
      { reuseDuringRuns: options.reuseDuringRuns ?? false },
    ),
    getShopSettings(deps.db, deps.shop),
  ]);
  if (!reads.ok) return reads;
  const { page, shopAndLocations } = reads.value;
  const { shop, locations } = shopAndLocations;
  const shipFrom = chooseShipFrom(locations, settings.shipFromLocationGid);
  const orderGids = page.orders.map((o) => o.id);
  const [labels, outcomes] = await Promise.all([
    listActiveLabelsByOrder(deps.db, deps.shop, orderGids),
    listAutoDraftOutcomesForOrders(deps.db, deps.shop, orderGids),
  ]);

  const rows = page.orders.map((item): OrderRow => {
    const orderLabels = labels.get(item.id) ?? [];
    const progress = summarizeLabelProgress(orderLabels.map((l) => describeLabelProgress(l)));
    return {
      orderGid: item.id,
      orderId: getNumericId(item.id) ?? item.legacyId,
      name: item.name,
      createdAt: item.createdAt,
      customer: describeCustomer(item.shippingAddress),
      destination: describeDestination(item.shippingAddress),
      items: item.lines.reduce((n, l) => n + (l.requiresShipping ? l.unfulfilledQuantity : 0), 0),
      weightGrams: weighLines(item) ?? item.totalWeightGrams,
      label: { progress: orderLabels.length > 0 ? progress : "none", count: orderLabels.length },
      problems: orderLabels.length > 0 ? null : computeListProblems(item, { settings, shop, locations, shipFrom }),
      attention: describeAttention(
        orderLabels,
        outcomes.filter((o) => o.orderGid === item.id),
      ),
    };
  });
  const filtered =
    input.tab === "needs_label"
      ? rows.filter((r) => r.label.progress === "none")
      : input.tab === "problems"
        ? rows.filter((r) => (r.problems?.blocking ?? 0) > 0 || r.attention.length > 0)
        : rows;
  return ok({
    tab: input.tab,
    search,
    rows: filtered,
    pageInfo: page.pageInfo,
    filteredOnPage: input.tab !== "all",
    shopifyAgeSeconds: reads.value.reused ? reads.value.ageSeconds : null,
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

/**
 * The Drafts and Bought tabs come from the database, not from a Shopify page: a draft made a week
 * ago must show however many newer orders there are. The newest 50; each row links to its order.
 */
async function listLabelledOrders(
  deps: OrderListDeps,
  tab: "drafts" | "bought",
  search: string,
): Promise<OrderListPage> {
  const statuses: LabelStatus[] = tab === "drafts" ? ["creating", "draft"] : ["purchasing", "purchased", "fulfilled"];
  const name = search.replace(/^#/, "");
  const views = await listLabels(deps.db, deps.shop, {
    statuses,
    ...(name ? { orderName: `#${name}` } : {}),
    take: LABELLED_PAGE_SIZE,
  });
  const byOrder = new Map<string, LabelView[]>();
  for (const view of views) byOrder.set(view.orderGid, [...(byOrder.get(view.orderGid) ?? []), view]);
  const orderRows = [...byOrder.entries()].map(([orderGid, labels]): OrderRow => {
    const first = labels[0] as LabelView;
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
      attention: describeAttention(labels, []),
    };
  });
  return {
    tab,
    search,
    rows: orderRows,
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    filteredOnPage: false,
    shopifyAgeSeconds: null,
  };
}
