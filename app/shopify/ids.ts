// Shopify ids cross module boundaries (routes, jobs, the database): branding stops an order GID
// from being passed where a fulfillment order GID is expected.
export type OrderGid = string & { readonly __brand: "OrderGid" };
export type LineItemGid = string & { readonly __brand: "LineItemGid" };
export type FulfillmentOrderGid = string & { readonly __brand: "FulfillmentOrderGid" };
export type FulfillmentOrderLineItemGid = string & { readonly __brand: "FulfillmentOrderLineItemGid" };
export type FulfillmentGid = string & { readonly __brand: "FulfillmentGid" };
export type LocationGid = string & { readonly __brand: "LocationGid" };
export type InventoryItemGid = string & { readonly __brand: "InventoryItemGid" };
export type ReturnGid = string & { readonly __brand: "ReturnGid" };
export type ReverseFulfillmentOrderGid = string & { readonly __brand: "ReverseFulfillmentOrderGid" };
export type ReverseFulfillmentOrderLineItemGid = string & { readonly __brand: "ReverseFulfillmentOrderLineItemGid" };
export type ReverseDeliveryGid = string & { readonly __brand: "ReverseDeliveryGid" };

const GID_PATTERN = /^gid:\/\/shopify\/([A-Za-z]+)\/([^/?#]+)/;

function parseGid<T extends string>(type: string, value: string): T | undefined {
  const match = GID_PATTERN.exec(value);
  return match && match[1] === type ? (value as T) : undefined;
}

export const parseOrderGid = (value: string) => parseGid<OrderGid>("Order", value);
export const parseFulfillmentOrderGid = (value: string) => parseGid<FulfillmentOrderGid>("FulfillmentOrder", value);
export const parseFulfillmentGid = (value: string) => parseGid<FulfillmentGid>("Fulfillment", value);
export const parseFulfillmentOrderLineItemGid = (value: string) =>
  parseGid<FulfillmentOrderLineItemGid>("FulfillmentOrderLineItem", value);
export const parseLocationGid = (value: string) => parseGid<LocationGid>("Location", value);
export const parseInventoryItemGid = (value: string) => parseGid<InventoryItemGid>("InventoryItem", value);
export const parseReturnGid = (value: string) => parseGid<ReturnGid>("Return", value);
export const parseReverseFulfillmentOrderGid = (value: string) =>
  parseGid<ReverseFulfillmentOrderGid>("ReverseFulfillmentOrder", value);
export const parseReverseFulfillmentOrderLineItemGid = (value: string) =>
  parseGid<ReverseFulfillmentOrderLineItemGid>("ReverseFulfillmentOrderLineItem", value);
export const parseReverseDeliveryGid = (value: string) => parseGid<ReverseDeliveryGid>("ReverseDelivery", value);

// For callers that hold a numeric id (the admin URL, REST webhooks) and need the GID.
export function toOrderGid(numericId: string | number | bigint): OrderGid {
  return `gid://shopify/Order/${String(numericId)}` as OrderGid;
}

/** The Order GID of a numeric id as a path or a selection names it (Shopify's: at most 20 digits), else null. */
export const numericOrderGid = (value: string) => (/^\d{1,20}$/.test(value) ? toOrderGid(value) : null);

// The numeric tail of a GID, for display and for the shipping service's platform_order_id.
export function getNumericId(gid: string): string | undefined {
  return GID_PATTERN.exec(gid)?.[2];
}
