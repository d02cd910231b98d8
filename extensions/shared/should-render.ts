import type { ExtensionPrintSummary } from "../../app/extension-api/contract";
import { requestJson } from "./api";

// The should-render targets: whether Shopify shows "Create label", "Create labels" and the order
// page's "Shipping label" print action at all. Each answers before the menu opens, so they read
// little, and any doubt (an error, no answer, too large a selection) shows the action: it then
// explains itself, which a hidden action cannot.

type Query = (
  query: string,
  options?: { variables?: Record<string, unknown> },
) => Promise<{ data?: unknown; errors?: unknown[] }>;

/** The Admin API's view of the orders: their fulfillment orders' state and how each is delivered. */
export const SHIPPABLE_ORDERS_QUERY = `query ShippableOrders($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Order {
      id
      fulfillmentOrders(first: 20) {
        nodes {
          status
          deliveryMethod {
            methodType
          }
        }
      }
    }
  }
}`;

/** More selected orders than this are not looked up (one query's cost stays small): shown. */
export const MAX_ORDERS_CHECKED = 50;

// A fulfillment order still to ship (held and scheduled ones included: the action says why it
// waits), by a carrier: not picked up, delivered locally, fulfilled (closed) or cancelled.
const OPEN_STATUSES = new Set(["OPEN", "IN_PROGRESS", "ON_HOLD", "SCHEDULED"]);

type FulfillmentOrderNode = { status?: unknown; deliveryMethod?: { methodType?: unknown } | null };
type OrderNode = { fulfillmentOrders?: { nodes?: FulfillmentOrderNode[] } } | null;

const isToShip = (fo: FulfillmentOrderNode) =>
  typeof fo.status === "string" && OPEN_STATUSES.has(fo.status) && fo.deliveryMethod?.methodType === "SHIPPING";

/** Whether any of the orders has a fulfillment order a carrier label could ship. */
export async function anyOrderToShip(query: Query, orderIds: readonly string[]): Promise<boolean> {
  if (orderIds.length === 0) return false;
  if (orderIds.length > MAX_ORDERS_CHECKED) return true;
  try {
    const answer = await query(SHIPPABLE_ORDERS_QUERY, { variables: { ids: orderIds } });
    const nodes = (answer.data as { nodes?: OrderNode[] } | undefined)?.nodes;
    // Errors or no data: we cannot tell, so the action shows and explains.
    if ((answer.errors && answer.errors.length > 0) || !Array.isArray(nodes)) return true;
    return nodes.some((order) => (order?.fulfillmentOrders?.nodes ?? []).some(isToShip));
  } catch {
    return true;
  }
}

/** Whether any of the orders has a bought label (PDF or ZPL), as the app's print summary says. */
export async function anyBoughtLabel(orderIds: readonly string[]): Promise<boolean> {
  if (orderIds.length === 0) return false;
  const query = orderIds.map((id) => encodeURIComponent(id)).join(",");
  const result = await requestJson<ExtensionPrintSummary>(`/api/extensions/print/summary?orderIds=${query}`);
  if (!result.ok) return true;
  return result.data.printable.length > 0 || result.data.zplOnly.length > 0;
}
