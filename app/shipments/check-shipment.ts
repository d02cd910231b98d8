import { type LabelError, labelError } from "~/labels/label-errors";
import type { LabelLineItem, ReturnLabelLineItem } from "~/labels/label-repository.server";
import type { BoxPreset, LabelSettings } from "~/settings/settings";
import type { ProductForCustoms } from "~/shipping/customs-description";
import {
  isBlocking,
  type KnownPreflightProblem,
  type LabelRequestInput,
  preflightLabelRequest,
} from "~/shipping/preflight";
import { type CreateLabelRequest, CreateLabelRequestSchema, type Rate, type RatesRequest } from "~/shipping/schemas";
import {
  type FulfillmentOrderGid,
  type OrderGid,
  parseFulfillmentOrderLineItemGid,
  type ReturnGid,
  type ReverseFulfillmentOrderGid,
} from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import type { ShopifyShopAndLocations } from "~/shopify/shop";
import { err, ok, type Result } from "~/utils/result";

import { collectFormProblems, keepPrefillProblems, sortProblems } from "./label-form";
import { type CustomsProduct, type PrefilledLabel, prefillLabelRequest } from "./prefill";
import { type PrefilledReturn, prefillReturnLabel, type ReturnFacts } from "./return-prefill";
import { shipToKeyOf } from "./ship-to-key";

// The pipeline's one judge (load → CHECK → draft → buy). Every door asks it, so a rule blocks the
// same shipment everywhere: the service's rules (preflight), the shipment's own (prefill: the
// fulfillment order can be fulfilled, ships by carrier, duties, origin, HS codes) and, for a
// draft, the items it ships. It answers problems with their fields, or a parsed request that
// only this module can make (ReadyQuote, ReadyDraft): the draft and quote steps take nothing else,
// so nothing unchecked reaches the service. Pure: no I/O, the clock passed in.

/** What the check needs to know of one shipment: read once by loadShipment. */
export type ShipmentFacts = {
  readonly order: ShopifyOrderForLabel;
  readonly fulfillmentOrder: ShopifyFulfillmentOrder;
  readonly shopAndLocations: Pick<ShopifyShopAndLocations, "shop" | "locations">;
  readonly settings: LabelSettings;
};

export type FormLineItem = { readonly id: string; readonly quantity: number };

export type CheckInput = {
  /** The request as the merchant has it now (edited on the order page); default: the prefill. */
  readonly request?: LabelRequestInput;
  /** The box to prefill with instead of the shop's default (a rule's box). */
  readonly box?: BoxPreset;
};

export type ShipmentCheck = {
  readonly prefilled: PrefilledLabel;
  /** The request judged: the merchant's, or the prefill. */
  readonly request: LabelRequestInput;
  /** Everything wrong, blocking first: what a label for this shipment must settle. */
  readonly problems: KnownPreflightProblem[];
  /** No blocking problem: the shipment can be quoted, then drafted once a rate is chosen. */
  readonly ready: boolean;
};

const CHECKED: unique symbol = Symbol("checked shipment");

/** A rates request that passed the check; only checkForQuote makes one. */
export type ReadyQuote = { readonly [CHECKED]: "quote"; readonly ratesRequest: RatesRequest };

/**
 * A draft request that passed every rule; only checkForDraft (an outbound shipment) and
 * checkReturnForDraft (a return's items coming back) make one, and only it is drafted.
 */
export type ReadyDraft = ReadyDraftCommon &
  (
    | {
        readonly kind: "outbound";
        readonly fulfillmentOrderGid: FulfillmentOrderGid;
        readonly lineItems: readonly LabelLineItem[];
      }
    | {
        readonly kind: "return";
        readonly returnGid: ReturnGid;
        readonly fulfillmentOrderGid: ReverseFulfillmentOrderGid;
        readonly lineItems: readonly ReturnLabelLineItem[];
      }
  );

export type ReadyOutboundDraft = Extract<ReadyDraft, { kind: "outbound" }>;
export type ReadyReturnDraft = Extract<ReadyDraft, { kind: "return" }>;

type ReadyDraftCommon = {
  readonly [CHECKED]: "draft";
  readonly orderGid: OrderGid;
  readonly orderName: string;
  /** The request as the service gets it: the chosen rate's id, no carrier or service overriding it. */
  readonly request: CreateLabelRequest;
  readonly quote: Rate;
  readonly products: readonly ProductForCustoms[];
  /** The product whose HS code and origin the declaration carries, as Shopify has them now. */
  readonly customsProduct: CustomsProduct | null;
  /** Shopify's ship-to address when checked (ship-to-key.ts), to spot a later change. */
  readonly shipToKey: string | null;
  /** What is worth a look but blocks nothing. */
  readonly warnings: KnownPreflightProblem[];
};

// Quoting needs no customs (rates quote without them) and no service yet. Without a chosen service
// preflight assumes USPS, which cannot ship several boxes; the rates for several boxes list UPS
// Ground only, so that problem does not apply before a rate is chosen.
const NOT_NEEDED_TO_QUOTE = new Set(["SERVICE_REQUIRED", "MULTI_PIECE_SERVICE_UNSUPPORTED"]);

function prefill(facts: ShipmentFacts, box: BoxPreset | undefined): PrefilledLabel {
  const settings = box ? { ...facts.settings, box } : facts.settings;
  return prefillLabelRequest(facts.order, settings, {
    shop: facts.shopAndLocations.shop,
    locations: facts.shopAndLocations.locations,
    fulfillmentOrderId: facts.fulfillmentOrder.id,
  });
}

/** Every problem of the shipment before a rate is chosen: what the list, the selection and the pages show. */
export function checkShipment(facts: ShipmentFacts, input: CheckInput = {}): ShipmentCheck {
  const prefilled = prefill(facts, input.box);
  const request = input.request ?? prefilled.request;
  // Picked up or delivered by the merchant: no label at all, so the request's blanks are not problems.
  if (prefilled.problems.some((p) => p.code === "DELIVERY_NOT_SHIPPING")) {
    return { prefilled, request, problems: prefilled.problems, ready: false };
  }
  return { prefilled, request, ...judgeBeforeRate(prefilled, request) };
}

/** Every problem of the request as the merchant has it, before a rate: what both checks share. */
function judgeBeforeRate(
  prefilled: Pick<PrefilledLabel, "request" | "problems" | "products">,
  request: LabelRequestInput,
): { problems: KnownPreflightProblem[]; ready: boolean } {
  const problems = collectFormProblems({
    prefilled: prefilled.request,
    prefillProblems: prefilled.problems,
    current: request,
    products: prefilled.products,
  });
  return { problems, ready: !isBlocking(problems) };
}

function blocked(message: string, operation: string, problems: KnownPreflightProblem[]): LabelError {
  const blocking = problems.filter((p) => p.severity === "blocking");
  return labelError(
    "PREFLIGHT_BLOCKED",
    message,
    `${operation} blocked: ${blocking.map((p) => `${p.path} ${p.code}`).join(", ")}`,
    { problems: sortProblems(problems) },
  );
}

// A form's "not filled" is null; the wire omits such fields instead.
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, dropNulls(v)]),
  );
}

function parseRequest(request: LabelRequestInput, operation: string): Result<CreateLabelRequest, LabelError> {
  const parsed = CreateLabelRequestSchema.safeParse(dropNulls(request));
  if (parsed.success) return ok(parsed.data);
  const problems: KnownPreflightProblem[] = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    code: "INVALID",
    severity: "blocking",
    message: issue.message,
  }));
  return err(blocked("Some label details are missing or invalid.", `${operation} (schema)`, problems));
}

/**
 * The rates request of a shipment the check found ready: nothing blocks it, so preflight need not
 * run again (a bulk run quotes a thousand of them).
 */
export function quoteRequestOf(
  check: Pick<ShipmentCheck, "ready" | "problems" | "request">,
): Result<ReadyQuote, LabelError> {
  if (!check.ready) return err(blocked("Fix the label details before getting rates.", "quote", check.problems));
  return toReadyQuote(check.request);
}

/** The rates request for the shipment as the merchant has it: addresses and boxes must be right; customs may wait. */
export function checkForQuote(request: LabelRequestInput): Result<ReadyQuote, LabelError> {
  const serviceChosen = Boolean(request.carrier || request.service || request.service_code || request.rate_id);
  const problems = preflightLabelRequest(request).filter(
    (p) =>
      p.severity === "blocking" &&
      !p.path.startsWith("customs") &&
      !(NOT_NEEDED_TO_QUOTE.has(p.code) && !serviceChosen) &&
      p.code !== "SERVICE_REQUIRED",
  );
  if (problems.length > 0) return err(blocked("Fix the label details before getting rates.", "quote", problems));
  return toReadyQuote(request);
}

function toReadyQuote(request: LabelRequestInput): Result<ReadyQuote, LabelError> {
  const parsed = parseRequest({ ...request, customs: null }, "quote");
  if (!parsed.ok) return parsed;
  const r = parsed.value;
  return ok({
    [CHECKED]: "quote",
    ratesRequest: {
      from_address: r.from_address,
      to_address: r.to_address,
      ...(r.parcels ? { parcels: r.parcels } : r.parcel ? { parcel: r.parcel } : {}),
      ...(r.carrier ? { carrier: r.carrier } : {}),
      ...(r.carrier_account_id ? { carrier_account_id: r.carrier_account_id } : {}),
      ...(r.ship_date ? { ship_date: r.ship_date } : {}),
      // Insurance, signature and hazmat price the rates and leave out services that cannot carry
      // them; a rate is valid only for the options it was quoted with (contract.md).
      ...(r.options && Object.keys(r.options).length > 0 ? { options: r.options } : {}),
    },
  });
}

/** The items a label ships, checked against what Shopify says remains on the fulfillment order. */
function checkLineItems(
  fo: ShopifyFulfillmentOrder,
  lines: readonly FormLineItem[],
): { lineItems: LabelLineItem[]; problems: KnownPreflightProblem[] } {
  const problems: KnownPreflightProblem[] = [];
  const seen = new Set<string>();
  const chosen = lines.filter((line) => line.quantity !== 0);
  const lineItems = chosen.flatMap((line, index): LabelLineItem[] => {
    const path = `line_items[${index}]`;
    const foLine = fo.lineItems.find((l) => l.id === line.id);
    const id = parseFulfillmentOrderLineItemGid(line.id);
    if (!foLine || !id) {
      problems.push({
        path,
        code: "INVALID",
        severity: "blocking",
        message: "This item is not part of this shipment.",
      });
      return [];
    }
    const duplicate = seen.has(line.id);
    seen.add(line.id);
    if (duplicate || !Number.isInteger(line.quantity) || line.quantity < 1) {
      problems.push({
        path: `${path}.quantity`,
        code: "INVALID",
        severity: "blocking",
        message: duplicate ? "This item is listed twice." : "Ship a whole number of at least 1 of this item.",
      });
    } else if (line.quantity > foLine.remainingQuantity) {
      problems.push({
        path: `${path}.quantity`,
        code: "INVALID",
        severity: "blocking",
        message: `Only ${foLine.remainingQuantity} of "${foLine.productTitle}" remain to ship.`,
      });
    }
    const title = foLine.variantTitle ? `${foLine.productTitle} – ${foLine.variantTitle}` : foLine.productTitle;
    return [{ id, quantity: line.quantity, title, sku: foLine.sku }];
  });
  if (chosen.length === 0) {
    problems.push({
      path: "line_items",
      code: "INVALID",
      severity: "blocking",
      message: "Choose at least one item to ship on this label.",
    });
  }
  return { lineItems, problems };
}

export type DraftCheckInput = CheckInput & {
  /** The rate the merchant (or a rule) chose. */
  readonly quote: Rate;
  /** This shipment's checkShipment answer with the same box, when the caller has it: not prefilled again. */
  readonly checked?: ShipmentCheck;
  /** The items this label ships; default: everything left on the fulfillment order. */
  readonly lineItems?: readonly FormLineItem[];
  readonly now: Date;
};

/**
 * Every rule, with the chosen rate: the shipment's own (unless the merchant edited the field they
 * name), the service's with the quote, and the items. Ok only when nothing blocks.
 */
export function checkForDraft(facts: ShipmentFacts, input: DraftCheckInput): Result<ReadyOutboundDraft, LabelError> {
  const prefilled = input.checked?.prefilled ?? prefill(facts, input.box);
  const items = checkLineItems(facts.fulfillmentOrder, input.lineItems ?? prefilled.lineItems);
  const judged = judgeWithRate(prefilled, input, items.problems);
  if (!judged.ok) return judged;
  return ok({
    [CHECKED]: "draft",
    kind: "outbound",
    orderGid: facts.order.id,
    orderName: facts.order.name,
    fulfillmentOrderGid: facts.fulfillmentOrder.id,
    ...judged.value,
    lineItems: items.lineItems,
    customsProduct: prefilled.customsProduct,
    shipToKey: shipToKeyOf(facts.order, facts.fulfillmentOrder),
  });
}

/** The request with the chosen rate, judged by every rule; what the two draft checks share. */
function judgeWithRate(
  prefilled: Pick<PrefilledLabel, "request" | "problems" | "products">,
  input: Pick<DraftCheckInput, "request" | "quote" | "now">,
  itemProblems: readonly KnownPreflightProblem[],
): Result<Pick<ReadyDraft, "request" | "quote" | "products" | "warnings">, LabelError> {
  const current = input.request ?? prefilled.request;
  // Only the chosen rate: carrier/service fields would override it.
  const request: LabelRequestInput = { ...current, rate_id: input.quote.rate_id };
  delete request.carrier;
  delete request.service;
  delete request.service_code;
  const live = preflightLabelRequest(request, {
    quote: input.quote,
    now: input.now,
    products: prefilled.products,
  });
  const problems = [
    ...keepPrefillProblems({
      prefilled: prefilled.request,
      prefillProblems: prefilled.problems,
      current,
      besides: live,
    }),
    ...itemProblems,
    ...live,
  ];
  if (isBlocking(problems)) return err(blocked("Fix the highlighted label details first.", "draft", problems));
  const parsed = parseRequest(request, "draft");
  if (!parsed.ok) return parsed;
  return ok({
    request: parsed.value,
    quote: input.quote,
    products: prefilled.products,
    warnings: sortProblems(problems),
  });
}

export type ReturnCheck = Omit<ShipmentCheck, "prefilled"> & { readonly prefilled: PrefilledReturn };

/** Every problem of a return label before a rate is chosen (ADR 23): the same rules as outbound. */
export function checkReturn(
  facts: ReturnFacts,
  input: CheckInput & { readonly prefilled?: PrefilledReturn } = {},
): ReturnCheck {
  const prefilled = input.prefilled ?? prefillReturnLabel(facts, input.box);
  const request = input.request ?? prefilled.request;
  return { prefilled, request, ...judgeBeforeRate(prefilled, request) };
}

/** A return label's draft request with the chosen rate; ok only when nothing blocks. */
export function checkReturnForDraft(
  facts: ReturnFacts,
  input: Omit<DraftCheckInput, "lineItems" | "checked"> & { readonly checked?: Pick<ReturnCheck, "prefilled"> },
): Result<ReadyReturnDraft, LabelError> {
  const prefilled = input.checked?.prefilled ?? prefillReturnLabel(facts, input.box);
  const itemProblems: KnownPreflightProblem[] =
    prefilled.lineItems.length === 0
      ? [
          {
            path: "line_items",
            code: "INVALID",
            severity: "blocking",
            message: "This return has no items to send back.",
          },
        ]
      : [];
  const judged = judgeWithRate(prefilled, input, itemProblems);
  if (!judged.ok) return judged;
  return ok({
    [CHECKED]: "draft",
    kind: "return",
    returnGid: facts.ret.id,
    orderGid: facts.order.id,
    orderName: facts.order.name,
    fulfillmentOrderGid: facts.reverseFulfillmentOrder.id,
    ...judged.value,
    lineItems: prefilled.lineItems,
    customsProduct: prefilled.customsProduct,
    // Where a return comes from is the customer's business: a later address change moves nothing back.
    shipToKey: null,
  });
}
