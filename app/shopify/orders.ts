import type { OrderForLabelQueryVariables } from "~/types/admin.generated";
import type {
  DeliveryMethodType,
  FulfillmentOrderStatus,
  LocalizedFieldPurpose as GeneratedLocalizedFieldPurpose,
} from "~/types/admin.types";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type ShopifyError,
  type ShopifyProblem,
} from "./admin-client";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LineItemGid, LocationGid, OrderGid } from "./ids";
import { toOrderForLabel } from "./order-mapping";
import { createTruncatedProblem, getFulfillmentOrders, getOrderLineItems } from "./order-pages";
import { OrderForLabelDataSchema } from "./order-schemas";
import { ORDER_FOR_LABEL_QUERY } from "./orders.graphql";
import type { ShopifyWeightUnit } from "./response-schemas";

// Orders as the label use cases read them: the app's shapes, and the two reads that fill them.
// The responses behind them are parsed in order-schemas.ts (checked against codegen's types for
// the documents in orders.graphql.ts), mapped in order-mapping.ts, and paged in order-pages.ts.

export { selectCustomsTaxId } from "./order-mapping";

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
  // The product's tags, which the shop's option rules match (adult signature, lithium batteries).
  readonly productTags: readonly string[];
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

// The enum lists below are checked against the enums of the pinned API version (codegen), so none
// names a value Shopify doesn't have; values a later version adds are read with readEnum.
export const FULFILLMENT_ORDER_STATUSES = [
  "OPEN",
  "IN_PROGRESS",
  "SCHEDULED",
  "ON_HOLD",
  "INCOMPLETE",
  "CLOSED",
  "CANCELLED",
] as const satisfies readonly `${FulfillmentOrderStatus}`[];
export type ShopifyFulfillmentOrderStatus = (typeof FULFILLMENT_ORDER_STATUSES)[number];

export const DELIVERY_METHOD_TYPES = [
  "SHIPPING",
  "PICK_UP",
  "PICKUP_POINT",
  "LOCAL",
  "RETAIL",
  "NONE",
] as const satisfies readonly `${DeliveryMethodType}`[];
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

export const LOCALIZED_FIELD_PURPOSES = [
  "SHIPPING",
  "TAX",
] as const satisfies readonly `${GeneratedLocalizedFieldPurpose}`[];
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
  /**
   * What the customer paid for shipping (shop currency, after discounts and refunds); absent
   * where the order was read without it (the Orders list's short read).
   */
  readonly shippingPaid?: ShopifyMoney | null;
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

// ---------- Reads ----------

export const DEFAULT_UNFULFILLED_ORDERS_QUERY = "status:open fulfillment_status:unfulfilled delivery_method:shipping";

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
    variables: { id: orderGid } satisfies OrderForLabelQueryVariables,
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
    problems.push(
      createTruncatedProblem("checkout fields", `OrderForLabel: ${orderGid} has more than 25 localized fields`),
    );
  }
  return ok({ order: toOrderForLabel(order, lineItems.value, fulfillmentOrders.value, problems), problems });
}
