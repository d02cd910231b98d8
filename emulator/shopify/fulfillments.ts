import { GraphQLError } from "graphql";

import type {
  FulfillmentEventRecord,
  FulfillmentEventStatus,
  FulfillmentOrderRecord,
  FulfillmentRecord,
  OrderRecord,
  ShopifyEmulatorState,
  TrackingInfoRecord,
} from "./model";

// fulfillmentCreate, fulfillmentTrackingInfoUpdate and fulfillmentEventCreate as Shopify answers
// them: problems with the request come back as userErrors (field path + message) with a null
// result, never as GraphQL errors. Messages follow the ones Shopify returns for the same cases.

interface UserError {
  field: string[] | null;
  message: string;
}

type Rec = Record<string, unknown>;
const isRecord = (value: unknown): value is Rec => typeof value === "object" && value !== null;
const asString = (value: unknown) => (typeof value === "string" ? value : undefined);
const asStringArray = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;

function readTracking(input: unknown, field: string[]): { tracking: TrackingInfoRecord[]; errors: UserError[] } {
  if (!isRecord(input)) return { tracking: [], errors: [] };
  const company = asString(input.company) ?? null;
  const number = asString(input.number);
  const numbers = asStringArray(input.numbers);
  const url = asString(input.url);
  const urls = asStringArray(input.urls);
  const errors: UserError[] = [];
  if (number !== undefined && numbers !== undefined)
    errors.push({ field, message: "Tracking number and numbers cannot both be set." });
  if (url !== undefined && urls !== undefined)
    errors.push({ field, message: "Tracking url and urls cannot both be set." });
  if (url !== undefined && number === undefined)
    errors.push({ field, message: "Tracking url requires a tracking number." });
  if (urls !== undefined && numbers === undefined)
    errors.push({ field, message: "Tracking urls requires tracking numbers." });
  for (const u of [...(url ? [url] : []), ...(urls ?? [])]) {
    if (!/^https?:\/\/\S+$/i.test(u)) errors.push({ field, message: `Tracking url ${u} is not a valid url.` });
  }
  if (errors.length) return { tracking: [], errors };
  const allNumbers = numbers ?? (number !== undefined ? [number] : []);
  const allUrls = urls ?? (url !== undefined ? [url] : []);
  const tracking =
    allNumbers.length === 0
      ? company
        ? [{ company, number: null, url: null }]
        : []
      : allNumbers.map((n, i) => ({ company, number: n, url: allUrls[i] ?? null }));
  return { tracking, errors: [] };
}

// The emulator's indexes of the store (emulator.ts), so a mutation on a 10,000-order store finds
// its records without walking every order.
export interface StoreIndex {
  orderById: ReadonlyMap<string, OrderRecord>;
  fulfillmentOrderById: ReadonlyMap<string, FulfillmentOrderRecord>;
  fulfillmentById: ReadonlyMap<string, FulfillmentRecord>;
}

// Ids the emulator mints after seeding (fulfillments here, moved fulfillment orders and holds in
// store-mutations.ts) share one counter, so they never collide with each other or the seed.
export function mintId(state: ShopifyEmulatorState, type: string): string {
  const n = state.nextId++;
  return `gid://shopify/${type}/${5399000000 + n}`;
}

export function handleFulfillmentCreate(
  state: ShopifyEmulatorState,
  index: StoreIndex,
  args: Rec,
): { fulfillment: FulfillmentRecord | null; userErrors: UserError[] } {
  const input = isRecord(args.fulfillment) ? args.fulfillment : {};
  const groups = Array.isArray(input.lineItemsByFulfillmentOrder)
    ? input.lineItemsByFulfillmentOrder.filter(isRecord)
    : [];
  const fail = (...userErrors: UserError[]) => ({ fulfillment: null, userErrors });
  if (groups.length === 0) {
    return fail({
      field: ["fulfillment", "lineItemsByFulfillmentOrder"],
      message: "Line items by fulfillment order can't be blank.",
    });
  }

  const plan: { fo: FulfillmentOrderRecord; lines: { lineIndex: number; quantity: number }[] }[] = [];
  for (const [g, group] of groups.entries()) {
    const foId = asString(group.fulfillmentOrderId);
    const fo = foId === undefined ? undefined : index.fulfillmentOrderById.get(foId);
    const path = ["fulfillment", "lineItemsByFulfillmentOrder", String(g), "fulfillmentOrderId"];
    if (!fo) return fail({ field: path, message: "Fulfillment order does not exist." });
    if (fo.status === "CLOSED" || fo.status === "CANCELLED") {
      return fail({
        field: path,
        message: `Fulfillment order ${fo.id} has an unfulfillable status= ${fo.status.toLowerCase()}.`,
      });
    }
    if (fo.status !== "OPEN" && fo.status !== "IN_PROGRESS") {
      return fail({
        field: path,
        message: `The fulfillment order does not support the create_fulfillment action (status= ${fo.status.toLowerCase()}).`,
      });
    }
    if (plan.some((p) => p.fo.id === fo.id))
      return fail({ field: path, message: "Fulfillment order ids must be unique." });

    const requested = Array.isArray(group.fulfillmentOrderLineItems)
      ? group.fulfillmentOrderLineItems.filter(isRecord)
      : undefined;
    // Omitting the line items fulfils everything that remains on the fulfillment order.
    const lines = requested
      ? requested.map((r) => ({ id: asString(r.id), quantity: typeof r.quantity === "number" ? r.quantity : NaN }))
      : fo.lineItems.map((l) => ({ id: l.id, quantity: l.remainingQuantity })).filter((l) => l.quantity > 0);
    const resolved: { lineIndex: number; quantity: number }[] = [];
    for (const [k, line] of lines.entries()) {
      const linePath = [
        "fulfillment",
        "lineItemsByFulfillmentOrder",
        String(g),
        "fulfillmentOrderLineItems",
        String(k),
      ];
      const lineIndex = fo.lineItems.findIndex((l) => l.id === line.id);
      const foLine = fo.lineItems[lineIndex];
      if (!foLine) return fail({ field: [...linePath, "id"], message: "Invalid fulfillment order line item id." });
      if (!Number.isInteger(line.quantity) || line.quantity <= 0 || line.quantity > foLine.remainingQuantity) {
        return fail({
          field: [...linePath, "quantity"],
          message: "Invalid fulfillment order line item quantity requested.",
        });
      }
      resolved.push({ lineIndex, quantity: line.quantity });
    }
    if (resolved.length === 0)
      return fail({ field: path, message: "Fulfillment order has no remaining line items to fulfill." });
    plan.push({ fo, lines: resolved });
  }

  const first = plan[0];
  if (!first) return fail({ field: ["fulfillment"], message: "Line items by fulfillment order can't be blank." });
  if (
    plan.some(
      (p) =>
        p.fo.orderId !== first.fo.orderId ||
        p.fo.assignedLocation.location.id !== first.fo.assignedLocation.location.id,
    )
  ) {
    return fail({
      field: ["fulfillment", "lineItemsByFulfillmentOrder"],
      message: "All fulfillment orders must belong to the same order and be assigned to the same location.",
    });
  }

  const { tracking, errors } = readTracking(input.trackingInfo, ["fulfillment", "trackingInfo"]);
  if (errors.length) return fail(...errors);

  const order = index.orderById.get(first.fo.orderId);
  if (!order) throw new Error(`emulator invariant: fulfillment order ${first.fo.id} has no order`);
  const now = new Date().toISOString();
  const fulfillment: FulfillmentRecord = {
    __typename: "Fulfillment",
    id: mintId(state, "Fulfillment"),
    name: `${order.name}-F${order.fulfillments.length + 1}`,
    orderId: order.id,
    status: "SUCCESS",
    createdAt: now,
    updatedAt: now,
    fulfillmentOrderIds: plan.map((p) => p.fo.id),
    trackingInfo: tracking,
    notifyCustomer: input.notifyCustomer === true,
    createdThroughApi: true,
    lineItems: [],
  };
  for (const { fo, lines } of plan) {
    for (const { lineIndex, quantity } of lines) {
      const foLine = fo.lineItems[lineIndex];
      if (!foLine) continue;
      foLine.remainingQuantity -= quantity;
      fulfillment.lineItems.push({
        id: mintId(state, "FulfillmentLineItem"),
        fulfillmentOrderLineItemId: foLine.id,
        lineItem: foLine.lineItem,
        quantity,
      });
    }
    fo.status = fo.lineItems.every((l) => l.remainingQuantity === 0) ? "CLOSED" : "IN_PROGRESS";
    fo.updatedAt = now;
  }
  order.fulfillments.push(fulfillment);
  return { fulfillment, userErrors: [] };
}

export function handleFulfillmentTrackingInfoUpdate(
  index: StoreIndex,
  args: Rec,
): { fulfillment: FulfillmentRecord | null; userErrors: UserError[] } {
  const fulfillment = index.fulfillmentById.get(String(args.fulfillmentId));
  if (!fulfillment)
    return { fulfillment: null, userErrors: [{ field: ["fulfillmentId"], message: "Fulfillment does not exist." }] };
  if (fulfillment.status === "CANCELLED") {
    return {
      fulfillment: null,
      userErrors: [{ field: ["fulfillmentId"], message: "Cannot update tracking on a cancelled fulfillment." }],
    };
  }
  const { tracking, errors } = readTracking(args.trackingInfoInput, ["trackingInfoInput"]);
  if (errors.length) return { fulfillment: null, userErrors: errors };
  fulfillment.trackingInfo = tracking;
  fulfillment.notifyCustomer = args.notifyCustomer === true;
  fulfillment.updatedAt = new Date().toISOString();
  return { fulfillment, userErrors: [] };
}

// Shopify answers DateTime in whole seconds, UTC: "2026-11-23T08:12:00Z".
const toShopifyDateTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

// A DateTime input. Shopify coerces it before running the mutation, so a value it cannot read is
// a GraphQL error (no userErrors), not a refusal of the event.
function readDateTime(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  const ms = typeof value === "string" && ISO_8601.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) {
    throw new GraphQLError(
      `Argument '${field}' on InputObject 'FulfillmentEventInput' has an invalid value (${JSON.stringify(value)}). Expected type 'DateTime'.`,
      { extensions: { code: "argumentLiteralsIncompatible", typeName: "InputObject", argumentName: field } },
    );
  }
  return toShopifyDateTime(ms);
}

const numericIdOf = (gid: string) => Number(gid.split("/").pop());

/**
 * fulfillmentEventCreate: a tracking event on a fulfillment (not cancelled), stored in creation
 * order. `happenedAt` defaults to now. What the fulfillment shows (displayStatus, inTransitAt,
 * deliveredAt, estimatedDeliveryAt) follows from its events: fulfillmentTrackingState.
 */
export function handleFulfillmentEventCreate(
  state: ShopifyEmulatorState,
  index: StoreIndex,
  args: Rec,
  now: number = Date.now(),
): { fulfillmentEvent: FulfillmentEventRecord | null; userErrors: UserError[] } {
  const input = isRecord(args.fulfillmentEvent) ? args.fulfillmentEvent : {};
  const happenedAt = readDateTime(input.happenedAt, "happenedAt") ?? toShopifyDateTime(now);
  const estimatedDeliveryAt = readDateTime(input.estimatedDeliveryAt, "estimatedDeliveryAt");
  const field = ["fulfillmentEvent", "fulfillmentId"];
  const fulfillment = index.fulfillmentById.get(String(input.fulfillmentId));
  if (!fulfillment) return { fulfillmentEvent: null, userErrors: [{ field, message: "Fulfillment does not exist." }] };
  if (fulfillment.status === "CANCELLED") {
    return {
      fulfillmentEvent: null,
      userErrors: [{ field, message: "Cannot create a fulfillment event for a cancelled fulfillment." }],
    };
  }
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
  const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  const event: FulfillmentEventRecord = {
    __typename: "FulfillmentEvent",
    id: mintId(state, "FulfillmentEvent"),
    // graphql-js has already checked it against FulfillmentEventStatus.
    status: String(input.status) as FulfillmentEventStatus,
    happenedAt,
    createdAt: toShopifyDateTime(now),
    estimatedDeliveryAt,
    message: text(input.message),
    address1: text(input.address1),
    city: text(input.city),
    province: text(input.province),
    zip: text(input.zip),
    country: text(input.country),
    latitude: number(input.latitude),
    longitude: number(input.longitude),
  };
  (fulfillment.events ??= []).push(event);
  fulfillment.updatedAt = new Date(now).toISOString();
  return { fulfillmentEvent: event, userErrors: [] };
}

/** `Fulfillment.events(sortKey:)`: HAPPENED_AT (Shopify's default) or ID, ties by id. */
export function sortFulfillmentEvents(
  events: readonly FulfillmentEventRecord[],
  sortKey: unknown,
): FulfillmentEventRecord[] {
  const byId = (a: FulfillmentEventRecord, b: FulfillmentEventRecord) => numericIdOf(a.id) - numericIdOf(b.id);
  return [...events].sort(
    sortKey === "ID" ? byId : (a, b) => Date.parse(a.happenedAt) - Date.parse(b.happenedAt) || byId(a, b),
  );
}

// Statuses that mean the parcel has gone into transit (or further).
const IN_TRANSIT_OR_LATER: ReadonlySet<FulfillmentEventStatus> = new Set([
  "IN_TRANSIT",
  "OUT_FOR_DELIVERY",
  "ATTEMPTED_DELIVERY",
  "DELIVERED",
]);

export interface FulfillmentTrackingState {
  displayStatus: string;
  inTransitAt: string | null;
  deliveredAt: string | null;
  estimatedDeliveryAt: string | null;
}

/**
 * What a fulfillment shows of its tracking events. The emulator's reading (Shopify does not
 * publish the rules):
 * - displayStatus: CANCELED for a cancelled fulfillment; else the status of the event created
 *   last (an event posted late with an older happenedAt still sets it, so an app must not post
 *   stale events); with no events, FULFILLED when it carries a tracking number, else
 *   MARKED_AS_FULFILLED.
 * - inTransitAt: the earliest happenedAt of an IN_TRANSIT, OUT_FOR_DELIVERY, ATTEMPTED_DELIVERY
 *   or DELIVERED event.
 * - deliveredAt: the happenedAt of the last DELIVERED event created.
 * - estimatedDeliveryAt: from the last event created that carries one.
 */
export function fulfillmentTrackingState(fulfillment: FulfillmentRecord): FulfillmentTrackingState {
  const events = fulfillment.events ?? [];
  const latest = events[events.length - 1];
  const displayStatus =
    fulfillment.status === "CANCELLED"
      ? "CANCELED"
      : (latest?.status ?? (fulfillment.trackingInfo.some((t) => t.number) ? "FULFILLED" : "MARKED_AS_FULFILLED"));
  let inTransitAt: string | null = null;
  let deliveredAt: string | null = null;
  let estimatedDeliveryAt: string | null = null;
  for (const event of events) {
    if (
      IN_TRANSIT_OR_LATER.has(event.status) &&
      (inTransitAt === null || Date.parse(event.happenedAt) < Date.parse(inTransitAt))
    )
      inTransitAt = event.happenedAt;
    if (event.status === "DELIVERED") deliveredAt = event.happenedAt;
    if (event.estimatedDeliveryAt !== null) estimatedDeliveryAt = event.estimatedDeliveryAt;
  }
  return { displayStatus, inTransitAt, deliveredAt, estimatedDeliveryAt };
}

/**
 * `fulfillmentCancel(id:)` as Shopify answers it: the fulfillment becomes CANCELLED and its
 * quantities return to their fulfillment orders, which reopen (OPEN, or IN_PROGRESS while another
 * fulfillment still holds some of their items). A cancelled fulfillment cannot be cancelled again.
 */
export function handleFulfillmentCancel(
  index: StoreIndex,
  args: Rec,
): { fulfillment: FulfillmentRecord | null; userErrors: UserError[] } {
  const fulfillment = index.fulfillmentById.get(String(args.id));
  if (!fulfillment)
    return { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment does not exist." }] };
  if (fulfillment.status === "CANCELLED") {
    return { fulfillment: null, userErrors: [{ field: ["id"], message: "Fulfillment has already been cancelled." }] };
  }
  const now = new Date().toISOString();
  for (const line of fulfillment.lineItems) {
    for (const foId of fulfillment.fulfillmentOrderIds) {
      const fo = index.fulfillmentOrderById.get(foId);
      const foLine = fo?.lineItems.find((l) => l.id === line.fulfillmentOrderLineItemId);
      if (!fo || !foLine) continue;
      foLine.remainingQuantity = Math.min(foLine.totalQuantity, foLine.remainingQuantity + line.quantity);
      fo.status = fo.lineItems.every((l) => l.remainingQuantity === l.totalQuantity) ? "OPEN" : "IN_PROGRESS";
      fo.updatedAt = now;
    }
  }
  fulfillment.status = "CANCELLED";
  fulfillment.updatedAt = now;
  return { fulfillment, userErrors: [] };
}
