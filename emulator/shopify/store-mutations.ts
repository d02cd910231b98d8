import { mintId } from "./fulfillments";
import type {
  FulfillmentHoldReason,
  FulfillmentOrderRecord,
  FulfillmentOrderStatus,
  LocationRecord,
  MailingAddressRecord,
  OrderCancelReason,
  OrderRecord,
  ShopifyEmulatorState,
} from "./model";
import { buildNewOrderSpec, NEW_ORDER_KINDS, type NewOrderKind } from "./new-orders";
import { assignedLocationOf, buildOrder } from "./seed";
import {
  buildFulfillmentOrderCancelledPayload,
  buildFulfillmentOrderMovedPayload,
  buildFulfillmentOrderPayload,
  buildOrderPayload,
} from "./webhook-payloads";

// What happens in a store outside the app: a customer checks out, the merchant cancels an order,
// edits an address, holds or moves a fulfillment order. Each function changes the records the
// way Shopify would and answers the webhook events Shopify would emit for it, in order; the
// emulator (emulator.ts) drops its indexes and hands the events to the webhook sender.
//
// These are a control API for tests and the demo, not something an app can call: a request that
// Shopify's admin would not offer (an unknown id, cancelling twice) throws a
// ShopifyEmulatorControlError, which the loopback server answers as 404, 409 or 422.

export interface StoreEvent {
  topic: string;
  payload: unknown;
}

export interface MutationOutcome<T> {
  result: T;
  events: StoreEvent[];
}

export type ShopifyEmulatorControlErrorCode = "NOT_FOUND" | "CONFLICT" | "INVALID";

export class ShopifyEmulatorControlError extends Error {
  override name = "ShopifyEmulatorControlError";
  constructor(
    readonly code: ShopifyEmulatorControlErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A GID from a GID or a bare numeric id ("5829105023"), as the control endpoints take them. */
export function toGid(type: string, id: string | number): string {
  const text = String(id);
  if (/^\d+$/.test(text)) return `gid://shopify/${type}/${text}`;
  if (new RegExp(`^gid://shopify/${type}/\\d+$`).test(text)) return text;
  throw new ShopifyEmulatorControlError("INVALID", `${text} is not a ${type} id`);
}

function findOrder(state: ShopifyEmulatorState, id: string | number): OrderRecord {
  const gid = toGid("Order", id);
  const order = state.orders.find((o) => o.id === gid);
  if (!order) throw new ShopifyEmulatorControlError("NOT_FOUND", `No order ${gid}`);
  return order;
}

function findFulfillmentOrder(
  state: ShopifyEmulatorState,
  id: string | number,
): { order: OrderRecord; fo: FulfillmentOrderRecord } {
  const gid = toGid("FulfillmentOrder", id);
  for (const order of state.orders) {
    const fo = order.fulfillmentOrders.find((f) => f.id === gid);
    if (fo) return { order, fo };
  }
  throw new ShopifyEmulatorControlError("NOT_FOUND", `No fulfillment order ${gid}`);
}

// Readers for untrusted input (the loopback server's JSON bodies): the value, or INVALID.
function readEnum<T extends string>(values: readonly T[], what: string) {
  return (value: unknown): T | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
    throw new ShopifyEmulatorControlError(
      "INVALID",
      `Unknown ${what} ${JSON.stringify(value)}: use ${values.join(", ")}`,
    );
  };
}
export const readNewOrderKind = readEnum(NEW_ORDER_KINDS, "order kind");
export const readCancelReason = readEnum<OrderCancelReason>(
  ["CUSTOMER", "DECLINED", "FRAUD", "INVENTORY", "OTHER", "STAFF"],
  "cancel reason",
);
export const readHoldReason = readEnum<FulfillmentHoldReason>(
  [
    "AWAITING_PAYMENT",
    "AWAITING_RETURN_ITEMS",
    "HIGH_RISK_OF_FRAUD",
    "INCORRECT_ADDRESS",
    "INVENTORY_OUT_OF_STOCK",
    "ONLINE_STORE_POST_PURCHASE_CROSS_SELL",
    "OTHER",
    "UNKNOWN_DELIVERY_DATE",
  ],
  "hold reason",
);

const iso = (ms: number) => new Date(ms).toISOString();
const orderNumberOf = (order: OrderRecord) => Number(order.name.replace(/^#/, "")) || 0;

/** Where Shopify routes a new order: the first active location that fulfills online orders. */
function primaryLocation(state: ShopifyEmulatorState): LocationRecord {
  const location = state.locations.find((l) => l.isActive && l.fulfillsOnlineOrders) ?? state.locations[0];
  if (!location) throw new ShopifyEmulatorControlError("CONFLICT", "The store has no location to route orders to");
  return location;
}

export interface CreatedOrder {
  order: OrderRecord;
  fulfillmentOrders: FulfillmentOrderRecord[];
}

/**
 * A customer's checkout: a paid, unfulfilled order numbered after the store's highest, its one
 * fulfillment order OPEN at the primary location. Emits orders/create, then
 * fulfillment_orders/order_routing_complete per fulfillment order (Shopify routes after creating).
 */
export function createOrder(
  state: ShopifyEmulatorState,
  spec: { kind?: NewOrderKind } | undefined,
  now: number,
): MutationOutcome<CreatedOrder> {
  // Checked here too: in-process callers may pass what a JSON body held.
  const kind = readNewOrderKind(spec?.kind) ?? "domestic";
  let highest = 0;
  let newest = 0;
  for (const order of state.orders) {
    highest = Math.max(highest, orderNumberOf(order));
    newest = Math.max(newest, Date.parse(order.createdAt));
  }
  // Lists sort by creation time: a new order must come first even when the clock (a test's, or
  // one behind the seed's fixed date) reads earlier than the newest seeded order.
  const createdAt = iso(Math.max(now, newest + 60_000));
  const location = primaryLocation(state);
  // buildOrder assigns every line to the "brooklyn" location by default: here, the primary one.
  const order = buildOrder(buildNewOrderSpec(kind, highest + 1, createdAt), state.orders.length, state.variants, {
    brooklyn: location,
    reno: location,
  });
  state.orders.push(order);
  return {
    result: { order, fulfillmentOrders: order.fulfillmentOrders },
    events: [
      { topic: "orders/create", payload: buildOrderPayload(order) },
      ...order.fulfillmentOrders.map((fo) => ({
        topic: "fulfillment_orders/order_routing_complete",
        payload: buildFulfillmentOrderPayload(fo),
      })),
    ],
  };
}

// Fulfillment orders with work left that a cancellation or an address change still reaches.
const UNFINISHED: readonly FulfillmentOrderStatus[] = ["OPEN", "IN_PROGRESS", "ON_HOLD", "SCHEDULED", "INCOMPLETE"];

/**
 * The merchant cancels an order: cancelledAt and cancelReason set, the order closed, every line's
 * current quantity 0, and each unfinished fulfillment order CLOSED (Shopify's docs: cancelling
 * marks a fulfillment order closed; CANCELLED is what a fulfillment service's cancellation leaves).
 * Emits orders/cancelled, orders/updated, then fulfillment_orders/cancelled per closed one.
 */
export function cancelOrder(
  state: ShopifyEmulatorState,
  orderId: string | number,
  options: { reason?: OrderCancelReason } | undefined,
  now: number,
): MutationOutcome<OrderRecord> {
  const order = findOrder(state, orderId);
  if (order.cancelledAt) throw new ShopifyEmulatorControlError("CONFLICT", `Order ${order.name} is already cancelled`);
  const at = iso(now);
  order.cancelledAt = at;
  order.cancelReason = readCancelReason(options?.reason) ?? "CUSTOMER";
  order.closed = true;
  order.closedAt = at;
  order.updatedAt = at;
  for (const line of order.lineItems) line.currentQuantity = 0;
  const closed = order.fulfillmentOrders.filter((fo) => UNFINISHED.includes(fo.status));
  for (const fo of closed) {
    fo.status = "CLOSED";
    fo.fulfillmentHolds = [];
    fo.updatedAt = at;
  }
  const orderPayload = buildOrderPayload(order);
  return {
    result: order,
    events: [
      { topic: "orders/cancelled", payload: orderPayload },
      { topic: "orders/updated", payload: orderPayload },
      ...closed.map((fo) => ({
        topic: "fulfillment_orders/cancelled",
        payload: buildFulfillmentOrderCancelledPayload(fo),
      })),
    ],
  };
}

export interface ShippingAddressInput {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
  country?: string | null;
  countryCode?: string;
  phone?: string | null;
}

const ADDRESS_KEYS = [
  "firstName",
  "lastName",
  "company",
  "address1",
  "address2",
  "city",
  "province",
  "provinceCode",
  "zip",
  "country",
  "countryCode",
  "phone",
] as const satisfies readonly (keyof ShippingAddressInput)[];

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** Reads a partial address from untrusted JSON: known keys, strings or null, at least one. */
export function readShippingAddressInput(value: unknown): ShippingAddressInput {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ShopifyEmulatorControlError("INVALID", "The address must be a JSON object");
  }
  const entries = Object.entries(value);
  const unknown = entries.map(([key]) => key).filter((key) => !(ADDRESS_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new ShopifyEmulatorControlError(
      "INVALID",
      `Unknown address fields ${unknown.join(", ")}; use ${ADDRESS_KEYS.join(", ")}`,
    );
  }
  if (entries.length === 0) throw new ShopifyEmulatorControlError("INVALID", "The address changes nothing");
  for (const [key, field] of entries) {
    const nullable = key !== "countryCode";
    if (!(typeof field === "string" || (nullable && field === null))) {
      throw new ShopifyEmulatorControlError("INVALID", `${key} must be a string${nullable ? " or null" : ""}`);
    }
  }
  const input = value as ShippingAddressInput;
  if (input.countryCode !== undefined && !/^[A-Z]{2}$/.test(input.countryCode)) {
    throw new ShopifyEmulatorControlError(
      "INVALID",
      `countryCode must be two capital letters, got ${input.countryCode}`,
    );
  }
  return input;
}

/**
 * The merchant edits an order's shipping address: the order's address changes, and so does the
 * destination of every fulfillment order with work left (Shopify re-points those at the new
 * address; closed ones keep where they shipped). Emits orders/updated.
 */
export function updateShippingAddress(
  state: ShopifyEmulatorState,
  orderId: string | number,
  changes: ShippingAddressInput,
  now: number,
): MutationOutcome<OrderRecord> {
  const order = findOrder(state, orderId);
  const input = readShippingAddressInput(changes);
  const address = order.shippingAddress;
  if (!address) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Order ${order.name} has no shipping address (local pickup)`);
  }
  const { countryCode, ...rest } = input;
  const next: MailingAddressRecord = { ...address, ...rest };
  if (countryCode !== undefined) {
    next.countryCodeV2 = countryCode;
    if (input.country === undefined) next.country = regionNames.of(countryCode) ?? countryCode;
  }
  next.name = [next.firstName, next.lastName].filter(Boolean).join(" ") || null;
  order.shippingAddress = next;
  const at = iso(now);
  order.updatedAt = at;
  for (const fo of order.fulfillmentOrders) {
    if (!fo.destination || !UNFINISHED.includes(fo.status)) continue;
    fo.destination = {
      ...fo.destination,
      firstName: next.firstName,
      lastName: next.lastName,
      company: next.company,
      address1: next.address1,
      address2: next.address2,
      city: next.city,
      province: next.province,
      zip: next.zip,
      countryCode: next.countryCodeV2,
      phone: next.phone,
    };
    fo.updatedAt = at;
  }
  return { result: order, events: [{ topic: "orders/updated", payload: buildOrderPayload(order) }] };
}

/**
 * The merchant edits the order's shipping method (an order edit's shipping line, as Shopify's
 * orderEditUpdateShippingLine does): its title changes, what the customer paid stays. Emits
 * orders/updated.
 */
export function updateShippingLine(
  state: ShopifyEmulatorState,
  orderId: string | number,
  changes: unknown,
  now: number,
): MutationOutcome<OrderRecord> {
  const order = findOrder(state, orderId);
  const title = typeof changes === "object" && changes !== null ? (changes as { title?: unknown }).title : undefined;
  if (typeof title !== "string" || title.trim() === "" || title.length > 255) {
    throw new ShopifyEmulatorControlError("INVALID", "title must be the shipping method's name (1 to 255 characters)");
  }
  if (!order.shippingLine) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Order ${order.name} has no shipping line`);
  }
  order.shippingLine = { ...order.shippingLine, title: title.trim() };
  order.updatedAt = iso(now);
  return { result: order, events: [{ topic: "orders/updated", payload: buildOrderPayload(order) }] };
}

const HOLDABLE: readonly FulfillmentOrderStatus[] = ["OPEN", "IN_PROGRESS"];

// What a fulfillment order returns to when a hold ends: IN_PROGRESS once something has shipped.
const statusAfterHold = (fo: FulfillmentOrderRecord): FulfillmentOrderStatus =>
  fo.lineItems.some((l) => l.remainingQuantity < l.totalQuantity) ? "IN_PROGRESS" : "OPEN";

const displayReasonOf = (reason: FulfillmentHoldReason) =>
  reason.charAt(0) + reason.slice(1).toLowerCase().replace(/_/g, " ");

/**
 * The merchant holds a fulfillment order (fulfillmentOrderHold): ON_HOLD with one hold. Emits
 * fulfillment_orders/placed_on_hold.
 */
export function holdFulfillmentOrder(
  state: ShopifyEmulatorState,
  fulfillmentOrderId: string | number,
  options: { reason?: FulfillmentHoldReason; notes?: string } | undefined,
  now: number,
): MutationOutcome<FulfillmentOrderRecord> {
  const { order, fo } = findFulfillmentOrder(state, fulfillmentOrderId);
  if (!HOLDABLE.includes(fo.status)) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} is ${fo.status} and cannot be held`);
  }
  const reason = readHoldReason(options?.reason) ?? "OTHER";
  fo.fulfillmentHolds.push({
    __typename: "FulfillmentHold",
    id: mintId(state, "FulfillmentHold"),
    reason,
    reasonNotes: options?.notes ?? null,
    displayReason: displayReasonOf(reason),
    handle: null,
    heldByRequestingApp: false,
  });
  fo.status = "ON_HOLD";
  fo.updatedAt = iso(now);
  order.updatedAt = fo.updatedAt;
  return {
    result: fo,
    events: [{ topic: "fulfillment_orders/placed_on_hold", payload: buildFulfillmentOrderPayload(fo) }],
  };
}

/** The merchant releases the holds (fulfillmentOrderReleaseHold). Emits fulfillment_orders/hold_released. */
export function releaseFulfillmentOrderHold(
  state: ShopifyEmulatorState,
  fulfillmentOrderId: string | number,
  now: number,
): MutationOutcome<FulfillmentOrderRecord> {
  const { order, fo } = findFulfillmentOrder(state, fulfillmentOrderId);
  if (fo.status !== "ON_HOLD") {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} is ${fo.status}, not on hold`);
  }
  fo.fulfillmentHolds = [];
  fo.status = statusAfterHold(fo);
  fo.updatedAt = iso(now);
  order.updatedAt = fo.updatedAt;
  return {
    result: fo,
    events: [{ topic: "fulfillment_orders/hold_released", payload: buildFulfillmentOrderPayload(fo) }],
  };
}

export interface MovedFulfillmentOrder {
  originalFulfillmentOrder: FulfillmentOrderRecord;
  movedFulfillmentOrder: FulfillmentOrderRecord;
}

/**
 * The merchant changes the location (fulfillmentOrderMove): what is left to ship goes to a new
 * fulfillment order, OPEN at the new location, with new ids; the original is CLOSED, and hidden
 * from the merchant when nothing had shipped from it (as the seed's #1022). Emits
 * fulfillment_orders/moved.
 */
export function moveFulfillmentOrder(
  state: ShopifyEmulatorState,
  fulfillmentOrderId: string | number,
  locationId: string | number,
  now: number,
): MutationOutcome<MovedFulfillmentOrder> {
  const { order, fo } = findFulfillmentOrder(state, fulfillmentOrderId);
  const locationGid = toGid("Location", locationId);
  const location = state.locations.find((l) => l.id === locationGid);
  if (!location) throw new ShopifyEmulatorControlError("NOT_FOUND", `No location ${locationGid}`);
  if (!location.isActive) throw new ShopifyEmulatorControlError("CONFLICT", `Location ${location.name} is not active`);
  const source = fo.assignedLocation.location;
  if (source.id === location.id) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} is already at ${location.name}`);
  }
  if (!HOLDABLE.includes(fo.status)) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} is ${fo.status} and cannot be moved`);
  }
  const requested = fo.lineItems
    .filter((line) => line.remainingQuantity > 0)
    .map((line) => ({ line, quantity: line.remainingQuantity }));
  if (requested.length === 0) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} has nothing left to move`);
  }
  const at = iso(now);
  const moved: FulfillmentOrderRecord = {
    ...fo,
    id: mintId(state, "FulfillmentOrder"),
    status: "OPEN",
    createdAt: at,
    updatedAt: at,
    assignedLocation: assignedLocationOf(location),
    destination: fo.destination ? { ...fo.destination, id: mintId(state, "FulfillmentOrderDestination") } : null,
    deliveryMethod: { ...fo.deliveryMethod, id: mintId(state, "DeliveryMethod") },
    lineItems: requested.map(({ line, quantity }) => ({
      ...line,
      id: mintId(state, "FulfillmentOrderLineItem"),
      totalQuantity: quantity,
      remainingQuantity: quantity,
    })),
    fulfillmentHolds: [],
  };
  delete moved.hiddenFromMerchant;
  const shippedFrom = fo.lineItems.some((line) => line.remainingQuantity < line.totalQuantity);
  for (const { line, quantity } of requested) {
    // A fulfillment order that shipped part keeps only what it shipped.
    if (shippedFrom) line.totalQuantity -= quantity;
    line.remainingQuantity = 0;
  }
  fo.status = "CLOSED";
  fo.updatedAt = at;
  if (!shippedFrom) fo.hiddenFromMerchant = true;
  order.fulfillmentOrders.splice(order.fulfillmentOrders.indexOf(fo) + 1, 0, moved);
  order.updatedAt = at;
  return {
    result: { originalFulfillmentOrder: fo, movedFulfillmentOrder: moved },
    events: [
      {
        topic: "fulfillment_orders/moved",
        payload: buildFulfillmentOrderMovedPayload({ original: fo, moved, sourceLocation: source, requested }),
      },
    ],
  };
}

/**
 * A SCHEDULED fulfillment order (a prepaid subscription's next delivery) reaches its fulfillAt:
 * it opens. Emits fulfillment_orders/scheduled_fulfillment_order_ready.
 */
export function markScheduledFulfillmentOrderReady(
  state: ShopifyEmulatorState,
  fulfillmentOrderId: string | number,
  now: number,
): MutationOutcome<FulfillmentOrderRecord> {
  const { order, fo } = findFulfillmentOrder(state, fulfillmentOrderId);
  if (fo.status !== "SCHEDULED") {
    throw new ShopifyEmulatorControlError("CONFLICT", `Fulfillment order ${fo.id} is ${fo.status}, not scheduled`);
  }
  fo.status = "OPEN";
  fo.fulfillAt = iso(now);
  fo.updatedAt = fo.fulfillAt;
  order.updatedAt = fo.updatedAt;
  return {
    result: fo,
    events: [
      { topic: "fulfillment_orders/scheduled_fulfillment_order_ready", payload: buildFulfillmentOrderPayload(fo) },
    ],
  };
}
