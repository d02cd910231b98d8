// fulfillmentCreate / fulfillmentTrackingInfoUpdate (the V2 names are deprecated). Tracking goes
// in `numbers`/`urls`, never mixed with `number`/`url` (Shopify rejects the mix).
// What both mutations read back: the fulfillment and the tracking Shopify now holds.
export const FULFILLMENT_WITH_TRACKING_FRAGMENT = `#graphql
  fragment FulfillmentWithTracking on Fulfillment {
    id
    name
    status
    createdAt
    trackingInfo(first: 10) {
      company
      number
      url
    }
  }
`;

export const CREATE_FULFILLMENT_WITH_TRACKING_MUTATION = `#graphql
  mutation CreateFulfillmentWithTracking($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        ...FulfillmentWithTracking
      }
      userErrors {
        field
        message
      }
    }
  }
  ${FULFILLMENT_WITH_TRACKING_FRAGMENT}
`;

export const UPDATE_FULFILLMENT_TRACKING_MUTATION = `#graphql
  mutation UpdateFulfillmentTracking(
    $fulfillmentId: ID!
    $trackingInfoInput: FulfillmentTrackingInput!
    $notifyCustomer: Boolean
  ) {
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: $fulfillmentId
      trackingInfoInput: $trackingInfoInput
      notifyCustomer: $notifyCustomer
    ) {
      fulfillment {
        ...FulfillmentWithTracking
      }
      userErrors {
        field
        message
      }
    }
  }
  ${FULFILLMENT_WITH_TRACKING_FRAGMENT}
`;

// The fulfillments already on a fulfillment order, with their tracking numbers.
export const FULFILLMENT_ORDER_FULFILLMENTS_QUERY = `#graphql
  query FulfillmentOrderFulfillments($id: ID!) {
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
