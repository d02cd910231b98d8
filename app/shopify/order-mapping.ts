import type { ShopifyProblem } from "./admin-client";
import type {
  FulfillmentOrderData,
  FulfillmentOrderLineItemData,
  LineItemData,
  LocalizedFieldData,
  MailingAddressData,
  MoneyBagData,
  OrderHeaderData,
} from "./order-schemas";
import {
  type CustomsTaxId,
  type CustomsTaxIdKind,
  DELIVERY_METHOD_TYPES,
  FULFILLMENT_ORDER_STATUSES,
  LOCALIZED_FIELD_PURPOSES,
  type ShopifyFulfillmentOrder,
  type ShopifyFulfillmentOrderLineItem,
  type ShopifyLocalizedField,
  type ShopifyMailingAddress,
  type ShopifyMoneyBag,
  type ShopifyOrderForLabel,
  type ShopifyOrderLineItem,
} from "./orders";
import { readEnum, readWeight } from "./response-schemas";

// From the parsed responses (order-schemas.ts) to the shapes the label use cases consume
// (orders.ts). Pure: whatever is odd in the data becomes a problem, never an exception.

const toWeightGrams = (value: string | null | undefined) => {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

export function toMoneyBag(bag: MoneyBagData): ShopifyMoneyBag {
  return { shop: bag.shopMoney, presentment: bag.presentmentMoney };
}

export function toMailingAddress(address: MailingAddressData): ShopifyMailingAddress {
  const { countryCodeV2, ...rest } = address;
  return { ...rest, countryCode: countryCodeV2 };
}

export function toLocalizedFields(
  fields: readonly LocalizedFieldData[],
  where: { operation: string; pathOf: (field: LocalizedFieldData, index: number) => string },
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

export function toLineItem(li: LineItemData, problems: ShopifyProblem[]): ShopifyOrderLineItem {
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
    productTags: li.product?.tags ?? [],
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

export function toFulfillmentOrderLineItem(
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

export function toFulfillmentOrder(
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

/** The order's header with every line item and fulfillment order, already read page by page. */
export function toOrderForLabel(
  order: OrderHeaderData,
  lineItems: readonly ShopifyOrderLineItem[],
  fulfillmentOrders: readonly ShopifyFulfillmentOrder[],
  problems: ShopifyProblem[],
): ShopifyOrderForLabel {
  const localizedFields = toLocalizedFields(
    order.localizedFields.nodes,
    { operation: "OrderForLabel", pathOf: (field) => `localizedFields.${field.key}.purpose` },
    problems,
  );
  const shippingAddress = order.shippingAddress ? toMailingAddress(order.shippingAddress) : null;
  const destinationCountry = fulfillmentOrders[0]?.destination?.countryCode ?? shippingAddress?.countryCode ?? null;
  return {
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
    shippingPaid: order.currentShippingPriceSet?.shopMoney ?? null,
    localizedFields,
    customsTaxId: selectCustomsTaxId(localizedFields, destinationCountry),
    lineItems,
    fulfillmentOrders,
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
    // Since July 2026 a CNPJ may carry letters in its first twelve places (the check digits stay digits).
    if (/^[0-9A-Z]{12}\d{2}$/.test(compact)) return "CNPJ";
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
