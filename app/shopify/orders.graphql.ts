// Admin API 2026-10 documents for reading orders. Validated against the real schema with no
// deprecated fields (documents.test.ts). Contact details come from the order and the fulfillment
// order destination, never Order.customer (that needs read_customers).
// Costs stay under Shopify's 1000-point limit per query: 50 line items plus 5 fulfillment orders
// of 25 lines each; longer orders page through ORDER_LINE_ITEMS_FOR_LABEL_QUERY.

export const UNFULFILLED_ORDERS_FOR_LABELS_QUERY = `#graphql
  query UnfulfilledOrdersForLabels($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        legacyResourceId
        name
        createdAt
        displayFulfillmentStatus
        displayFinancialStatus
        requiresShipping
        totalWeight
        currencyCode
        totalPriceSet {
          shopMoney {
            amount
            currencyCode
          }
        }
        shippingAddress {
          name
          company
          city
          provinceCode
          countryCodeV2
        }
        shippingLine {
          title
          code
        }
      }
    }
  }
`;

// One line item as prefill needs it (weights, prices, HS code, origin), shared by the order query
// and the query that pages through orders with more line items than the first page.
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
    product {
      id
      productType
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

export const ORDER_FOR_LABEL_QUERY = `#graphql
  query OrderForLabel($id: ID!) {
    order(id: $id) {
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
      shippingLine {
        title
        code
      }
      localizedFields(first: 25) {
        nodes {
          key
          purpose
          countryCode
          title
          value
        }
      }
      lineItems(first: 50) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...LineItemForLabel
        }
      }
      fulfillmentOrders(first: 5) {
        pageInfo {
          hasNextPage
        }
        nodes {
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
          lineItems(first: 25) {
            pageInfo {
              hasNextPage
            }
            nodes {
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
          }
        }
      }
    }
  }
  ${LINE_ITEM_FOR_LABEL_FRAGMENT}
`;

// The next pages of line items, for orders with more than 50 lines.
export const ORDER_LINE_ITEMS_FOR_LABEL_QUERY = `#graphql
  query OrderLineItemsForLabel($id: ID!, $after: String) {
    order(id: $id) {
      id
      lineItems(first: 50, after: $after) {
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
