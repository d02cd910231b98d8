import { mintId } from "./fulfillments";
import type {
  FulfillmentLineItemRecord,
  OrderRecord,
  ReturnDeclineReason,
  ReturnLineItemRecord,
  ReturnReason,
  ReturnRecord,
  ReverseDeliveryRecord,
  ReverseFulfillmentOrderRecord,
  ShopifyEmulatorState,
} from "./model";
import { SEED_NOW } from "./seed";
import { type MutationOutcome, ShopifyEmulatorControlError, type StoreEvent, toGid } from "./store-mutations";
import { buildReturnCancelledPayload, buildReturnDeclinedPayload, buildReturnPayload } from "./webhook-payloads";

// Returns as Shopify keeps them, for an app that ships return labels:
// - a customer asks for a return (REQUESTED; the customer account's request, or returnRequest);
//   the merchant approves it (OPEN, with a reverse fulfillment order for its items) or declines
//   it (DECLINED); returnCreate makes a merchant's return OPEN at once; cancelling ends it
//   (CANCELED, its reverse fulfillment orders too);
// - a reverse delivery on an OPEN return's reverse fulfillment order carries the return label's
//   file and tracking (reverseDeliveryCreateWithShipping), changed by reverseDeliveryShippingUpdate.
// Refused requests come back as ReturnUserErrors (field path, code, message) with a null result,
// like the fulfillment mutations; each accepted change also answers the webhooks Shopify sends.

export interface ReturnUserError {
  field: string[] | null;
  code: ReturnUserErrorCode;
  message: string;
}
type ReturnUserErrorCode =
  "NOT_FOUND" | "INVALID_STATE" | "INVALID" | "BLANK" | "GREATER_THAN" | "LESS_THAN_OR_EQUAL_TO" | "TAKEN";

/** A mutation's result: the record, or userErrors and no record; plus the webhooks it emits. */
export interface ReturnsOutcome<T> {
  result: T | null;
  userErrors: ReturnUserError[];
  events: StoreEvent[];
}

// The emulator's indexes of returns (emulator.ts builds them once per state of the store).
export interface ReturnsIndex {
  orderById: ReadonlyMap<string, OrderRecord>;
  returnById: ReadonlyMap<string, ReturnRecord>;
  reverseFulfillmentOrderById: ReadonlyMap<string, ReverseFulfillmentOrderRecord>;
  reverseDeliveryById: ReadonlyMap<string, ReverseDeliveryRecord>;
}

type Rec = Record<string, unknown>;
const isRecord = (value: unknown): value is Rec => typeof value === "object" && value !== null;
const iso = (ms: number) => new Date(ms).toISOString();

const refuse = <T>(...userErrors: ReturnUserError[]): ReturnsOutcome<T> => ({ result: null, userErrors, events: [] });
const accept = <T>(result: T, events: StoreEvent[] = []): ReturnsOutcome<T> => ({ result, userErrors: [], events });

export const RETURN_REASONS: readonly ReturnReason[] = [
  "COLOR",
  "DEFECTIVE",
  "NOT_AS_DESCRIBED",
  "OTHER",
  "SIZE_TOO_LARGE",
  "SIZE_TOO_SMALL",
  "STYLE",
  "UNKNOWN",
  "UNWANTED",
  "WRONG_ITEM",
];
export const RETURN_DECLINE_REASONS: readonly ReturnDeclineReason[] = ["FINAL_SALE", "OTHER", "RETURN_PERIOD_ENDED"];

// Returns that still hold their items: a declined or canceled one gives them back.
const holdsItems = (ret: ReturnRecord) => ret.status !== "DECLINED" && ret.status !== "CANCELED";

/** How many of a fulfilled line item can still be returned: shipped, less what returns hold. */
export function returnableQuantity(order: OrderRecord, fulfillmentLineItem: FulfillmentLineItemRecord): number {
  const held = (order.returns ?? [])
    .filter(holdsItems)
    .flatMap((r) => r.returnLineItems)
    .filter((l) => l.fulfillmentLineItem.id === fulfillmentLineItem.id)
    .reduce((n, l) => n + l.quantity, 0);
  return fulfillmentLineItem.quantity - held;
}

/** The fulfilled lines of an order's fulfillments that were not cancelled. */
function fulfilledLines(order: OrderRecord): FulfillmentLineItemRecord[] {
  return order.fulfillments.filter((f) => f.status === "SUCCESS").flatMap((f) => f.lineItems);
}

interface RequestedLine {
  fulfillmentLineItemId: string;
  quantity: number;
  returnReason?: ReturnReason;
  returnReasonNote?: string;
  customerNote?: string | null;
}

/** The checks returnRequest and returnCreate share; `path` names their input argument. */
function buildReturn(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  path: "input" | "returnInput",
  now: number,
): ReturnsOutcome<{ order: OrderRecord; ret: ReturnRecord }> {
  const raw = isRecord(args[path]) ? (args[path] as Rec) : {};
  const input = { orderId: String(raw.orderId), lines: readLines(raw.returnLineItems) };
  const order = index.orderById.get(input.orderId);
  if (!order) return refuse({ field: [path, "orderId"], code: "NOT_FOUND", message: "Order does not exist." });
  if (input.lines.length === 0) {
    return refuse({ field: [path, "returnLineItems"], code: "BLANK", message: "Return line items can't be blank." });
  }
  const fulfilled = fulfilledLines(order);
  const lines: ReturnLineItemRecord[] = [];
  const errors: ReturnUserError[] = [];
  const requested = new Map<string, number>();
  for (const [i, line] of input.lines.entries()) {
    const linePath = [path, "returnLineItems", String(i)];
    const fulfillmentLineItem = fulfilled.find((f) => f.id === line.fulfillmentLineItemId);
    if (!fulfillmentLineItem) {
      errors.push({
        field: [...linePath, "fulfillmentLineItemId"],
        code: "NOT_FOUND",
        message: "Fulfillment line item does not exist.",
      });
      continue;
    }
    const total = (requested.get(fulfillmentLineItem.id) ?? 0) + line.quantity;
    requested.set(fulfillmentLineItem.id, total);
    if (!Number.isInteger(line.quantity) || line.quantity <= 0) {
      errors.push({
        field: [...linePath, "quantity"],
        code: "GREATER_THAN",
        message: "Quantity must be greater than 0.",
      });
    } else if (total > returnableQuantity(order, fulfillmentLineItem)) {
      errors.push({
        field: [...linePath, "quantity"],
        code: "LESS_THAN_OR_EQUAL_TO",
        message: `Quantity must be less than or equal to the returnable quantity (${Math.max(0, returnableQuantity(order, fulfillmentLineItem))}).`,
      });
    }
    lines.push({
      __typename: "ReturnLineItem",
      id: mintId(state, "ReturnLineItem"),
      quantity: line.quantity,
      fulfillmentLineItem,
      returnReason: line.returnReason ?? "UNKNOWN",
      returnReasonNote: line.returnReasonNote ?? "",
      customerNote: line.customerNote ?? null,
    });
  }
  if (errors.length > 0) return refuse(...errors);
  const returns = (order.returns ??= []);
  const ret: ReturnRecord = {
    __typename: "Return",
    id: mintId(state, "Return"),
    name: `${order.name}-R${returns.length + 1}`,
    orderId: order.id,
    status: "REQUESTED",
    createdAt: iso(now),
    requestApprovedAt: null,
    closedAt: null,
    decline: null,
    returnLineItems: lines,
    reverseFulfillmentOrders: [],
  };
  returns.push(ret);
  order.updatedAt = iso(now);
  return accept({ order, ret });
}

/** Opens a return: OPEN, with one reverse fulfillment order holding every returned item. */
function openReturn(state: ShopifyEmulatorState, ret: ReturnRecord, now: number): void {
  ret.status = "OPEN";
  ret.requestApprovedAt = iso(now);
  ret.reverseFulfillmentOrders.push({
    __typename: "ReverseFulfillmentOrder",
    id: mintId(state, "ReverseFulfillmentOrder"),
    orderId: ret.orderId,
    returnId: ret.id,
    status: "OPEN",
    lineItems: ret.returnLineItems.map((line) => ({
      __typename: "ReverseFulfillmentOrderLineItem",
      id: mintId(state, "ReverseFulfillmentOrderLineItem"),
      totalQuantity: line.quantity,
      returnLineItemId: line.id,
      fulfillmentLineItem: line.fulfillmentLineItem,
    })),
    reverseDeliveries: [],
  });
}

function readLines(value: unknown): RequestedLine[] {
  return (Array.isArray(value) ? value.filter(isRecord) : []).map((line) => ({
    fulfillmentLineItemId: String(line.fulfillmentLineItemId),
    quantity: typeof line.quantity === "number" ? line.quantity : NaN,
    ...(typeof line.returnReason === "string" ? { returnReason: line.returnReason as ReturnReason } : {}),
    ...(typeof line.returnReasonNote === "string" ? { returnReasonNote: line.returnReasonNote } : {}),
    ...(typeof line.customerNote === "string" ? { customerNote: line.customerNote } : {}),
  }));
}

/** returnRequest(input:): a customer's request, REQUESTED until the merchant decides. */
export function handleReturnRequest(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReturnRecord> {
  const built = buildReturn(state, index, args, "input", now);
  if (!built.result) return refuse(...built.userErrors);
  const { order, ret } = built.result;
  return accept(ret, [{ topic: "returns/request", payload: buildReturnPayload(ret, order) }]);
}

/** returnCreate(returnInput:): the merchant's own return, OPEN at once (returns/approve is not sent). */
export function handleReturnCreate(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReturnRecord> {
  const built = buildReturn(state, index, args, "returnInput", now);
  if (!built.result) return refuse(...built.userErrors);
  openReturn(state, built.result.ret, now);
  return accept(built.result.ret);
}

function findRequested(
  index: ReturnsIndex,
  id: unknown,
  verb: "approvable" | "declinable",
): { ret: ReturnRecord; order: OrderRecord } | ReturnUserError {
  const ret = index.returnById.get(String(id));
  const order = ret ? index.orderById.get(ret.orderId) : undefined;
  if (!ret || !order) return { field: ["input", "id"], code: "NOT_FOUND", message: "Return does not exist." };
  if (ret.status !== "REQUESTED") {
    return {
      field: ["input", "id"],
      code: "INVALID_STATE",
      message: `Return is not ${verb}. Only returns with status REQUESTED can be ${verb === "approvable" ? "approved" : "declined"}.`,
    };
  }
  return { ret, order };
}

/** returnApproveRequest(input: { id }): REQUESTED → OPEN, with its reverse fulfillment order. */
export function handleReturnApproveRequest(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReturnRecord> {
  const input = isRecord(args.input) ? args.input : {};
  const found = findRequested(index, input.id, "approvable");
  if (!("ret" in found)) return refuse(found);
  openReturn(state, found.ret, now);
  found.order.updatedAt = iso(now);
  return accept(found.ret, [{ topic: "returns/approve", payload: buildReturnPayload(found.ret, found.order) }]);
}

/** returnDeclineRequest(input: { id, declineReason, declineNote }): REQUESTED → DECLINED. */
export function handleReturnDeclineRequest(
  _state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReturnRecord> {
  const input = isRecord(args.input) ? args.input : {};
  const found = findRequested(index, input.id, "declinable");
  if (!("ret" in found)) return refuse(found);
  const reason = RETURN_DECLINE_REASONS.find((r) => r === input.declineReason) ?? "OTHER";
  found.ret.status = "DECLINED";
  found.ret.decline = {
    __typename: "ReturnDecline",
    reason,
    note: typeof input.declineNote === "string" ? input.declineNote : null,
  };
  found.order.updatedAt = iso(now);
  return accept(found.ret, [{ topic: "returns/decline", payload: buildReturnDeclinedPayload(found.ret, found.order) }]);
}

/** Cancels a return the customer or merchant no longer wants (REQUESTED or OPEN → CANCELED). */
function cancelReturnRecord(index: ReturnsIndex, id: unknown, now: number): ReturnsOutcome<ReturnRecord> {
  const ret = index.returnById.get(String(id));
  const order = ret ? index.orderById.get(ret.orderId) : undefined;
  if (!ret || !order) return refuse({ field: ["id"], code: "NOT_FOUND", message: "Return does not exist." });
  if (ret.status !== "REQUESTED" && ret.status !== "OPEN") {
    return refuse({
      field: ["id"],
      code: "INVALID_STATE",
      message: `Return is not cancelable. Only returns with status REQUESTED or OPEN can be canceled.`,
    });
  }
  ret.status = "CANCELED";
  ret.closedAt = iso(now);
  for (const rfo of ret.reverseFulfillmentOrders) rfo.status = "CANCELED";
  order.updatedAt = iso(now);
  return accept(ret, [{ topic: "returns/cancel", payload: buildReturnCancelledPayload(ret, order) }]);
}

// A label's file and tracking, as the two reverse delivery mutations take them.
const HTTP_URL = /^https?:\/\/\S+$/i;

// Shopify names the carrier from the tracking link when it knows the site.
const CARRIER_SITES: readonly [RegExp, string][] = [
  [/(^|\.)ups\.com$/i, "UPS"],
  [/(^|\.)usps\.com$/i, "USPS"],
  [/(^|\.)fedex\.com$/i, "FedEx"],
  [/(^|\.)dhl\.com$/i, "DHL Express"],
  [/(^|\.)canadapost(-postescanada)?\.ca$/i, "Canada Post"],
  [/(^|\.)royalmail\.com$/i, "Royal Mail"],
];
function carrierOf(url: string | null): string | null {
  if (!url) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return CARRIER_SITES.find(([site]) => site.test(host))?.[1] ?? null;
}

interface ShippingInput {
  label?: { fileUrl: string };
  tracking?: { number: string | null; url: string | null };
}

function readShipping(args: Rec): { input: ShippingInput; errors: ReturnUserError[] } {
  const input: ShippingInput = {};
  const errors: ReturnUserError[] = [];
  if (isRecord(args.labelInput)) {
    const fileUrl = String(args.labelInput.fileUrl);
    if (HTTP_URL.test(fileUrl)) input.label = { fileUrl };
    else errors.push({ field: ["labelInput", "fileUrl"], code: "INVALID", message: "File url is invalid." });
  }
  if (isRecord(args.trackingInput)) {
    const number = typeof args.trackingInput.number === "string" ? args.trackingInput.number.trim() : "";
    const url = typeof args.trackingInput.url === "string" ? args.trackingInput.url : null;
    if (url !== null && !HTTP_URL.test(url)) {
      errors.push({ field: ["trackingInput", "url"], code: "INVALID", message: "Tracking url is invalid." });
    }
    input.tracking = { number: number === "" ? null : number, url };
  }
  return { input, errors };
}

function applyShipping(delivery: ReverseDeliveryRecord, input: ShippingInput, now: number): void {
  if (input.label) {
    delivery.label = {
      fileUrl: input.label.fileUrl,
      createdAt: delivery.label?.createdAt ?? iso(now),
      updatedAt: iso(now),
    };
  }
  if (input.tracking) delivery.tracking = { ...input.tracking, carrierName: carrierOf(input.tracking.url) };
}

// A reverse delivery can be made or changed only while its return is open.
function checkOpen(rfo: ReverseFulfillmentOrderRecord, index: ReturnsIndex, field: string[]): ReturnUserError | null {
  const ret = index.returnById.get(rfo.returnId);
  if (ret?.status === "OPEN" && rfo.status === "OPEN") return null;
  return {
    field,
    code: "INVALID_STATE",
    message: `The return must be open to ship its items (return status: ${ret?.status.toLowerCase() ?? "unknown"}).`,
  };
}

/** How many of a reverse fulfillment order line's items no reverse delivery carries yet. */
function undeliveredQuantity(rfo: ReverseFulfillmentOrderRecord, lineId: string): number {
  const line = rfo.lineItems.find((l) => l.id === lineId);
  const delivered = rfo.reverseDeliveries
    .flatMap((d) => d.lineItems)
    .filter((l) => l.reverseFulfillmentOrderLineItemId === lineId)
    .reduce((n, l) => n + l.quantity, 0);
  return (line?.totalQuantity ?? 0) - delivered;
}

/**
 * reverseDeliveryCreateWithShipping: a delivery of an OPEN return's items, with the label file and
 * tracking. An empty reverseDeliveryLineItems takes every item no delivery carries yet (the docs:
 * each line item at its total quantity). Quantities are checked against what is left to deliver.
 */
export function handleReverseDeliveryCreateWithShipping(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReverseDeliveryRecord> {
  const rfo = index.reverseFulfillmentOrderById.get(String(args.reverseFulfillmentOrderId));
  if (!rfo) {
    return refuse({
      field: ["reverseFulfillmentOrderId"],
      code: "NOT_FOUND",
      message: "Reverse fulfillment order does not exist.",
    });
  }
  const closed = checkOpen(rfo, index, ["reverseFulfillmentOrderId"]);
  if (closed) return refuse(closed);

  const given = Array.isArray(args.reverseDeliveryLineItems) ? args.reverseDeliveryLineItems.filter(isRecord) : [];
  const wanted =
    given.length > 0
      ? given.map((l) => ({
          id: String(l.reverseFulfillmentOrderLineItemId),
          quantity: typeof l.quantity === "number" ? l.quantity : NaN,
        }))
      : rfo.lineItems
          .map((l) => ({ id: l.id, quantity: undeliveredQuantity(rfo, l.id) }))
          .filter((l) => l.quantity > 0);
  const errors: ReturnUserError[] = [];
  if (wanted.length === 0) {
    errors.push({
      field: ["reverseDeliveryLineItems"],
      code: "INVALID",
      message: "Every item of the reverse fulfillment order is already in a reverse delivery.",
    });
  }
  const seen = new Set<string>();
  for (const [i, line] of wanted.entries()) {
    const path = ["reverseDeliveryLineItems", String(i)];
    if (!rfo.lineItems.some((l) => l.id === line.id)) {
      errors.push({
        field: [...path, "reverseFulfillmentOrderLineItemId"],
        code: "NOT_FOUND",
        message: "Reverse fulfillment order line item does not exist on this reverse fulfillment order.",
      });
    } else if (seen.has(line.id)) {
      errors.push({
        field: [...path, "reverseFulfillmentOrderLineItemId"],
        code: "TAKEN",
        message: "Reverse fulfillment order line item is listed more than once.",
      });
    } else if (!Number.isInteger(line.quantity) || line.quantity <= 0) {
      errors.push({ field: [...path, "quantity"], code: "GREATER_THAN", message: "Quantity must be greater than 0." });
    } else if (line.quantity > undeliveredQuantity(rfo, line.id)) {
      errors.push({
        field: [...path, "quantity"],
        code: "LESS_THAN_OR_EQUAL_TO",
        message: `Quantity must be less than or equal to the quantity left to deliver (${undeliveredQuantity(rfo, line.id)}).`,
      });
    }
    seen.add(line.id);
  }
  const shipping = readShipping(args);
  errors.push(...shipping.errors);
  if (errors.length > 0) return refuse(...errors);

  const delivery: ReverseDeliveryRecord = {
    __typename: "ReverseDelivery",
    id: mintId(state, "ReverseDelivery"),
    reverseFulfillmentOrderId: rfo.id,
    createdAt: iso(now),
    label: null,
    tracking: null,
    lineItems: wanted.map((line) => ({
      id: mintId(state, "ReverseDeliveryLineItem"),
      reverseFulfillmentOrderLineItemId: line.id,
      quantity: line.quantity,
    })),
    // Shopify's default: the customer is sent the label.
    customerNotified: args.notifyCustomer !== false,
  };
  applyShipping(delivery, shipping.input, now);
  rfo.reverseDeliveries.push(delivery);
  return accept(delivery);
}

/** reverseDeliveryShippingUpdate: a new label file and/or tracking; what is not given stays. */
export function handleReverseDeliveryShippingUpdate(
  index: ReturnsIndex,
  args: Rec,
  now: number,
): ReturnsOutcome<ReverseDeliveryRecord> {
  const delivery = index.reverseDeliveryById.get(String(args.reverseDeliveryId));
  const rfo = delivery ? index.reverseFulfillmentOrderById.get(delivery.reverseFulfillmentOrderId) : undefined;
  if (!delivery || !rfo) {
    return refuse({ field: ["reverseDeliveryId"], code: "NOT_FOUND", message: "Reverse delivery does not exist." });
  }
  const closed = checkOpen(rfo, index, ["reverseDeliveryId"]);
  if (closed) return refuse(closed);
  const shipping = readShipping(args);
  if (shipping.errors.length > 0) return refuse(...shipping.errors);
  applyShipping(delivery, shipping.input, now);
  if (args.notifyCustomer !== false) delivery.customerNotified = true;
  return accept(delivery);
}

// The store's side (control API, store-mutations.ts's conventions): what a customer does from
// their account or the merchant from Shopify's admin, outside the app. A refusal throws.

function controlOutcome<T>(outcome: ReturnsOutcome<T>): MutationOutcome<T> {
  const [first] = outcome.userErrors;
  if (first || outcome.result === null) {
    const code = first?.code === "NOT_FOUND" ? "NOT_FOUND" : first?.code === "INVALID_STATE" ? "CONFLICT" : "INVALID";
    const where = first?.field ? ` (${first.field.join(".")})` : "";
    throw new ShopifyEmulatorControlError(code, `${first?.message ?? "Refused"}${where}`);
  }
  return { result: outcome.result, events: outcome.events };
}

// Readers for untrusted input (the loopback server's JSON bodies): the value, or INVALID.
const invalid = (message: string) => new ShopifyEmulatorControlError("INVALID", message);
function readOneOf<T extends string>(values: readonly T[], value: unknown, what: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw invalid(`Unknown ${what} ${JSON.stringify(value)}: use ${values.join(", ")}`);
}
const readText = (value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(`${what} must be a string`);
  return value;
};

/** `{ lineItems?: [{ lineItemId, quantity? }], reason?, customerNote? }` */
export function readReturnRequestSpec(body: Record<string, unknown>): ReturnRequestSpec {
  let lineItems: ReturnRequestSpec["lineItems"];
  if (body.lineItems !== undefined) {
    if (!Array.isArray(body.lineItems)) throw invalid("lineItems must be a list of { lineItemId, quantity? }");
    lineItems = body.lineItems.map((line: unknown) => {
      if (!isRecord(line) || (typeof line.lineItemId !== "string" && typeof line.lineItemId !== "number")) {
        throw invalid("each of lineItems needs a lineItemId (a LineItem GID or number)");
      }
      if (line.quantity !== undefined && typeof line.quantity !== "number") throw invalid("quantity must be a number");
      return { lineItemId: line.lineItemId, ...(line.quantity !== undefined ? { quantity: line.quantity } : {}) };
    });
  }
  const reason = readOneOf(RETURN_REASONS, body.reason, "return reason");
  const customerNote = readText(body.customerNote, "customerNote");
  return {
    ...(lineItems ? { lineItems } : {}),
    ...(reason ? { reason } : {}),
    ...(customerNote !== undefined ? { customerNote } : {}),
  };
}

/** `{ reason?, note? }` for a declined return. */
export function readReturnDecline(body: Record<string, unknown>): { reason?: ReturnDeclineReason; note?: string } {
  const reason = readOneOf(RETURN_DECLINE_REASONS, body.reason, "decline reason");
  const note = readText(body.note, "note");
  return { ...(reason ? { reason } : {}), ...(note !== undefined ? { note } : {}) };
}

export interface ReturnRequestSpec {
  /** Line items (LineItem GIDs or numeric ids) and how many of each; default every fulfilled item. */
  lineItems?: readonly { lineItemId: string | number; quantity?: number }[];
  reason?: ReturnReason;
  customerNote?: string;
}

/**
 * A customer asks for a return from their account: REQUESTED, for fulfilled items of the order.
 * Each line item is taken from the fulfillments that shipped it, up to what is still returnable.
 * Emits returns/request.
 */
export function requestReturn(
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  orderId: string | number,
  spec: ReturnRequestSpec,
  now: number,
): MutationOutcome<ReturnRecord> {
  const gid = toGid("Order", orderId);
  const order = index.orderById.get(gid);
  if (!order) throw new ShopifyEmulatorControlError("NOT_FOUND", `No order ${gid}`);
  const fulfilled = fulfilledLines(order).filter((f) => returnableQuantity(order, f) > 0);
  const wanted =
    spec.lineItems?.map((l) => ({ lineItemId: toGid("LineItem", l.lineItemId), quantity: l.quantity })) ??
    [...new Set(fulfilled.map((f) => f.lineItem.id))].map((lineItemId) => ({ lineItemId, quantity: undefined }));
  if (wanted.length === 0) {
    throw new ShopifyEmulatorControlError("CONFLICT", `Order ${order.name} has nothing fulfilled left to return`);
  }
  const lines: RequestedLine[] = [];
  for (const { lineItemId, quantity } of wanted) {
    const sources = fulfilled.filter((f) => f.lineItem.id === lineItemId);
    const available = sources.reduce((n, f) => n + returnableQuantity(order, f), 0);
    if (sources.length === 0 || available === 0) {
      throw new ShopifyEmulatorControlError(
        "CONFLICT",
        `Line item ${lineItemId} of ${order.name} has nothing to return`,
      );
    }
    let left = quantity ?? available;
    if (!Number.isInteger(left) || left <= 0 || left > available) {
      throw new ShopifyEmulatorControlError(
        "INVALID",
        `Line item ${lineItemId} of ${order.name}: quantity must be 1 to ${available}`,
      );
    }
    for (const source of sources) {
      const take = Math.min(left, returnableQuantity(order, source));
      if (take <= 0) continue;
      lines.push({
        fulfillmentLineItemId: source.id,
        quantity: take,
        returnReason: spec.reason ?? "UNWANTED",
        customerNote: spec.customerNote ?? null,
      });
      left -= take;
      if (left === 0) break;
    }
  }
  return controlOutcome(
    handleReturnRequest(state, index, { input: { orderId: order.id, returnLineItems: lines } }, now),
  );
}

/** The merchant approves a requested return in Shopify's admin. Emits returns/approve. */
export const approveReturn = (state: ShopifyEmulatorState, index: ReturnsIndex, id: string | number, now: number) =>
  controlOutcome(handleReturnApproveRequest(state, index, { input: { id: toGid("Return", id) } }, now));

/** The merchant declines a requested return. Emits returns/decline. */
export const declineReturn = (
  state: ShopifyEmulatorState,
  index: ReturnsIndex,
  id: string | number,
  decline: { reason?: ReturnDeclineReason; note?: string },
  now: number,
) =>
  controlOutcome(
    handleReturnDeclineRequest(
      state,
      index,
      {
        input: {
          id: toGid("Return", id),
          declineReason: decline.reason ?? "OTHER",
          ...(decline.note ? { declineNote: decline.note } : {}),
        },
      },
      now,
    ),
  );

/** The customer or merchant cancels a requested or open return. Emits returns/cancel. */
export const cancelReturn = (index: ReturnsIndex, id: string | number, now: number) =>
  controlOutcome(cancelReturnRecord(index, toGid("Return", id), now));

/**
 * The demo's returns: among `history` (the generated orders), the newest shipped domestic order
 * has a customer's request for one item back, and the newest shipped international one for
 * everything, so a return label can be made at once. The scenario orders are left as they are.
 * Deterministic; emits nothing (it is the store's past).
 */
export function seedReturnRequests(
  state: ShopifyEmulatorState,
  history: readonly OrderRecord[],
  now: number = SEED_NOW,
): ReturnRecord[] {
  const index: ReturnsIndex = {
    orderById: new Map(state.orders.map((o) => [o.id, o])),
    returnById: new Map(),
    reverseFulfillmentOrderById: new Map(),
    reverseDeliveryById: new Map(),
  };
  const shipped = history.filter(
    (o) => !o.cancelledAt && o.shippingAddress && fulfilledLines(o).length > 0 && !(o.returns ?? []).length,
  );
  const newest = (international: boolean) =>
    shipped.findLast((o) => (o.shippingAddress?.countryCodeV2 !== "US") === international);
  const requests: [OrderRecord | undefined, (order: OrderRecord) => ReturnRequestSpec][] = [
    [
      newest(false),
      (order) => ({
        lineItems: order.lineItems.slice(0, 1).map((line) => ({ lineItemId: line.id, quantity: 1 })),
        reason: "SIZE_TOO_SMALL",
        customerNote: "Smaller than I expected. Could I send it back?",
      }),
    ],
    [newest(true), () => ({ reason: "NOT_AS_DESCRIBED", customerNote: "The colour is not as pictured." })],
  ];
  return requests.flatMap(([order, spec]) =>
    order ? [requestReturn(state, index, order.id, spec(order), now).result] : [],
  );
}
