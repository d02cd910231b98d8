// Finds, before a request leaves the app, every problem the shipping service would reject
// (blocking) or would silently get wrong (warning), plus facts the merchant should know (info).
// Pure and free of node imports: the label form in the browser runs the same rules.
// This module holds the vocabulary (codes, problem and input types) and the order the checks
// run in; each area's rules live in preflight/, all writing to one ProblemList.

import type { ProductForCustoms } from "./customs-description";
import { checkAddress, checkBlockedDestination } from "./preflight/addresses";
import { checkBilling } from "./preflight/billing";
import { checkCustoms } from "./preflight/customs";
import { checkLabelOptions } from "./preflight/options";
import { checkOrderLink } from "./preflight/order-link";
import { checkMultiPiece, checkParcels } from "./preflight/parcels";
import { checkCarrierPrinting, checkLabelFormat } from "./preflight/printing";
import { countryOf, ProblemList } from "./preflight/problem-list";
import { checkQuoteAndShipDate } from "./preflight/quote-and-ship-date";
import { resolveService } from "./preflight/service";
import type { CreateLabelRequest, DraftLabel, Rate } from "./schemas";

// Constants and the phone rule are defined beside the area that uses them; other folders keep
// importing them from here.
export {
  type AddressKey,
  BLOCKED_COUNTRIES,
  checkInternationalAddressPhone,
  LINE_LIMIT,
  STATE_REQUIRED_COUNTRIES,
} from "./preflight/addresses";
export { EXPORT_DECLARATION_THRESHOLD_USD } from "./preflight/customs";
export { checkOptionsForService } from "./preflight/options";
export { MAX_PARCELS } from "./preflight/parcels";
export { PRINTED_CUSTOM_FIELDS } from "./preflight/printing";

export type PreflightSeverity = "blocking" | "warning" | "info";

/** Codes preflight's own rules emit (preflightLabelRequest, checkDraftPackageCount, the phone rule). */
export type RequestPreflightCode =
  | "ADDRESS_BLOCKED"
  | "ADDRESS_REQUIRED"
  | "ALIAS_CONFLICT"
  | "BILLING_NEEDS_CARRIER_ACCOUNT"
  | "CARRIER_INVALID"
  | "CONTENTS_TYPE_INVALID"
  | "COUNTRY_INVALID"
  | "CUSTOMS_DESCRIPTION_VAGUE"
  | "HS_CODE_INVALID"
  | "CUSTOMS_NOT_NEEDED"
  | "CUSTOMS_REQUIRED"
  | "CUSTOM_FIELD_NOT_PRINTED"
  | "CUSTOM_FIELD_TRUNCATED"
  | "DELIVERY_INSTRUCTIONS_TRUNCATED"
  | "DUTIES_BILLED_TO_RECIPIENT"
  | "EXPORT_DECLARATION_EXEMPT"
  | "EXPORT_DECLARATION_REQUIRED"
  | "FIELD_REQUIRED"
  | "HAZMAT_INVALID"
  | "INSURANCE_AMOUNT_INVALID"
  | "INSURANCE_CURRENCY_INVALID"
  | "LABEL_FORMAT_INVALID"
  | "LABEL_SIZE_INVALID"
  | "LITHIUM_GROUND_ONLY"
  | "MULTI_PIECE_SERVICE_UNSUPPORTED"
  | "OPTION_UNKNOWN"
  | "PACKAGE_COUNT_MISMATCH"
  | "PARCEL_AND_PARCELS"
  | "PARCEL_REQUIRED"
  | "PAYER_INVALID"
  | "PHONE_PLACEHOLDER"
  | "PHONE_REQUIRED"
  | "PHONE_TOO_SHORT"
  | "PLATFORM_ORDER_ID_REQUIRED"
  | "PLATFORM_REQUIRED"
  | "QUANTITY_INVALID"
  | "QUOTE_EXPIRED"
  | "QUOTE_MISMATCH"
  | "RATE_OVERRIDDEN"
  | "SERVICE_AND_SERVICE_CODE"
  | "SERVICE_CARRIER_MISMATCH"
  | "SERVICE_CODE_IGNORED"
  | "SERVICE_MISMATCH"
  | "SERVICE_NOT_OFFERED_ON_ROUTE"
  | "SERVICE_REQUIRED"
  | "SERVICE_UNKNOWN"
  | "SHIP_DATE_CONFLICT"
  | "SHIP_DATE_DIFFERS_FROM_QUOTE"
  | "SHIP_DATE_INVALID"
  | "SIGNATURE_INVALID"
  | "SIGNATURE_NOT_OFFERED"
  | "STATE_DROPPED"
  | "STATE_REQUIRED"
  | "TAX_ID_INVALID"
  | "TAX_ID_REQUIRED"
  | "TOO_MANY_PARCELS"
  | "UNIT_INVALID"
  | "UPS_LINE_TRUNCATED"
  | "VALUE_NOT_POSITIVE"
  | "ZIP_INVALID";

/**
 * Codes the label use cases put on the same problem lists: prefill and customs
 * (app/labels/prefill.ts, customs.ts) and create-draft (a request that fails the schema, a
 * warning the service returned). They are declared here rather than in app/labels so that
 * app/shipping never imports app/labels, while a label's problems keep one closed type from
 * prefill through preflight to the route: a misspelt code is a compile error, not a silent miss.
 */
export type LabelFlowCode =
  // create-draft
  | "INVALID"
  | "SERVICE_WARNING"
  // prefill: which fulfillment order, and whether it ships at all
  | "NOTHING_TO_SHIP"
  | "CANNOT_FULFILL"
  // the spend guard, right before a purchase
  | "ON_HOLD"
  | "ORDER_CANCELLED"
  | "ADDRESS_CHANGED"
  | "ITEMS_CHANGED"
  | "DELIVERY_NOT_SHIPPING"
  | "DUTIES_PAID_AT_CHECKOUT"
  | "INCOTERM_UNKNOWN"
  | "ITEMS_TRUNCATED"
  // prefill: addresses and parcels
  | "SHIP_FROM_INCOMPLETE"
  | "SHIP_TO_INCOMPLETE"
  | "WEIGHT_MISSING"
  | "MULTI_PIECE"
  | "ITEM_OVER_BOX_LIMIT"
  // prefill: the shop's option rules (insurance, adult signature, lithium batteries)
  | "OPTION_RULE"
  | "OPTION_RULE_SKIPPED"
  // customs
  | "LINE_ITEM_MISSING"
  | "CUSTOMS_DESCRIPTION_REQUIRED"
  | "CUSTOMS_DESCRIPTION_REVIEW"
  | "CUSTOMS_VALUE_USD_REQUIRED"
  | "CUSTOMS_VALUE_REQUIRED"
  | "EXPORT_DECLARATION_NEEDED"
  | "HS_CODE_MISSING"
  | "ORIGIN_MISSING"
  | "CUSTOMS_LINES_DIFFER";

/** Every code a label's problem list may hold: a closed set. */
export type PreflightCode = RequestPreflightCode | LabelFlowCode;

/**
 * One problem on a label request. Everything preflight, prefill and customs produce is a
 * KnownPreflightProblem (code from the closed PreflightCode). The default type parameter is still
 * `string` only because create-draft.server.ts builds its SERVICE_WARNING problems as untyped
 * object literals (code widened to string); once that literal is `as const`, the default becomes
 * PreflightCode and the two names mean the same.
 */
export type PreflightProblem<C extends string = PreflightCode> = {
  path: string;
  code: C;
  severity: PreflightSeverity;
  message: string;
  suggestion?: string;
};
export type KnownPreflightProblem = PreflightProblem<PreflightCode>;

/** What a form may hold before it is a valid request: anything missing, enums as free text. */
export type LooseInput<T> = T extends string
  ? string | null
  : T extends number
    ? number | null
    : T extends boolean
      ? boolean | null
      : T extends readonly (infer U)[]
        ? LooseInput<U>[] | null
        : T extends object
          ? { [K in keyof T]?: LooseInput<T[K]> } | null
          : T;

/** A CreateLabelRequest, or a partly filled one from a form. */
export type LabelRequestInput = NonNullable<LooseInput<CreateLabelRequest>>;

export type PreflightContext = {
  /** The rate the request's rate_id came from. */
  quote?: Rate | null;
  now?: Date;
  /** The order's products, used to suggest a customs description. */
  products?: ProductForCustoms[];
  /** The caller really means carrier/service/service_code to override the rate. */
  overrideRate?: boolean;
};

export function preflightLabelRequest(
  request: LabelRequestInput,
  context: PreflightContext = {},
): KnownPreflightProblem[] {
  const problems = new ProblemList();
  const from = countryOf(request.from_address);
  const to = countryOf(request.to_address);
  const international = from !== to;

  checkAddress(problems, "from_address", request.from_address, international);
  checkAddress(problems, "to_address", request.to_address, international);
  checkBlockedDestination(problems, to);
  checkParcels(problems, request);

  const resolved = resolveService(problems, request, context, { from, to });
  checkMultiPiece(problems, request, resolved);
  checkLabelOptions(problems, request, resolved);
  checkCustoms(problems, request, resolved, international, to, context.products ?? []);
  checkBilling(problems, request);
  checkOrderLink(problems, request);
  checkQuoteAndShipDate(problems, request, context);
  checkCarrierPrinting(problems, request, resolved.carrier);
  checkLabelFormat(problems, request);
  return problems.items;
}

/** After creation: the draft must tender exactly the boxes sent, or the purchase is blocked. */
export function checkDraftPackageCount(
  request: Pick<CreateLabelRequest, "parcel" | "parcels">,
  draft: Pick<DraftLabel, "package_count">,
): KnownPreflightProblem[] {
  const sent = request.parcels?.length ?? (request.parcel ? 1 : 0);
  const multiPiece = request.parcels != null;
  const counted = draft.package_count;
  if ((multiPiece && counted !== sent) || (!multiPiece && counted != null && counted !== sent)) {
    return [
      {
        path: "parcels",
        code: "PACKAGE_COUNT_MISMATCH",
        severity: "blocking",
        message: `The draft label counts ${counted ?? "no"} boxes but ${sent} were sent; buying it would tender the wrong number of boxes. Create the label again.`,
      },
    ];
  }
  return [];
}

export function isBlocking(problems: readonly PreflightProblem[]): boolean {
  return problems.some((p) => p.severity === "blocking");
}
