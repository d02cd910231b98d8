import { type LabelError, labelError } from "~/labels/label-errors";
import { type LabelView } from "~/labels/label-repository.server";
import { buyLabel } from "~/shipments/buy-label.server";
import { checkForDraft, checkShipment, quoteRequestOf, type ShipmentCheck } from "~/shipments/check-shipment";
import { draftShipment, quoteShipment } from "~/shipments/draft-shipment.server";
import { type LoadedShipment, loadOrder, shipmentOf } from "~/shipments/load-shipment.server";
import { countProblems } from "~/shipments/problem-count";
import type { ShippingClient } from "~/shipping/client.server";
import type { LabelRequestInput } from "~/shipping/preflight";
import { hasItemsToShip, isOpenToShip } from "~/shopify/fulfillment-order-choice";
import { type OrderGid } from "~/shopify/ids";
import { formatMinorUnits } from "~/utils/money";
import { err, ok, type Result } from "~/utils/result";

import type { ExtensionLabel, ExtensionOrderState, ExtensionRate, ExtensionShipment } from "./contract";
import {
  BOUGHT,
  type ExtensionBuyDeps,
  type ExtensionDeps,
  orderAppUrl,
  toExtensionLabel,
  toExtensionProblem,
  toExtensionRate,
} from "./shared.server";

// The order door ("Create label" on Shopify's order page): the order's shipment, its rates,
// and a purchase only at the exact amount the merchant was shown.

function describeAddress(address: LabelRequestInput["to_address"]): ExtensionShipment["shipTo"] {
  const cityLine = [address?.city, [address?.state, address?.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return {
    name: address?.name ?? "",
    lines: [address?.company, address?.street1, address?.street2, cityLine, address?.country].flatMap((line) =>
      line ? [line] : [],
    ),
    country: address?.country ?? null,
  };
}

function describeBoxes(request: LabelRequestInput): string[] {
  const parcels = request.parcels ?? (request.parcel ? [request.parcel] : []);
  return parcels.map((p) => {
    const size = [p?.length, p?.width, p?.height].map((n) => n ?? "?").join(" × ");
    return `${size} ${p?.dimension_unit ?? "in"} · ${p?.weight ?? "?"} ${p?.weight_unit ?? "oz"}`;
  });
}

function describeCustoms(request: LabelRequestInput): ExtensionShipment["customs"] {
  const customs = request.customs;
  if (!customs) return null;
  return {
    contentsType: customs.contents_type ?? "merchandise",
    description: customs.description ?? "",
    quantity: customs.quantity ?? 1,
    // The spec declares the value in US dollars.
    value: typeof customs.value === "number" ? { cents: Math.round(customs.value * 100), currency: "USD" } : null,
    hsCode: customs.hs_code ?? null,
    origin: customs.country_of_origin ?? null,
  };
}

/** One of the order's shipments as the pipeline loaded and checked it. */
type Section = { readonly shipment: LoadedShipment; readonly check: ShipmentCheck };

const isCarrierShipment = (section: Section) => !section.check.problems.some((p) => p.code === "DELIVERY_NOT_SHIPPING");

const hasItemsLeft = ({ shipment }: Section) => hasItemsToShip(shipment.fulfillmentOrder);
const isOpen = (section: Section) => isOpenToShip(section.shipment.fulfillmentOrder.status) && hasItemsLeft(section);
const isBought = (label: LabelView | null) => label !== null && BOUGHT.has(label.status);

/**
 * The shipment the extension acts on: one whose label is under way (a draft, or being bought),
 * else the first open one with no label, else a bought one (shown, with nothing left to label).
 * A split order whose first shipment is labelled still offers its second.
 */
function chooseSection(sections: readonly Section[]): Section | null {
  const carrier = sections.filter(isCarrierShipment);
  return (
    carrier.find((s) => s.shipment.activeLabel !== null && !isBought(s.shipment.activeLabel)) ??
    carrier.find((s) => s.shipment.activeLabel === null && isOpen(s)) ??
    // Held or scheduled with items left: shown with the check's reason, so the merchant sees why.
    carrier.find((s) => s.shipment.activeLabel === null && hasItemsLeft(s)) ??
    carrier.find((s) => s.shipment.activeLabel !== null) ??
    null
  );
}

function toShipment({ shipment, check }: Section): ExtensionShipment {
  const { request, problems } = check;
  const from = request.from_address?.country;
  const to = request.to_address?.country;
  return {
    fulfillmentOrderId: shipment.fulfillmentOrder.id,
    locationName: shipment.fulfillmentOrder.assignedLocation.name,
    shipTo: describeAddress(request.to_address),
    boxes: describeBoxes(request),
    customs: from && to && from !== to ? describeCustoms(request) : null,
    problems: problems.filter((p) => p.severity === "blocking").map(toExtensionProblem),
    warnings: problems.filter((p) => p.severity !== "blocking").map((p) => p.message),
    label: shipment.activeLabel ? toExtensionLabel(shipment.activeLabel) : null,
  };
}

/** The order's shipments through the pipeline: loaded (each read once) and checked. */
async function loadSections(deps: ExtensionDeps, orderGid: OrderGid) {
  const loaded = await loadOrder(deps, orderGid);
  if (!loaded.ok) return loaded;
  const sections = loaded.value.order.fulfillmentOrders.flatMap((fo): Section[] => {
    const shipment = shipmentOf(loaded.value, fo.id);
    return shipment ? [{ shipment, check: checkShipment(shipment) }] : [];
  });
  return ok({ loaded: loaded.value, sections, section: chooseSection(sections) });
}

/** What "Create label" on Shopify's order page shows for the order. */
export async function loadOrderForExtension(
  deps: ExtensionDeps,
  orderGid: OrderGid,
): Promise<Result<ExtensionOrderState, LabelError>> {
  const result = await loadSections(deps, orderGid);
  if (!result.ok) return result;
  const { loaded, section } = result.value;
  const { order } = loaded;
  return ok({
    order: { id: order.id, legacyId: order.legacyId, name: order.name },
    appUrl: orderAppUrl(order.legacyId),
    shipment: section ? toShipment(section) : null,
    nothingToShip: section ? null : "This order has nothing left to ship by carrier.",
    setupProblem: loaded.settings.apiKey.configured
      ? null
      : "Add your shipping API key in the app's Settings before buying labels.",
  });
}

function sectionFor(sections: readonly Section[], orderGid: OrderGid, fulfillmentOrderId: string) {
  const section = sections.find((s) => s.shipment.fulfillmentOrder.id === fulfillmentOrderId) ?? null;
  if (!section || !isCarrierShipment(section)) {
    return err(
      labelError(
        "NOT_FOUND",
        "This shipment is no longer open on the order in Shopify. Close this window and open it again.",
        `extension: ${fulfillmentOrderId} is not a carrier shipment of ${orderGid}`,
      ),
    );
  }
  return ok(section);
}

function refuseBlocked(section: Section) {
  const problems = section.check.problems.filter((p) => p.severity === "blocking");
  // Counted by field, as the order page and the Orders list count them (problem-count.ts).
  const { blocking } = countProblems(problems);
  return labelError(
    "PREFLIGHT_BLOCKED",
    blocking === 1
      ? "This shipment has a problem to fix before it can be labelled."
      : `This shipment has ${blocking} problems to fix before it can be labelled.`,
    `extension: ${section.shipment.fulfillmentOrder.id} blocked by the check`,
    { problems },
  );
}

/** The shipment's rates (free), when the check lets it be labelled. */
async function quoteSection(shipping: ShippingClient, section: Section) {
  if (!section.check.ready) return err(refuseBlocked(section));
  const ready = quoteRequestOf(section.check);
  if (!ready.ok) return ready;
  return quoteShipment(shipping, ready.value);
}

/** Rates for the order's shipment as prefilled from Shopify (free). */
export async function quoteForExtension(
  deps: ExtensionBuyDeps,
  orderGid: OrderGid,
  fulfillmentOrderId: string,
): Promise<Result<ExtensionRate[], LabelError>> {
  const loaded = await loadSections(deps, orderGid);
  if (!loaded.ok) return loaded;
  const section = sectionFor(loaded.value.sections, orderGid, fulfillmentOrderId);
  if (!section.ok) return section;
  const quote = await quoteSection(deps.shipping, section.value);
  if (!quote.ok) return quote;
  return ok(
    quote.value.rates
      .flatMap((rate) => {
        const view = toExtensionRate(rate);
        return view ? [view] : [];
      })
      .sort((a, b) => a.price.cents - b.price.cents),
  );
}

/** Why a purchase was not made, beyond the label use cases' own errors. */
export type ExtensionBuyRefusal =
  | { kind: "price_changed"; message: string; rate: ExtensionRate }
  | { kind: "already_labelled"; message: string; label: ExtensionLabel }
  | { kind: "no_such_service"; message: string };

export type ExtensionBuyOutcome =
  { ok: true; label: ExtensionLabel } | { ok: false; refusal: ExtensionBuyRefusal } | { ok: false; error: LabelError };

type BuyInput = { fulfillmentOrderId: string; serviceCode: string; expectedCents: number; currency: string };

/** The shipment's draft is bought only at the service and price the merchant was shown. */
function refuseDraftPrice(active: LabelView, input: BuyInput): ExtensionBuyRefusal | null {
  if (
    active.serviceCode === input.serviceCode &&
    active.quotedCents === input.expectedCents &&
    active.currency === input.currency
  ) {
    return null;
  }
  const price = { cents: active.quotedCents ?? 0, currency: active.currency };
  return {
    kind: "price_changed",
    message: `This shipment's draft is ${active.serviceName ?? active.serviceCode ?? "another service"} for ${formatMinorUnits(price.cents, price.currency)}. Nothing was bought.`,
    rate: {
      serviceCode: active.serviceCode ?? "",
      carrier: active.carrier ?? "",
      serviceName: active.serviceName ?? "",
      price,
      deliveryDays: null,
    },
  };
}

/** A new draft for the chosen service, only at exactly the price the merchant was shown. */
async function draftAtShownPrice(
  deps: ExtensionBuyDeps,
  section: Section,
  input: BuyInput,
): Promise<{ ok: true; labelId: string } | Exclude<ExtensionBuyOutcome, { ok: true }>> {
  const quote = await quoteSection(deps.shipping, section);
  if (!quote.ok) return { ok: false, error: quote.error };
  const rate = quote.value.rates.find((r) => r.service_code === input.serviceCode);
  const view = rate ? toExtensionRate(rate) : null;
  if (!rate || !view) {
    return {
      ok: false,
      refusal: {
        kind: "no_such_service",
        message: "That service no longer offers a rate for this shipment. Nothing was bought; choose another.",
      },
    };
  }
  if (view.price.cents !== input.expectedCents || view.price.currency !== input.currency) {
    return {
      ok: false,
      refusal: {
        kind: "price_changed",
        message: `The price changed to ${formatMinorUnits(view.price.cents, view.price.currency)}. Nothing was bought.`,
        rate: view,
      },
    };
  }
  const now = new Date();
  const ready = checkForDraft(section.shipment, { checked: section.check, quote: rate, now });
  if (!ready.ok) return { ok: false, error: ready.error };
  const drafted = await draftShipment({ db: deps.db, shop: deps.shop, shipping: deps.shipping, now }, ready.value);
  if (!drafted.ok) return { ok: false, error: drafted.error };
  if (drafted.value.existing) {
    // Another click (or the automatic draft) got there first: that label stands.
    return {
      ok: false,
      refusal: {
        kind: "already_labelled",
        message: "This shipment got a label meanwhile. Nothing more was bought.",
        label: toExtensionLabel(drafted.value.label),
      },
    };
  }
  return { ok: true, labelId: drafted.value.label.id };
}

/**
 * Buys the shipment's label with the chosen service, only at exactly `expectedCents`. The
 * shipment's existing draft is bought when it is that service at that price; a bought label is
 * never bought again (the label slot and the purchase claim make a second request find it), and
 * buyLabel asks Shopify first whether the shipment can still be fulfilled.
 */
export async function buyForExtension(
  deps: ExtensionBuyDeps,
  orderGid: OrderGid,
  input: BuyInput,
): Promise<ExtensionBuyOutcome> {
  const loaded = await loadSections(deps, orderGid);
  if (!loaded.ok) return { ok: false, error: loaded.error };
  const section = sectionFor(loaded.value.sections, orderGid, input.fulfillmentOrderId);
  if (!section.ok) return { ok: false, error: section.error };
  const active = section.value.shipment.activeLabel;

  let labelId: string;
  if (active && active.status !== "draft") {
    return {
      ok: false,
      refusal: {
        kind: "already_labelled",
        message: "This shipment already has a label. Nothing was bought.",
        label: toExtensionLabel(active),
      },
    };
  } else if (active) {
    // The shipment's draft (an automatic one, or made in the app) is what gets bought.
    const refusal = refuseDraftPrice(active, input);
    if (refusal) return { ok: false, refusal };
    labelId = active.id;
  } else {
    const drafted = await draftAtShownPrice(deps, section.value, input);
    if (!drafted.ok) return drafted;
    labelId = drafted.labelId;
  }

  const bought = await buyLabel(deps, labelId, { notifyCustomer: loaded.value.loaded.settings.notifyCustomer });
  if (!bought.ok) return { ok: false, error: bought.error };
  return { ok: true, label: { ...toExtensionLabel(bought.value.label), writeBackError: bought.value.writeBackError } };
}
