// fulfillmentCreate (the V2 name is deprecated). Tracking goes in `numbers`/`urls`, never mixed
// with `number`/`url` (Shopify rejects the mix).
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

// A voided label's fulfillment (ADR 22): its items return to the fulfillment order, which reopens
// for a replacement label.
export const CANCEL_FULFILLMENT_MUTATION = `#graphql
  mutation CancelFulfillment($id: ID!) {
    fulfillmentCancel(id: $id) {
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

// What a tracking write-back needs to know about a fulfillment order: the fulfillments already
// on it (to adopt one carrying our tracking instead of creating a second) and what remains to
// fulfil of each line (to send no more than that). Line items page on through
// FULFILLMENT_ORDER_LINE_ITEMS_QUERY.
export const FULFILLMENT_ORDER_FOR_WRITE_BACK_QUERY = `#graphql
  query FulfillmentOrderForWriteBack($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      status
      fulfillments(first: 25) {
        nodes {
          id
          status
          trackingInfo(first: 20) {
            number
          }
        }
      }
      lineItems(first: 100) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          remainingQuantity
        }
      }
    }
  }
`;

export const FULFILLMENT_ORDER_LINE_ITEMS_QUERY = `#graphql
  query FulfillmentOrderRemainingLineItems($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 100, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          remainingQuantity
        }
      }
    }
  }
`;

// Where a fulfillment order stands, for the webhook jobs: open to draft, or closed (moved, merged,
// fulfilled) or its order cancelled, so its drafts go stale. `orderId` saves reading the order.
export const FULFILLMENT_ORDER_STATE_QUERY = `#graphql
  query FulfillmentOrderState($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      status
      orderId
      orderName
    }
  }
`;

// What a purchase must know right before it spends: can a fulfillment be created for this
// shipment now (its status and actions, any hold and why), where does it go now, and what is left
// to ship (the first 20 lines, a label's usual size). About 30 requested points (most refunded), read
// just before every purchase (app/shipments/buy-label.server.ts).
export const FULFILLMENT_ORDER_GUARD_QUERY = `#graphql
  query FulfillmentOrderGuard($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      status
      supportedActions {
        action
      }
      fulfillmentHolds {
        reason
        reasonNotes
      }
      destination {
        address1
        address2
        city
        province
        zip
        countryCode
      }
      lineItems(first: 20) {
        pageInfo {
          hasNextPage
        }
        nodes {
          id
          remainingQuantity
        }
      }
      order {
        id
        cancelledAt
        shippingAddress {
          address1
          address2
          city
          province
          zip
          countryCodeV2
        }
      }
    }
  }
`;

export const ORDER_CANCELLATION_QUERY = `#graphql
  query OrderCancellation($id: ID!) {
    order(id: $id) {
      id
      name
      cancelledAt
    }
  }
`;
