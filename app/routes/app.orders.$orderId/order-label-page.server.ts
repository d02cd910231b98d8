import type { PrismaClient } from "@prisma/client";

import { discardDraft } from "~/labels/discard-draft.server";
import { type LabelError, labelError, labelNotFound } from "~/labels/label-errors";
import { findLabel, type LabelView } from "~/labels/label-repository.server";
import {
  describeLabelProgress,
  LABEL_ATTENTION_TEXT,
  type LabelAttention,
  type LabelProgress,
} from "~/labels/label-state";
import { dismissLabelAttention } from "~/labels/label-transitions.server";
import { listParcelStatuses, type ParcelStatusView } from "~/labels/parcel-tracking.server";
import { requestLabelVoid } from "~/labels/void-label.server";
import { trackingUrlsFor, writeTracking } from "~/labels/write-tracking.server";
import { formatUsdCents } from "~/settings/option-rules";
import { type BoxPreset, getAddressValidationPriceCents, type LabelSettings } from "~/settings/settings";
import { createShippingClientForShop } from "~/settings/settings.server";
import { chooseShipFrom } from "~/settings/ship-from";
import { buyLabel } from "~/shipments/buy-label.server";
import { checkForDraft, checkForQuote, checkShipment } from "~/shipments/check-shipment";
import { awaitOtherDraft, type DraftOutcome, draftShipment } from "~/shipments/draft-shipment.server";
import { describeOptions } from "~/shipments/drafted-options.server";
import {
  isActiveLabel,
  type LoadedShipment,
  loadOrder,
  loadShipment,
  readShopOrder,
  shipmentOf,
} from "~/shipments/load-shipment.server";
import type { CustomsProduct } from "~/shipments/prefill";
import {
  checkQuotedRequest,
  confirmQuotedRate,
  quoteAndRecordRates,
  type QuotedRate,
} from "~/shipments/rate-quotes.server";
import {
  type ProductCustomsSave,
  saveCustomsToProduct,
  type SaveToProduct,
} from "~/shipments/save-customs-to-product.server";
import { shipToKeyOf } from "~/shipments/ship-to-key";
import {
  findAddressValidation,
  type ValidatedAddress,
  validateShipToAddress,
} from "~/shipments/validate-address.server";
import type { CallOptions, ShippingClient } from "~/shipping/client.server";
import type { ProductForCustoms } from "~/shipping/customs-description";
import { isBlocking, type KnownPreflightProblem, type LabelRequestInput } from "~/shipping/preflight";
import { AddressValidationRequestSchema, CreateLabelRequestSchema, type Rate } from "~/shipping/schemas";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder } from "~/shopify/orders";
import type { ShopifyLocation, ShopifyShop } from "~/shopify/shop";
import { err, ok, type Result } from "~/utils/result";

// The order label page: one order, each of its fulfillment orders prefilled and checked as a label
// request (a split order shows each), with its active label; and the page's actions, each one use
// case over the pipeline (app/shipments: load, check, quote, draft, buy).

export type LabelSummary = {
  id: string;
  /** A return label brings a Shopify return's items back (ADR 23). */
  kind: LabelView["kind"];
  status: LabelView["status"];
  progress: LabelProgress;
  carrier: string | null;
  serviceName: string | null;
  serviceCode: string | null;
  quotedCents: number | null;
  chargedCents: number | null;
  currency: string;
  chargeMismatch: boolean;
  trackingNumbers: { number: string; url: string | null }[];
  labelUrl: string | null;
  labelFormat: string | null;
  labelSize: string | null;
  shipDate: string | null;
  packageCount: number;
  writeBack: LabelView["writeBack"];
  lastError: string | null;
  purchasedAt: string | null;
  /** What changed on the order after the label was bought, in the merchant's words; null when nothing. */
  attention: string | null;
  /** Which flag `attention` is ("bought_while_held": charged for a shipment Shopify held); null when none. */
  attentionReason: LabelAttention | null;
  boughtOutside: boolean;
  /** Each parcel's latest status from the service's tracking events. */
  parcels: ParcelStatusView[];
  /** Insurance, signature and hazmat as the label was drafted with them, in the merchant's words. */
  options: string[];
  /** A void asked for this label (ADR 22): its refund and the carrier's decision; null if never. */
  void: {
    status: NonNullable<LabelView["void"]>["status"];
    refundCents: number | null;
    refusal: string | null;
    /** Where its Shopify fulfillment stands (a refused cancel is the merchant's to finish). */
    shopify: NonNullable<LabelView["void"]>["shopify"];
  } | null;
};

export function toLabelSummary(label: LabelView, parcels: ParcelStatusView[] = []): LabelSummary {
  const urls = trackingUrlsFor(label.trackingNumbers, label.trackingUrl);
  return {
    id: label.id,
    kind: label.kind,
    status: label.status,
    progress: describeLabelProgress(label),
    carrier: label.carrier,
    serviceName: label.serviceName,
    serviceCode: label.serviceCode,
    quotedCents: label.quotedCents,
    chargedCents: label.chargedCents,
    currency: label.currency,
    chargeMismatch: label.chargeMismatch,
    trackingNumbers: label.trackingNumbers.map((number, i) => ({ number, url: urls[i] ?? null })),
    labelUrl: label.labelUrl,
    labelFormat: label.labelFormat,
    labelSize: label.labelSize,
    shipDate: label.shipDate,
    packageCount: label.packageCount,
    writeBack: label.writeBack,
    lastError: label.lastError,
    purchasedAt: label.purchasedAt ? label.purchasedAt.toISOString() : null,
    attention: label.attention ? LABEL_ATTENTION_TEXT[label.attention.reason] : null,
    attentionReason: label.attention?.reason ?? null,
    boughtOutside: label.boughtOutside,
    parcels,
    options: describeOptions(label.request),
    void: label.void
      ? {
          status: label.void.status,
          refundCents: label.void.refundCents,
          refusal: label.void.refusal,
          shopify: label.void.shopify,
        }
      : null,
  };
}

export type ShipFromOption = {
  locationId: string;
  name: string;
  address: NonNullable<LabelRequestInput["from_address"]>;
};

export type FulfillmentOrderSection = {
  id: FulfillmentOrderGid;
  status: string | null;
  deliveryMethod: string | null;
  locationName: string;
  locationId: string | null;
  canCreateFulfillment: boolean;
  lines: {
    id: string;
    title: string;
    variantTitle: string | null;
    sku: string | null;
    remaining: number;
    total: number;
  }[];
  prefill: {
    request: LabelRequestInput;
    lineItems: { id: string; quantity: number }[];
    products: ProductForCustoms[];
    problems: KnownPreflightProblem[];
  };
  /** International: the product whose HS code and origin the declaration carries ("Save to product"). */
  customsProduct: CustomsProduct | null;
  international: boolean;
  /** What the customer paid for the shipment's items (after discounts, × quantity left), to prefill insurance; null if unknown. */
  itemsValue: { amount: string; currency: string } | null;
  label: LabelSummary | null;
  /** Shopify's ship-to address as it is now (ship-to-key.ts): a draft made for another is stale. */
  shipToKey: string | null;
  /** A stored validation of the prefilled ship-to address: shown without paying again. */
  storedValidation: ValidatedAddressView | null;
};

export type ValidatedAddressView = Omit<ValidatedAddress, "validatedAt"> & { validatedAt: string };

export type OrderLabelPage = {
  order: {
    id: OrderGid;
    legacyId: string;
    name: string;
    email: string | null;
    displayFulfillmentStatus: string;
    /** The shipping method the customer chose at checkout; null when the order names none. */
    shippingMethod: string | null;
    /** What the customer paid for shipping (after discounts and refunds); null when Shopify did not say. */
    shippingPaid: { amount: string; currency: string } | null;
  };
  setup: { apiKeyConfigured: boolean; mode: LabelSettings["mode"] };
  settings: Pick<
    LabelSettings,
    "labelFormat" | "labelSize" | "notifyCustomer" | "addressValidationPolicy" | "box" | "packingSlips"
  >;
  boxPresets: BoxPreset[];
  shipFromOptions: ShipFromOption[];
  /** What one address validation costs on this shop's key, in cents (0 in sandbox). */
  validationPriceCents: number;
  fulfillmentOrders: FulfillmentOrderSection[];
  /** Labels of this order no longer active (voided, failed), newest first, for the record. */
  pastLabels: LabelSummary[];
  shopifyProblems: string[];
};

export type OrderPageDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };

/** A location as the label's sender, the way prefill builds it. */
export function toShipFromOption(location: ShopifyLocation, shop: ShopifyShop): ShipFromOption {
  const a = location.address;
  return {
    locationId: location.id,
    name: location.name,
    address: {
      name: shop.name,
      street1: a.address1,
      street2: a.address2,
      city: a.city,
      state: a.provinceCode ?? a.province,
      zip: a.zip,
      country: a.countryCode,
      phone: a.phone ?? shop.address.phone,
      email: shop.contactEmail,
    },
  };
}

function describeMethod(fo: ShopifyFulfillmentOrder): string | null {
  return fo.deliveryMethod?.presentedName ?? fo.deliveryMethod?.rawMethodType ?? null;
}

/** The US address a validation would send, or null when the ship-to cannot be validated. */
export function toValidationAddress(to: LabelRequestInput["to_address"]) {
  const parsed = AddressValidationRequestSchema.safeParse({
    street1: to?.street1 ?? "",
    street2: to?.street2 ?? null,
    city: to?.city ?? "",
    state: to?.state ?? "",
    zip: to?.zip ?? "",
    country: (to?.country ?? "US") === "US" ? "US" : "XX",
  });
  return parsed.success ? parsed.data : null;
}

const toView = (v: ValidatedAddress | null): ValidatedAddressView | null =>
  v ? { ...v, validatedAt: v.validatedAt.toISOString() } : null;

/**
 * The shop chose "automatically for new addresses": a US ship-to address not validated before is
 * validated on first view (billed once, then reused for free). A failure, or a shop without a
 * usable key, simply leaves the page without a result: the merchant can still validate by hand.
 */
async function validateAutomatically(
  deps: OrderPageDeps,
  orderGid: OrderGid,
  address: NonNullable<ReturnType<typeof toValidationAddress>>,
): Promise<ValidatedAddress | null> {
  if (address.country !== "US") return null;
  const shipping = await createShippingClientForShop(deps.db, deps.shop);
  if (!shipping.ok) return null;
  const validated = await validateShipToAddress(
    { db: deps.db, shop: deps.shop, shipping: shipping.value },
    { orderGid, address },
  );
  return validated.ok ? validated.value : null;
}

export async function loadOrderLabelPage(
  deps: OrderPageDeps,
  orderGid: OrderGid,
): Promise<Result<OrderLabelPage, LabelError>> {
  const { db, shop } = deps;
  const loaded = await loadOrder(deps, orderGid);
  if (!loaded.ok) {
    if (loaded.error.code === "NOT_FOUND") {
      return err(
        labelError("NOT_FOUND", "This order was not found in Shopify.", `order page: ${loaded.error.logMessage}`),
      );
    }
    return loaded;
  }
  const { order: data, settings, presets, labels, shopAndLocations } = loaded.value;
  const { shop: shopInfo, locations } = shopAndLocations;
  const shipFrom = chooseShipFrom(locations, settings.shipFromLocationGid);
  const parcels = await listParcelStatuses(
    db,
    shop,
    labels.map((l) => l.id),
  );
  const summarize = (label: LabelView) => toLabelSummary(label, parcels.get(label.id) ?? []);
  const shipFromOptions = [...locations]
    .sort((a, b) => (a.id === shipFrom?.id ? -1 : b.id === shipFrom?.id ? 1 : 0))
    .map((l) => toShipFromOption(l, shopInfo));

  const sections = await Promise.all(
    data.fulfillmentOrders.map(async (fo): Promise<FulfillmentOrderSection> => {
      const shipment = shipmentOf(loaded.value, fo.id);
      if (!shipment) throw new Error(`${fo.id} is listed on ${data.id} but not found on it`);
      // The pipeline's check: every problem a label for this shipment must settle, as every door sees it.
      const checked = checkShipment(shipment);
      const prefilled = checked.prefilled;
      const label = shipment.activeLabel;
      const draftedRequest = label ? CreateLabelRequestSchema.safeParse(label.request) : null;
      const drafted: LabelRequestInput | null = draftedRequest?.success ? draftedRequest.data : null;
      const validationAddress = toValidationAddress(prefilled.request.to_address);
      const stored = validationAddress
        ? ((await findAddressValidation(db, shop, validationAddress, data.id)) ??
          (settings.addressValidationPolicy === "auto_new" && !label
            ? await validateAutomatically(deps, data.id, validationAddress)
            : null))
        : null;
      const from = prefilled.request.from_address;
      const to = prefilled.request.to_address;
      return {
        id: fo.id,
        status: fo.status,
        deliveryMethod: describeMethod(fo),
        locationName: fo.assignedLocation.name,
        locationId: fo.assignedLocation.locationId,
        canCreateFulfillment: fo.canCreateFulfillment,
        lines: fo.lineItems
          .filter((l) => l.requiresShipping)
          .map((l) => ({
            id: l.id,
            title: l.productTitle,
            variantTitle: l.variantTitle,
            sku: l.sku,
            remaining: l.remainingQuantity,
            total: l.totalQuantity,
          })),
        // Once drafted, the page shows what was drafted (the merchant may have edited the prefill),
        // and the items the label ships; the check's problems were settled by then.
        prefill: drafted
          ? { request: drafted, lineItems: label?.lineItems ?? [], products: prefilled.products, problems: [] }
          : {
              request: prefilled.request,
              lineItems: prefilled.lineItems,
              products: prefilled.products,
              problems: checked.problems,
            },
        customsProduct: prefilled.customsProduct,
        international: Boolean(from?.country && to?.country && from.country !== to.country),
        itemsValue: prefilled.itemsValue
          ? { amount: formatUsdCents(prefilled.itemsValue.cents), currency: prefilled.itemsValue.currency }
          : null,
        label: label ? summarize(label) : null,
        shipToKey: shipToKeyOf(data, fo),
        storedValidation: toView(stored),
      };
    }),
  );

  return ok({
    order: {
      id: data.id,
      legacyId: data.legacyId,
      name: data.name,
      email: data.email,
      displayFulfillmentStatus: data.displayFulfillmentStatus,
      shippingMethod: data.shippingLine?.title ?? null,
      shippingPaid: data.shippingPaid
        ? { amount: data.shippingPaid.amount, currency: data.shippingPaid.currencyCode }
        : null,
    },
    setup: { apiKeyConfigured: settings.apiKey.configured, mode: settings.mode },
    settings: {
      labelFormat: settings.labelFormat,
      labelSize: settings.labelSize,
      notifyCustomer: settings.notifyCustomer,
      addressValidationPolicy: settings.addressValidationPolicy,
      box: settings.box,
      packingSlips: settings.packingSlips,
    },
    boxPresets: [...presets],
    shipFromOptions,
    validationPriceCents: getAddressValidationPriceCents(settings.mode),
    fulfillmentOrders: sections,
    pastLabels: labels.filter((l) => !isActiveLabel(l)).map(summarize),
    shopifyProblems: [...loaded.value.shopifyProblems],
  });
}

// ---------- Actions ----------

export type OrderActionDeps = OrderPageDeps & { shipping: ShippingClient; staffMemberId: string | null };

export type PageQuoteResult = Result<{ rates: Rate[]; requestId: string | null }, LabelError>;

/**
 * The page's one quote, whoever asks: the rates that load with the page and "Get rates" (or R)
 * after the merchant edits the details. Checked for quoting, then priced by the service (free).
 */
async function quoteRequest(
  deps: { db: PrismaClient; shop: string; shipping: ShippingClient },
  request: LabelRequestInput,
  call?: CallOptions,
): Promise<PageQuoteResult> {
  const ready = checkForQuote(request);
  if (!ready.ok) return ready;
  // Kept server-side: the draft is made at the price the service answered here, not a posted one.
  return quoteAndRecordRates(deps, ready.value, call);
}

/** Rates for the request as the page holds it (free), for an order of this shop's only. */
export async function quoteForOrderPage(
  deps: OrderActionDeps,
  input: { orderGid: OrderGid; request: LabelRequestInput },
): Promise<PageQuoteResult> {
  // Quotes are free, but only for an order of this shop's (another shop's id is not found).
  const order = await readShopOrder(deps, input.orderGid, "quoteForOrderPage");
  if (!order.ok) return order;
  return quoteRequest(deps, input.request);
}

/** Whether the page quotes this shipment as it loads: no label yet, and the check found nothing blocking. */
export function quotesWithPage(section: Pick<FulfillmentOrderSection, "label" | "prefill">): boolean {
  // prefill.problems are the pipeline check's own (checkShipment in loadOrderLabelPage).
  return section.label === null && !isBlocking(section.prefill.problems);
}

/**
 * Starts the quotes that load with the page (issue 25 §2), keyed by fulfillment order: one per
 * shipment quotesWithPage lets through, with the same quote as "Get rates". Started, not awaited,
 * so the page's HTML does not wait for the shipping service. None when the shop has no usable key.
 * The order was just read by loadOrderLabelPage for this shop, so it is not read again.
 * `call.deadline` ends a slow quote with the service's timeout message while the page's stream is
 * still open to carry it.
 */
export async function startOrderPageQuotes(
  deps: Pick<OrderPageDeps, "db" | "shop">,
  page: Pick<OrderLabelPage, "setup" | "fulfillmentOrders">,
  call?: CallOptions,
): Promise<Record<string, Promise<PageQuoteResult>>> {
  const sections = page.fulfillmentOrders.filter(quotesWithPage);
  if (sections.length === 0 || !page.setup.apiKeyConfigured) return {};
  const shipping = await createShippingClientForShop(deps.db, deps.shop);
  if (!shipping.ok) return {};
  const quoting = { db: deps.db, shop: deps.shop, shipping: shipping.value };
  return Object.fromEntries(sections.map((s) => [s.id, quoteRequest(quoting, s.prefill.request, call)]));
}

/** Checks the address can be validated (US, complete), then validates it once per shop and address. */
export async function validateOrderAddress(
  deps: OrderActionDeps,
  input: { orderGid: OrderGid; address: LabelRequestInput["to_address"] },
): Promise<Result<ValidatedAddressView, LabelError>> {
  if ((input.address?.country ?? "US") !== "US") {
    return err(
      labelError("PREFLIGHT_BLOCKED", "Address validation covers US addresses only.", "validate: non-US address", {
        problems: [
          {
            path: "to_address.country",
            code: "COUNTRY_INVALID",
            severity: "blocking",
            message: "Address validation covers US addresses only.",
          },
        ],
      }),
    );
  }
  const address = toValidationAddress(input.address);
  if (!address) {
    const message = "Enter a street, city, 2-letter state and 5-digit ZIP code before validating.";
    return err(
      labelError("PREFLIGHT_BLOCKED", message, "validate: incomplete address", {
        problems: [{ path: "to_address", code: "FIELD_REQUIRED", severity: "blocking", message }],
      }),
    );
  }
  // Billed per call: only for an order of this shop's store (another shop's order id, or one
  // that is gone, is not found and costs nothing).
  const order = await readShopOrder(deps, input.orderGid, "validateOrderAddress");
  if (!order.ok) return order;
  const result = await validateShipToAddress(deps, { orderGid: input.orderGid, address });
  return result.ok ? ok({ ...result.value, validatedAt: result.value.validatedAt.toISOString() }) : result;
}

/** What the page posts to draft a shipment at a rate it was shown: create-draft and buy-rate alike. */
export type DraftAtRateInput = {
  orderGid: OrderGid;
  fulfillmentOrderId: string;
  request: LabelRequestInput;
  lineItems: { id: string; quantity: number }[];
  rate: Rate;
  /** "Save to product": a fixed HS code or origin goes to the product once the draft is made. */
  saveToProduct?: SaveToProduct | false;
};

type DraftedAtRate = DraftOutcome & { productSave: ProductCustomsSave | null };

/**
 * Creates the (free) draft for the rate the merchant chose. The order is read again, so the
 * request is checked against Shopify as it is now: every rule of the pipeline's check (the
 * shipment's own, as prefill finds them, unless the merchant edited that field; the service's;
 * the items against what remains to ship), never only what the page's form checked. The rate is
 * the server's own quote under the posted id: a post that differs from it is refused.
 */
export async function createDraftForOrderPage(
  deps: OrderActionDeps,
  input: DraftAtRateInput,
): Promise<Result<DraftedAtRate, LabelError>> {
  const located = await loadShipment(deps, { id: input.fulfillmentOrderId, orderGid: input.orderGid });
  if (!located.ok) return located;
  const now = new Date();
  const quoted = await confirmQuotedRate(deps, input.rate, now);
  if (!quoted.ok) return quoted;
  return draftAtQuote(deps, located.value, quoted.value, input, now);
}

/** The draft step both doors share, for a shipment loaded and a rate confirmed as the server's quote. */
async function draftAtQuote(
  deps: OrderActionDeps,
  shipment: LoadedShipment,
  quoted: QuotedRate,
  input: DraftAtRateInput,
  now: Date,
): Promise<Result<DraftedAtRate, LabelError>> {
  const ready = checkForDraft(shipment, {
    request: input.request,
    lineItems: input.lineItems,
    quote: quoted.rate,
    now,
  });
  if (!ready.ok) return ready;
  const asQuoted = checkQuotedRequest(quoted, ready.value.request);
  if (!asQuoted.ok) return asQuoted;
  const drafted = await draftShipment({ db: deps.db, shop: deps.shop, shipping: deps.shipping, now }, ready.value);
  if (!drafted.ok) return drafted;
  // A draft already there was made from another request: what this one fixed is not on a label.
  const productSave =
    input.saveToProduct && !drafted.value.existing
      ? await saveCustomsToProduct(deps, ready.value.customsProduct, ready.value.request.customs, input.saveToProduct)
      : null;
  return ok({ ...drafted.value, productSave });
}

/**
 * "Buy" on a rate (issue 40, item 7): the draft and its purchase in one step, at the price the
 * merchant confirmed, which is the server's own quote under the posted id (ADR 27; a post that
 * differs is refused before anything is drafted or charged). The draft is the create-draft
 * door's; the purchase is buyLabel's, exactly once (ADR 5). A second post for the same rate (a
 * double click, a retried request, a second tab) finds the label the first one made and buys
 * it, or answers it bought: never a second label, never a second charge. A label of another rate
 * holding the shipment (a draft made meanwhile by another tab or automatic drafting) is not
 * bought: the merchant did not confirm its price.
 */
export async function buyRateForOrderPage(
  deps: OrderActionDeps,
  input: DraftAtRateInput & { notifyCustomer: boolean },
): Promise<Result<BoughtLabelResult & { productSave: ProductCustomsSave | null }, LabelError>> {
  const located = await loadShipment(deps, { id: input.fulfillmentOrderId, orderGid: input.orderGid });
  if (!located.ok) return located;
  const now = new Date();
  const quoted = await confirmQuotedRate(deps, input.rate, now);
  if (!quoted.ok) return quoted;
  let label = located.value.activeLabel;
  let productSave: ProductCustomsSave | null = null;
  if (!label) {
    const drafted = await draftAtQuote(deps, located.value, quoted.value, input, now);
    if (!drafted.ok) return drafted;
    label = drafted.value.label;
    productSave = drafted.value.productSave;
  }
  // Another request holds the shipment's one label (it may be this click's twin still drafting).
  const settled = await awaitOtherDraft(deps, label);
  if (!settled) return err(labelNotFound("buyRateForOrderPage", deps.shop, label.id));
  if (!isActiveLabel(settled) || settled.status === "creating") {
    // The twin's draft failed, or is still being made: nothing to buy yet, and nothing was.
    return err(
      labelError(
        "INVALID_STATE",
        "This label was being drafted by another click, and that has not finished. Nothing was bought: try again in a moment.",
        `buyRateForOrderPage: ${settled.id} is ${settled.status}`,
      ),
    );
  }
  if (settled.rateId !== quoted.value.rate.rate_id) {
    const service = settled.serviceName ?? settled.serviceCode;
    return err(
      labelError(
        "INVALID_STATE",
        `This shipment got another label meanwhile${service ? ` (${service})` : ""}, from another tab or the app's automatic drafts. Nothing was bought: reload the page to see it.`,
        `buyRateForOrderPage: ${settled.id} is ${settled.status} at rate ${settled.rateId ?? "none"}, not ${quoted.value.rate.rate_id}`,
      ),
    );
  }
  const bought = await buyLabel(deps, settled.id, { notifyCustomer: input.notifyCustomer });
  if (!bought.ok) return bought;
  return ok({ label: toLabelSummary(bought.value.label), writeBackError: bought.value.writeBackError, productSave });
}

async function requireOrderLabel(deps: OrderPageDeps, orderGid: OrderGid, labelId: string, operation: string) {
  const label = await findLabel(deps.db, deps.shop, labelId);
  // A label of another order is "not found" here: the page acts on its own order's labels only.
  if (!label || label.orderGid !== orderGid) return err(labelNotFound(operation, deps.shop, labelId));
  return ok(label);
}

export type BoughtLabelResult = {
  label: LabelSummary;
  /** Set when the label was bought but its tracking did not reach Shopify (a retry is offered). */
  writeBackError: string | null;
};

/** Buys the draft through the pipeline's buyLabel (Shopify asked first, exactly once), then its tracking. */
export async function buyLabelForOrderPage(
  deps: OrderActionDeps,
  input: { orderGid: OrderGid; labelId: string; notifyCustomer: boolean },
): Promise<Result<BoughtLabelResult, LabelError>> {
  const found = await requireOrderLabel(deps, input.orderGid, input.labelId, "buy");
  if (!found.ok) return found;
  const bought = await buyLabel(deps, input.labelId, { notifyCustomer: input.notifyCustomer });
  if (!bought.ok) return bought;
  return ok({ label: toLabelSummary(bought.value.label), writeBackError: bought.value.writeBackError });
}

export async function retryWriteBackForOrderPage(
  deps: OrderPageDeps & { staffMemberId: string | null },
  input: { orderGid: OrderGid; labelId: string; notifyCustomer: boolean },
): Promise<Result<BoughtLabelResult, LabelError>> {
  const found = await requireOrderLabel(deps, input.orderGid, input.labelId, "retryWriteBack");
  if (!found.ok) return found;
  return sendTracking(deps, input.labelId, input.notifyCustomer, found.value);
}

async function sendTracking(
  deps: OrderPageDeps & { staffMemberId: string | null },
  labelId: string,
  notifyCustomer: boolean,
  fallback: LabelView,
): Promise<Result<BoughtLabelResult, LabelError>> {
  const written = await writeTracking(
    { db: deps.db, shop: deps.shop, admin: deps.admin, staffMemberId: deps.staffMemberId },
    labelId,
    { notifyCustomer },
  );
  if (written.ok) return ok({ label: toLabelSummary(written.value), writeBackError: null });
  // The label is bought either way; what failed is only the tracking, which can be retried.
  const now = (await findLabel(deps.db, deps.shop, labelId)) ?? fallback;
  return ok({ label: toLabelSummary(now), writeBackError: written.error.message });
}

/** The merchant dealt with what changed on the order after the label was bought. */
export async function dismissAttentionForOrderPage(
  deps: OrderPageDeps,
  input: { orderGid: OrderGid; labelId: string },
) {
  const found = await requireOrderLabel(deps, input.orderGid, input.labelId, "dismissAttention");
  if (!found.ok) return found;
  await dismissLabelAttention(deps.db, deps.shop, input.labelId);
  const now = (await findLabel(deps.db, deps.shop, input.labelId)) ?? found.value;
  return ok({ label: toLabelSummary(now) });
}

/** "Void label": asks the service for a refund; the Shopify fulfillment is cancelled for a replacement. */
export async function voidLabelForOrderPage(deps: OrderActionDeps, input: { orderGid: OrderGid; labelId: string }) {
  const found = await requireOrderLabel(deps, input.orderGid, input.labelId, "void");
  if (!found.ok) return found;
  const result = await requestLabelVoid(
    { db: deps.db, shop: deps.shop, shipping: deps.shipping, admin: deps.admin, staffMemberId: deps.staffMemberId },
    input.labelId,
  );
  return result.ok ? ok({ label: toLabelSummary(result.value) }) : result;
}

export async function discardDraftForOrderPage(deps: OrderActionDeps, input: { orderGid: OrderGid; labelId: string }) {
  const found = await requireOrderLabel(deps, input.orderGid, input.labelId, "discard");
  if (!found.ok) return found;
  const result = await discardDraft(
    { db: deps.db, shop: deps.shop, shipping: deps.shipping, staffMemberId: deps.staffMemberId },
    input.labelId,
  );
  return result.ok ? ok({ label: toLabelSummary(result.value.label), discarded: result.value.discarded }) : result;
}
