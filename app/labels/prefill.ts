import type { ProductForCustoms } from "~/shipping/customs-description";
import { checkInternationalPhone } from "~/shipping/phone";
import type { LabelRequestInput, PreflightProblem } from "~/shipping/preflight";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyLocation, ShopifyShop } from "~/shopify/shop";

import { buildCustoms, type CustomsLine } from "./customs";
import { packIntoBoxes, type PackUnit, toGrams } from "./parcels";
import type { LabelSettings } from "./settings";

// Turns a Shopify order into a label request the merchant only has to check. Pure: the order
// page, bulk runs and the auto-draft webhook all prefill with this one function.

export type PrefillContext = {
  shop: Pick<ShopifyShop, "name" | "email" | "address">;
  /** The shop's locations, to read a state code where the fulfillment order gives a name. */
  locations?: readonly Pick<ShopifyLocation, "id" | "address">[];
  /** Which fulfillment order to ship; default the first one that can still be fulfilled. */
  fulfillmentOrderId?: FulfillmentOrderGid;
};

export type PrefilledLabel = {
  request: LabelRequestInput;
  fulfillmentOrderId: FulfillmentOrderGid | null;
  /** The items this label ships: the fulfillment order's remaining quantities. */
  lineItems: { id: FulfillmentOrderLineItemGid; quantity: number }[];
  /** For preflight's customs description suggestion. */
  products: ProductForCustoms[];
  problems: PreflightProblem[];
};

const blocking = (path: string, code: string, message: string): PreflightProblem => ({
  path,
  code,
  severity: "blocking",
  message,
});
const warning = (path: string, code: string, message: string): PreflightProblem => ({
  path,
  code,
  severity: "warning",
  message,
});

const clean = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

export function selectFulfillmentOrder(
  order: Pick<ShopifyOrderForLabel, "fulfillmentOrders">,
  id?: FulfillmentOrderGid,
): ShopifyFulfillmentOrder | null {
  if (id) return order.fulfillmentOrders.find((fo) => fo.id === id) ?? null;
  return (
    order.fulfillmentOrders.find(
      (fo) => fo.canCreateFulfillment && fo.lineItems.some((l) => l.requiresShipping && l.remainingQuantity > 0),
    ) ?? null
  );
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
  problems: PreflightProblem[],
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
          email: clean(shop.email),
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
          email: clean(shop.email),
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
  if (!phone) {
    problems.push(
      warning(
        "from_address.phone",
        "SENDER_PHONE_MISSING",
        "Neither the location nor the shop has a phone number; international labels need one.",
      ),
    );
  }
  return from;
}

function buildToAddress(
  order: ShopifyOrderForLabel,
  fo: ShopifyFulfillmentOrder | null,
  problems: PreflightProblem[],
): NonNullable<LabelRequestInput["to_address"]> {
  const shipping = order.shippingAddress;
  const destination = fo?.destination ?? null;
  const name =
    clean(shipping?.name) ??
    clean(
      [shipping?.firstName ?? destination?.firstName, shipping?.lastName ?? destination?.lastName]
        .filter(Boolean)
        .join(" "),
    );
  // Recipient's phone first (what the carrier calls), then the customer's.
  const phone = clean(shipping?.phone) ?? clean(destination?.phone) ?? clean(order.phone);
  const country = clean(shipping?.countryCode) ?? clean(destination?.countryCode);
  const to = {
    name,
    company: clean(shipping?.company ?? destination?.company) ?? undefined,
    street1: clean(shipping?.address1 ?? destination?.address1),
    street2: clean(shipping?.address2 ?? destination?.address2),
    city: clean(shipping?.city ?? destination?.city),
    state: stateCode(shipping?.province ?? destination?.province ?? null, shipping?.provinceCode),
    zip: clean(shipping?.zip ?? destination?.zip),
    country,
    phone,
    email: clean(order.email ?? destination?.email),
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
  if (!phone) {
    problems.push({
      path: "to_address.phone",
      code: "RECIPIENT_PHONE_MISSING",
      // Optional at home, required by the service abroad.
      severity: "warning",
      message:
        "Neither the shipping address nor the customer has a phone number; international labels need one. Ask the customer for it.",
    });
  }
  return to;
}

export function prefillLabelRequest(
  order: ShopifyOrderForLabel,
  settings: LabelSettings,
  context: PrefillContext,
): PrefilledLabel {
  const problems: PreflightProblem[] = [];
  const fo = selectFulfillmentOrder(order, context.fulfillmentOrderId);
  if (!fo) {
    problems.push(
      blocking(
        "fulfillment_order",
        "NOTHING_TO_SHIP",
        "This order has no items left to ship from a location this app can fulfil.",
      ),
    );
  } else if (!fo.canCreateFulfillment) {
    problems.push(
      blocking(
        "fulfillment_order",
        "CANNOT_FULFILL",
        `This shipment is ${fo.status.toLowerCase().replace("_", " ")} in Shopify and cannot be fulfilled now.`,
      ),
    );
  }

  const from = buildFromAddress(fo, context, problems);
  const to = buildToAddress(order, fo, problems);
  const international = Boolean(from.country && to.country && from.country !== to.country);
  if (international) {
    for (const [key, address] of [
      ["from_address", from],
      ["to_address", to],
    ] as const) {
      const problem = checkInternationalPhone(address.phone);
      if (problem) {
        problems.push(
          blocking(
            `${key}.phone`,
            "PHONE_REQUIRED",
            `International labels need a real ${key === "from_address" ? "sender" : "recipient"} phone number (${problem.replace("_", " ")}).`,
          ),
        );
      }
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

  const products: ProductForCustoms[] = shipped.map((line) => ({
    title: orderLines.get(line.lineItemId)?.title ?? line.productTitle,
    productType: orderLines.get(line.lineItemId)?.productType ?? null,
  }));

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
      customsLines.push({
        title: orderLine.title,
        productType: orderLine.productType,
        quantity: line.remainingQuantity,
        unitPrice: orderLine.unitPrice,
        hsCode: orderLine.hsCode,
        countryOfOrigin: orderLine.countryOfOrigin,
      });
    }
    const built = buildCustoms({ lines: customsLines, destinationCountry: to.country, taxId: order.customsTaxId });
    request.customs = built.customs;
    problems.push(...built.problems);
  }

  return { request, fulfillmentOrderId: fo?.id ?? null, lineItems, products, problems };
}
