// fulfillmentCreate / fulfillmentTrackingInfoUpdate (the V2 names are deprecated). Tracking goes
// in `numbers`/`urls`, never mixed with `number`/`url` (Shopify rejects the mix).
export const CREATE_FULFILLMENT_WITH_TRACKING_MUTATION = `#graphql
  mutation CreateFulfillmentWithTracking($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
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
      userErrors {
        field
        message
      }
    }
  }
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
      userErrors {
        field
        message
      }
    }
  }
`;
