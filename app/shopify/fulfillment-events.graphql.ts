// Tracking events on a fulfillment: what the order page and the customer's order status page show
// as "In transit", "Out for delivery", "Delivered". fulfillmentEventCreate needs the
// write_fulfillments scope; reading a fulfillment's events needs read_orders.

export const CREATE_FULFILLMENT_EVENT_MUTATION = `#graphql
  mutation CreateFulfillmentEvent($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent {
        id
        status
        happenedAt
      }
      userErrors {
        field
        message
      }
    }
  }
`;

// Oldest first (HAPPENED_AT); pages on with $after. 1 + (2 + 100) = 103 points a page.
export const FULFILLMENT_EVENTS_QUERY = `#graphql
  query FulfillmentEvents($id: ID!, $after: String) {
    fulfillment(id: $id) {
      id
      events(first: 100, after: $after, sortKey: HAPPENED_AT) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          status
          happenedAt
        }
      }
    }
  }
`;
