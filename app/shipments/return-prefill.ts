import type { ReturnLabelLineItem } from "~/labels/label-repository.server";
import type { LabelSettings } from "~/settings/settings";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";
import type { LocationGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyFulfillmentOrderLineItem, ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyReturn, ShopifyReverseFulfillmentOrder } from "~/shopify/returns";
import type { ShopifyShopAndLocations } from "~/shopify/shop";

import { buildCustoms, type CustomsLine, customsLineOf } from "./customs";
import { type PrefilledLabel, prefillLabelRequest } from "./prefill";

// A Shopify return as a label request (ADR 23): the outbound prefill run for the returned items,
// then turned around. The parcel goes from the address the order was shipped to, back to the
// location that shipped it (or the one the merchant chose); its customs, when it crosses a
// border, declare `returned_goods` into the merchant's country. Pure.

/** What a return label needs to know: read once by loadReturnShipment. */
export type ReturnFacts = {
  readonly order: ShopifyOrderForLabel;
  readonly ret: ShopifyReturn;
  readonly reverseFulfillmentOrder: ShopifyReverseFulfillmentOrder;
  readonly shopAndLocations: Pick<ShopifyShopAndLocations, "shop" | "locations">;
  readonly settings: LabelSettings;
  /** Where the parcel goes back to; default the location that shipped the items. */
  readonly returnLocationId?: LocationGid | null;
};

export type PrefilledReturn = Omit<PrefilledLabel, "lineItems" | "fulfillmentOrderId"> & {
  /** The reverse fulfillment order's lines this label brings back, with their quantities. */
  readonly lineItems: ReturnLabelLineItem[];
  /** The location the parcel goes back to, when it is one of the shop's. */
  readonly returnLocationId: LocationGid | null;
};

const blocking = (path: string, message: string): KnownPreflightProblem => ({
  path,
  code: "INVALID",
  severity: "blocking",
  message,
});

/** The outbound shipment the returned items left with: its location and where it went. */
function shippedWith(order: ShopifyOrderForLabel, lineItemIds: ReadonlySet<string>): ShopifyFulfillmentOrder | null {
  return order.fulfillmentOrders.find((fo) => fo.lineItems.some((line) => lineItemIds.has(line.lineItemId))) ?? null;
}

function locationAsAssigned(
  facts: ReturnFacts,
  fallback: ShopifyFulfillmentOrder["assignedLocation"] | null,
): ShopifyFulfillmentOrder["assignedLocation"] | null {
  const chosen = facts.returnLocationId
    ? facts.shopAndLocations.locations.find((l) => l.id === facts.returnLocationId)
    : undefined;
  if (!chosen) return fallback;
  return { ...chosen.address, locationId: chosen.id, name: chosen.name, countryCode: chosen.address.countryCode ?? "" };
}

// Address problems the outbound prefill words for the other direction: the form's own checks
// (preflight) name the fields again, in this label's direction.
const isAddressProblem = (p: KnownPreflightProblem) =>
  p.path.startsWith("from_address") || p.path.startsWith("to_address");

/** The return's label request, with everything it cannot fill as a problem (never a guess). */
export function prefillReturnLabel(facts: ReturnFacts, box?: LabelSettings["box"]): PrefilledReturn {
  const { order, reverseFulfillmentOrder: rfo } = facts;
  const orderLines = new Map(order.lineItems.map((line) => [line.id, line]));
  for (const item of facts.ret.items) orderLines.set(item.lineItem.id, item.lineItem);
  const lines = rfo.lineItems.filter((line) => line.quantity > 0);
  const lineItemIds = new Set(lines.flatMap((line) => (line.lineItemId ? [line.lineItemId] : [])));
  const shipped = shippedWith(order, lineItemIds);
  const problems: KnownPreflightProblem[] = [];
  const unknown = lines.filter((line) => !line.lineItemId || !orderLines.has(line.lineItemId));
  if (unknown.length > 0) {
    problems.push(
      blocking("line_items", "Shopify does not say which order items this return holds. Check the return in Shopify."),
    );
  }
  const location = locationAsAssigned(facts, shipped?.assignedLocation ?? null);

  // The outbound prefill, for a shipment of exactly the returned items from the return location.
  const asShipment: ShopifyFulfillmentOrder | null = shipped && {
    ...shipped,
    status: "OPEN",
    canCreateFulfillment: true,
    internationalDuties: null,
    lineItemsComplete: true,
    ...(location ? { assignedLocation: location } : {}),
    lineItems: lines.flatMap((line): ShopifyFulfillmentOrderLineItem[] => {
      const orderLine = line.lineItemId ? orderLines.get(line.lineItemId) : undefined;
      const outbound = shipped.lineItems.find((l) => l.lineItemId === line.lineItemId);
      if (!orderLine || !outbound) return [];
      return [{ ...outbound, totalQuantity: line.quantity, remainingQuantity: line.quantity, requiresShipping: true }];
    }),
  };
  // A signature is the customer's to give on delivery: the shop's adult-signature rule is not for parcels coming back.
  const optionRules = { ...facts.settings.optionRules, adultSignatureTags: [], adultSignatureProductTypes: [] };
  const settings = { ...facts.settings, ...(box ? { box } : {}), optionRules };
  const outbound = prefillLabelRequest({ ...order, fulfillmentOrders: asShipment ? [asShipment] : [] }, settings, {
    shop: facts.shopAndLocations.shop,
    locations: facts.shopAndLocations.locations,
    ...(asShipment ? { fulfillmentOrderId: asShipment.id } : {}),
  });
  if (!asShipment) {
    problems.push(
      blocking("fulfillment_order", "None of the returned items were shipped from a location this app can see."),
    );
  }

  // Turned around: the customer sends, the location receives.
  const from = outbound.request.from_address;
  const to = outbound.request.to_address;
  const request: LabelRequestInput = {
    ...outbound.request,
    from_address: to,
    to_address: from,
    reference: facts.ret.name,
  };
  delete request.customs;
  if (!to?.street1 || !to.city || !to.zip || !to.country) {
    problems.push(
      blocking(
        "from_address",
        "The customer's address on the order is incomplete (or withheld by Shopify): enter where the parcel is sent from.",
      ),
    );
  }
  if (!from?.street1 || !from.city || !from.zip || !from.country) {
    problems.push(blocking("to_address", "The return location's address is incomplete: enter where returns go."));
  }

  const outboundProblems = outbound.problems.filter(
    (p) => !isAddressProblem(p) && !p.path.startsWith("customs") && p.path !== "fulfillment_order",
  );
  let customsProduct: PrefilledLabel["customsProduct"] = null;
  const productsMissingCustoms: PrefilledLabel["productsMissingCustoms"] = [];
  const destination = from?.country;
  if (destination && to?.country && destination !== to.country) {
    const customsLines = lines.flatMap((line): CustomsLine[] => {
      const orderLine = line.lineItemId ? orderLines.get(line.lineItemId) : undefined;
      return orderLine ? [customsLineOf(orderLine, line.quantity)] : [];
    });
    const built = buildCustoms({ lines: customsLines, destinationCountry: destination, taxId: null });
    // Goods coming back to the shop, not a sale: customs do not tax them as an import.
    request.customs = { ...built.customs, contents_type: "returned_goods" };
    problems.push(...built.problems);
    customsProduct = outbound.customsProduct;
    productsMissingCustoms.push(...outbound.productsMissingCustoms);
  }

  return {
    request,
    lineItems: lines.map((line) => {
      const orderLine = line.lineItemId ? orderLines.get(line.lineItemId) : undefined;
      return { id: line.id, quantity: line.quantity, title: orderLine?.title ?? "Item", sku: orderLine?.sku ?? null };
    }),
    products: outbound.products,
    customsProduct,
    productsMissingCustoms,
    itemsValue: outbound.itemsValue,
    returnLocationId: location?.locationId ?? null,
    problems: [...problems, ...outboundProblems],
  };
}
