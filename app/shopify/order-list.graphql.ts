import { LOCALIZED_FIELD_FOR_LABEL_FRAGMENT, MAILING_ADDRESS_FOR_LABEL_FRAGMENT } from "./orders.graphql";

// Admin API 2026-10 documents for the Orders screen: one page of orders awaiting shipment with
// just enough of each order to run prefill and preflight for its problems badge, in one call.
//
// Cost (Shopify's published rules, test/query-cost.test.ts): 20 orders × (order 1, shipping
// address 1, shipping line 1, localized fields 2 + 2, line items 2 + 3 × 5) + 2 = 482 points,
// under the app's 500-point budget. That budget is why a page holds 20 orders, each read with
// its first 3 line items and without its fulfillment orders or prices: the list marks an order
// with more lines as "check on the order page" instead of guessing, and leaves duties terms,
// delivery method and customs value to the order page, which reads the order completely.
// Page sizes are literals, not variables, so the cost check sizes them exactly. Each order comes
// with its edge's cursor: a tab that filters the orders (Needs label) ends its page at the last
// order it shows and the next page starts after it, so pages are full (order-list.server.ts).
// `returnStatus` (a scalar, free) says whether the customer asked for a return.
export const ORDER_FOR_LIST_FRAGMENT = `#graphql
  fragment OrderForList on Order {
    id
    legacyResourceId
    name
    createdAt
    email
    phone
    displayFulfillmentStatus
    returnStatus
    totalWeight
    currencyCode
    shippingAddress {
      ...MailingAddressForLabel
    }
    shippingLine {
      title
      code
    }
    localizedFields(first: 2) {
      nodes {
        ...LocalizedFieldForLabel
      }
    }
    lineItems(first: 3) {
      pageInfo {
        hasNextPage
      }
      nodes {
        id
        title
        name
        sku
        quantity
        unfulfilledQuantity
        requiresShipping
        weight {
          unit
          value
        }
        product {
          productType
        }
        variant {
          inventoryItem {
            harmonizedSystemCode
            countryCodeOfOrigin
          }
        }
      }
    }
  }
  ${MAILING_ADDRESS_FOR_LABEL_FRAGMENT}
  ${LOCALIZED_FIELD_FOR_LABEL_FRAGMENT}
`;

export const ORDERS_FOR_LIST_AFTER_QUERY = `#graphql
  query OrdersForListAfter($after: String, $query: String) {
    orders(first: 20, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        cursor
        node {
          ...OrderForList
        }
      }
    }
  }
  ${ORDER_FOR_LIST_FRAGMENT}
`;

// The previous page: the same 20 orders' worth, read backwards from a cursor.
export const ORDERS_FOR_LIST_BEFORE_QUERY = `#graphql
  query OrdersForListBefore($before: String, $query: String) {
    orders(last: 20, before: $before, query: $query, sortKey: CREATED_AT, reverse: true) {
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        cursor
        node {
          ...OrderForList
        }
      }
    }
  }
  ${ORDER_FOR_LIST_FRAGMENT}
`;

// What the list's short read leaves out and the one judge needs to judge a shipment that crosses a
// border (check-shipment.ts): what the customer paid for each line read (the customs value, so an
// export declaration above 2,500 USD) and the fulfillment orders' duties terms (DDP cannot be
// bought). Asked only for the page's international orders without a label, in one call by id
// (`id:1 OR id:2`, as OrdersShippingPaid), sized to them: 2 + n × (1 + 14 + 8) points, 462 for a
// page of 20 (the worst case test/query-cost.test.ts checks), 71 for the usual three.
export const ORDER_LIST_CUSTOMS_FACTS_QUERY = `#graphql
  query OrderListCustomsFacts($query: String, $first: Int!) {
    orders(first: $first, query: $query) {
      nodes {
        id
        lineItems(first: 3) {
          nodes {
            id
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
          }
        }
        fulfillmentOrders(first: 3) {
          nodes {
            status
            internationalDuties {
              incoterm
            }
          }
        }
      }
    }
  }
`;
