import type {
  FulfillmentOrderLineItemRecord,
  FulfillmentOrderRecord,
  LocationRecord,
  MailingAddressRecord,
  OrderRecord,
  ReturnRecord,
  WeightRecord,
} from "./model";

// Webhook bodies as Shopify sends them: order topics carry the REST order resource (snake_case,
// numeric ids next to `admin_graphql_api_id`), fulfillment order topics carry GIDs and lower-case
// statuses. Only the fields the app could read are built; see README.md, "Webhooks".

export const numericIdOf = (gid: string) => Number(gid.split("/").pop());

const GRAMS_PER_UNIT = { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 } as const;

// REST's `grams` is the weight of one unit, whole grams; 0 when the product has no weight.
const gramsOf = (weight: WeightRecord | null) => (weight ? Math.round(weight.value * GRAMS_PER_UNIT[weight.unit]) : 0);

function addressPayload(address: MailingAddressRecord | null) {
  if (!address) return null;
  return {
    first_name: address.firstName,
    last_name: address.lastName,
    name: address.name,
    company: address.company,
    address1: address.address1,
    address2: address.address2,
    city: address.city,
    province: address.province,
    province_code: address.provinceCode,
    zip: address.zip,
    country: address.country,
    country_code: address.countryCodeV2,
    phone: address.phone,
  };
}

// REST reports fulfillment_status null for an order nothing of which has shipped yet.
function fulfillmentStatusOf(order: OrderRecord): "fulfilled" | "partial" | null {
  const shown = order.fulfillmentOrders.filter((fo) => !fo.hiddenFromMerchant && fo.status !== "CANCELLED");
  const lines = shown.flatMap((fo) => fo.lineItems);
  const remaining = lines.reduce((n, l) => n + l.remainingQuantity, 0);
  const total = lines.reduce((n, l) => n + l.totalQuantity, 0);
  if (order.fulfillments.every((f) => f.status !== "SUCCESS")) return null;
  return remaining === 0 && total > 0 ? "fulfilled" : "partial";
}

/** The REST order resource: the body of orders/create, orders/updated and orders/cancelled. */
export function buildOrderPayload(order: OrderRecord) {
  return {
    id: numericIdOf(order.id),
    admin_graphql_api_id: order.id,
    name: order.name,
    order_number: Number(order.name.replace(/^#/, "")),
    email: order.email,
    phone: order.phone,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    processed_at: order.processedAt,
    cancelled_at: order.cancelledAt,
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    closed_at: order.closedAt,
    financial_status: order.displayFinancialStatus.toLowerCase(),
    fulfillment_status: fulfillmentStatusOf(order),
    currency: order.currencyCode,
    presentment_currency: order.presentmentCurrencyCode,
    subtotal_price: order.subtotalPriceSet.shopMoney.amount,
    total_price: order.totalPriceSet.shopMoney.amount,
    tags: order.tags.join(", "),
    test: order.test,
    shipping_address: addressPayload(order.shippingAddress),
    line_items: order.lineItems.map((line) => ({
      id: numericIdOf(line.id),
      admin_graphql_api_id: line.id,
      title: line.title,
      name: line.name,
      quantity: line.quantity,
      current_quantity: line.currentQuantity,
      sku: line.sku,
      grams: gramsOf(line.weight),
      price: line.originalUnitPriceSet.shopMoney.amount,
      vendor: line.vendor,
      requires_shipping: line.requiresShipping,
      product_id: line.product ? numericIdOf(line.product.id) : null,
      variant_id: line.variant ? numericIdOf(line.variant.id) : null,
    })),
  };
}

export type OrderPayload = ReturnType<typeof buildOrderPayload>;

/** How fulfillment order topics name a fulfillment order: its GID and lower-case status. */
export const fulfillmentOrderRef = (fo: FulfillmentOrderRecord) => ({ id: fo.id, status: fo.status.toLowerCase() });

/** order_routing_complete, hold_released, scheduled_fulfillment_order_ready, placed_on_hold. */
export const buildFulfillmentOrderPayload = (fo: FulfillmentOrderRecord) => ({
  fulfillment_order: fulfillmentOrderRef(fo),
});

/** fulfillment_orders/cancelled: Shopify names a replacement when one was created (never here). */
export const buildFulfillmentOrderCancelledPayload = (fo: FulfillmentOrderRecord) => ({
  fulfillment_order: fulfillmentOrderRef(fo),
  replacement_fulfillment_order: null,
});

/** fulfillment_orders/moved. */
export function buildFulfillmentOrderMovedPayload(input: {
  original: FulfillmentOrderRecord;
  moved: FulfillmentOrderRecord;
  sourceLocation: LocationRecord;
  requested: { line: FulfillmentOrderLineItemRecord; quantity: number }[];
}) {
  const withLocation = (fo: FulfillmentOrderRecord) => ({
    ...fulfillmentOrderRef(fo),
    assigned_location_id: fo.assignedLocation.location.id,
  });
  return {
    original_fulfillment_order: withLocation(input.original),
    moved_fulfillment_order: withLocation(input.moved),
    destination: fulfillmentOrderRef(input.moved),
    destination_location_id: input.moved.assignedLocation.location.id,
    source_location: { id: input.sourceLocation.id },
    fulfillment_order_line_items_requested: input.requested.map(({ line, quantity }) => ({ id: line.id, quantity })),
  };
}

const ref = (gid: string) => ({ id: numericIdOf(gid), admin_graphql_api_id: gid });

/**
 * returns/request and returns/approve: the return with its order and items (lower-case status and
 * reasons, REST-style ids next to GIDs). Exchanges and return shipping fees are not modelled: empty.
 */
export function buildReturnPayload(ret: ReturnRecord, order: OrderRecord) {
  return {
    ...ref(ret.id),
    status: ret.status.toLowerCase(),
    order: ref(order.id),
    total_return_line_items: ret.returnLineItems.length,
    name: ret.name,
    return_line_items: ret.returnLineItems.map((line) => ({
      ...ref(line.id),
      fulfillment_line_item: {
        ...ref(line.fulfillmentLineItem.id),
        line_item: ref(line.fulfillmentLineItem.lineItem.id),
      },
      quantity: line.quantity,
      return_reason: line.returnReason.toLowerCase(),
      return_reason_note: line.returnReasonNote,
      customer_note: line.customerNote,
    })),
    return_shipping_fees: [],
    exchange_line_items: [],
    total_exchange_line_items: 0,
  };
}

export type ReturnPayload = ReturnType<typeof buildReturnPayload>;

/** returns/decline: the return as above plus the merchant's reason and note. */
export const buildReturnDeclinedPayload = (ret: ReturnRecord, order: OrderRecord) => ({
  ...buildReturnPayload(ret, order),
  decline: ret.decline ? { reason: ret.decline.reason.toLowerCase(), note: ret.decline.note } : null,
});

/** returns/cancel: the return and its order only. */
export const buildReturnCancelledPayload = (ret: ReturnRecord, order: OrderRecord) => ({
  ...ref(ret.id),
  order_id: numericIdOf(order.id),
  status: ret.status.toLowerCase(),
});
