// Admin API 2026-10 documents for the home page: small reads that never page through the store.
//
// Costs (Shopify's published rules, test/query-cost.test.ts): the count is 1 point; shipping paid
// is 2 + 50 × 3 = 152 points for a batch of 50 orders (searched by id); an order by its name is
// 2 + 1 × 1 = 3 points.

// How many orders wait for shipment (the Orders list's default search): one number, not a page.
export const ORDERS_AWAITING_SHIPMENT_COUNT_QUERY = `#graphql
  query OrdersAwaitingShipmentCount($query: String) {
    ordersCount(query: $query, limit: 10000) {
      count
      precision
    }
  }
`;

// What the customers paid for shipping on up to 50 orders, after refunds and discounts.
export const ORDERS_SHIPPING_PAID_QUERY = `#graphql
  query OrdersShippingPaid($query: String) {
    orders(first: 50, query: $query) {
      nodes {
        id
        currentShippingPriceSet {
          shopMoney {
            amount
            currencyCode
          }
        }
      }
    }
  }
`;

// The order a scanned order number names ("name:#1001").
export const ORDER_BY_NAME_QUERY = `#graphql
  query OrderByName($query: String) {
    orders(first: 1, query: $query) {
      nodes {
        id
        name
      }
    }
  }
`;
