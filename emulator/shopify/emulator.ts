import { randomUUID } from "node:crypto";

import {
  type DocumentNode,
  execute as executeDocument,
  type ExecutionResult,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLFieldResolver,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLTypeResolver,
  parse,
  validate,
  validateSchema,
} from "graphql";

import { type AccessCheck, accessDeniedMessage, createAccessCheck, loadAccessRequirements } from "./access-scopes";
import { BULK_RESULTS_PATH, type BulkOperations, createBulkOperations } from "./bulk-operations";
import {
  fulfillmentTrackingState,
  handleFulfillmentCancel,
  handleFulfillmentCreate,
  handleFulfillmentEventCreate,
  handleFulfillmentTrackingInfoUpdate,
  sortFulfillmentEvents,
} from "./fulfillments";
import { generateOrders } from "./generated-orders";
import { handleInventoryItemUpdate } from "./inventory-items";
import type {
  FulfillmentEventRecord,
  FulfillmentHoldReason,
  FulfillmentLineItemRecord,
  FulfillmentOrderRecord,
  FulfillmentRecord,
  MoneyBag,
  MoneyV2,
  OrderCancelReason,
  OrderRecord,
  ReturnDeclineReason,
  ReturnLineItemRecord,
  ReturnRecord,
  ReverseDeliveryRecord,
  ReverseFulfillmentOrderRecord,
  ShopifyEmulatorState,
} from "./model";
import type { NewOrderKind } from "./new-orders";
import { calculateActualQueryCost, calculateRequestedQueryCost, SINGLE_QUERY_MAX_COST } from "./query-cost";
import {
  createCostBucket,
  DEFAULT_SHOPIFY_PLAN,
  type RateLimit,
  type ShopifyPlan,
  type ThrottleStatus,
} from "./rate-limit";
import {
  approveReturn,
  cancelReturn,
  declineReturn,
  handleReturnApproveRequest,
  handleReturnCreate,
  handleReturnDeclineRequest,
  handleReturnRequest,
  handleReverseDeliveryCreateWithShipping,
  handleReverseDeliveryShippingUpdate,
  requestReturn,
  type ReturnRequestSpec,
  type ReturnsOutcome,
  seedReturnRequests,
} from "./returns";
import { ADMIN_API_VERSION, loadAdminSchema } from "./schema";
import { createSeedState, DEFAULT_SHOP_DOMAIN, type SeedContext } from "./seed";
import {
  cancelOrder,
  type CreatedOrder,
  createOrder,
  holdFulfillmentOrder,
  markScheduledFulfillmentOrderReady,
  type MovedFulfillmentOrder,
  moveFulfillmentOrder,
  type MutationOutcome,
  releaseFulfillmentOrderHold,
  type ShippingAddressInput,
  ShopifyEmulatorControlError,
  toGid,
  updateShippingAddress,
  updateShippingLine,
} from "./store-mutations";
import { createWebhookSender, type WebhookSender, type WebhookSenderOptions } from "./webhooks";

// An in-memory slice of the Shopify Admin GraphQL API. Documents are executed by graphql-js on
// Shopify's real schema, so parse and validation errors come back exactly where Shopify would
// refuse the document. What is not emulated (see README.md) fails loudly instead of answering
// with invented data.

export type AdminGraphqlHandler = (
  query: string,
  options?: { variables?: Record<string, unknown> },
) => Promise<Response>;

export type { RateLimit, ShopifyPlan, ThrottleStatus } from "./rate-limit";

// Failures a test or the demo can trigger for the next request.
export type ShopifyEmulatorFailure = "THROTTLED" | "SERVICE_UNAVAILABLE";

export interface ShopifyAdminEmulatorOptions {
  shop?: string;
  // How many generated orders (generated-orders.ts) precede the scenario orders; default 0.
  generatedOrders?: number;
  // Replace or adjust the seeded store; receives a fresh seed and returns the state to serve.
  seed?: (state: ShopifyEmulatorState) => ShopifyEmulatorState;
  // When set, fetch() requires this X-Shopify-Access-Token (in-process graphql() skips auth).
  accessToken?: string;
  // false emulates an app without Level 2 protected customer data approval: protected fields
  // resolve to null with an error, next to the rest of the data.
  protectedCustomerDataApproved?: boolean;
  // The store's Shopify plan, which sets its rate limit (rate-limit.ts): a leaky bucket of
  // query-cost points of the size and restore rate Shopify gives the plan. Default "standard"
  // (2,000 points, 100 restored per second), where most merchants are.
  plan?: ShopifyPlan;
  // Overrides the plan's bucket size or restore rate (either or both); false turns throttling off.
  throttle?: { maximumAvailable?: number; restoreRate?: number } | false;
  // Milliseconds since the epoch; tests inject a clock to drain and refill the bucket deterministically.
  // Store mutations (createOrder, cancelOrder…) date their changes and events with it too.
  now?: () => number;
  // Deliver the store's webhook events to an app (webhooks.ts); without it events are only recorded.
  webhooks?: WebhookSenderOptions;
  // How long a bulk query operation runs before it completes (bulk-operations.ts); default 1 s
  // plus 1 ms an object.
  bulkOperationDurationMs?: (objectCount: number) => number;
  // The app's access scopes. When set, a field whose `requiredAccess` (from the schema) none of
  // them meets resolves to null with an ACCESS_DENIED error (access-scopes.ts); unset, every
  // field answers. The loopback server passes its app's scopes.
  accessScopes?: readonly string[];
}

// One event the store emitted, whether or not a subscription sends it anywhere.
export interface EmittedWebhookEvent {
  eventId: string;
  topic: string;
  payload: unknown;
  triggeredAt: string;
}

export interface ShopifyAdminEmulator {
  shop: string;
  graphqlUrl: string;
  graphql: AdminGraphqlHandler;
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  reset: () => void;
  fulfillments: () => FulfillmentRecord[];
  // A fulfillment's tracking events (fulfillmentEventCreate) in the order they were created;
  // throws a ShopifyEmulatorControlError (NOT_FOUND) for an unknown fulfillment.
  fulfillmentEvents: (fulfillmentId: string | number) => FulfillmentEventRecord[];
  state: () => ShopifyEmulatorState;
  findOrderByName: (name: string) => OrderRecord | undefined;
  findFulfillmentOrder: (id: string) => FulfillmentOrderRecord | undefined;
  failNextRequest: (failure: ShopifyEmulatorFailure) => void;
  setProtectedCustomerDataApproved: (approved: boolean) => void;
  // The store's plan (option `plan`, default "standard"), and the bucket it gives after `throttle`.
  plan: ShopifyPlan;
  rateLimit: RateLimit;
  // The bucket as Shopify would report it now.
  throttleStatus: () => ThrottleStatus;
  // Query cost points spent since the start (actual costs, as each response reports them).
  queryCostSpent: () => number;

  // What happens in the store outside the app (store-mutations.ts). Each changes the store at
  // once (the next query sees it), emits the webhook events Shopify would and returns before any
  // is delivered. Ids are GIDs or bare numbers; a request Shopify's admin would not allow throws
  // a ShopifyEmulatorControlError.
  createOrder: (spec?: { kind?: NewOrderKind }) => CreatedOrder;
  cancelOrder: (orderId: string | number, reason?: OrderCancelReason) => OrderRecord;
  updateShippingAddress: (orderId: string | number, address: ShippingAddressInput) => OrderRecord;
  /** The order's shipping method renamed (`{ title }`), as an order edit does. */
  updateShippingLine: (orderId: string | number, changes: unknown) => OrderRecord;
  holdFulfillmentOrder: (
    fulfillmentOrderId: string | number,
    reason?: FulfillmentHoldReason,
    notes?: string,
  ) => FulfillmentOrderRecord;
  releaseFulfillmentOrderHold: (fulfillmentOrderId: string | number) => FulfillmentOrderRecord;
  moveFulfillmentOrder: (fulfillmentOrderId: string | number, locationId: string | number) => MovedFulfillmentOrder;
  markScheduledFulfillmentOrderReady: (fulfillmentOrderId: string | number) => FulfillmentOrderRecord;
  // Returns (returns.ts): a customer's request from their account (REQUESTED; default every
  // fulfilled item), and the merchant approving, declining or cancelling it in Shopify's admin.
  requestReturn: (orderId: string | number, spec?: ReturnRequestSpec) => ReturnRecord;
  approveReturn: (returnId: string | number) => ReturnRecord;
  declineReturn: (returnId: string | number, decline?: { reason?: ReturnDeclineReason; note?: string }) => ReturnRecord;
  cancelReturn: (returnId: string | number) => ReturnRecord;
  // Every return of the store, in the order of the store's orders (what tests assert on).
  returns: () => { orderName: string; ret: ReturnRecord }[];
  // Emits any topic with any payload (app/uninstalled, customers/redact…), delivered like the rest.
  triggerWebhook: (topic: string, payload: unknown) => EmittedWebhookEvent;
  // Every event emitted since the last reset, oldest first, subscribed to or not.
  webhookEvents: () => EmittedWebhookEvent[];
  // The delivery side (log, redeliver); null without the `webhooks` option.
  webhooks: WebhookSender | null;
  // Resolves when every pending delivery has succeeded or given up.
  flushWebhooks: () => Promise<void>;
  // Stops delivery timers for good (the loopback server calls it on close).
  close: () => void;
}

export interface EmulatorContext {
  state: ShopifyEmulatorState;
  protectedCustomerDataApproved: boolean;
  // Indexes built once per state (and again after a mutation), so a page of a 10,000-order store
  // does not walk every order: by id, by line item, and the orders in each sort order.
  lookups: () => Lookups;
  // Drops the indexes after a change to the store; they are rebuilt on next use.
  storeChanged: () => void;
  // The emulator's clock (option `now`), for what a mutation dates.
  now: () => number;
  // The store's bulk query operations.
  bulk: BulkOperations;
  // A bulk operation's query: connections without `first` or `last` answer every node.
  unbounded?: boolean;
  // Records a webhook event of a mutation the app ran (returnApproveRequest → returns/approve).
  emit: (topic: string, payload: unknown) => void;
  // The app's scopes and the schema's requirements, when access is checked (option accessScopes).
  access: AccessCheck | null;
}

// Each index is built on first use and holds what only a mutation (new fulfillments, statuses,
// remaining quantities) or a caller editing records changes: a mutation drops them all, and so do
// reset(), state(), findOrderByName() and findFulfillmentOrder(), which hand records out to edit.
// Fields in answers are still read from the records themselves.
interface Lookups {
  // The orders array and length they were built from: a caller that added or replaced orders
  // through state() gets fresh indexes even if it did so after a request.
  builtFrom: { orders: OrderRecord[]; count: number };
  nodes: Map<string, Rec>;
  orderById: Map<string, OrderRecord>;
  orderByLineItemId: Map<string, OrderRecord>;
  fulfillmentOrderById: Map<string, FulfillmentOrderRecord>;
  fulfillmentById: Map<string, FulfillmentRecord>;
  returnById: Map<string, ReturnRecord>;
  reverseFulfillmentOrderById: Map<string, ReverseFulfillmentOrderRecord>;
  reverseDeliveryById: Map<string, ReverseDeliveryRecord>;
  // All orders in the order `orders(sortKey:)` returns them (before `reverse`).
  ordersByCreatedAt: readonly OrderRecord[];
  ordersById: readonly OrderRecord[];
  // What an order search reads from an order's fulfillment orders, worked out once per order.
  searchFactsOf: (order: OrderRecord) => OrderSearchFacts;
}

// Walking every fulfillment order and line of 10,000 orders (records spread over the heap) took
// 10–30 ms per search; reading these per order takes about a millisecond for the whole store.
// A mutation changes them (fulfillment statuses, remaining quantities), so they live in the
// lookups a mutation drops.
interface OrderSearchFacts {
  displayFulfillmentStatus: string;
  // Each fulfillment order's delivery method type as searched: underscores dropped, lower case.
  deliveryMethods: readonly string[];
}

// The first record with each id, as Array.find over the same records would return.
function indexFirst<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T> {
  const index = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (!index.has(k)) index.set(k, item);
  }
  return index;
}

function createLookups(state: ShopifyEmulatorState): Lookups {
  const orders = state.orders;
  const cache: Partial<Omit<Lookups, "builtFrom" | "searchFactsOf">> = {};
  const searchFacts = new Map<OrderRecord, OrderSearchFacts>();
  return {
    builtFrom: { orders, count: orders.length },
    get nodes() {
      return (cache.nodes ??= indexNodes(state));
    },
    get orderById() {
      return (cache.orderById ??= indexFirst(orders, (o) => o.id));
    },
    get orderByLineItemId() {
      if (!cache.orderByLineItemId) {
        cache.orderByLineItemId = new Map();
        for (const order of orders) for (const line of order.lineItems) cache.orderByLineItemId.set(line.id, order);
      }
      return cache.orderByLineItemId;
    },
    get fulfillmentOrderById() {
      return (cache.fulfillmentOrderById ??= indexFirst(allFulfillmentOrders(state), (fo) => fo.id));
    },
    get fulfillmentById() {
      return (cache.fulfillmentById ??= indexFirst(
        orders.flatMap((o) => o.fulfillments),
        (f) => f.id,
      ));
    },
    get returnById() {
      return (cache.returnById ??= indexFirst(
        orders.flatMap((o) => o.returns ?? []),
        (r) => r.id,
      ));
    },
    get reverseFulfillmentOrderById() {
      return (cache.reverseFulfillmentOrderById ??= indexFirst(
        orders.flatMap((o) => (o.returns ?? []).flatMap((r) => r.reverseFulfillmentOrders)),
        (rfo) => rfo.id,
      ));
    },
    get reverseDeliveryById() {
      return (cache.reverseDeliveryById ??= indexFirst(
        orders.flatMap((o) =>
          (o.returns ?? []).flatMap((r) => r.reverseFulfillmentOrders.flatMap((rfo) => rfo.reverseDeliveries)),
        ),
        (d) => d.id,
      ));
    },
    // Sorted once rather than per request: sorting 10,000 orders dominated a page. Array sort is
    // stable, so filtering the sorted list gives what sorting the filtered list gave.
    get ordersByCreatedAt() {
      return (cache.ordersByCreatedAt ??= [...orders].sort(byCreatedAt));
    },
    get ordersById() {
      return (cache.ordersById ??= [...orders].sort((a, b) => numericId(a.id) - numericId(b.id)));
    },
    searchFactsOf(order) {
      let facts = searchFacts.get(order);
      if (!facts) {
        facts = {
          displayFulfillmentStatus: computeDisplayFulfillmentStatus(order),
          deliveryMethods: order.fulfillmentOrders.map((fo) =>
            fo.deliveryMethod.methodType.replace(/_/g, "").toLowerCase(),
          ),
        };
        searchFacts.set(order, facts);
      }
      return facts;
    },
  };
}

type Rec = Record<string, unknown>;
const isRecord = (value: unknown): value is Rec => typeof value === "object" && value !== null;

// Fields Shopify marks `isProtected` (Level 2 protected customer data), from the schema metadata.
const PROTECTED_FIELDS: Record<string, ReadonlySet<string>> = {
  Order: new Set(["email", "phone"]),
  MailingAddress: new Set([
    "name",
    "firstName",
    "lastName",
    "address1",
    "address2",
    "zip",
    "phone",
    "formatted",
    "latitude",
    "longitude",
  ]),
  FulfillmentOrderDestination: new Set([
    "firstName",
    "lastName",
    "address1",
    "address2",
    "city",
    "zip",
    "phone",
    "email",
  ]),
};

function allFulfillmentOrders(state: ShopifyEmulatorState): FulfillmentOrderRecord[] {
  return state.orders.flatMap((o) => o.fulfillmentOrders);
}

function computeDisplayFulfillmentStatus(order: OrderRecord): string {
  let total = 0;
  let remaining = 0;
  for (const fo of order.fulfillmentOrders) {
    if (fo.status === "CANCELLED" || fo.hiddenFromMerchant) continue;
    for (const line of fo.lineItems) {
      total += line.totalQuantity;
      remaining += line.remainingQuantity;
    }
  }
  if (total === 0) return "FULFILLMENT_NOT_REQUIRED";
  // Since 2026-10, like Shopify: an order cancelled before anything shipped needs no fulfillment.
  if (order.cancelledAt && remaining === total) return "FULFILLMENT_NOT_REQUIRED";
  if (remaining === 0) return "FULFILLED";
  // Like Shopify's admin: an order whose every shipment left to fulfil is held (or scheduled) says so.
  const waiting = order.fulfillmentOrders.filter(
    (fo) =>
      fo.status !== "CANCELLED" &&
      fo.status !== "CLOSED" &&
      !fo.hiddenFromMerchant &&
      fo.lineItems.some((line) => line.remainingQuantity > 0),
  );
  if (waiting.length > 0 && waiting.every((fo) => fo.status === "ON_HOLD")) return "ON_HOLD";
  if (waiting.length > 0 && waiting.every((fo) => fo.status === "SCHEDULED")) return "SCHEDULED";
  if (remaining < total) return "PARTIALLY_FULFILLED";
  return "UNFULFILLED";
}

const zeroMoney = (shopCurrency: string, presentmentCurrency: string): MoneyBag => ({
  shopMoney: { amount: "0.0", currencyCode: shopCurrency },
  presentmentMoney: { amount: "0.0", currencyCode: presentmentCurrency },
});

function shippingPriceOf(order: OrderRecord): MoneyBag {
  return order.shippingLine?.originalPriceSet ?? zeroMoney(order.currencyCode, order.presentmentCurrencyCode);
}

const GRAMS_PER_UNIT = { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 } as const;

// Values computed from the state rather than stored, so they stay right after mutations.
type Computed = (source: Rec, args: Rec, ctx: EmulatorContext) => unknown;
const COMPUTED: Record<string, Record<string, Computed>> = {
  Order: {
    displayFulfillmentStatus: (o) => computeDisplayFulfillmentStatus(o as unknown as OrderRecord),
    requiresShipping: (o) => (o as unknown as OrderRecord).lineItems.some((l) => l.requiresShipping),
    totalWeight: (o) =>
      String(
        Math.round(
          (o as unknown as OrderRecord).lineItems.reduce(
            (g, l) => g + (l.weight ? l.weight.value * GRAMS_PER_UNIT[l.weight.unit] * l.quantity : 0),
            0,
          ),
        ),
      ),
    legacyResourceId: (o) => String(o.id).split("/").pop(),
    // No shipping refunds or discounts are modelled: the current price is what the line charged.
    currentShippingPriceSet: (o) => shippingPriceOf(o as unknown as OrderRecord),
    returns: (o) => (o as unknown as OrderRecord).returns ?? [],
    returnStatus: (o) => computeReturnStatus(o as unknown as OrderRecord),
    fulfillmentOrders: (o, args) =>
      (o as unknown as OrderRecord).fulfillmentOrders.filter(
        (fo) => args.displayable !== true || !fo.hiddenFromMerchant,
      ),
  },
  ShippingLine: {
    originalPriceSet: (line) => line.originalPriceSet ?? zeroMoney("USD", "USD"),
    discountedPriceSet: (line) => line.originalPriceSet ?? zeroMoney("USD", "USD"),
  },
  LineItem: {
    unfulfilledQuantity: (li, _a, ctx) => {
      const order = ctx.lookups().orderByLineItemId.get(String(li.id));
      return (order?.fulfillmentOrders ?? [])
        .filter((fo) => fo.status !== "CANCELLED")
        .flatMap((fo) => fo.lineItems)
        .filter((l) => l.lineItem.id === li.id)
        .reduce((n, l) => n + l.remainingQuantity, 0);
    },
  },
  FulfillmentOrder: {
    supportedActions: (fo) => {
      const status = (fo as unknown as FulfillmentOrderRecord).status;
      const actions =
        status === "OPEN" || status === "IN_PROGRESS"
          ? ["CREATE_FULFILLMENT", "HOLD", "MOVE", "SPLIT"]
          : status === "ON_HOLD"
            ? ["RELEASE_HOLD"]
            : status === "SCHEDULED"
              ? ["MARK_AS_OPEN"]
              : [];
      return actions.map((action) => ({ __typename: "FulfillmentOrderSupportedAction", action, externalUrl: null }));
    },
    order: (fo, _a, ctx) => ctx.lookups().orderById.get(String(fo.orderId)),
    fulfillments: (fo, _a, ctx) =>
      (ctx.lookups().orderById.get(String(fo.orderId))?.fulfillments ?? []).filter((f) =>
        f.fulfillmentOrderIds.includes(String(fo.id)),
      ),
    remainingLineItemsWeight: () => null,
  },
  Fulfillment: {
    order: (f, _a, ctx) => ctx.lookups().orderById.get(String(f.orderId)),
    fulfillmentLineItems: (f) => (f as unknown as FulfillmentRecord).lineItems.map(fulfillmentLineItemNode),
    legacyResourceId: (f) => String(f.id).split("/").pop(),
    events: (f, args) => sortFulfillmentEvents((f as unknown as FulfillmentRecord).events ?? [], args.sortKey),
    displayStatus: (f) => fulfillmentTrackingState(f as unknown as FulfillmentRecord).displayStatus,
    inTransitAt: (f) => fulfillmentTrackingState(f as unknown as FulfillmentRecord).inTransitAt,
    deliveredAt: (f) => fulfillmentTrackingState(f as unknown as FulfillmentRecord).deliveredAt,
    estimatedDeliveryAt: (f) => fulfillmentTrackingState(f as unknown as FulfillmentRecord).estimatedDeliveryAt,
  },
  Location: { legacyResourceId: (l) => String(l.id).split("/").pop() },
  Return: {
    order: (r, _a, ctx) => ctx.lookups().orderById.get(String(r.orderId)),
    totalQuantity: (r) => (r as unknown as ReturnRecord).returnLineItems.reduce((n, l) => n + l.quantity, 0),
    // Not modelled: exchanges, refunds, fees (empty, as on a return without them).
    exchangeLineItems: () => [],
    refunds: () => [],
    transactions: () => [],
    returnShippingFees: () => [],
  },
  ReturnLineItem: {
    fulfillmentLineItem: (l) => fulfillmentLineItemNode((l as unknown as ReturnLineItemRecord).fulfillmentLineItem),
    // Nothing is processed (restocked or refunded) in the emulator: every item is still to do.
    processedQuantity: () => 0,
    refundedQuantity: () => 0,
    unprocessedQuantity: (l) => l.quantity,
    processableQuantity: (l) => l.quantity,
    refundableQuantity: (l) => l.quantity,
    totalWeight: (l) => {
      const line = l as unknown as ReturnLineItemRecord;
      const weight = line.fulfillmentLineItem.lineItem.weight;
      return weight ? { __typename: "Weight", unit: weight.unit, value: weight.value * line.quantity } : null;
    },
    withCodeDiscountedTotalPriceSet: (l) => {
      const line = l as unknown as ReturnLineItemRecord;
      return moneyTimes(line.fulfillmentLineItem.lineItem.discountedUnitPriceAfterAllDiscountsSet, line.quantity);
    },
  },
  ReverseFulfillmentOrder: {
    order: (rfo, _a, ctx) => ctx.lookups().orderById.get(String(rfo.orderId)),
  },
  ReverseFulfillmentOrderLineItem: {
    fulfillmentLineItem: (l) =>
      fulfillmentLineItemNode((l as unknown as { fulfillmentLineItem: FulfillmentLineItemRecord }).fulfillmentLineItem),
  },
  ReverseDelivery: {
    reverseFulfillmentOrder: (d, _a, ctx) =>
      ctx.lookups().reverseFulfillmentOrderById.get(String(d.reverseFulfillmentOrderId)),
    deliverable: (d) => {
      const { label, tracking } = d as unknown as ReverseDeliveryRecord;
      return {
        __typename: "ReverseDeliveryShippingDeliverable",
        label: label && {
          __typename: "ReverseDeliveryLabelV2",
          publicFileUrl: label.fileUrl,
          createdAt: label.createdAt,
          updatedAt: label.updatedAt,
        },
        tracking: tracking && { __typename: "ReverseDeliveryTrackingV2", ...tracking },
      };
    },
    reverseDeliveryLineItems: (d, _a, ctx) => {
      const delivery = d as unknown as ReverseDeliveryRecord;
      const rfo = ctx.lookups().reverseFulfillmentOrderById.get(delivery.reverseFulfillmentOrderId);
      return delivery.lineItems.map((l) => ({
        __typename: "ReverseDeliveryLineItem",
        id: l.id,
        quantity: l.quantity,
        reverseFulfillmentOrderLineItem: rfo?.lineItems.find((line) => line.id === l.reverseFulfillmentOrderLineItemId),
        dispositions: [],
      }));
    },
  },
};

// FulfillmentLineItem as the schema has it: Fulfillment.fulfillmentLineItems and the returns that
// point at one.
function fulfillmentLineItemNode(line: FulfillmentLineItemRecord): Rec {
  return {
    __typename: "FulfillmentLineItem",
    id: line.id,
    quantity: line.quantity,
    lineItem: line.lineItem,
    discountedTotalSet: moneyTimes(line.lineItem.discountedUnitPriceAfterAllDiscountsSet, line.quantity),
  };
}

// A unit price times a quantity, in both currencies.
function moneyTimes(unit: MoneyBag, quantity: number): Rec {
  const times = (m: MoneyV2) => ({ amount: (Number(m.amount) * quantity).toFixed(2), currencyCode: m.currencyCode });
  return { shopMoney: times(unit.shopMoney), presentmentMoney: times(unit.presentmentMoney) };
}

// Every object with an id and a __typename, for node(id:) and nodes(ids:).
function indexNodes(state: ShopifyEmulatorState): Map<string, Rec> {
  const index = new Map<string, Rec>();
  const seen = new Set<unknown>();
  const visit = (value: unknown) => {
    if (!isRecord(value) || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (typeof value.id === "string" && typeof value.__typename === "string" && !index.has(value.id))
      index.set(value.id, value);
    Object.values(value).forEach(visit);
  };
  visit(state);
  return index;
}

/**
 * Order.returnStatus, Shopify's one status over an order's returns, the most pressing first: a
 * request waiting for the merchant, then a return under way, then one completed (declined and
 * cancelled returns count as none).
 */
function computeReturnStatus(order: OrderRecord): string {
  const statuses = new Set((order.returns ?? []).map((r) => r.status));
  if (statuses.has("REQUESTED")) return "RETURN_REQUESTED";
  if (statuses.has("OPEN")) return "IN_PROGRESS";
  if (statuses.has("CLOSED")) return "RETURNED";
  return "NO_RETURN";
}

// A small subset of Shopify's order search syntax: the terms the app sends, joined by spaces or OR. Unknown terms are
// ignored (Shopify also ignores unknown search fields rather than failing). The query is read
// once into one test per term, then run against every order of the store.
type OrderTest = (order: OrderRecord) => boolean;
type SearchFactsOf = (order: OrderRecord) => OrderSearchFacts;
function compileOrderQuery(query: string | undefined, factsOf: SearchFactsOf): OrderTest {
  if (!query) return () => true;
  // `a OR b`: an order matching either side (no parentheses); terms side by side must all match.
  const alternatives = query.split(/\s+OR\s+/);
  if (alternatives.length > 1) {
    const tests = alternatives.map((alternative) => compileOrderQuery(alternative, factsOf));
    return (order) => tests.some((test) => test(order));
  }
  const terms = query.match(/(\S+:"[^"]*"|\S+)/g) ?? [];
  const tests: OrderTest[] = [];
  for (const term of terms) {
    const [rawKey, ...rest] = term.split(":");
    const key = (rawKey ?? "").toLowerCase();
    const value = rest.join(":").replace(/^"|"$/g, "").toLowerCase();
    if (!value) continue;
    const test = compileOrderTerm(key, value, factsOf);
    if (test) tests.push(test);
  }
  return (order) => tests.every((test) => test(order));
}

// One term's test, or undefined for a term every order matches.
function compileOrderTerm(key: string, value: string, factsOf: SearchFactsOf): OrderTest | undefined {
  switch (key) {
    case "fulfillment_status": {
      const isOneOf =
        (...statuses: string[]): OrderTest =>
        (order) =>
          statuses.includes(factsOf(order).displayFulfillmentStatus);
      // A held or scheduled order is still unfulfilled to the search, whatever the admin displays.
      if (value === "unfulfilled") return isOneOf("UNFULFILLED", "PARTIALLY_FULFILLED", "ON_HOLD", "SCHEDULED");
      if (value === "unshipped") return isOneOf("UNFULFILLED", "ON_HOLD", "SCHEDULED");
      if (value === "partial") return isOneOf("PARTIALLY_FULFILLED");
      if (value === "shipped" || value === "fulfilled") return isOneOf("FULFILLED");
      return value === "any" ? undefined : () => false;
    }
    case "status":
      if (value === "open") return (order) => !order.closed && !order.cancelledAt;
      if (value === "closed") return (order) => order.closed;
      if (value === "cancelled") return (order) => Boolean(order.cancelledAt);
      return undefined;
    case "financial_status":
      return value === "any" ? undefined : (order) => order.displayFinancialStatus.toLowerCase() === value;
    case "name": {
      const name = value.startsWith("#") ? value : `#${value}`;
      return (order) => order.name.toLowerCase() === name;
    }
    case "delivery_method": {
      // shipping, pick-up, pickup_point, local, retail, none: any fulfillment order with that method.
      const wanted = value.replace(/[-_\s]/g, "");
      return (order) => factsOf(order).deliveryMethods.includes(wanted);
    }
    case "id":
      return (order) => order.id.endsWith(`/${value}`);
    case "return_status":
      // Shopify's OrderReturnStatus, lower case: return_requested, in_progress, returned, no_return…
      return (order) => computeReturnStatus(order).toLowerCase() === value;
    default:
      return undefined;
  }
}

const CURSOR_PREFIX = "emulator:";
const encodeCursor = (i: number) => Buffer.from(`${CURSOR_PREFIX}${i}`).toString("base64");
function decodeCursor(cursor: unknown): number {
  const text = typeof cursor === "string" ? Buffer.from(cursor, "base64").toString("utf8") : "";
  const n = Number(text.slice(CURSOR_PREFIX.length));
  if (!text.startsWith(CURSOR_PREFIX) || !Number.isInteger(n))
    throw new GraphQLError("Invalid cursor for current pagination sort.");
  return n;
}

const MAX_PAGE_SIZE = 250;

function buildConnection(all: unknown[], args: Rec, unbounded: boolean): Rec {
  let first = typeof args.first === "number" ? args.first : undefined;
  const last = typeof args.last === "number" ? args.last : undefined;
  if (first === undefined && last === undefined && unbounded) first = all.length;
  else if (first === undefined && last === undefined) throw new GraphQLError("you must provide one of first or last");
  else if (unbounded) throw new GraphQLError("Bulk queries ignore first and last: leave them out.");
  if (!unbounded && (first ?? last ?? 0) > MAX_PAGE_SIZE)
    throw new GraphQLError(`The maximum number of items allowed per page is ${MAX_PAGE_SIZE}.`);
  const items = args.reverse === true ? [...all].reverse() : all;
  let start = args.after != null ? decodeCursor(args.after) + 1 : 0;
  let end = args.before != null ? decodeCursor(args.before) : items.length;
  if (first !== undefined) end = Math.min(end, start + first);
  if (last !== undefined) start = Math.max(start, end - last);
  const slice = items.slice(start, end).map((node, i) => ({ cursor: encodeCursor(start + i), node }));
  return {
    edges: slice,
    nodes: slice.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice[0]?.cursor ?? null,
      endCursor: slice[slice.length - 1]?.cursor ?? null,
    },
  };
}

// Turn a plain value into what the schema expects: arrays become connections or `first`-limited
// lists, and missing required lists/booleans get Shopify's empty defaults.
function shapeValue(value: unknown, returnType: GraphQLOutputType, args: Rec, unbounded = false): unknown {
  const named = getNamedType(returnType);
  const nullable = getNullableType(returnType);
  if (Array.isArray(value) && named.name.endsWith("Connection")) return buildConnection(value, args, unbounded);
  if (Array.isArray(value) && nullable instanceof GraphQLList && typeof args.first === "number")
    return value.slice(0, args.first);
  if (value === undefined && returnType instanceof GraphQLNonNull) {
    if (nullable instanceof GraphQLList) return [];
    if (named.name === "Boolean") return false;
  }
  return value ?? null;
}

const fieldResolver: GraphQLFieldResolver<unknown, EmulatorContext> = (source, args, ctx, info) => {
  if (!isRecord(source)) return null;
  const typeName = info.parentType.name;
  if (!ctx.protectedCustomerDataApproved && PROTECTED_FIELDS[typeName]?.has(info.fieldName)) {
    throw new GraphQLError(
      `This app is not approved to access the ${typeName} object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.`,
      { extensions: { code: "ACCESS_DENIED" } },
    );
  }
  const denied = ctx.access?.denied(typeName, info.fieldName, info.returnType);
  if (denied) {
    throw new GraphQLError(accessDeniedMessage(info.fieldName, denied), {
      extensions: {
        code: "ACCESS_DENIED",
        documentation: "https://shopify.dev/api/usage/access-scopes",
        requiredAccess: denied,
      },
    });
  }
  const computed = COMPUTED[typeName]?.[info.fieldName];
  let value: unknown = computed ? computed(source, args, ctx) : source[info.fieldName];
  const isRoot = typeName === "QueryRoot" || typeName === "Mutation";
  if (isRoot && value === undefined) {
    throw new GraphQLError(`The Shopify Admin emulator does not implement ${typeName}.${info.fieldName}.`, {
      extensions: { code: "NOT_IMPLEMENTED_IN_EMULATOR" },
    });
  }
  if (typeof value === "function") value = (value as (a: Rec, c: EmulatorContext) => unknown)(args, ctx);
  return shapeValue(value, info.returnType, args, ctx.unbounded === true);
};

const typeResolver: GraphQLTypeResolver<unknown, EmulatorContext> = (value) =>
  isRecord(value) && typeof value.__typename === "string" ? value.__typename : undefined;

const numericId = (id: string) => Number(id.split("/").pop());

// Plain comparisons: localeCompare is slow enough to matter when sorting 10,000 orders per query.
const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
function byCreatedAt(a: OrderRecord, b: OrderRecord) {
  return compareStrings(a.createdAt, b.createdAt) || compareStrings(a.id, b.id);
}

function createRootValue() {
  return {
    shop: (_: Rec, ctx: EmulatorContext) => ctx.state.shop,
    order: (args: Rec, ctx: EmulatorContext) => ctx.lookups().orderById.get(String(args.id)) ?? null,
    orders: (args: Rec, ctx: EmulatorContext) => {
      const lookups = ctx.lookups();
      const matches = compileOrderQuery(typeof args.query === "string" ? args.query : undefined, lookups.searchFactsOf);
      const sorted =
        args.sortKey === "CREATED_AT" || args.sortKey === "PROCESSED_AT"
          ? lookups.ordersByCreatedAt
          : lookups.ordersById;
      return sorted.filter(matches);
    },
    locations: (args: Rec, ctx: EmulatorContext) =>
      ctx.state.locations.filter((l) => args.includeInactive === true || l.isActive),
    location: (args: Rec, ctx: EmulatorContext) =>
      args.id == null ? (ctx.state.locations[0] ?? null) : (ctx.state.locations.find((l) => l.id === args.id) ?? null),
    fulfillmentOrder: (args: Rec, ctx: EmulatorContext) =>
      ctx.lookups().fulfillmentOrderById.get(String(args.id)) ?? null,
    fulfillment: (args: Rec, ctx: EmulatorContext) => ctx.lookups().fulfillmentById.get(String(args.id)) ?? null,
    return: (args: Rec, ctx: EmulatorContext) => ctx.lookups().returnById.get(String(args.id)) ?? null,
    reverseFulfillmentOrder: (args: Rec, ctx: EmulatorContext) =>
      ctx.lookups().reverseFulfillmentOrderById.get(String(args.id)) ?? null,
    reverseDelivery: (args: Rec, ctx: EmulatorContext) =>
      ctx.lookups().reverseDeliveryById.get(String(args.id)) ?? null,
    node: (args: Rec, ctx: EmulatorContext) =>
      // Orders directly: indexing every node of a 10,000-order store takes a moment.
      (ctx.lookups().orderById.get(String(args.id)) as Rec | undefined) ??
      ctx.lookups().nodes.get(String(args.id)) ??
      ctx.bulk.find(String(args.id)) ??
      null,
    bulkOperation: (args: Rec, ctx: EmulatorContext) => ctx.bulk.find(String(args.id)),
    currentBulkOperation: (args: Rec, ctx: EmulatorContext) => (args.type === "MUTATION" ? null : ctx.bulk.current()),
    bulkOperationRunQuery: (args: Rec, ctx: EmulatorContext) => ctx.bulk.runQuery(String(args.query)),
    // Shopify counts up to `limit` (10,000 unless given) and says AT_LEAST past it.
    ordersCount: (args: Rec, ctx: EmulatorContext) => {
      const lookups = ctx.lookups();
      const matches = compileOrderQuery(typeof args.query === "string" ? args.query : undefined, lookups.searchFactsOf);
      const limit = typeof args.limit === "number" ? args.limit : 10_000;
      const count = lookups.ordersById.filter(matches).length;
      return { __typename: "Count", count: Math.min(count, limit), precision: count > limit ? "AT_LEAST" : "EXACT" };
    },
    nodes: (args: Rec, ctx: EmulatorContext) => {
      const index = ctx.lookups().nodes;
      return (Array.isArray(args.ids) ? args.ids : []).map((id) => index.get(String(id)) ?? null);
    },
    // Mutations change what the indexes hold: each drops them as soon as it has run, so the next
    // field (of this document or the next) sees the change.
    fulfillmentCreate: (args: Rec, ctx: EmulatorContext) => {
      const result = handleFulfillmentCreate(ctx.state, ctx.lookups(), args);
      ctx.storeChanged();
      return result;
    },
    fulfillmentCancel: (args: Rec, ctx: EmulatorContext) => {
      const result = handleFulfillmentCancel(ctx.lookups(), args);
      ctx.storeChanged();
      return result;
    },
    fulfillmentTrackingInfoUpdate: (args: Rec, ctx: EmulatorContext) => {
      const result = handleFulfillmentTrackingInfoUpdate(ctx.lookups(), args);
      ctx.storeChanged();
      return result;
    },
    fulfillmentEventCreate: (args: Rec, ctx: EmulatorContext) => {
      const result = handleFulfillmentEventCreate(ctx.state, ctx.lookups(), args, ctx.now());
      ctx.storeChanged();
      return result;
    },
    inventoryItemUpdate: (args: Rec, ctx: EmulatorContext) => {
      const result = handleInventoryItemUpdate(ctx.state, args);
      ctx.storeChanged();
      return result;
    },
    returnRequest: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(ctx, "return", handleReturnRequest(ctx.state, ctx.lookups(), args, ctx.now())),
    returnApproveRequest: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(ctx, "return", handleReturnApproveRequest(ctx.state, ctx.lookups(), args, ctx.now())),
    returnDeclineRequest: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(ctx, "return", handleReturnDeclineRequest(ctx.state, ctx.lookups(), args, ctx.now())),
    returnCreate: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(ctx, "return", handleReturnCreate(ctx.state, ctx.lookups(), args, ctx.now())),
    reverseDeliveryCreateWithShipping: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(
        ctx,
        "reverseDelivery",
        handleReverseDeliveryCreateWithShipping(ctx.state, ctx.lookups(), args, ctx.now()),
      ),
    reverseDeliveryShippingUpdate: (args: Rec, ctx: EmulatorContext) =>
      returnPayload(ctx, "reverseDelivery", handleReverseDeliveryShippingUpdate(ctx.lookups(), args, ctx.now())),
  };
}

// A returns mutation's payload ({ return | reverseDelivery, userErrors }); an accepted change
// drops the indexes and emits its webhooks.
function returnPayload<T>(ctx: EmulatorContext, key: string, outcome: ReturnsOutcome<T>): Rec {
  if (outcome.result !== null) ctx.storeChanged();
  for (const event of outcome.events) ctx.emit(event.topic, event.payload);
  return { [key]: outcome.result, userErrors: outcome.userErrors };
}

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

// What graphql() would do before executing a document: parse it, then validate it against the
// schema. Both depend only on the schema and the query text, so each query string is prepared
// once per schema (the app sends the same few documents over and over; re-validating the Orders
// page's document took longer than answering it). Variables are applied per request. Either
// `errors` (syntax or validation, answered without executing) or nothing is set besides the
// document; a syntax error leaves no document.
interface PreparedDocument {
  document: DocumentNode | undefined;
  errors: readonly GraphQLError[] | undefined;
}

const PREPARED_LIMIT = 500;
const preparedBySchema = new WeakMap<GraphQLSchema, Map<string, PreparedDocument>>();

function prepareDocument(schema: GraphQLSchema, query: string): PreparedDocument {
  let prepared = preparedBySchema.get(schema);
  if (!prepared) preparedBySchema.set(schema, (prepared = new Map()));
  const known = prepared.get(query);
  if (known) return known;
  let entry: PreparedDocument;
  try {
    const document = parse(query);
    const errors = validate(schema, document);
    entry = { document, errors: errors.length > 0 ? errors : undefined };
  } catch (error) {
    // graphql() answers a syntax error as the only error, without data.
    if (!(error instanceof GraphQLError)) throw error;
    entry = { document: undefined, errors: [error] };
  }
  // A bound, so a long-running demo sent ever-new documents does not grow without end.
  if (prepared.size >= PREPARED_LIMIT) prepared.clear();
  prepared.set(query, entry);
  return entry;
}

export function createShopifyAdminEmulator(options: ShopifyAdminEmulatorOptions = {}): ShopifyAdminEmulator {
  const shop = options.shop ?? DEFAULT_SHOP_DOMAIN;
  const schema = loadAdminSchema();
  const rootValue = createRootValue();
  const freshState = () => {
    const count = options.generatedOrders ?? 0;
    const seeded = createSeedState({
      shop,
      ...(count > 0 ? { history: (context: SeedContext) => generateOrders(count, context) } : {}),
    });
    // A store with history has customers' return requests on its newest shipped orders (the demo).
    // History comes first in the store's orders (createSeedState).
    if (count > 0) seedReturnRequests(seeded, seeded.orders.slice(0, count));
    return options.seed ? options.seed(seeded) : seeded;
  };
  let state = freshState();
  let lookups: Lookups | undefined;
  const getLookups = () => {
    if (lookups?.builtFrom.orders !== state.orders || lookups.builtFrom.count !== state.orders.length)
      lookups = createLookups(state);
    return lookups;
  };
  let protectedCustomerDataApproved = options.protectedCustomerDataApproved ?? true;
  const pendingFailures: ShopifyEmulatorFailure[] = [];
  const plan = options.plan ?? DEFAULT_SHOPIFY_PLAN;
  const bucket = createCostBucket({
    plan,
    ...(options.throttle === undefined ? {} : { throttle: options.throttle }),
    ...(options.now ? { now: options.now } : {}),
  });
  let costSpent = 0;
  const clock = options.now ?? (() => Date.now());
  const webhooks = options.webhooks ? createWebhookSender({ ...options.webhooks, shop }) : null;
  const emitted: EmittedWebhookEvent[] = [];
  const access = options.accessScopes ? createAccessCheck(loadAccessRequirements(), options.accessScopes) : null;

  const emit = (topic: string, payload: unknown): EmittedWebhookEvent => {
    const event = { eventId: randomUUID(), topic, payload, triggeredAt: new Date(clock()).toISOString() };
    emitted.push(event);
    webhooks?.send(event);
    return event;
  };
  // Runs a store mutation: the indexes go (the next query sees the change), then the events.
  const mutate = <T>(run: (state: ShopifyEmulatorState, now: number) => MutationOutcome<T>): T => {
    const outcome = run(state, clock());
    lookups = undefined;
    for (const event of outcome.events) emit(event.topic, event.payload);
    return outcome.result;
  };

  const contextFor = (unbounded: boolean): EmulatorContext => ({
    state,
    protectedCustomerDataApproved,
    lookups: getLookups,
    storeChanged: () => {
      lookups = undefined;
    },
    now: clock,
    bulk,
    unbounded,
    emit: (topic, payload) => {
      emit(topic, payload);
    },
    access,
  });
  const bulk = createBulkOperations({
    schema,
    shop,
    now: clock,
    ...(options.bulkOperationDurationMs ? { durationMs: options.bulkOperationDurationMs } : {}),
    execute: async (document) =>
      executeDocument({ schema, document, rootValue, contextValue: contextFor(true), fieldResolver, typeResolver }),
  });

  const execute: AdminGraphqlHandler = async (query, requestOptions) => {
    const variables = requestOptions?.variables ?? {};
    const { document, errors: documentErrors } = prepareDocument(schema, query);
    const requested = document ? calculateRequestedQueryCost(schema, document, { variables }).cost : 0;
    if (requested > SINGLE_QUERY_MAX_COST) {
      return jsonResponse({
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: SINGLE_QUERY_MAX_COST },
          },
        ],
        extensions: {
          cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() },
        },
      });
    }
    const failure = pendingFailures.shift();
    if (failure === "THROTTLED") {
      return jsonResponse({
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: {
          cost: {
            requestedQueryCost: 752,
            actualQueryCost: null,
            // A bucket of this store's size and restore rate, nearly empty.
            throttleStatus: { ...bucket.status(), currentlyAvailable: 12 },
          },
        },
      });
    }
    if (failure === "SERVICE_UNAVAILABLE") return jsonResponse({ errors: "Service Unavailable" }, 503);
    // Over budget: HTTP 200 with a THROTTLED error and no data, as Shopify answers.
    if (!bucket.take(requested)) {
      return jsonResponse({
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: {
          cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() },
        },
      });
    }

    // graphql() with the parse and validation done once per document (prepareDocument).
    const schemaErrors = validateSchema(schema);
    const result: ExecutionResult =
      schemaErrors.length > 0
        ? { errors: schemaErrors }
        : documentErrors || !document
          ? { errors: documentErrors ?? [] }
          : await executeDocument({
              schema,
              document,
              variableValues: variables,
              rootValue,
              contextValue: contextFor(false),
              fieldResolver,
              typeResolver,
            });
    const body: Rec = {};
    if (result.data !== undefined) body.data = result.data;
    if (result.errors?.length) body.errors = result.errors.map((e) => e.toJSON());
    const actual = document && result.data ? calculateActualQueryCost(schema, document, result.data) : 0;
    bucket.refund(requested - actual);
    costSpent += actual;
    body.extensions = {
      cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status() },
    };
    return jsonResponse(body);
  };

  const graphqlPath = `/admin/api/${ADMIN_API_VERSION}/graphql.json`;

  const handleFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname === shop && request.method === "GET" && url.pathname.startsWith(BULK_RESULTS_PATH)) {
      // A completed bulk operation's result (on Shopify a signed storage URL, no token needed).
      const file = bulk.resultFile(url.pathname);
      return file === null
        ? jsonResponse({ errors: "Not Found" }, 404)
        : new Response(file, { headers: { "Content-Type": "application/jsonl" } });
    }
    if (url.hostname !== shop || url.pathname !== graphqlPath) {
      return jsonResponse({ errors: "Not Found" }, 404);
    }
    if (request.method !== "POST") return jsonResponse({ errors: "Not Found" }, 404);
    if (options.accessToken && request.headers.get("X-Shopify-Access-Token") !== options.accessToken) {
      return jsonResponse(
        { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
        401,
      );
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonResponse({ errors: { query: "Required parameter missing or invalid" } }, 400);
    }
    if (!isRecord(body) || typeof body.query !== "string") {
      return jsonResponse({ errors: { query: "Required parameter missing or invalid" } }, 400);
    }
    const variables = isRecord(body.variables) ? body.variables : undefined;
    return execute(body.query, { variables });
  };

  return {
    shop,
    graphqlUrl: `https://${shop}${graphqlPath}`,
    graphql: execute,
    fetch: handleFetch,
    reset: () => {
      state = freshState();
      lookups = undefined;
      emitted.length = 0;
      webhooks?.reset();
      pendingFailures.length = 0;
      bucket.reset();
      bulk.reset();
      protectedCustomerDataApproved = options.protectedCustomerDataApproved ?? true;
    },
    fulfillments: () =>
      state.orders
        .flatMap((o) => o.fulfillments)
        .filter((f) => f.createdThroughApi)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    fulfillmentEvents: (fulfillmentId) => {
      const id = toGid("Fulfillment", fulfillmentId);
      const fulfillment = getLookups().fulfillmentById.get(id);
      if (!fulfillment) throw new ShopifyEmulatorControlError("NOT_FOUND", `No fulfillment ${id}`);
      return [...(fulfillment.events ?? [])];
    },
    // Callers may change what these hand out, so the lookups are rebuilt on next use.
    state: () => {
      lookups = undefined;
      return state;
    },
    findOrderByName: (name) => {
      lookups = undefined;
      return state.orders.find((o) => o.name === name);
    },
    findFulfillmentOrder: (id) => {
      lookups = undefined;
      return allFulfillmentOrders(state).find((fo) => fo.id === id);
    },
    failNextRequest: (failure) => {
      pendingFailures.push(failure);
    },
    setProtectedCustomerDataApproved: (approved) => {
      protectedCustomerDataApproved = approved;
    },
    plan,
    rateLimit: { ...bucket.limit },
    throttleStatus: () => bucket.status(),
    queryCostSpent: () => costSpent,
    createOrder: (spec) => mutate((s, now) => createOrder(s, spec, now)),
    cancelOrder: (orderId, reason) => mutate((s, now) => cancelOrder(s, orderId, reason ? { reason } : {}, now)),
    updateShippingAddress: (orderId, address) => mutate((s, now) => updateShippingAddress(s, orderId, address, now)),
    updateShippingLine: (orderId, changes) => mutate((s, now) => updateShippingLine(s, orderId, changes, now)),
    holdFulfillmentOrder: (id, reason, notes) =>
      mutate((s, now) =>
        holdFulfillmentOrder(s, id, { ...(reason ? { reason } : {}), ...(notes ? { notes } : {}) }, now),
      ),
    releaseFulfillmentOrderHold: (id) => mutate((s, now) => releaseFulfillmentOrderHold(s, id, now)),
    moveFulfillmentOrder: (id, locationId) => mutate((s, now) => moveFulfillmentOrder(s, id, locationId, now)),
    markScheduledFulfillmentOrderReady: (id) => mutate((s, now) => markScheduledFulfillmentOrderReady(s, id, now)),
    requestReturn: (orderId, spec) => mutate((s, now) => requestReturn(s, getLookups(), orderId, spec ?? {}, now)),
    approveReturn: (id) => mutate((s, now) => approveReturn(s, getLookups(), id, now)),
    declineReturn: (id, decline) => mutate((s, now) => declineReturn(s, getLookups(), id, decline ?? {}, now)),
    cancelReturn: (id) => mutate((_s, now) => cancelReturn(getLookups(), id, now)),
    returns: () =>
      state.orders.flatMap((order) => (order.returns ?? []).map((ret) => ({ orderName: order.name, ret }))),
    triggerWebhook: (topic, payload) => emit(topic, payload),
    webhookEvents: () => [...emitted],
    webhooks,
    flushWebhooks: () => webhooks?.whenIdle() ?? Promise.resolve(),
    close: () => webhooks?.close(),
  };
}
