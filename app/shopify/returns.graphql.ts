import { LINE_ITEM_FOR_LABEL_FRAGMENT } from "./orders.graphql";

// Shopify returns, for return labels: what a customer asked to send back, the reverse fulfillment
// orders an approved return gets, and the reverse deliveries that carry a label's file and
// tracking to Shopify (which can email the label to the customer). Reading needs read_returns;
// approving and the reverse delivery mutations write_returns.

export const REVERSE_DELIVERY_FOR_LABEL_FRAGMENT = `#graphql
  fragment ReverseDeliveryForLabel on ReverseDelivery {
    id
    deliverable {
      ... on ReverseDeliveryShippingDeliverable {
        label {
          publicFileUrl
        }
        tracking {
          number
          url
          carrierName
        }
      }
    }
  }
`;

export const REVERSE_FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT = `#graphql
  fragment ReverseFulfillmentOrderForLabel on ReverseFulfillmentOrder {
    id
    status
    lineItems(first: 5) {
      nodes {
        id
        totalQuantity
        fulfillmentLineItem {
          lineItem {
            id
          }
        }
      }
    }
    reverseDeliveries(first: 2) {
      nodes {
        ...ReverseDeliveryForLabel
      }
    }
  }
  ${REVERSE_DELIVERY_FOR_LABEL_FRAGMENT}
`;

export const RETURN_FOR_LABEL_FRAGMENT = `#graphql
  fragment ReturnForLabel on Return {
    id
    name
    status
    returnLineItems(first: 5) {
      pageInfo {
        hasNextPage
      }
      nodes {
        id
        quantity
        ... on ReturnLineItem {
          fulfillmentLineItem {
            id
            lineItem {
              ...LineItemForLabel
            }
          }
        }
      }
    }
    reverseFulfillmentOrders(first: 2) {
      nodes {
        ...ReverseFulfillmentOrderForLabel
      }
    }
  }
  ${REVERSE_FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT}
`;

// What a return label needs of a return. Returned items carry the line item as prefill reads it
// (LineItemForLabel: paid price, weight, HS code, origin) for the customs of a label back. Sized to
// stay within the query cost budget (411 points): three returns, five items each, two reverse
// fulfillment orders with two deliveries each; more is reported as truncated, not guessed.
export const ORDER_RETURNS_QUERY = `#graphql
  query OrderReturns($id: ID!) {
    order(id: $id) {
      id
      returns(first: 3) {
        pageInfo {
          hasNextPage
        }
        nodes {
          ...ReturnForLabel
        }
      }
    }
  }
  ${RETURN_FOR_LABEL_FRAGMENT}
  ${LINE_ITEM_FOR_LABEL_FRAGMENT}
`;

// A customer's requested return, approved: OPEN, with the reverse fulfillment order a label ships.
export const APPROVE_RETURN_REQUEST_MUTATION = `#graphql
  mutation ApproveReturnRequest($id: ID!) {
    returnApproveRequest(input: { id: $id }) {
      return {
        id
        status
        reverseFulfillmentOrders(first: 2) {
          nodes {
            ...ReverseFulfillmentOrderForLabel
          }
        }
      }
      userErrors {
        field
        code
        message
      }
    }
  }
  ${REVERSE_FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT}
`;

// The return label attached to the return's items: its file (a URL Shopify fetches) and tracking.
export const CREATE_REVERSE_DELIVERY_WITH_SHIPPING_MUTATION = `#graphql
  mutation CreateReverseDeliveryWithShipping(
    $reverseFulfillmentOrderId: ID!
    $reverseDeliveryLineItems: [ReverseDeliveryLineItemInput!]!
    $labelInput: ReverseDeliveryLabelInput
    $trackingInput: ReverseDeliveryTrackingInput
    $notifyCustomer: Boolean
  ) {
    reverseDeliveryCreateWithShipping(
      reverseFulfillmentOrderId: $reverseFulfillmentOrderId
      reverseDeliveryLineItems: $reverseDeliveryLineItems
      labelInput: $labelInput
      trackingInput: $trackingInput
      notifyCustomer: $notifyCustomer
    ) {
      reverseDelivery {
        ...ReverseDeliveryForLabel
      }
      userErrors {
        field
        code
        message
      }
    }
  }
  ${REVERSE_DELIVERY_FOR_LABEL_FRAGMENT}
`;
