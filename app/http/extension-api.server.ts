import type { PrismaClient } from "@prisma/client";

import { describeNothingToLabel, shipmentsToLabel } from "~/bulk/bulk-runs.server";
import { type LabelError, labelError } from "~/labels/label-errors";
import { type LabelView, listActiveLabelsForOrders } from "~/labels/label-repository.server";
import { describeVoidBlocker } from "~/labels/void-label.server";
import { trackingUrlsFor } from "~/labels/write-tracking.server";
import { buyLabel } from "~/shipments/buy-label.server";
import { checkForDraft, checkShipment, quoteRequestOf, type ShipmentCheck } from "~/shipments/check-shipment";
import { draftShipment, quoteShipment } from "~/shipments/draft-shipment.server";
import { type LoadedShipment, loadOrder, loadShopContext, shipmentOf } from "~/shipments/load-shipment.server";
import { countProblems } from "~/shipments/problem-count";
import type { ShippingClient } from "~/shipping/client.server";
import type { LabelRequestInput, PreflightProblem } from "~/shipping/preflight";
import { type Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { hasItemsToShip, isOpenToShip } from "~/shopify/fulfillment-order-choice";
import { getNumericId, numericOrderGid, type OrderGid, parseOrderGid } from "~/shopify/ids";
import { mapBounded } from "~/utils/map-bounded";
import { formatMinorUnits } from "~/utils/money";
import { err, ok, type Result } from "~/utils/result";

import type {
  ExtensionBulkPreflightResponse,
  ExtensionLabel,
  ExtensionOrderState,
  ExtensionPrintSummary,
  ExtensionProblem,
  ExtensionRate,
  ExtensionShipment,
} from "./extension-contract";

// The use cases behind the admin UI extensions (extensions/): wiring over the pipeline
// (app/shipments: load, check, quote, draft, buy), answered in the extensions' contract
// (extension-contract.ts). Nothing here trusts what the extension holds: the shipment is loaded and
// checked again from Shopify on every call, and a purchase goes through only at the exact amount
// the merchant was shown.

export type ExtensionDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };
export type ExtensionBuyDeps = ExtensionDeps & { shipping: ShippingClient; staffMemberId: string | null };

/** Selected orders one extension call may look at: the admin's selection of a page or two. */
export const MAX_EXTENSION_ORDERS = 250;
const SHOPIFY_READS_IN_FLIGHT = 4;

/** `app:` URLs open the embedded app at that path, from inside Shopify's admin. */
export const appUrlFor = (path: string) => `app:${path.replace(/^\//, "")}`;
export const orderAppUrl = (legacyId: string) => appUrlFor(`/app/orders/${legacyId}`);

const BOUGHT: ReadonlySet<LabelView["status"]> = new Set(["purchased", "fulfilled"]);
const PRINTABLE_FORMATS = new Set(["pdf", "png"]);

export function toExtensionLabel(label: LabelView, now = new Date()): ExtensionLabel {
  const bought = BOUGHT.has(label.status);
  const voided = label.status === "void_pending" || label.status === "voided";
  const cents = bought || voided ? (label.chargedCents ?? label.quotedCents) : label.quotedCents;
  // A request still in flight reads as pending: the merchant asked, the carrier has not decided.
  const refund = label.void;
  const refundCents = refund?.refundCents ?? cents;
  const format = label.labelFormat?.toLowerCase() ?? null;
  const urls = trackingUrlsFor(label.trackingNumbers, label.trackingUrl);
  return {
    id: label.id,
    state: label.status === "draft" ? "draft" : bought ? "bought" : voided ? "voided" : "in_progress",
    carrier: label.carrier,
    serviceName: label.serviceName,
    serviceCode: label.serviceCode,
    price: cents === null ? null : { cents, currency: label.currency },
    trackingNumbers: label.trackingNumbers.map((number, i) => ({ number, url: urls[i] ?? null })),
    format,
    printable: bought && format !== null && PRINTABLE_FORMATS.has(format) && label.labelUrl !== null,
    writeBackError: bought && label.writeBack.status === "failed" ? label.writeBack.lastError : null,
    canVoid: bought && describeVoidBlocker(label, now) === null,
    refund: refund
      ? {
          status: refund.status === "requesting" ? "pending" : refund.status,
          amount: refundCents === null ? null : { cents: refundCents, currency: label.currency },
        }
      : null,
  };
}

export function toExtensionRate(rate: Rate): ExtensionRate | null {
  const cents = parseAmountCents(rate.amount);
  if (cents === null) return null;
  return {
    serviceCode: rate.service_code,
    carrier: rate.carrier,
    serviceName: rate.service,
    price: { cents, currency: rate.currency },
    deliveryDays: rate.delivery_days ?? null,
  };
}

function toExtensionProblem(problem: PreflightProblem): ExtensionProblem {
  return { path: problem.path, message: problem.message, fix: problem.suggestion ?? null };
}

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

/**
 * "Create labels" on Shopify's order list: what a bulk run would find, before it starts and
 * without a call to the shipping service. Each order is read and prefilled as the run's check does.
 */
export async function preflightOrdersForExtension(
  deps: ExtensionDeps,
  orderGids: readonly OrderGid[],
): Promise<Result<ExtensionBulkPreflightResponse, LabelError>> {
  const context = await loadShopContext(deps);
  if (!context.ok) return context;
  const summary: ExtensionBulkPreflightResponse = { ready: 0, needsFixing: [], leftOut: [] };
  const reads = await mapBounded(orderGids, SHOPIFY_READS_IN_FLIGHT, (gid) => loadOrder(deps, gid, context.value));
  for (const [index, read] of reads.entries()) {
    const gid = orderGids[index] as OrderGid;
    if (!read.ok) {
      if (read.error.code !== "NOT_FOUND") return read;
      summary.leftOut.push({ orderName: `Order ${getNumericId(gid) ?? gid}`, reason: "Not found in Shopify." });
      continue;
    }
    const { order } = read.value;
    // The shipments a bulk run would label, as its check picks them.
    const shipments = shipmentsToLabel(order);
    if (shipments.length === 0) {
      summary.leftOut.push({ orderName: order.name, reason: describeNothingToLabel(order) });
      continue;
    }
    for (const fo of shipments) {
      const shipment = shipmentOf(read.value, fo.id);
      if (!shipment) continue;
      const label = shipment.activeLabel;
      if (label && label.status !== "draft") {
        // One line per order: a split order's shipments all labelled say it once.
        if (!summary.leftOut.some((o) => o.orderName === order.name && o.reason === "Already has a label.")) {
          summary.leftOut.push({ orderName: order.name, reason: "Already has a label." });
        }
        continue;
      }
      if (label) {
        summary.ready += 1; // the run buys its draft as it is
        continue;
      }
      // The pipeline's check, as the run's own check will judge it: no "ready" the run then blocks.
      const check = checkShipment(shipment);
      if (check.ready) {
        summary.ready += 1;
        continue;
      }
      const problems = check.problems.filter((p) => p.severity === "blocking").map((p) => p.message);
      // One entry per order, its shipments' problems together (each said once).
      const listed = summary.needsFixing.find((o) => o.orderName === order.name);
      if (listed) listed.problems = [...new Set([...listed.problems, ...problems])];
      else summary.needsFixing.push({ orderName: order.name, appUrl: orderAppUrl(order.legacyId), problems });
    }
  }
  return ok(summary);
}

/** The selection's orders as a bulk run takes them; names are filled in by the run's check. */
export function toBulkRunOrders(orderGids: readonly OrderGid[]) {
  return orderGids.map((orderGid) => ({ orderGid, orderName: `#${getNumericId(orderGid) ?? ""}` }));
}

/** An order's bought labels, one per shipment, in a stable order (the order's own). */
function boughtLabelsOf(labels: readonly LabelView[], orderGid: OrderGid): LabelView[] {
  return labels
    .filter((l) => l.orderGid === orderGid && BOUGHT.has(l.status))
    .sort((a, b) => a.fulfillmentOrderGid.localeCompare(b.fulfillmentOrderGid));
}

/** The print menu's "Shipping label" for one order or a selection: what goes in the PDF. */
export async function summarizePrintForExtension(
  deps: Pick<ExtensionDeps, "db" | "shop">,
  orderGids: readonly OrderGid[],
): Promise<ExtensionPrintSummary> {
  const labels = await listActiveLabelsForOrders(deps.db, deps.shop, orderGids);
  const summary: ExtensionPrintSummary = { printable: [], zplOnly: [], withoutLabel: [], pdfPath: null };
  for (const gid of orderGids) {
    const bought = boughtLabelsOf(labels, gid);
    if (bought.length === 0) {
      const name = labels.find((l) => l.orderGid === gid)?.orderName ?? `Order ${getNumericId(gid) ?? gid}`;
      summary.withoutLabel.push(name);
      continue;
    }
    for (const label of bought) {
      const view = toExtensionLabel(label);
      if (view.printable) summary.printable.push({ orderName: label.orderName, labelId: label.id });
      else {
        summary.zplOnly.push({
          orderName: label.orderName,
          howTo:
            view.format === "zpl"
              ? "ZPL label for a thermal printer: download it from the order's page in the app."
              : "This label's file is not ready to print yet: open the order's page in the app.",
        });
      }
    }
  }
  if (summary.printable.length > 0) {
    const ids = orderGids.map((gid) => getNumericId(gid)).join(",");
    summary.pdfPath = `/api/extensions/print/pdf?orders=${ids}`;
  }
  return summary;
}

/** The order GIDs a request names, as numeric ids or GIDs; null when one is neither. */
export function parseOrderIds(values: readonly string[]): OrderGid[] | null {
  const gids: OrderGid[] = [];
  for (const value of values) {
    // A numeric id, or an Order GID with one (Shopify's ids are positive integers).
    const gid =
      numericOrderGid(value) ?? (/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(value) ? parseOrderGid(value) : undefined);
    if (!gid) return null;
    if (!gids.includes(gid)) gids.push(gid);
  }
  return gids;
}

/** The orders' bought PDF and PNG labels in the order the selection names them: the print menu's PDF. */
export async function listPrintableLabelsForOrders(
  deps: Pick<ExtensionDeps, "db" | "shop">,
  orderGids: readonly OrderGid[],
): Promise<LabelView[]> {
  const labels = await listActiveLabelsForOrders(deps.db, deps.shop, orderGids);
  return orderGids.flatMap((gid) => boughtLabelsOf(labels, gid).filter((l) => toExtensionLabel(l).printable));
}
