import {
  FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT,
  FULFILLMENT_ORDER_LINE_ITEM_FOR_LABEL_FRAGMENT,
  LINE_ITEM_FOR_LABEL_FRAGMENT,
  LOCALIZED_FIELD_FOR_LABEL_FRAGMENT,
  MAILING_ADDRESS_FOR_LABEL_FRAGMENT,
  ORDER_HEADER_FOR_LABEL_FRAGMENT,
} from "./orders.graphql";

// Admin API 2026-10 documents for reading many orders at once with a bulk operation: free of
// query cost (the mutation and each status read cost a few points), its result a JSONL file.

export const RUN_BULK_QUERY_MUTATION = `#graphql
  mutation RunBulkQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export const BULK_OPERATION_STATUS_QUERY = `#graphql
  query BulkOperationStatus($id: ID!) {
    bulkOperation(id: $id) {
      id
      status
      errorCode
      url
    }
  }
`;

/**
 * The orders a search finds, each as a label needs it: the same fragments as the order's own
 * queries (orders.graphql.ts), with every line item and fulfillment order (a bulk query pages
 * nothing). Five connections, nested two deep under the orders: Shopify's limits for a bulk query.
 */
export function ordersForLabelBulkQuery(search: string): string {
  return `{
  orders(query: ${JSON.stringify(search)}) {
    edges { node {
      ...OrderHeaderForLabel
      localizedFields { edges { node { ...LocalizedFieldForLabel } } }
      lineItems { edges { node { ...LineItemForLabel } } }
      fulfillmentOrders(displayable: true) {
        edges { node {
          ...FulfillmentOrderForLabel
          lineItems { edges { node { ...FulfillmentOrderLineItemForLabel } } }
        } }
      }
    } }
  }
}
${ORDER_HEADER_FOR_LABEL_FRAGMENT}
${MAILING_ADDRESS_FOR_LABEL_FRAGMENT}
${LOCALIZED_FIELD_FOR_LABEL_FRAGMENT}
${LINE_ITEM_FOR_LABEL_FRAGMENT}
${FULFILLMENT_ORDER_FOR_LABEL_FRAGMENT}
${FULFILLMENT_ORDER_LINE_ITEM_FOR_LABEL_FRAGMENT}`;
}
