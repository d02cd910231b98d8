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
  ORDER_FOR_LABEL_QUERY,
  ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
  UNFULFILLED_ORDERS_FOR_LABELS_QUERY,
} from "./orders.graphql";
import { GidSchema, ns, streetAddressFields, WeightUnitSchema } from "./response-schemas";

// ---------- Normalized output types (what the label use cases consume) ----------

export type ShopifyWeightUnit = z.infer<typeof WeightUnitSchema>;
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
  readonly unitPrice: ShopifyMoneyBag;
  // The inventory item's weight, falling back to the weight recorded on the line item.
  readonly weight: ShopifyWeight | null;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
  readonly provinceOfOrigin: string | null;
  readonly productId: string | null;
  readonly variantId: string | null;
  readonly inventoryItemId: string | null;
}

export type ShopifyFulfillmentOrderStatus =
  "OPEN" | "IN_PROGRESS" | "SCHEDULED" | "ON_HOLD" | "INCOMPLETE" | "CLOSED" | "CANCELLED";

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
  readonly status: ShopifyFulfillmentOrderStatus;
  readonly requestStatus: string;
  readonly supportedActions: readonly string[];
  // Only fulfillment orders offering CREATE_FULFILLMENT can get a label written back.
  readonly canCreateFulfillment: boolean;
  readonly deliveryMethod: {
    readonly methodType: string;
    readonly serviceCode: string | null;
    readonly presentedName: string | null;
  } | null;
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
  readonly lineItems: readonly ShopifyFulfillmentOrderLineItem[];
  // False when the fulfillment order has more line items than one page (reported as a problem).
  readonly lineItemsComplete: boolean;
}

export type LocalizedFieldPurpose = "SHIPPING" | "TAX";
export interface ShopifyLocalizedField {
  // e.g. SHIPPING_CREDENTIAL_BR (CPF/CNPJ), TAX_CREDENTIAL_IT (codice fiscale / partita IVA).
  readonly key: string;
  readonly purpose: LocalizedFieldPurpose;
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

const WeightSchema = z.object({ unit: WeightUnitSchema, value: z.number() });
const MoneySchema = z.object({ amount: z.string(), currencyCode: z.string() });
const MoneyBagSchema = z.object({ shopMoney: MoneySchema, presentmentMoney: MoneySchema });
// UnsignedInt64 arrives as a string; a number is tolerated.
const UInt64Schema = z.union([z.string(), z.number()]).transform((v) => String(v));
const MailingAddressSchema = z.object({
  ...streetAddressFields,
  name: ns,
  firstName: ns,
  lastName: ns,
  company: ns,
  provinceCode: ns,
  countryCodeV2: ns,
});

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
  weight: WeightSchema.nullish(),
  originalUnitPriceSet: MoneyBagSchema,
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
        measurement: z.object({ weight: WeightSchema.nullish() }),
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

const FulfillmentOrderSchema = z.object({
  id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
  status: z.enum(["OPEN", "IN_PROGRESS", "SCHEDULED", "ON_HOLD", "INCOMPLETE", "CLOSED", "CANCELLED"]),
  requestStatus: z.string(),
  supportedActions: z.array(z.object({ action: z.string() })),
  deliveryMethod: z.object({ methodType: z.string(), serviceCode: ns, presentedName: ns }).nullish(),
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
  lineItems: z.object({
    pageInfo: z.object({ hasNextPage: z.boolean() }),
    nodes: z.array(
      z.object({
        id: GidSchema<FulfillmentOrderLineItemGid>("FulfillmentOrderLineItem"),
        totalQuantity: z.number().int(),
        remainingQuantity: z.number().int(),
        sku: ns,
        productTitle: z.string(),
        variantTitle: ns,
        requiresShipping: z.boolean(),
        weight: WeightSchema.nullish(),
        lineItem: z.object({ id: GidSchema<LineItemGid>("LineItem") }),
      }),
    ),
  }),
});

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
        nodes: z.array(
          z.object({
            key: z.string(),
            purpose: z.enum(["SHIPPING", "TAX"]),
            countryCode: z.string(),
            title: z.string(),
            value: z.string(),
          }),
        ),
      }),
      lineItems: LineItemConnectionSchema,
      fulfillmentOrders: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean() }),
        nodes: z.array(FulfillmentOrderSchema),
      }),
    })
    .nullable(),
});

const OrderLineItemsDataSchema = z.object({
  order: z.object({ id: z.string(), lineItems: LineItemConnectionSchema }).nullable(),
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

function toLineItem(li: LineItemData): ShopifyOrderLineItem {
  const inventoryItem = li.variant?.inventoryItem;
  const productType = li.product?.productType.trim();
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
    weight: inventoryItem?.measurement.weight ?? li.weight ?? null,
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

export const DEFAULT_UNFULFILLED_ORDERS_QUERY = "status:open fulfillment_status:unfulfilled delivery_method:shipping";

export async function getUnfulfilledOrders(
  admin: AdminGraphqlClient,
  options: { first: number; after?: string | null; query?: string },
): Promise<Result<ShopifyOrderPage, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "UnfulfilledOrdersForLabels",
    document: UNFULFILLED_ORDERS_FOR_LABELS_QUERY,
    variables: {
      first: options.first,
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

// Shopify sends at most 50 line items per page; beyond this we stop and report truncation.
const MAX_LINE_ITEM_PAGES = 10;

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

  const lineItems = order.lineItems.nodes.map(toLineItem);
  let pageInfo = order.lineItems.pageInfo;
  for (let page = 1; pageInfo.hasNextPage && page < MAX_LINE_ITEM_PAGES; page++) {
    const next = await runAdminGraphql(admin, {
      operation: "OrderLineItemsForLabel",
      document: ORDER_LINE_ITEMS_FOR_LABEL_QUERY,
      variables: { id: orderGid, after: pageInfo.endCursor },
      schema: OrderLineItemsDataSchema,
    });
    if (!next.ok) return next;
    problems.push(...next.value.problems);
    const connection = next.value.data.order?.lineItems;
    if (!connection) break;
    lineItems.push(...connection.nodes.map(toLineItem));
    pageInfo = connection.pageInfo;
  }
  if (pageInfo.hasNextPage)
    problems.push(truncated("line items", `OrderForLabel: ${orderGid} has more than ${lineItems.length} line items`));
  if (order.fulfillmentOrders.pageInfo.hasNextPage) {
    problems.push(
      truncated(
        "fulfillment orders",
        `OrderForLabel: ${orderGid} has more than ${order.fulfillmentOrders.nodes.length} fulfillment orders`,
      ),
    );
  }

  const fulfillmentOrders: ShopifyFulfillmentOrder[] = order.fulfillmentOrders.nodes.map((fo) => {
    if (fo.lineItems.pageInfo.hasNextPage) {
      problems.push(
        truncated(
          "items in one shipment",
          `OrderForLabel: fulfillment order ${fo.id} has more than ${fo.lineItems.nodes.length} line items`,
        ),
      );
    }
    const supportedActions = fo.supportedActions.map((a) => a.action);
    const { location, ...assigned } = fo.assignedLocation;
    return {
      id: fo.id,
      status: fo.status,
      requestStatus: fo.requestStatus,
      supportedActions,
      canCreateFulfillment: supportedActions.includes("CREATE_FULFILLMENT"),
      deliveryMethod: fo.deliveryMethod ?? null,
      assignedLocation: { ...assigned, locationId: location?.id ?? null },
      destination: fo.destination ?? null,
      lineItems: fo.lineItems.nodes.map((l) => ({
        id: l.id,
        lineItemId: l.lineItem.id,
        totalQuantity: l.totalQuantity,
        remainingQuantity: l.remainingQuantity,
        sku: l.sku,
        productTitle: l.productTitle,
        variantTitle: l.variantTitle,
        requiresShipping: l.requiresShipping,
        weight: l.weight ?? null,
      })),
      lineItemsComplete: !fo.lineItems.pageInfo.hasNextPage,
    };
  });

  const shippingAddress: ShopifyMailingAddress | null = order.shippingAddress
    ? (({ countryCodeV2, ...rest }) => ({ ...rest, countryCode: countryCodeV2 }))(order.shippingAddress)
    : null;
  const localizedFields = order.localizedFields.nodes;
  const destinationCountry = shippingAddress?.countryCode ?? fulfillmentOrders[0]?.destination?.countryCode ?? null;

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
      lineItems,
      fulfillmentOrders,
    },
    problems,
  });
}
