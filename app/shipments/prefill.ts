import type { LabelSettings } from "~/settings/settings";
import type { ProductForCustoms } from "~/shipping/customs-description";
import {
  checkInternationalAddressPhone,
  type KnownPreflightProblem,
  type LabelRequestInput,
  type PreflightCode,
} from "~/shipping/preflight";
import { hasItemsToShip, isShipped, selectFulfillmentOrder } from "~/shopify/fulfillment-order-choice";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyLocation, ShopifyShop } from "~/shopify/shop";

import { applyOptionRules, valueOfLines } from "./apply-option-rules";
import { buildCustoms, type CustomsLine, customsLineOf } from "./customs";
import { packIntoBoxes, type PackUnit, toGrams } from "./parcels";

// Turns a Shopify order into a label request the merchant only has to check. Pure: the order
// page, bulk runs and the auto-draft webhook all prefill with this one function.

export type PrefillContext = {
  // contactEmail is the sender e-mail: the store's public address, never the owner's login (`email`).
  shop: Pick<ShopifyShop, "name" | "contactEmail" | "address">;
  /** The shop's locations, to read a state code where the fulfillment order gives a name. */
  locations?: readonly Pick<ShopifyLocation, "id" | "address">[];
  /** Which fulfillment order to ship; default the first one that can still be fulfilled. */
  fulfillmentOrderId?: FulfillmentOrderGid;
};

/** A product as customs need it: where its HS code and origin are kept in Shopify, and their values. */
export type CustomsProduct = {
  title: string;
  productId: string | null;
  inventoryItemId: string | null;
  hsCode: string | null;
  countryOfOrigin: string | null;
};

export type PrefilledLabel = {
  request: LabelRequestInput;
  fulfillmentOrderId: FulfillmentOrderGid | null;
  /**
   * The items this label ships: every line of the fulfillment order (all pages) that requires
   * shipping and has a remaining quantity, with that quantity.
   */
  lineItems: { id: FulfillmentOrderLineItemGid; quantity: number }[];
  /** For preflight's customs description suggestion. */
  products: ProductForCustoms[];
  /**
   * International only: the product whose HS code and origin the declaration carries (what the
   * merchant fixes on the order page, and "Save to product" writes back), and every product
   * shipped that lacks either in Shopify (what bulk review lists).
   */
  customsProduct: CustomsProduct | null;
  productsMissingCustoms: CustomsProduct[];
  /** What the customer paid for the items shipped (shop currency): what the insurance rule weighs, and the Options card suggests. */
  itemsValue: { cents: number; currency: string } | null;
  problems: KnownPreflightProblem[];
};

const toCustomsProduct = (line: CustomsLine): CustomsProduct => ({
  title: line.title,
  productId: line.productId,
  inventoryItemId: line.inventoryItemId,
  hsCode: line.hsCode,
  countryOfOrigin: line.countryOfOrigin,
});

const blocking = (path: string, code: PreflightCode, message: string): KnownPreflightProblem => ({
  path,
  code,
  severity: "blocking",
  message,
});
const warning = (path: string, code: PreflightCode, message: string): KnownPreflightProblem => ({
  path,
  code,
  severity: "warning",
  message,
});

const clean = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

// Why a fulfillment order that is not shipped by a carrier gets no label, in the merchant's terms.
function explainNotShipped(fo: ShopifyFulfillmentOrder): string {
  const method = fo.deliveryMethod;
  switch (method?.methodType) {
    case "PICK_UP":
      return "This order is for local pickup: the customer collects it, so it needs no shipping label.";
    case "LOCAL":
      return "This order is for local delivery: you deliver it yourself, so it needs no shipping label.";
    case "PICKUP_POINT":
      return "This order ships to a pickup point the customer chose at checkout; this app only buys labels to a street address, so ship it through the pickup point's carrier.";
    case "RETAIL":
      return "This order was sold in person in your store: there is nothing to ship.";
    case "NONE":
      return "This order has no delivery method in Shopify, so there is nothing to ship.";
    case null:
      return `Shopify reports a delivery method this app doesn't know ("${method?.rawMethodType ?? ""}"); only orders shipped by a carrier get labels.`;
    default:
      return "Shopify gives this order no delivery method, so this app can't tell that it ships; only orders shipped by a carrier get labels.";
  }
}

function checkFulfillmentOrder(
  order: ShopifyOrderForLabel,
  fo: ShopifyFulfillmentOrder | null,
  problems: KnownPreflightProblem[],
): void {
  if (!fo) {
    // Items left to fulfil, but not by shipping: say why instead of "nothing to ship".
    const unshipped = order.fulfillmentOrders.find((f) => !isShipped(f) && f.canCreateFulfillment && hasItemsToShip(f));
    problems.push(
      unshipped
        ? blocking("fulfillment_order", "DELIVERY_NOT_SHIPPING", explainNotShipped(unshipped))
        : blocking(
            "fulfillment_order",
            "NOTHING_TO_SHIP",
            "This order has no items left to ship from a location this app can fulfil.",
          ),
    );
    return;
  }
  if (!isShipped(fo)) {
    problems.push(blocking("fulfillment_order", "DELIVERY_NOT_SHIPPING", explainNotShipped(fo)));
    return;
  }
  if (!fo.canCreateFulfillment) {
    const state = fo.status ? fo.status.toLowerCase().replace("_", " ") : "in a state this app doesn't know";
    problems.push(
      blocking(
        "fulfillment_order",
        "CANNOT_FULFILL",
        `This shipment is ${state} in Shopify and cannot be fulfilled now.`,
      ),
    );
  }
  if (!fo.lineItemsComplete) {
    problems.push(
      blocking(
        "fulfillment_order.line_items",
        "ITEMS_TRUNCATED",
        "This shipment has more items than this app can read, so a label would not cover all of them. Split it in Shopify first.",
      ),
    );
  }
  // The service ships duties unpaid (DAP) only: charging duties again on delivery would bill the
  // customer twice for what they paid at checkout.
  const incoterm = fo.internationalDuties?.incoterm.trim().toUpperCase();
  if (incoterm === "DDP") {
    problems.push(
      blocking(
        "fulfillment_order.international_duties",
        "DUTIES_PAID_AT_CHECKOUT",
        "The customer paid duties and import taxes at checkout (DDP), but the shipping service only ships duties unpaid (DAP), so the carrier would charge them again on delivery. Ship this order with a service that handles DDP, or refund the duties first.",
      ),
    );
  } else if (incoterm !== undefined && incoterm !== "DAP") {
    problems.push(
      warning(
        "fulfillment_order.international_duties",
        "INCOTERM_UNKNOWN",
        `Shopify reports duties terms this app doesn't know ("${incoterm}"); the label ships duties unpaid (DAP). Check how the customer paid duties.`,
      ),
    );
  }
}

function stateCode(province: string | null, provinceCode: string | null | undefined): string | null {
  const code = clean(provinceCode);
  if (code) return code;
  // Shopify gives some addresses only a province name; the code, when known, is what carriers print.
  return clean(province);
}

function buildFromAddress(
  fo: ShopifyFulfillmentOrder | null,
  context: PrefillContext,
  problems: KnownPreflightProblem[],
): NonNullable<LabelRequestInput["from_address"]> {
  const shop = context.shop;
  const location = fo?.assignedLocation;
  const useLocation = Boolean(location && clean(location.address1) && clean(location.city) && clean(location.zip));
  const locationRecord = location?.locationId
    ? context.locations?.find((l) => l.id === location.locationId)
    : undefined;
  const phone = clean(location?.phone) ?? clean(locationRecord?.address.phone) ?? clean(shop.address.phone);
  const from =
    useLocation && location
      ? {
          name: shop.name,
          company: undefined,
          street1: clean(location.address1),
          street2: clean(location.address2),
          city: clean(location.city),
          state: stateCode(location.province, locationRecord?.address.provinceCode),
          zip: clean(location.zip),
          country: location.countryCode,
          phone,
          email: clean(shop.contactEmail),
        }
      : {
          name: shop.name,
          company: undefined,
          street1: clean(shop.address.address1),
          street2: clean(shop.address.address2),
          city: clean(shop.address.city),
          state: stateCode(shop.address.province, shop.address.provinceCode),
          zip: clean(shop.address.zip),
          country: clean(shop.address.countryCode),
          phone,
          email: clean(shop.contactEmail),
        };
  if (!from.street1 || !from.city || !from.zip || !from.country) {
    problems.push(
      blocking(
        "from_address",
        "SHIP_FROM_INCOMPLETE",
        "The location and the shop address are incomplete: enter the address you ship from.",
      ),
    );
  }
  // A missing phone is for preflight's international phone rule to judge (prefillLabelRequest):
  // a domestic label needs none, so a domestic order is not warned about it.
  return from;
}

/**
 * The ship-to, taken whole from the fulfillment order's destination: a split or edited order can
 * ship one fulfillment order somewhere other than the order's shipping address, and mixing the
 * two per field could print one person's street with another's postcode. The order's shipping
 * address is used only when there is no fulfillment order at all (the label is blocked then).
 */
function buildToAddress(
  order: ShopifyOrderForLabel,
  fo: ShopifyFulfillmentOrder | null,
  problems: KnownPreflightProblem[],
): NonNullable<LabelRequestInput["to_address"]> {
  const shipping = order.shippingAddress;
  const source = fo
    ? fo.destination && { ...fo.destination, name: null, provinceCode: null }
    : shipping && { ...shipping, email: null };
  const personName = clean([source?.firstName, source?.lastName].filter(Boolean).join(" "));
  const name = personName ?? clean(source?.name) ?? clean(source?.company);
  // The recipient's phone first (what the carrier calls), then the customer's.
  const phone = clean(source?.phone) ?? clean(order.phone);
  const country = clean(source?.countryCode);
  const to = {
    name,
    company: clean(source?.company) ?? undefined,
    street1: clean(source?.address1),
    street2: clean(source?.address2),
    city: clean(source?.city),
    state: resolveStateCode(country, source?.province ?? null, source?.provinceCode ?? null, shipping),
    zip: clean(source?.zip),
    country,
    phone,
    email: clean(source?.email) ?? clean(order.email),
  };
  if (!to.name || !to.street1 || !to.city || !to.zip || !to.country) {
    problems.push(
      blocking(
        "to_address",
        "SHIP_TO_INCOMPLETE",
        "The order's shipping address is incomplete (or withheld by Shopify): enter the recipient's address.",
      ),
    );
  }
  return to;
}

// Province names to the codes carriers print, for the countries whose addresses need a state
// (preflight's STATE_REQUIRED_COUNTRIES). A fulfillment order's destination has only the name.
// prettier-ignore
const PROVINCE_CODES: Record<string, Record<string, string>> = {
  US: {
    alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO",
    connecticut: "CT", delaware: "DE", "district of columbia": "DC", florida: "FL", georgia: "GA",
    hawaii: "HI", idaho: "ID", illinois: "IL", indiana: "IN", iowa: "IA", kansas: "KS", kentucky: "KY",
    louisiana: "LA", maine: "ME", maryland: "MD", massachusetts: "MA", michigan: "MI", minnesota: "MN",
    mississippi: "MS", missouri: "MO", montana: "MT", nebraska: "NE", nevada: "NV", "new hampshire": "NH",
    "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC", "north dakota": "ND",
    ohio: "OH", oklahoma: "OK", oregon: "OR", pennsylvania: "PA", "rhode island": "RI",
    "south carolina": "SC", "south dakota": "SD", tennessee: "TN", texas: "TX", utah: "UT", vermont: "VT",
    virginia: "VA", washington: "WA", "west virginia": "WV", wisconsin: "WI", wyoming: "WY",
    "puerto rico": "PR", guam: "GU", "u.s. virgin islands": "VI", "american samoa": "AS",
    "northern mariana islands": "MP", "armed forces americas": "AA", "armed forces europe": "AE",
    "armed forces pacific": "AP",
  },
  CA: {
    alberta: "AB", "british columbia": "BC", manitoba: "MB", "new brunswick": "NB",
    "newfoundland and labrador": "NL", "northwest territories": "NT", "nova scotia": "NS", nunavut: "NU",
    ontario: "ON", "prince edward island": "PE", quebec: "QC", "québec": "QC", saskatchewan: "SK", yukon: "YT",
  },
  AU: {
    "australian capital territory": "ACT", "new south wales": "NSW", "northern territory": "NT",
    queensland: "QLD", "south australia": "SA", tasmania: "TAS", victoria: "VIC", "western australia": "WA",
  },
};

function resolveStateCode(
  country: string | null,
  province: string | null,
  provinceCode: string | null,
  orderAddress: ShopifyOrderForLabel["shippingAddress"],
): string | null {
  const code = clean(provinceCode);
  if (code) return code;
  const name = clean(province);
  if (!name || !country) return name;
  const codes = PROVINCE_CODES[country];
  if (!codes) return name;
  if (Object.values(codes).includes(name.toUpperCase())) return name.toUpperCase();
  // The order's own address names the same province: Shopify's code for it is authoritative.
  if (
    orderAddress?.countryCode === country &&
    clean(orderAddress.province)?.toLowerCase() === name.toLowerCase() &&
    clean(orderAddress.provinceCode)
  ) {
    return clean(orderAddress.provinceCode);
  }
  return codes[name.toLowerCase()] ?? name;
}

export function prefillLabelRequest(
  order: ShopifyOrderForLabel,
  settings: LabelSettings,
  context: PrefillContext,
): PrefilledLabel {
  const problems: KnownPreflightProblem[] = [];
  const fo = selectFulfillmentOrder(order, context.fulfillmentOrderId);
  checkFulfillmentOrder(order, fo, problems);
  // A pickup or local delivery gets no label: its address problems would only be noise.
  const notShipped = problems.some((p) => p.code === "DELIVERY_NOT_SHIPPING");

  const from = buildFromAddress(fo, context, problems);
  const to = buildToAddress(order, fo, problems);
  const international = Boolean(from.country && to.country && from.country !== to.country);
  if (international) {
    // Only an international label needs phones (preflight's rule, what the purchase would be
    // refused for); a domestic one is never warned about them.
    for (const [key, address] of [
      ["from_address", from],
      ["to_address", to],
    ] as const) {
      const problem = checkInternationalAddressPhone(key, address.phone);
      if (problem) problems.push(problem);
    }
  }

  const orderLines = new Map(order.lineItems.map((line) => [line.id, line]));
  const shipped = (fo?.lineItems ?? []).filter((l) => l.requiresShipping && l.remainingQuantity > 0);
  const lineItems = shipped.map((l) => ({ id: l.id, quantity: l.remainingQuantity }));

  // Parcels: every unit's weight, packed into the default box.
  const units: PackUnit[] = [];
  const unweighed: string[] = [];
  for (const line of shipped) {
    const weight = orderLines.get(line.lineItemId)?.weight ?? line.weight;
    if (!weight || weight.value <= 0) {
      unweighed.push(line.productTitle);
      continue;
    }
    for (let i = 0; i < line.remainingQuantity; i++) units.push({ label: line.productTitle, grams: toGrams(weight) });
  }
  const { parcels, oversized } = packIntoBoxes(units, settings.box);
  const request: LabelRequestInput = {
    from_address: from,
    to_address: to,
    label_format: settings.labelFormat,
    label_size: settings.labelSize,
    reference: order.name,
    platform: "shopify",
    platform_order_id: order.legacyId,
  };
  if (unweighed.length > 0) {
    // Never a guessed weight: the merchant weighs the box.
    request.parcel = { ...parcels[0], weight: null };
    problems.push(
      blocking(
        "parcel.weight",
        "WEIGHT_MISSING",
        `No weight in Shopify for ${unweighed.map((t) => `"${t}"`).join(", ")}: weigh the box and enter its weight.`,
      ),
    );
  } else if (parcels.length === 1) {
    request.parcel = parcels[0];
  } else {
    request.parcels = parcels;
    problems.push({
      path: "parcels",
      code: "MULTI_PIECE",
      severity: "info",
      message: `Over the default box's ${settings.box.maxWeight} ${settings.box.weightUnit} limit: split into ${parcels.length} boxes (only UPS Ground ships several boxes on one label).`,
    });
  }
  for (const unit of oversized) {
    problems.push(
      warning(
        "parcels",
        "ITEM_OVER_BOX_LIMIT",
        `"${unit.label}" alone weighs more than the default box may hold; check the box.`,
      ),
    );
  }

  // The shop's option rules: insurance, adult signature, lithium batteries (Settings).
  const ruleLines = shipped.map((line) => {
    const orderLine = orderLines.get(line.lineItemId);
    return {
      title: orderLine?.title ?? line.productTitle,
      productType: orderLine?.productType ?? null,
      productTags: orderLine?.productTags ?? [],
      quantity: line.remainingQuantity,
      // What the customer paid (after discounts), as customs declares it: what a claim pays back.
      unitPrice: orderLine?.paidUnitPrice ?? null,
    };
  });
  const ruled = applyOptionRules(settings.optionRules, ruleLines);
  if (ruled.options) request.options = ruled.options;
  problems.push(...ruled.problems);

  const products: ProductForCustoms[] = shipped.map((line) => ({
    title: orderLines.get(line.lineItemId)?.title ?? line.productTitle,
    productType: orderLines.get(line.lineItemId)?.productType ?? null,
  }));

  let customsProduct: CustomsProduct | null = null;
  const productsMissingCustoms: CustomsProduct[] = [];
  if (international && to.country) {
    const customsLines: CustomsLine[] = [];
    for (const line of shipped) {
      const orderLine = orderLines.get(line.lineItemId);
      if (!orderLine) {
        problems.push(
          blocking(
            "customs",
            "LINE_ITEM_MISSING",
            `"${line.productTitle}" is missing from the order's line items: check the customs declaration.`,
          ),
        );
        continue;
      }
      customsLines.push(customsLineOf(orderLine, line.remainingQuantity));
    }
    const built = buildCustoms({ lines: customsLines, destinationCountry: to.country, taxId: order.customsTaxId });
    request.customs = built.customs;
    problems.push(...built.problems);
    customsProduct = built.main ? toCustomsProduct(built.main) : null;
    for (const line of customsLines) {
      const known = productsMissingCustoms.some((p) => (p.productId ?? p.title) === (line.productId ?? line.title));
      if ((!line.hsCode || !line.countryOfOrigin) && !known) productsMissingCustoms.push(toCustomsProduct(line));
    }
  }

  return {
    request,
    fulfillmentOrderId: fo?.id ?? null,
    lineItems,
    products,
    customsProduct: notShipped ? null : customsProduct,
    productsMissingCustoms: notShipped ? [] : productsMissingCustoms,
    itemsValue: valueOfLines(ruleLines),
    problems: notShipped ? problems.filter((p) => p.code === "DELIVERY_NOT_SHIPPING") : problems,
  };
}
