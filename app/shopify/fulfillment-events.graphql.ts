// Tracking events on a fulfillment: what the order page and the customer's order status page show
// as "In transit", "Out for delivery", "Delivered". fulfillmentEventCreate needs the
// write_fulfillments scope.

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
