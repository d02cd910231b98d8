// Admin API 2026-10 documents for reading orders. Validated against the real schema with no
// deprecated fields (documents.test.ts). Contact details come from the order and the fulfillment
// order destination, never Order.customer (that needs read_customers).
// Each document's requested cost stays below 400 of Shopify's 1,000 points per query
// (test/query-cost.test.ts): the order for a label is read as a header with the first page of
// line items, then fulfillment orders, then further pages of either, never as one large document.

// One line item as prefill needs it (weights, prices, HS code, origin), shared by the order query
// and the query that pages through orders with more line items than the first page. 13 points.
export const LINE_ITEM_FOR_LABEL_FRAGMENT = `#graphql
  fragment LineItemForLabel on LineItem {
    id
    title
    name
    variantTitle
    sku
    vendor
    quantity
    currentQuantity
    unfulfilledQuantity
    requiresShipping
    weight {
      unit
      value
    }
    originalUnitPriceSet {
      shopMoney {
        amount
        currencyCode
      }
      presentmentMoney {
        amount
        currencyCode
      }
    }
    # What the customer paid per unit after line and order discounts: the customs value (ADR 0006).
    discountedUnitPriceAfterAllDiscountsSet {
      shopMoney {
        amount
        currencyCode
      }
      presentmentMoney {
        amount
        currencyCode
      }
    }
    product {
      id
      productType
      # Shop rules ask for an adult signature or declare lithium batteries by tag.
      tags
    }
    variant {
      id
      sku
      inventoryItem {
        id
        harmonizedSystemCode
        countryCodeOfOrigin
        provinceCodeOfOrigin
        measurement {
          weight {
            unit
            value
          }
        }
      }
    }
  }
`;

// The recipient as the order holds it, shared by the Orders list and the order label page.
export const MAILING_ADDRESS_FOR_LABEL_FRAGMENT = `#graphql
  fragment MailingAddressForLabel on MailingAddress {
    name
    firstName
    lastName
    company
    address1
    address2
    city
    province
    provinceCode
    zip
    countryCodeV2
    phone
  }
`;

// Checkout fields such as the Brazilian CPF or the Italian codice fiscale (customs tax ids).
export const LOCALIZED_FIELD_FOR_LABEL_FRAGMENT = `#graphql
  fragment LocalizedFieldForLabel on LocalizedField {
    key
    purpose
    countryCode
    title
    value
  }
`;

// The order's own fields, shared by the order's query and the bulk read of a run's orders.
export const ORDER_HEADER_FOR_LABEL_FRAGMENT = `#graphql
  fragment OrderHeaderForLabel on Order {
    id
    legacyResourceId
    name
    email
    phone
    currencyCode
    presentmentCurrencyCode
    displayFulfillmentStatus
    displayFinancialStatus
    totalWeight
    totalPriceSet {
      shopMoney {
        amount
        currencyCode
      }
      presentmentMoney {
        amount
        currencyCode
      }
    }
    shippingAddress {
      ...MailingAddressForLabel
    }
    shippingLine {
      title
      code
    }
    # What the customer paid for shipping, after discounts and refunds (the home page reads the same).
    currentShippingPriceSet {
      shopMoney {
        amount
        currencyCode
      }
    }
  }
`;

// The order's own fields and its first 25 line items: about 370 points.
export const ORDER_FOR_LABEL_QUERY = `#graphql
  query OrderForLabel($id: ID!) {
    order(id: $id) {
      ...OrderHeaderForLabel
      localizedFields(first: 25) {
        pageInfo {
          hasNextPage
        }
        nodes {
          ...LocalizedFieldForLabel
        }
      }
      lineItems(first: 25) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...LineItemForLabel
        }
      }
    }
  }
  ${ORDER_HEADER_FOR_LABEL_FRAGMENT}
  ${LINE_ITEM_FOR_LABEL_FRAGMENT}
  ${MAILING_ADDRESS_FOR_LABEL_FRAGMENT}
  ${LOCALIZED_FIELD_FOR_LABEL_FRAGMENT}
`;

// The next pages of line items, for orders with more than 25 lines.
export const ORDER_LINE_ITEMS_FOR_LABEL_QUERY = `#graphql
  query OrderLineItemsForLabel($id: ID!, $after: String) {
    order(id: $id) {
      id
      lineItems(first: 25, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...LineItemForLabel
        }
      }
    }
  }
  ${LINE_ITEM_FOR_LABEL_FRAGMENT}
`;

// One fulfillment order line item as a label ships it. 3 points.
export const FULFILLMENT_ORDER_LINE_ITEM_FOR_LABEL_FRAGMENT = `#graphql
  fragment FulfillmentOrderLineItemForLabel on FulfillmentOrderLineItem {
    id
    totalQuantity
    remainingQuantity
    sku
    productTitle
    variantTitle
    requiresShipping
    weight {
      unit
      value
    }
    lineItem {
      id
    }
  }
`;

// A fulfillment order as a label ships it (its line items apart: they page on their own).
export const FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT = `#graphql
  fragment FulfillmentOrderForLabel on FulfillmentOrder {
    id
    status
    requestStatus
    supportedActions {
      action
    }
    deliveryMethod {
      methodType
      serviceCode
      presentedName
    }
    internationalDuties {
      incoterm
    }
    assignedLocation {
      name
      address1
      address2
      city
      province
      zip
      countryCode
      phone
      location {
        id
      }
    }
    destination {
      firstName
      lastName
      company
      address1
      address2
      city
      province
      zip
      countryCode
      phone
      email
    }
  }
`;

// The order's fulfillment orders, 5 a page with their first 20 line items: about 350 points.
// `displayable: true` leaves out those Shopify hides from the merchant (closed after a merge or
// move): they ship nothing and would only be noise.
export const ORDER_FULFILLMENT_ORDERS_FOR_LABEL_QUERY = `#graphql
  query OrderFulfillmentOrdersForLabel($id: ID!, $after: String) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 5, after: $after, displayable: true) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...FulfillmentOrderForLabel
          lineItems(first: 20) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              ...FulfillmentOrderLineItemForLabel
            }
          }
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT}
  ${FULFILLMENT_ORDER_LINE_ITEM_FOR_LABEL_FRAGMENT}
`;

// The next pages of one fulfillment order's line items, 50 at a time: about 150 points.
export const FULFILLMENT_ORDER_LINE_ITEMS_FOR_LABEL_QUERY = `#graphql
  query FulfillmentOrderLineItemsForLabel($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 50, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...FulfillmentOrderLineItemForLabel
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_LINE_ITEM_FOR_LABEL_FRAGMENT}
`;
