import { z } from "zod";

import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type ShopifyError,
  type ShopifyProblem,
} from "./admin-client";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LineItemGid, LocationGid, OrderGid } from "./ids";
import {
  FULFILLMENT_ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
  ORDER_FOR_LABEL_QUERY,
  ORDER_FULFILLMENT_ORDERS_FOR_LABEL_QUERY,
  ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
  UNFULFILLED_ORDERS_FOR_LABELS_QUERY,
} from "./orders.graphql";
import {
  GidSchema,
  ns,
  RawWeightSchema,
  readEnum,
  readWeight,
  type ShopifyWeightUnit,
  streetAddressFields,
} from "./response-schemas";

// ---------- Normalized output types (what the label use cases consume) ----------

export type { ShopifyWeightUnit };
export interface ShopifyWeight {
  readonly value: number;
  readonly unit: ShopifyWeightUnit;
}
// Decimal strings as Shopify sends them; convert to minor units where money is computed.
export interface ShopifyMoney {
  readonly amount: string;
  readonly currencyCode: string;
}
export interface ShopifyMoneyBag {
  readonly shop: ShopifyMoney;
  readonly presentment: ShopifyMoney;
}

// The street lines every Shopify address shape shares (order, fulfillment order, shop, location).
export interface ShopifyStreetAddress {
  readonly address1: string | null;
  readonly address2: string | null;
  readonly city: string | null;
  readonly province: string | null;
  readonly zip: string | null;
  readonly countryCode: string | null;
  readonly phone: string | null;
}

export interface ShopifyMailingAddress extends ShopifyStreetAddress {
  readonly name: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly company: string | null;
  readonly provinceCode: string | null;
}

export interface ShopifyOrderLineItem {
  readonly id: LineItemGid;
  readonly title: string;
  readonly name: string;
  readonly variantTitle: string | null;
  readonly sku: string | null;
  readonly vendor: string | null;
  // From the product; may be empty or vague ("Gift"): not a customs description on its own.
  readonly productType: string | null;
  readonly quantity: number;
  readonly currentQuantity: number;
  readonly unfulfilledQuantity: number;
  readonly requiresShipping: boolean;
  // The list price per unit, before discounts.
  readonly unitPrice: ShopifyMoneyBag;
  // What the customer paid per unit after line and order discounts: the customs value (ADR 0006).
  readonly paidUnitPrice: ShopifyMoneyBag;
  // The inventory item's weight, falling back to the weight recorded on the line item; null when
  // Shopify has none (or sent a unit this app doesn't know, reported as a problem).
  readonly weight: ShopifyWeight | null;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
  readonly provinceOfOrigin: string | null;
  readonly productId: string | null;
  readonly variantId: string | null;
  readonly inventoryItemId: string | null;
}

export const FULFILLMENT_ORDER_STATUSES = [
  "OPEN",
  "IN_PROGRESS",
  "SCHEDULED",
  "ON_HOLD",
  "INCOMPLETE",
  "CLOSED",
  "CANCELLED",
] as const;
export type ShopifyFulfillmentOrderStatus = (typeof FULFILLMENT_ORDER_STATUSES)[number];

export const DELIVERY_METHOD_TYPES = ["SHIPPING", "PICK_UP", "PICKUP_POINT", "LOCAL", "RETAIL", "NONE"] as const;
export type ShopifyDeliveryMethodType = (typeof DELIVERY_METHOD_TYPES)[number];

export interface ShopifyFulfillmentOrderLineItem {
  readonly id: FulfillmentOrderLineItemGid;
  readonly lineItemId: LineItemGid;
  readonly totalQuantity: number;
  readonly remainingQuantity: number;
  readonly sku: string | null;
  readonly productTitle: string;
  readonly variantTitle: string | null;
  readonly requiresShipping: boolean;
  readonly weight: ShopifyWeight | null;
}

export interface ShopifyFulfillmentOrder {
  readonly id: FulfillmentOrderGid;
  // null: a status this app doesn't know (reported as a problem); supportedActions still decide.
  readonly status: ShopifyFulfillmentOrderStatus | null;
  readonly requestStatus: string;
  readonly supportedActions: readonly string[];
  // Only fulfillment orders offering CREATE_FULFILLMENT can get a label written back.
  readonly canCreateFulfillment: boolean;
  readonly deliveryMethod: {
    // null: a method type this app doesn't know (reported as a problem); `rawMethodType` keeps it.
    readonly methodType: ShopifyDeliveryMethodType | null;
    readonly rawMethodType: string;
    readonly serviceCode: string | null;
    readonly presentedName: string | null;
  } | null;
  // How duties are paid: "DAP" (the recipient pays on delivery) or "DDP" (collected at checkout).
  // A free string in the schema; null for domestic shipments.
  readonly internationalDuties: { readonly incoterm: string } | null;
  // The ship-from address. Phone may be missing: fall back to the shop's phone.
  readonly assignedLocation: ShopifyStreetAddress & {
    readonly locationId: LocationGid | null;
    readonly name: string;
    readonly countryCode: string;
  };
  readonly destination:
    | (ShopifyStreetAddress & {
        readonly firstName: string | null;
        readonly lastName: string | null;
        readonly company: string | null;
        readonly email: string | null;
      })
    | null;
  // Every line item, read page by page.
  readonly lineItems: readonly ShopifyFulfillmentOrderLineItem[];
  // False only when the fulfillment order has more line items than this app reads (reported as a problem).
  readonly lineItemsComplete: boolean;
}

export const LOCALIZED_FIELD_PURPOSES = ["SHIPPING", "TAX"] as const;
export type LocalizedFieldPurpose = (typeof LOCALIZED_FIELD_PURPOSES)[number];
export interface ShopifyLocalizedField {
  // e.g. SHIPPING_CREDENTIAL_BR (CPF/CNPJ), TAX_CREDENTIAL_IT (codice fiscale / partita IVA).
  readonly key: string;
  // null: a purpose this app doesn't know (reported as a problem); the key still identifies the field.
  readonly purpose: LocalizedFieldPurpose | null;
  readonly countryCode: string;
  readonly title: string;
  readonly value: string;
}

export type CustomsTaxIdKind = "CPF" | "CNPJ" | "CODICE_FISCALE" | "PARTITA_IVA" | "OTHER";
export interface CustomsTaxId {
  readonly value: string;
  readonly kind: CustomsTaxIdKind;
  readonly countryCode: string;
  readonly sourceKey: string;
}

export interface ShopifyOrderForLabel {
  readonly id: OrderGid;
  // Numeric id, for admin links and the shipping service's platform_order_id.
  readonly legacyId: string;
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly shopCurrencyCode: string;
  readonly presentmentCurrencyCode: string;
  readonly displayFulfillmentStatus: string;
  readonly displayFinancialStatus: string | null;
  readonly totalWeightGrams: number | null;
  readonly totalPrice: ShopifyMoneyBag;
  readonly shippingAddress: ShopifyMailingAddress | null;
  readonly shippingLine: { readonly title: string; readonly code: string | null } | null;
  readonly localizedFields: readonly ShopifyLocalizedField[];
  // The recipient's tax id for customs (Brazil CPF/CNPJ, Italy codice fiscale / partita IVA), if given at checkout.
  readonly customsTaxId: CustomsTaxId | null;
  readonly lineItems: readonly ShopifyOrderLineItem[];
  // The fulfillment orders Shopify shows the merchant (displayable), every page.
  readonly fulfillmentOrders: readonly ShopifyFulfillmentOrder[];
}

export interface ShopifyOrderForLabelResult {
  readonly order: ShopifyOrderForLabel;
  // Usable data came back, but something is missing (withheld customer data, truncated lists).
  readonly problems: readonly ShopifyProblem[];
}

export interface ShopifyOrderSummary {
  readonly id: OrderGid;
  readonly legacyId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly displayFulfillmentStatus: string;
  readonly displayFinancialStatus: string | null;
  readonly requiresShipping: boolean;
  readonly totalWeightGrams: number | null;
  readonly totalPrice: ShopifyMoney;
  readonly shipTo: {
    readonly name: string | null;
    readonly company: string | null;
    readonly city: string | null;
    readonly provinceCode: string | null;
    readonly countryCode: string | null;
  } | null;
  readonly shippingLine: { readonly title: string; readonly code: string | null } | null;
}

export interface ShopifyOrderPage {
  readonly orders: readonly ShopifyOrderSummary[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
  readonly problems: readonly ShopifyProblem[];
}

// ---------- Response schemas (the zod boundary) ----------
// Enums Shopify may extend (statuses, units, method types) are read as strings here and checked
// with readEnum while mapping, so an unknown value is a problem on that field, not a failed order.

const MoneySchema = z.object({ amount: z.string(), currencyCode: z.string() });
const MoneyBagSchema = z.object({ shopMoney: MoneySchema, presentmentMoney: MoneySchema });
// UnsignedInt64 arrives as a string; a number is tolerated.
export const UInt64Schema = z.union([z.string(), z.number()]).transform((v) => String(v));
/** The MailingAddressForLabel fragment (orders.graphql.ts). */
export const MailingAddressSchema = z.object({
  ...streetAddressFields,
  name: ns,
  firstName: ns,
  lastName: ns,
  company: ns,
  provinceCode: ns,
  countryCodeV2: ns,
});
/** The LocalizedFieldForLabel fragment; `purpose` is an enum Shopify may extend. */
export const LocalizedFieldSchema = z.object({
  key: z.string(),
  purpose: z.string(),
  countryCode: z.string(),
  title: z.string(),
  value: z.string(),
});

export function toMailingAddress(address: z.infer<typeof MailingAddressSchema>): ShopifyMailingAddress {
  const { countryCodeV2, ...rest } = address;
  return { ...rest, countryCode: countryCodeV2 };
}

export function toLocalizedFields(
  fields: readonly z.infer<typeof LocalizedFieldSchema>[],
  where: { operation: string; pathOf: (field: z.infer<typeof LocalizedFieldSchema>, index: number) => string },
  problems: ShopifyProblem[],
): ShopifyLocalizedField[] {
  return fields.map((field, index) => ({
    ...field,
    purpose: readEnum(
      LOCALIZED_FIELD_PURPOSES,
      field.purpose,
      { operation: where.operation, path: where.pathOf(field, index), what: "checkout field purpose" },
      problems,
    ),
  }));
}

const LineItemSchema = z.object({
  id: GidSchema<LineItemGid>("LineItem"),
  title: z.string(),
  name: z.string(),
  variantTitle: ns,
  sku: ns,
  vendor: ns,
  quantity: z.number().int(),
  currentQuantity: z.number().int(),
  unfulfilledQuantity: z.number().int(),
  requiresShipping: z.boolean(),
  weight: RawWeightSchema.nullish(),
  originalUnitPriceSet: MoneyBagSchema,
  discountedUnitPriceAfterAllDiscountsSet: MoneyBagSchema,
  product: z.object({ id: z.string(), productType: z.string() }).nullish(),
  variant: z
    .object({
      id: z.string(),
      sku: ns,
      inventoryItem: z.object({
        id: z.string(),
        harmonizedSystemCode: ns,
        countryCodeOfOrigin: ns,
        provinceCodeOfOrigin: ns,
        measurement: z.object({ weight: RawWeightSchema.nullish() }),
      }),
    })
    .nullish(),
});
type LineItemData = z.infer<typeof LineItemSchema>;

const PageInfoSchema = z.object({
  hasNextPage: z.boolean(),
  endCursor: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
const LineItemConnectionSchema = z.object({ pageInfo: PageInfoSchema, nodes: z.array(LineItemSchema) });

const FulfillmentOrderLineItemSchema = z.object({
  id: GidSchema<FulfillmentOrderLineItemGid>("FulfillmentOrderLineItem"),
  totalQuantity: z.number().int(),
  remainingQuantity: z.number().int(),
  sku: ns,
  productTitle: z.string(),
  variantTitle: ns,
  requiresShipping: z.boolean(),
  weight: RawWeightSchema.nullish(),
  lineItem: z.object({ id: GidSchema<LineItemGid>("LineItem") }),
});
type FulfillmentOrderLineItemData = z.infer<typeof FulfillmentOrderLineItemSchema>;
const FulfillmentOrderLineItemConnectionSchema = z.object({
  pageInfo: PageInfoSchema,
  nodes: z.array(FulfillmentOrderLineItemSchema),
});

const FulfillmentOrderSchema = z.object({
  id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
  status: z.string(),
  requestStatus: z.string(),
  supportedActions: z.array(z.object({ action: z.string() })),
  deliveryMethod: z.object({ methodType: z.string(), serviceCode: ns, presentedName: ns }).nullish(),
  internationalDuties: z.object({ incoterm: z.string() }).nullish(),
  assignedLocation: z.object({
    ...streetAddressFields,
    name: z.string(),
    countryCode: z.string(),
    location: z.object({ id: GidSchema<LocationGid>("Location") }).nullish(),
  }),
  destination: z
    .object({
      ...streetAddressFields,
      firstName: ns,
      lastName: ns,
      company: ns,
      countryCode: ns,
      email: ns,
    })
    .nullish(),
  lineItems: FulfillmentOrderLineItemConnectionSchema,
});
type FulfillmentOrderData = z.infer<typeof FulfillmentOrderSchema>;

const OrderForLabelDataSchema = z.object({
  order: z
    .object({
      id: GidSchema<OrderGid>("Order"),
      legacyResourceId: UInt64Schema,
      name: z.string(),
      email: ns,
      phone: ns,
      currencyCode: z.string(),
      presentmentCurrencyCode: z.string(),
      displayFulfillmentStatus: z.string(),
      displayFinancialStatus: ns,
      totalWeight: UInt64Schema.nullish(),
      totalPriceSet: MoneyBagSchema,
      shippingAddress: MailingAddressSchema.nullish(),
      shippingLine: z.object({ title: z.string(), code: ns }).nullish(),
      localizedFields: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean() }),
        nodes: z.array(LocalizedFieldSchema),
      }),
      lineItems: LineItemConnectionSchema,
    })
    .nullable(),
});

const OrderLineItemsDataSchema = z.object({
  order: z.object({ id: z.string(), lineItems: LineItemConnectionSchema }).nullable(),
});

const OrderFulfillmentOrdersDataSchema = z.object({
  order: z
    .object({
      id: z.string(),
      fulfillmentOrders: z.object({ pageInfo: PageInfoSchema, nodes: z.array(FulfillmentOrderSchema) }),
    })
    .nullable(),
});

const FulfillmentOrderLineItemsDataSchema = z.object({
  fulfillmentOrder: z.object({ id: z.string(), lineItems: FulfillmentOrderLineItemConnectionSchema }).nullable(),
});

const OrderSummarySchema = z.object({
  id: GidSchema<OrderGid>("Order"),
  legacyResourceId: UInt64Schema,
  name: z.string(),
  createdAt: z.string(),
  displayFulfillmentStatus: z.string(),
  displayFinancialStatus: ns,
  requiresShipping: z.boolean(),
  totalWeight: UInt64Schema.nullish(),
  currencyCode: z.string(),
  totalPriceSet: z.object({ shopMoney: MoneySchema }),
  shippingAddress: z.object({ name: ns, company: ns, city: ns, provinceCode: ns, countryCodeV2: ns }).nullish(),
  shippingLine: z.object({ title: z.string(), code: ns }).nullish(),
});

const UnfulfilledOrdersDataSchema = z.object({
  orders: z.object({ pageInfo: PageInfoSchema, nodes: z.array(OrderSummarySchema) }),
});

// ---------- Mapping ----------

const toWeightGrams = (value: string | null | undefined) => {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

function toMoneyBag(bag: z.infer<typeof MoneyBagSchema>): ShopifyMoneyBag {
  return { shop: bag.shopMoney, presentment: bag.presentmentMoney };
}

function toLineItem(li: LineItemData, problems: ShopifyProblem[]): ShopifyOrderLineItem {
  const inventoryItem = li.variant?.inventoryItem;
  const productType = li.product?.productType.trim();
  const where = (field: string) => ({ operation: "OrderForLabel", path: `lineItems.${li.id}.${field}` });
  return {
    id: li.id,
    title: li.title,
    name: li.name,
    variantTitle: li.variantTitle,
    sku: li.sku ?? li.variant?.sku ?? null,
    vendor: li.vendor,
    productType: productType ? productType : null,
    quantity: li.quantity,
    currentQuantity: li.currentQuantity,
    unfulfilledQuantity: li.unfulfilledQuantity,
    requiresShipping: li.requiresShipping,
    unitPrice: toMoneyBag(li.originalUnitPriceSet),
    paidUnitPrice: toMoneyBag(li.discountedUnitPriceAfterAllDiscountsSet),
    weight:
      readWeight(inventoryItem?.measurement.weight, where("inventoryItem.measurement.weight"), problems) ??
      readWeight(li.weight, where("weight"), problems),
    hsCode: inventoryItem?.harmonizedSystemCode?.trim() || null,
    countryOfOrigin: inventoryItem?.countryCodeOfOrigin ?? null,
    provinceOfOrigin: inventoryItem?.provinceCodeOfOrigin ?? null,
    productId: li.product?.id ?? null,
    variantId: li.variant?.id ?? null,
    inventoryItemId: inventoryItem?.id ?? null,
  };
}

const TAX_ID_KEYS_BY_COUNTRY: Record<string, readonly string[]> = {
  // Brazil collects CPF/CNPJ as a shipping credential; some checkouts also as a tax credential.
  BR: ["SHIPPING_CREDENTIAL_BR", "TAX_CREDENTIAL_BR"],
  IT: ["TAX_CREDENTIAL_IT"],
};

function classifyTaxId(countryCode: string, value: string): CustomsTaxIdKind {
  const compact = value.replace(/[\s.\-/]/g, "").toUpperCase();
  if (countryCode === "BR") {
    if (/^\d{11}$/.test(compact)) return "CPF";
    if (/^\d{14}$/.test(compact)) return "CNPJ";
  }
  if (countryCode === "IT") {
    if (/^[A-Z0-9]{16}$/.test(compact)) return "CODICE_FISCALE";
    if (/^(IT)?\d{11}$/.test(compact)) return "PARTITA_IVA";
  }
  return "OTHER";
}

// Picks the tax id the destination's customs needs from the checkout's localized fields.
export function selectCustomsTaxId(
  fields: readonly ShopifyLocalizedField[],
  destinationCountryCode: string | null,
): CustomsTaxId | null {
  if (!destinationCountryCode) return null;
  const keys = TAX_ID_KEYS_BY_COUNTRY[destinationCountryCode] ?? [];
  for (const key of keys) {
    const field = fields.find((f) => f.key === key && f.value.trim() !== "");
    if (field) {
      return {
        value: field.value.trim(),
        kind: classifyTaxId(destinationCountryCode, field.value),
        countryCode: field.countryCode,
        sourceKey: field.key,
      };
    }
  }
  return null;
}

const truncated = (what: string, logMessage: string): ShopifyProblem => ({
  code: "TRUNCATED",
  message: `This order has more ${what} than we could load at once; check it in Shopify before buying a label.`,
  logMessage,
});

// ---------- Adapters ----------

// The largest page the orders list asks for: 50 orders cost about 250 points, far below Shopify's
// 1,000-point limit (test/query-cost.test.ts). Larger requests are clamped and page instead.
export const UNFULFILLED_ORDERS_MAX_PAGE_SIZE = 50;

export const DEFAULT_UNFULFILLED_ORDERS_QUERY = "status:open fulfillment_status:unfulfilled delivery_method:shipping";

export async function getUnfulfilledOrders(
  admin: AdminGraphqlClient,
  options: { first: number; after?: string | null; query?: string },
): Promise<Result<ShopifyOrderPage, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "UnfulfilledOrdersForLabels",
    document: UNFULFILLED_ORDERS_FOR_LABELS_QUERY,
    variables: {
      first: Math.min(Math.max(1, options.first), UNFULFILLED_ORDERS_MAX_PAGE_SIZE),
      after: options.after ?? null,
      query: options.query ?? DEFAULT_UNFULFILLED_ORDERS_QUERY,
    },
    schema: UnfulfilledOrdersDataSchema,
  });
  if (!result.ok) return result;
  const { orders } = result.value.data;
  return ok({
    orders: orders.nodes.map((o) => ({
      id: o.id,
      legacyId: o.legacyResourceId,
      name: o.name,
      createdAt: o.createdAt,
      displayFulfillmentStatus: o.displayFulfillmentStatus,
      displayFinancialStatus: o.displayFinancialStatus,
      requiresShipping: o.requiresShipping,
      totalWeightGrams: toWeightGrams(o.totalWeight),
      totalPrice: o.totalPriceSet.shopMoney,
      shipTo: o.shippingAddress
        ? {
            name: o.shippingAddress.name,
            company: o.shippingAddress.company,
            city: o.shippingAddress.city,
            provinceCode: o.shippingAddress.provinceCode,
            countryCode: o.shippingAddress.countryCodeV2,
          }
        : null,
      shippingLine: o.shippingLine ?? null,
    })),
    pageInfo: orders.pageInfo,
    problems: result.value.problems,
  });
}

// Hard caps on paging (25 order lines, 5 fulfillment orders, 50 fulfillment order lines a page):
// beyond these an order is reported as truncated, never silently cut.
const MAX_LINE_ITEM_PAGES = 20;
const MAX_FULFILLMENT_ORDER_PAGES = 10;
const MAX_FULFILLMENT_ORDER_LINE_ITEM_PAGES = 10;

function toFulfillmentOrderLineItem(
  line: FulfillmentOrderLineItemData,
  problems: ShopifyProblem[],
): ShopifyFulfillmentOrderLineItem {
  return {
    id: line.id,
    lineItemId: line.lineItem.id,
    totalQuantity: line.totalQuantity,
    remainingQuantity: line.remainingQuantity,
    sku: line.sku,
    productTitle: line.productTitle,
    variantTitle: line.variantTitle,
    requiresShipping: line.requiresShipping,
    weight: readWeight(
      line.weight,
      { operation: "OrderFulfillmentOrdersForLabel", path: `${line.id}.weight` },
      problems,
    ),
  };
}

function toFulfillmentOrder(
  fo: FulfillmentOrderData,
  lineItems: ShopifyFulfillmentOrderLineItem[],
  lineItemsComplete: boolean,
  problems: ShopifyProblem[],
): ShopifyFulfillmentOrder {
  const operation = "OrderFulfillmentOrdersForLabel";
  const supportedActions = fo.supportedActions.map((a) => a.action);
  const { location, ...assigned } = fo.assignedLocation;
  const status = readEnum(
    FULFILLMENT_ORDER_STATUSES,
    fo.status,
    { operation, path: `fulfillmentOrders.${fo.id}.status`, what: "fulfillment status" },
    problems,
  );
  const deliveryMethod = fo.deliveryMethod
    ? {
        methodType: readEnum(
          DELIVERY_METHOD_TYPES,
          fo.deliveryMethod.methodType,
          { operation, path: `fulfillmentOrders.${fo.id}.deliveryMethod.methodType`, what: "delivery method" },
          problems,
        ),
        rawMethodType: fo.deliveryMethod.methodType,
        serviceCode: fo.deliveryMethod.serviceCode,
        presentedName: fo.deliveryMethod.presentedName,
      }
    : null;
  return {
    id: fo.id,
    status,
    requestStatus: fo.requestStatus,
    supportedActions,
    canCreateFulfillment: supportedActions.includes("CREATE_FULFILLMENT"),
    deliveryMethod,
    internationalDuties: fo.internationalDuties ?? null,
    assignedLocation: { ...assigned, locationId: location?.id ?? null },
    destination: fo.destination ?? null,
    lineItems,
    lineItemsComplete,
  };
}

type Page<T> = { items: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

// Follows `hasNextPage` from a first page, up to `maxPages` pages in all. `complete` is false
// when the cap stopped it with pages left. A page whose parent vanished (null) ends the list.
async function readRemainingPages<T>(
  first: Page<T>,
  maxPages: number,
  fetchPage: (after: string | null) => Promise<Result<Page<T> | null, ShopifyError>>,
): Promise<Result<{ items: T[]; complete: boolean }, ShopifyError>> {
  const items = [...first.items];
  let pageInfo = first.pageInfo;
  for (let page = 1; pageInfo.hasNextPage && page < maxPages; page++) {
    const next = await fetchPage(pageInfo.endCursor);
    if (!next.ok) return next;
    if (!next.value) break;
    items.push(...next.value.items);
    pageInfo = next.value.pageInfo;
  }
  return ok({ items, complete: !pageInfo.hasNextPage });
}

async function getOrderLineItems(
  admin: AdminGraphqlClient,
  orderGid: OrderGid,
  first: z.infer<typeof LineItemConnectionSchema>,
  problems: ShopifyProblem[],
): Promise<Result<ShopifyOrderLineItem[], ShopifyError>> {
  const paged = await readRemainingPages(
    { items: first.nodes.map((li) => toLineItem(li, problems)), pageInfo: first.pageInfo },
    MAX_LINE_ITEM_PAGES,
    async (after) => {
      const next = await runAdminGraphql(admin, {
        operation: "OrderLineItemsForLabel",
        document: ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
        variables: { id: orderGid, after },
        schema: OrderLineItemsDataSchema,
      });
      if (!next.ok) return next;
      const connection = next.value.data.order?.lineItems;
      problems.push(...next.value.problems);
      return ok(
        connection
          ? { items: connection.nodes.map((li) => toLineItem(li, problems)), pageInfo: connection.pageInfo }
          : null,
      );
    },
  );
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      truncated("line items", `OrderForLabel: ${orderGid} has more than ${paged.value.items.length} line items`),
    );
  }
  return ok(paged.value.items);
}

async function getFulfillmentOrderLineItems(
  admin: AdminGraphqlClient,
  fo: FulfillmentOrderData,
  problems: ShopifyProblem[],
): Promise<Result<{ lineItems: ShopifyFulfillmentOrderLineItem[]; complete: boolean }, ShopifyError>> {
  const paged = await readRemainingPages(
    { items: fo.lineItems.nodes.map((l) => toFulfillmentOrderLineItem(l, problems)), pageInfo: fo.lineItems.pageInfo },
    MAX_FULFILLMENT_ORDER_LINE_ITEM_PAGES,
    async (after) => {
      const next = await runAdminGraphql(admin, {
        operation: "FulfillmentOrderLineItemsForLabel",
        document: FULFILLMENT_ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
        variables: { id: fo.id, after },
        schema: FulfillmentOrderLineItemsDataSchema,
      });
      if (!next.ok) return next;
      const connection = next.value.data.fulfillmentOrder?.lineItems;
      problems.push(...next.value.problems);
      return ok(
        connection
          ? {
              items: connection.nodes.map((l) => toFulfillmentOrderLineItem(l, problems)),
              pageInfo: connection.pageInfo,
            }
          : null,
      );
    },
  );
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      truncated(
        "items in one shipment",
        `OrderFulfillmentOrdersForLabel: fulfillment order ${fo.id} has more than ${paged.value.items.length} line items`,
      ),
    );
  }
  return ok({ lineItems: paged.value.items, complete: paged.value.complete });
}

async function getFulfillmentOrders(
  admin: AdminGraphqlClient,
  orderGid: OrderGid,
  problems: ShopifyProblem[],
): Promise<Result<ShopifyFulfillmentOrder[], ShopifyError>> {
  const pageOf = async (after: string | null) => {
    const result = await runAdminGraphql(admin, {
      operation: "OrderFulfillmentOrdersForLabel",
      document: ORDER_FULFILLMENT_ORDERS_FOR_LABEL_QUERY,
      variables: { id: orderGid, after },
      schema: OrderFulfillmentOrdersDataSchema,
    });
    if (!result.ok) return result;
    problems.push(...result.value.problems);
    const connection = result.value.data.order?.fulfillmentOrders;
    return ok(connection ? { items: connection.nodes, pageInfo: connection.pageInfo } : null);
  };
  const first = await pageOf(null);
  if (!first.ok) return first;
  if (!first.value) return ok([]);
  const paged = await readRemainingPages(first.value, MAX_FULFILLMENT_ORDER_PAGES, pageOf);
  if (!paged.ok) return paged;
  if (!paged.value.complete) {
    problems.push(
      truncated(
        "fulfillment orders",
        `OrderFulfillmentOrdersForLabel: ${orderGid} has more than ${paged.value.items.length} fulfillment orders`,
      ),
    );
  }
  const fulfillmentOrders: ShopifyFulfillmentOrder[] = [];
  for (const fo of paged.value.items) {
    const lines = await getFulfillmentOrderLineItems(admin, fo, problems);
    if (!lines.ok) return lines;
    fulfillmentOrders.push(toFulfillmentOrder(fo, lines.value.lineItems, lines.value.complete, problems));
  }
  return ok(fulfillmentOrders);
}

/**
 * The order as a label needs it, read in small documents (header and line items, fulfillment
 * orders, further pages of either) so none comes near Shopify's query cost limit. Every page is
 * read; beyond the hard caps the order is reported as truncated.
 */
export async function getOrderForLabel(
  admin: AdminGraphqlClient,
  orderGid: OrderGid,
): Promise<Result<ShopifyOrderForLabelResult, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "OrderForLabel",
    document: ORDER_FOR_LABEL_QUERY,
    variables: { id: orderGid },
    schema: OrderForLabelDataSchema,
  });
  if (!result.ok) return result;
  const order = result.value.data.order;
  const problems: ShopifyProblem[] = [...result.value.problems];
  if (!order) {
    return err(
      createShopifyError("NOT_FOUND", `OrderForLabel: order ${orderGid} not found`, {
        message:
          "We couldn't find this order in Shopify. It may have been deleted, or it's older than this app can see.",
      }),
    );
  }

  const lineItems = await getOrderLineItems(admin, orderGid, order.lineItems, problems);
  if (!lineItems.ok) return lineItems;
  const fulfillmentOrders = await getFulfillmentOrders(admin, orderGid, problems);
  if (!fulfillmentOrders.ok) return fulfillmentOrders;

  if (order.localizedFields.pageInfo.hasNextPage) {
    problems.push(truncated("checkout fields", `OrderForLabel: ${orderGid} has more than 25 localized fields`));
  }
  const localizedFields = toLocalizedFields(
    order.localizedFields.nodes,
    { operation: "OrderForLabel", pathOf: (field) => `localizedFields.${field.key}.purpose` },
    problems,
  );
  const shippingAddress = order.shippingAddress ? toMailingAddress(order.shippingAddress) : null;
  const destinationCountry =
    fulfillmentOrders.value[0]?.destination?.countryCode ?? shippingAddress?.countryCode ?? null;

  return ok({
    order: {
      id: order.id,
      legacyId: order.legacyResourceId,
      name: order.name,
      email: order.email,
      phone: order.phone,
      shopCurrencyCode: order.currencyCode,
      presentmentCurrencyCode: order.presentmentCurrencyCode,
      displayFulfillmentStatus: order.displayFulfillmentStatus,
      displayFinancialStatus: order.displayFinancialStatus,
      totalWeightGrams: toWeightGrams(order.totalWeight),
      totalPrice: toMoneyBag(order.totalPriceSet),
      shippingAddress,
      shippingLine: order.shippingLine ?? null,
      localizedFields,
      customsTaxId: selectCustomsTaxId(localizedFields, destinationCountry),
      lineItems: lineItems.value,
      fulfillmentOrders: fulfillmentOrders.value,
    },
    problems,
  });
}
