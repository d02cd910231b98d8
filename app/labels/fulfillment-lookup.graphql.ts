// Reads the fulfillments already on a fulfillment order, so a write-back that crashed after
// Shopify created the fulfillment (but before we saved its id) adopts it instead of creating a
// second one.
export const FULFILLMENT_ORDER_FULFILLMENTS_QUERY = `#graphql
  query LabelFulfillmentOrderFulfillments($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      status
      fulfillments(first: 50) {
        nodes {
          id
          status
          trackingInfo(first: 20) {
            number
          }
        }
      }
    }
  }
`;
