// Plain records the emulator keeps in memory. Field names follow the Admin GraphQL schema so the
// generic resolver can answer by property lookup; `__typename` lets interfaces (Node) resolve.

export type WeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";
export type FulfillmentOrderStatus =
  "OPEN" | "IN_PROGRESS" | "SCHEDULED" | "ON_HOLD" | "INCOMPLETE" | "CLOSED" | "CANCELLED";
export type DeliveryMethodType = "SHIPPING" | "PICK_UP" | "PICKUP_POINT" | "LOCAL" | "RETAIL" | "NONE";
export type OrderCancelReason = "CUSTOMER" | "DECLINED" | "FRAUD" | "INVENTORY" | "OTHER" | "STAFF";
export type FulfillmentHoldReason =
  | "AWAITING_PAYMENT"
  | "AWAITING_RETURN_ITEMS"
  | "HIGH_RISK_OF_FRAUD"
  | "INCORRECT_ADDRESS"
  | "INVENTORY_OUT_OF_STOCK"
  | "ONLINE_STORE_POST_PURCHASE_CROSS_SELL"
  | "OTHER"
  | "UNKNOWN_DELIVERY_DATE";

export interface MoneyV2 {
  amount: string;
  currencyCode: string;
}
export interface MoneyBag {
  shopMoney: MoneyV2;
  presentmentMoney: MoneyV2;
}
export interface WeightRecord {
  value: number;
  unit: WeightUnit;
}

export interface MailingAddressRecord {
  __typename: "MailingAddress";
  id: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string;
  phone: string | null;
  coordinatesValidated: boolean;
}

export interface ProductRecord {
  __typename: "Product";
  id: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
}

export interface InventoryItemRecord {
  __typename: "InventoryItem";
  id: string;
  sku: string | null;
  harmonizedSystemCode: string | null;
  countryCodeOfOrigin: string | null;
  provinceCodeOfOrigin: string | null;
  measurement: { __typename: "InventoryItemMeasurement"; id: string; weight: WeightRecord | null };
  countryHarmonizedSystemCodes: { countryCode: string; harmonizedSystemCode: string }[];
  requiresShipping: boolean;
  tracked: boolean;
}

export interface ProductVariantRecord {
  __typename: "ProductVariant";
  id: string;
  title: string;
  displayName: string;
  sku: string | null;
  price: string;
  product: ProductRecord;
  inventoryItem: InventoryItemRecord;
}

export interface LineItemRecord {
  __typename: "LineItem";
  id: string;
  title: string;
  name: string;
  variantTitle: string | null;
  sku: string | null;
  vendor: string | null;
  quantity: number;
  currentQuantity: number;
  requiresShipping: boolean;
  isGiftCard: boolean;
  taxable: boolean;
  originalUnitPriceSet: MoneyBag;
  discountedUnitPriceAfterAllDiscountsSet: MoneyBag;
  originalTotalSet: MoneyBag;
  variant: ProductVariantRecord | null;
  product: ProductRecord | null;
  weight: WeightRecord | null;
}

export interface LocationAddressRecord {
  __typename: "LocationAddress";
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCode: string | null;
  phone: string | null;
  formatted: string[];
}

export interface LocationRecord {
  __typename: "Location";
  id: string;
  name: string;
  isActive: boolean;
  fulfillsOnlineOrders: boolean;
  shipsInventory: boolean;
  address: LocationAddressRecord;
}

export interface FulfillmentOrderLineItemRecord {
  __typename: "FulfillmentOrderLineItem";
  id: string;
  lineItem: LineItemRecord;
  totalQuantity: number;
  remainingQuantity: number;
  sku: string | null;
  productTitle: string;
  variantTitle: string | null;
  vendor: string | null;
  requiresShipping: boolean;
  weight: WeightRecord | null;
  inventoryItemId: string | null;
  variant: ProductVariantRecord | null;
}

export interface FulfillmentOrderDestinationRecord {
  __typename: "FulfillmentOrderDestination";
  id: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  zip: string | null;
  countryCode: string | null;
  phone: string | null;
  email: string | null;
}

export interface FulfillmentHoldRecord {
  __typename: "FulfillmentHold";
  id: string;
  reason: FulfillmentHoldReason;
  reasonNotes: string | null;
  displayReason: string;
  handle: string | null;
  heldByRequestingApp: boolean;
}

export interface FulfillmentOrderRecord {
  __typename: "FulfillmentOrder";
  id: string;
  orderId: string;
  orderName: string;
  status: FulfillmentOrderStatus;
  requestStatus: "UNSUBMITTED";
  createdAt: string;
  updatedAt: string;
  orderProcessedAt: string;
  fulfillAt: string | null;
  fulfillBy: string | null;
  assignedLocation: {
    __typename: "FulfillmentOrderAssignedLocation";
    name: string;
    address1: string | null;
    address2: string | null;
    city: string | null;
    province: string | null;
    zip: string | null;
    countryCode: string;
    phone: string | null;
    location: LocationRecord;
  };
  destination: FulfillmentOrderDestinationRecord | null;
  deliveryMethod: {
    __typename: "DeliveryMethod";
    id: string;
    // A string, not DeliveryMethodType: tests inject values Shopify may add later.
    methodType: DeliveryMethodType | (string & {});
    serviceCode: string | null;
    presentedName: string | null;
  };
  // "DAP" (duties unpaid) or "DDP" (duties collected at checkout); null for domestic shipments.
  internationalDuties: { __typename: "FulfillmentOrderInternationalDuties"; incoterm: string } | null;
  lineItems: FulfillmentOrderLineItemRecord[];
  fulfillmentHolds: FulfillmentHoldRecord[];
  // Not a schema field: Shopify hides fulfillment orders closed after a merge or move from the
  // merchant, and `fulfillmentOrders(displayable: true)` leaves them out.
  hiddenFromMerchant?: boolean;
}

export interface TrackingInfoRecord {
  company: string | null;
  number: string | null;
  url: string | null;
}

export type FulfillmentEventStatus =
  | "ATTEMPTED_DELIVERY"
  | "CARRIER_PICKED_UP"
  | "CONFIRMED"
  | "DELAYED"
  | "DELIVERED"
  | "FAILURE"
  | "IN_TRANSIT"
  | "LABEL_PRINTED"
  | "LABEL_PURCHASED"
  | "OUT_FOR_DELIVERY"
  | "READY_FOR_PICKUP";

// One tracking event (fulfillmentEventCreate). Times are ISO 8601 in whole seconds, as Shopify
// answers DateTime.
export interface FulfillmentEventRecord {
  __typename: "FulfillmentEvent";
  id: string;
  status: FulfillmentEventStatus;
  happenedAt: string;
  createdAt: string;
  estimatedDeliveryAt: string | null;
  message: string | null;
  address1: string | null;
  city: string | null;
  province: string | null;
  zip: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
}

// Not shaped as the schema's FulfillmentLineItem (no __typename): Fulfillment.fulfillmentLineItems
// and the returns that point at one answer it through fulfillmentLineItemNode (emulator.ts).
export interface FulfillmentLineItemRecord {
  id: string;
  fulfillmentOrderLineItemId: string;
  lineItem: LineItemRecord;
  quantity: number;
}

export interface FulfillmentRecord {
  __typename: "Fulfillment";
  id: string;
  name: string;
  orderId: string;
  status: "SUCCESS" | "CANCELLED";
  createdAt: string;
  updatedAt: string;
  fulfillmentOrderIds: string[];
  trackingInfo: TrackingInfoRecord[];
  notifyCustomer: boolean;
  // True for fulfillments the app created through the API (what tests assert on), false for seeded history.
  createdThroughApi: boolean;
  lineItems: FulfillmentLineItemRecord[];
  // Tracking events in the order they were created; absent (none) on seeded history.
  // displayStatus, inTransitAt, deliveredAt and estimatedDeliveryAt are worked out from them
  // (fulfillmentTrackingState in fulfillments.ts).
  events?: FulfillmentEventRecord[];
}

export interface LocalizedFieldRecord {
  __typename: "LocalizedField";
  key: string;
  purpose: "SHIPPING" | "TAX";
  countryCode: string;
  title: string;
  value: string;
}

export interface OrderRecord {
  __typename: "Order";
  id: string;
  name: string;
  createdAt: string;
  processedAt: string;
  updatedAt: string;
  email: string | null;
  phone: string | null;
  note: string | null;
  tags: string[];
  currencyCode: string;
  presentmentCurrencyCode: string;
  displayFinancialStatus: "PAID" | "PENDING" | "AUTHORIZED";
  closed: boolean;
  closedAt: string | null;
  cancelledAt: string | null;
  cancelReason: OrderCancelReason | null;
  test: boolean;
  shippingAddress: MailingAddressRecord | null;
  billingAddress: MailingAddressRecord | null;
  shippingLine: {
    __typename: "ShippingLine";
    id: string;
    title: string;
    code: string | null;
    source: string | null;
    carrierIdentifier: string | null;
    // What the customer paid for this shipping line; absent on a test's own records (then zero).
    originalPriceSet?: MoneyBag;
  } | null;
  subtotalPriceSet: MoneyBag;
  totalPriceSet: MoneyBag;
  lineItems: LineItemRecord[];
  fulfillmentOrders: FulfillmentOrderRecord[];
  fulfillments: FulfillmentRecord[];
  localizedFields: LocalizedFieldRecord[];
  // Oldest first; absent on orders built before returns were modelled (a test's own records).
  returns?: ReturnRecord[];
}

export type ReturnStatus = "REQUESTED" | "OPEN" | "DECLINED" | "CLOSED" | "CANCELED";
export type ReturnDeclineReason = "FINAL_SALE" | "OTHER" | "RETURN_PERIOD_ENDED";
export type ReturnReason =
  | "COLOR"
  | "DEFECTIVE"
  | "NOT_AS_DESCRIBED"
  | "OTHER"
  | "SIZE_TOO_LARGE"
  | "SIZE_TOO_SMALL"
  | "STYLE"
  | "UNKNOWN"
  | "UNWANTED"
  | "WRONG_ITEM";

// Items a customer sends back, counted against what was fulfilled (FulfillmentLineItemRecord).
export interface ReturnLineItemRecord {
  __typename: "ReturnLineItem";
  id: string;
  quantity: number;
  fulfillmentLineItem: FulfillmentLineItemRecord;
  returnReason: ReturnReason;
  returnReasonNote: string;
  customerNote: string | null;
}

export interface ReverseDeliveryRecord {
  __typename: "ReverseDelivery";
  id: string;
  reverseFulfillmentOrderId: string;
  createdAt: string;
  // What reverseDeliveryCreateWithShipping / reverseDeliveryShippingUpdate set; null when not given.
  label: { fileUrl: string; createdAt: string; updatedAt: string } | null;
  tracking: { number: string | null; url: string | null; carrierName: string | null } | null;
  lineItems: { id: string; reverseFulfillmentOrderLineItemId: string; quantity: number }[];
  // Not a schema field: whether Shopify was asked to email the customer the label (notifyCustomer).
  customerNotified: boolean;
}

export interface ReverseFulfillmentOrderLineItemRecord {
  __typename: "ReverseFulfillmentOrderLineItem";
  id: string;
  totalQuantity: number;
  returnLineItemId: string;
  fulfillmentLineItem: FulfillmentLineItemRecord;
}

// The work of getting a return's items back, made when the return opens (approved or created).
export interface ReverseFulfillmentOrderRecord {
  __typename: "ReverseFulfillmentOrder";
  id: string;
  orderId: string;
  returnId: string;
  status: "OPEN" | "CLOSED" | "CANCELED";
  lineItems: ReverseFulfillmentOrderLineItemRecord[];
  reverseDeliveries: ReverseDeliveryRecord[];
}

export interface ReturnRecord {
  __typename: "Return";
  id: string;
  // "#1017-R1": the order's name and the return's number on it.
  name: string;
  orderId: string;
  status: ReturnStatus;
  createdAt: string;
  requestApprovedAt: string | null;
  closedAt: string | null;
  decline: { __typename: "ReturnDecline"; reason: ReturnDeclineReason; note: string | null } | null;
  returnLineItems: ReturnLineItemRecord[];
  reverseFulfillmentOrders: ReverseFulfillmentOrderRecord[];
}

export interface ShopAddressRecord {
  __typename: "ShopAddress";
  id: string;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string;
  phone: string | null;
  coordinatesValidated: boolean;
}

export interface ShopRecord {
  __typename: "Shop";
  id: string;
  name: string;
  email: string;
  contactEmail: string;
  myshopifyDomain: string;
  currencyCode: string;
  weightUnit: WeightUnit;
  unitSystem: "IMPERIAL_SYSTEM" | "METRIC_SYSTEM";
  ianaTimezone: string;
  shopAddress: ShopAddressRecord;
  billingAddress: ShopAddressRecord;
  plan: { __typename: "ShopPlan"; shopifyPlus: boolean; partnerDevelopment: boolean; publicDisplayName: string };
}

export interface ShopifyEmulatorState {
  shop: ShopRecord;
  locations: LocationRecord[];
  orders: OrderRecord[];
  // The catalog by its seed key ("mug", "tote"…), so orders created later (createOrder) point at
  // the same product records as the seeded ones.
  variants: ReadonlyMap<string, ProductVariantRecord>;
  // Monotonic counter for ids the emulator mints (fulfillments, moved fulfillment orders, holds).
  nextId: number;
}
