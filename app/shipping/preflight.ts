// Finds, before a request leaves the app, every problem the shipping service would reject
// (blocking) or would silently get wrong (warning), plus facts the merchant should know (info).
// Pure and free of node imports: the label form in the browser runs the same rules.

import { isVagueCustomsDescription, type ProductForCustoms, suggestCustomsDescription } from "./customs-description";
import { checkInternationalPhone } from "./phone";
import {
  CARRIERS,
  CONTENTS_TYPES,
  type CreateLabelRequest,
  DIMENSION_UNITS,
  type DraftLabel,
  LABEL_FORMATS,
  LABEL_SIZES,
  PAYERS,
  type Rate,
  WEIGHT_UNITS,
} from "./schemas";
import {
  carrierOfServiceCode,
  findServiceByCode,
  findServiceByName,
  isServiceOfferedOnRoute,
  MULTI_PIECE_SERVICE_CODE,
  type ServiceInfo,
} from "./services";
import { checkTaxIdForDestination, taxIdRuleFor } from "./tax-ids";

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
  | "CUSTOMS_NOT_NEEDED"
  | "CUSTOMS_REQUIRED"
  | "CUSTOM_FIELD_NOT_PRINTED"
  | "CUSTOM_FIELD_TRUNCATED"
  | "DELIVERY_INSTRUCTIONS_TRUNCATED"
  | "DUTIES_BILLED_TO_RECIPIENT"
  | "EXPORT_DECLARATION_EXEMPT"
  | "EXPORT_DECLARATION_REQUIRED"
  | "FIELD_REQUIRED"
  | "LABEL_FORMAT_INVALID"
  | "LABEL_SIZE_INVALID"
  | "MULTI_PIECE_SERVICE_UNSUPPORTED"
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
  | "STATE_DROPPED"
  | "STATE_REQUIRED"
  | "TAX_ID_INVALID"
  | "TAX_ID_REQUIRED"
  | "TOO_MANY_PARCELS"
  | "UNIT_INVALID"
  | "UPS_LINE_TRUNCATED"
  | "VALUE_NOT_POSITIVE";

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
  | "DELIVERY_NOT_SHIPPING"
  | "DUTIES_PAID_AT_CHECKOUT"
  | "INCOTERM_UNKNOWN"
  | "ITEMS_TRUNCATED"
  // prefill: addresses and parcels
  | "SHIP_FROM_INCOMPLETE"
  | "SHIP_TO_INCOMPLETE"
  | "SENDER_PHONE_MISSING"
  | "RECIPIENT_PHONE_MISSING"
  | "WEIGHT_MISSING"
  | "MULTI_PIECE"
  | "ITEM_OVER_BOX_LIMIT"
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
type AddressInput = NonNullable<LabelRequestInput["from_address"]>;
type ParcelInput = NonNullable<LabelRequestInput["parcel"]>;

export type PreflightContext = {
  /** The rate the request's rate_id came from. */
  quote?: Rate | null;
  now?: Date;
  /** The order's products, used to suggest a customs description. */
  products?: ProductForCustoms[];
  /** The caller really means carrier/service/service_code to override the rate. */
  overrideRate?: boolean;
};

export const MAX_PARCELS = 20;
export const LINE_LIMIT = 35;
export const EXPORT_DECLARATION_THRESHOLD_USD = 2500;
// The one list of countries whose addresses need a state or province (the shipping client uses it too).
export const STATE_REQUIRED_COUNTRIES: readonly string[] = ["US", "CA", "AU"];
// Comprehensively embargoed destinations; the service's block list may hold more.
export const BLOCKED_COUNTRIES: readonly string[] = ["CU", "IR", "KP", "SY"];

/**
 * Custom label fields each carrier prints, with the length it prints before cutting. The spec
 * leaves inner field names open; this table is our choice and lives only here.
 */
export const PRINTED_CUSTOM_FIELDS: Record<string, Record<string, number>> = {
  UPS: { reference1: 35, reference2: 35 },
  FEDEX: { customer_reference: 30, po_number: 30, invoice_number: 30, department_number: 30 },
  USPS: { reference: 25 },
  DHL: { reference: 35 },
};

function isBlank(value: unknown): boolean {
  return value == null || (typeof value === "string" && value.trim() === "");
}

function isOneOf(value: unknown, allowed: readonly string[]): boolean {
  return typeof value === "string" && allowed.includes(value);
}

function countryOf(address: AddressInput | null | undefined): string {
  const country = address?.country;
  return isBlank(country) || typeof country !== "string" ? "US" : country.trim().toUpperCase();
}

function cutText(text: string, limit: number): string {
  return text.slice(limit);
}

class ProblemList {
  readonly items: KnownPreflightProblem[] = [];
  block(path: string, code: RequestPreflightCode, message: string, suggestion?: string): void {
    this.add("blocking", path, code, message, suggestion);
  }
  warn(path: string, code: RequestPreflightCode, message: string, suggestion?: string): void {
    this.add("warning", path, code, message, suggestion);
  }
  info(path: string, code: RequestPreflightCode, message: string): void {
    this.add("info", path, code, message);
  }
  push(problem: KnownPreflightProblem | null): void {
    if (problem) this.items.push(problem);
  }
  private add(
    severity: PreflightSeverity,
    path: string,
    code: RequestPreflightCode,
    message: string,
    suggestion?: string,
  ): void {
    const problem: KnownPreflightProblem = { path, code, severity, message };
    if (suggestion !== undefined) problem.suggestion = suggestion;
    this.items.push(problem);
  }
}

const ADDRESS_LABELS = { from_address: "sender", to_address: "recipient" } as const;
export type AddressKey = keyof typeof ADDRESS_LABELS;

/**
 * The phone rule for international labels (the service rejects missing, too short and
 * placeholder numbers). The one place it is written: prefill calls it too.
 */
export function checkInternationalAddressPhone(key: AddressKey, phone: unknown): KnownPreflightProblem | null {
  const who = ADDRESS_LABELS[key];
  const path = `${key}.phone`;
  const phoneProblem = checkInternationalPhone(typeof phone === "string" ? phone : null);
  if (phoneProblem === "missing") {
    return {
      path,
      code: "PHONE_REQUIRED",
      severity: "blocking",
      message: `International shipments need the ${who}'s phone number.`,
    };
  }
  if (phoneProblem === "too_short") {
    return {
      path,
      code: "PHONE_TOO_SHORT",
      severity: "blocking",
      message: `The ${who}'s phone number is too short; enter the full number.`,
    };
  }
  if (phoneProblem === "placeholder") {
    return {
      path,
      code: "PHONE_PLACEHOLDER",
      severity: "blocking",
      message: `The ${who}'s phone number looks like a placeholder; enter a real number the carrier can call.`,
    };
  }
  return null;
}

function checkAddress(
  problems: ProblemList,
  key: AddressKey,
  address: AddressInput | null | undefined,
  international: boolean,
): void {
  const who = ADDRESS_LABELS[key];
  if (address == null) {
    problems.block(key, "ADDRESS_REQUIRED", `Enter the ${who} address.`);
    return;
  }
  for (const field of ["name", "street1", "city", "zip"] as const) {
    if (isBlank(address[field])) {
      problems.block(`${key}.${field}`, "FIELD_REQUIRED", `Enter the ${who}'s ${fieldLabel(field)}.`);
    }
  }
  const rawCountry = address.country;
  if (!isBlank(rawCountry) && !/^[A-Z]{2}$/.test(String(rawCountry))) {
    problems.block(
      `${key}.country`,
      "COUNTRY_INVALID",
      `Use a two-letter country code (for example US) for the ${who}.`,
    );
  }
  const country = countryOf(address);
  if (STATE_REQUIRED_COUNTRIES.includes(country)) {
    if (isBlank(address.state)) {
      problems.block(
        `${key}.state`,
        "STATE_REQUIRED",
        `Enter the ${who}'s state or province; ${country} addresses need one.`,
      );
    }
  } else if (!isBlank(address.state)) {
    problems.warn(
      `${key}.state`,
      "STATE_DROPPED",
      `The ${who}'s state "${String(address.state)}" is not used for ${country} addresses and will not be sent.`,
    );
  }
  if (international) problems.push(checkInternationalAddressPhone(key, address.phone));
  const instructions = address.delivery_instructions;
  if (typeof instructions === "string" && instructions.length > LINE_LIMIT) {
    problems.warn(
      `${key}.delivery_instructions`,
      "DELIVERY_INSTRUCTIONS_TRUNCATED",
      `Delivery instructions are cut at ${LINE_LIMIT} characters; "${cutText(instructions, LINE_LIMIT)}" will be cut.`,
      instructions.slice(0, LINE_LIMIT),
    );
  }
}

function fieldLabel(field: string): string {
  return (
    ({ name: "name", street1: "street address", city: "city", zip: "postal code" } as Record<string, string>)[field] ??
    field
  );
}

function checkParcel(problems: ProblemList, path: string, parcel: ParcelInput | null | undefined): void {
  if (parcel == null) {
    problems.block(path, "PARCEL_REQUIRED", "Enter the box's weight and dimensions.");
    return;
  }
  for (const field of ["weight", "length", "width", "height"] as const) {
    const value = parcel[field];
    if (value == null) {
      problems.block(`${path}.${field}`, "FIELD_REQUIRED", `Enter the box's ${field}.`);
    } else if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      problems.block(`${path}.${field}`, "VALUE_NOT_POSITIVE", `The box's ${field} must be a number greater than 0.`);
    }
  }
  if (parcel.weight_unit != null && !isOneOf(parcel.weight_unit, WEIGHT_UNITS)) {
    problems.block(`${path}.weight_unit`, "UNIT_INVALID", `Weight unit must be one of ${WEIGHT_UNITS.join(", ")}.`);
  }
  if (parcel.dimension_unit != null && !isOneOf(parcel.dimension_unit, DIMENSION_UNITS)) {
    problems.block(
      `${path}.dimension_unit`,
      "UNIT_INVALID",
      `Dimension unit must be one of ${DIMENSION_UNITS.join(", ")}.`,
    );
  }
}

type ResolvedService = { carrier: string | null; info: ServiceInfo | null };

function resolveService(
  problems: ProblemList,
  request: LabelRequestInput,
  context: PreflightContext,
  route: { from: string; to: string },
): ResolvedService {
  const quote = context.quote ?? null;
  const carrier = isBlank(request.carrier) ? null : String(request.carrier);
  const service = isBlank(request.service) ? null : String(request.service);
  const serviceCode = isBlank(request.service_code) ? null : String(request.service_code);

  if (carrier !== null && !isOneOf(carrier, CARRIERS)) {
    problems.block("carrier", "CARRIER_INVALID", `Carrier must be one of ${CARRIERS.join(", ")}.`);
  }
  if (service !== null && serviceCode !== null) {
    problems.block(
      "service_code",
      "SERVICE_AND_SERVICE_CODE",
      "Send either the service name or the service code, not both.",
      "Keep the service code from the rate and remove the service name.",
    );
  }

  if (!isBlank(request.rate_id)) {
    const quoteInfo = quote ? (findServiceByCode(quote.service_code) ?? null) : null;
    const overriding = [carrier && "carrier", service && "service", serviceCode && "service_code"].filter(
      (f): f is string => typeof f === "string",
    );
    if (overriding.length > 0 && !context.overrideRate) {
      problems.block(
        overriding[0] ?? "rate_id",
        "RATE_OVERRIDDEN",
        `The chosen rate would be overridden by ${overriding.join(", ")}. Send the rate alone, or choose explicitly to override it.`,
        `Remove ${overriding.join(", ")}.`,
      );
    }
    if (serviceCode !== null && !serviceCode.startsWith("svc_")) {
      // Only svc_ codes exist; anything else names no service and the rate cannot be resolved.
      problems.block("service_code", "SERVICE_UNKNOWN", `${serviceCode} is not a known service code.`);
    }
    if (serviceCode !== null && quote) {
      const codeCarrier = carrierOfServiceCode(serviceCode);
      if (codeCarrier !== null && codeCarrier !== quote.carrier.toUpperCase()) {
        problems.block(
          "service_code",
          "SERVICE_MISMATCH",
          `The service code ${serviceCode} is a ${codeCarrier} service but the chosen rate is ${quote.carrier}. Remove the code or choose a ${codeCarrier} rate.`,
        );
      } else if (codeCarrier !== null && serviceCode !== quote.service_code && context.overrideRate) {
        problems.warn(
          "service_code",
          "SERVICE_CODE_IGNORED",
          `A service code sent with a rate does not change it: the rate's ${quote.service} stands. Re-quote to switch service.`,
        );
      }
    }
    if (!context.overrideRate || (carrier === null && service === null)) {
      return { carrier: quote?.carrier.toUpperCase() ?? null, info: quoteInfo };
    }
    // Explicit override: carrier and/or service name replace the rate's.
    const overrideCarrier = carrier ?? quote?.carrier.toUpperCase() ?? null;
    const name = service ?? quoteInfo?.service ?? null;
    const info = overrideCarrier && name ? (findServiceByName(overrideCarrier, name) ?? null) : null;
    if (overrideCarrier && name && !info) {
      problems.block(
        service !== null ? "service" : "carrier",
        "SERVICE_UNKNOWN",
        `${overrideCarrier} offers no service named "${name}".`,
      );
    }
    checkRoute(problems, info, route, service !== null ? "service" : "carrier");
    return { carrier: overrideCarrier, info };
  }

  // No rate: carrier defaults to USPS, a service must be named.
  const effectiveCarrier = carrier ?? "USPS";
  if (service === null && serviceCode === null) {
    problems.block(
      "service",
      "SERVICE_REQUIRED",
      "Choose a rate, or a carrier and service, for this label.",
      "Get rates and pick one.",
    );
    return { carrier: effectiveCarrier, info: null };
  }
  let info: ServiceInfo | null = null;
  if (serviceCode !== null) {
    info = findServiceByCode(serviceCode) ?? null;
    if (!info) {
      problems.block("service_code", "SERVICE_UNKNOWN", `${serviceCode} is not a known service code.`);
    } else if (info.carrier !== effectiveCarrier) {
      problems.block(
        carrier === null ? "carrier" : "service_code",
        "SERVICE_CARRIER_MISMATCH",
        carrier === null
          ? `${serviceCode} is a ${info.carrier} service but no carrier was given, so USPS would be assumed. Set the carrier to ${info.carrier}.`
          : `${serviceCode} is a ${info.carrier} service, not ${effectiveCarrier}.`,
      );
    }
  } else if (service !== null) {
    info = findServiceByName(effectiveCarrier, service) ?? null;
    if (!info) {
      problems.block(
        "service",
        "SERVICE_UNKNOWN",
        `${effectiveCarrier} offers no service named "${service}"${carrier === null ? " (USPS is assumed when no carrier is given)" : ""}.`,
      );
    }
  }
  checkRoute(problems, info, route, serviceCode !== null ? "service_code" : "service");
  return { carrier: effectiveCarrier, info };
}

function checkRoute(
  problems: ProblemList,
  info: ServiceInfo | null,
  route: { from: string; to: string },
  path: string,
): void {
  if (info && !isServiceOfferedOnRoute(info, route.from, route.to)) {
    problems.block(
      path,
      "SERVICE_NOT_OFFERED_ON_ROUTE",
      `${info.carrier} ${info.service} does not ship from ${route.from} to ${route.to}; no rate could be bought.`,
      "Get rates for this route and pick one.",
    );
  }
}

function checkOrderLink(problems: ProblemList, request: LabelRequestInput): void {
  const pick = (
    main: string | null | undefined,
    alias: string | null | undefined,
    mainPath: string,
    aliasPath: string,
  ): string | null => {
    const a = isBlank(main) ? null : String(main);
    const b = isBlank(alias) ? null : String(alias);
    if (a !== null && b !== null && a !== b) {
      problems.block(
        aliasPath,
        "ALIAS_CONFLICT",
        `${aliasPath} is another name for ${mainPath}; the two differ. Send one.`,
      );
    }
    return a ?? b;
  };
  const platform = pick(request.platform, request.channel, "platform", "channel");
  const orderId = pick(request.platform_order_id, request.external_order_id, "platform_order_id", "external_order_id");
  if (platform !== null && orderId === null) {
    problems.block(
      "platform_order_id",
      "PLATFORM_ORDER_ID_REQUIRED",
      "A platform needs the order's id on that platform.",
    );
  }
  if (platform === null && orderId !== null) {
    problems.block("platform", "PLATFORM_REQUIRED", "An order id on a platform needs the platform's name.");
  }
}

function checkMultiPiece(problems: ProblemList, request: LabelRequestInput, resolved: ResolvedService): void {
  const parcels = request.parcels;
  if (parcels == null || request.parcel != null) return;
  if (parcels.length > MAX_PARCELS) {
    problems.block(
      "parcels",
      "TOO_MANY_PARCELS",
      `A multi-piece shipment can have at most ${MAX_PARCELS} boxes; this one has ${parcels.length}. Split it into several shipments.`,
    );
  }
  const reason = "only UPS Ground can be bought as a multi-piece shipment (no other service would return a rate)";
  if (resolved.info && resolved.info.serviceCode !== MULTI_PIECE_SERVICE_CODE) {
    problems.block(
      "parcels",
      "MULTI_PIECE_SERVICE_UNSUPPORTED",
      `${resolved.info.carrier} ${resolved.info.service} cannot ship several boxes as one shipment: ${reason}.`,
      "Choose UPS Ground, or ship the boxes as separate labels.",
    );
  } else if (!resolved.info && resolved.carrier !== null && resolved.carrier !== "UPS") {
    problems.block(
      "parcels",
      "MULTI_PIECE_SERVICE_UNSUPPORTED",
      `${resolved.carrier} cannot ship several boxes as one shipment: ${reason}.`,
      "Choose UPS Ground, or ship the boxes as separate labels.",
    );
  }
}

function checkCustoms(
  problems: ProblemList,
  request: LabelRequestInput,
  resolved: ResolvedService,
  international: boolean,
  toCountry: string,
  products: ProductForCustoms[],
): void {
  const customs = request.customs;
  if (customs == null) {
    if (international) {
      problems.block(
        "customs",
        "CUSTOMS_REQUIRED",
        "International shipments need a customs declaration: describe the contents and their value.",
      );
    }
    return;
  }
  // A customs object is validated as a whole even on a domestic label, where it is not needed.
  const suggestion = suggestCustomsDescription(products) ?? undefined;
  if (isBlank(customs.description)) {
    problems.block("customs.description", "FIELD_REQUIRED", "Describe what is in the box for customs.", suggestion);
  } else if (international && isVagueCustomsDescription(String(customs.description))) {
    problems.block(
      "customs.description",
      "CUSTOMS_DESCRIPTION_VAGUE",
      `"${String(customs.description)}" is too vague for customs; say what the items are and what they are made of.`,
      suggestion,
    );
  }
  const value = customs.value;
  if (value == null) {
    problems.block("customs.value", "FIELD_REQUIRED", "Enter the declared value of the contents.");
  } else if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    problems.block("customs.value", "VALUE_NOT_POSITIVE", "The declared value must be greater than 0.");
  }
  if (customs.contents_type != null && !isOneOf(customs.contents_type, CONTENTS_TYPES)) {
    problems.block(
      "customs.contents_type",
      "CONTENTS_TYPE_INVALID",
      `Contents type must be one of ${CONTENTS_TYPES.join(", ")}.`,
    );
  }
  if (customs.quantity != null && (!Number.isInteger(customs.quantity) || customs.quantity < 1)) {
    problems.block("customs.quantity", "QUANTITY_INVALID", "Quantity must be a whole number of at least 1.");
  }

  if (!isBlank(customs.country_of_origin) && !/^[A-Z]{2}$/.test(String(customs.country_of_origin))) {
    problems.block(
      "customs.country_of_origin",
      "COUNTRY_INVALID",
      "Use a two-letter country code for the country of origin.",
    );
  }

  if (!international) {
    problems.info(
      "customs",
      "CUSTOMS_NOT_NEEDED",
      "Customs are only needed when sender and recipient countries differ.",
    );
    return;
  }

  const taxId = isBlank(customs.tax_id) ? null : String(customs.tax_id);
  const taxIdRule = taxIdRuleFor(toCountry);
  if (taxIdRule) {
    if (taxId === null) {
      problems.block(
        "customs.tax_id",
        "TAX_ID_REQUIRED",
        `Shipments to ${taxIdRule.countryName} need the recipient's tax id (${taxIdRule.idNames}).`,
      );
    } else {
      const check = checkTaxIdForDestination(toCountry, taxId);
      if (check && !check.valid) {
        problems.block(
          "customs.tax_id",
          "TAX_ID_INVALID",
          `The tax id is not valid for ${taxIdRule.countryName}: enter ${check.expected}.`,
        );
      }
    }
  }

  if (typeof value === "number" && value > EXPORT_DECLARATION_THRESHOLD_USD) {
    if (isBlank(customs.eel_pfc)) {
      const message = `Declared value is above ${EXPORT_DECLARATION_THRESHOLD_USD.toLocaleString("en-US")} USD: an export declaration number (AES ITN) is needed as EEL/PFC.`;
      if (resolved.carrier === "USPS") {
        problems.block(
          "customs.eel_pfc",
          "EXPORT_DECLARATION_REQUIRED",
          `${message} USPS refuses to sell the label without it.`,
        );
      } else {
        problems.warn("customs.eel_pfc", "EXPORT_DECLARATION_REQUIRED", message);
      }
    }
  } else if (typeof value === "number" && value > 0 && isBlank(customs.eel_pfc)) {
    problems.info(
      "customs.eel_pfc",
      "EXPORT_DECLARATION_EXEMPT",
      `Declared value is ${EXPORT_DECLARATION_THRESHOLD_USD.toLocaleString("en-US")} USD or less: the export declaration exemption is cited automatically.`,
    );
  }
  problems.info(
    "customs",
    "DUTIES_BILLED_TO_RECIPIENT",
    "Duties and taxes are billed to the recipient (DAP); the recipient may have to pay them before delivery.",
  );
}

function checkBilling(problems: ProblemList, request: LabelRequestInput): void {
  const billing = request.billing;
  if (billing == null) return;
  if (isBlank(request.carrier_account_id)) {
    problems.block(
      "carrier_account_id",
      "BILLING_NEEDS_CARRIER_ACCOUNT",
      "Billing another party needs a carrier account: choose one in Settings.",
    );
  }
  const payer = billing.payer;
  if (isBlank(payer)) {
    problems.block(
      "billing.payer",
      "FIELD_REQUIRED",
      "Choose who pays for the shipping (shipper, recipient or third party).",
    );
    return;
  }
  if (!isOneOf(payer, PAYERS)) {
    problems.block("billing.payer", "PAYER_INVALID", `Payer must be one of ${PAYERS.join(", ")}.`);
    return;
  }
  if ((payer === "recipient" || payer === "third_party") && isBlank(billing.accountNumber)) {
    problems.block(
      "billing.accountNumber",
      "FIELD_REQUIRED",
      "Enter the carrier account number of the party that pays.",
    );
  }
  if (!isBlank(billing.countryCode) && !/^[A-Z]{2}$/.test(String(billing.countryCode))) {
    problems.block("billing.countryCode", "COUNTRY_INVALID", "Use a two-letter country code for the paying party.");
  }
  if (payer === "third_party") {
    if (isBlank(billing.countryCode)) {
      problems.block("billing.countryCode", "FIELD_REQUIRED", "Enter the paying party's country.");
    }
    if (isBlank(billing.postalCode)) {
      problems.block("billing.postalCode", "FIELD_REQUIRED", "Enter the paying party's postal code.");
    }
  }
}

function checkQuoteAndShipDate(problems: ProblemList, request: LabelRequestInput, context: PreflightContext): void {
  const optionsShipDate = request.options?.["ship_date"];
  const topShipDate = isBlank(request.ship_date) ? null : String(request.ship_date);
  const nestedShipDate = typeof optionsShipDate === "string" && optionsShipDate.trim() !== "" ? optionsShipDate : null;
  if (topShipDate !== null && nestedShipDate !== null && topShipDate !== nestedShipDate) {
    problems.block("options.ship_date", "SHIP_DATE_CONFLICT", "Two different ship dates were given; keep one.");
  }
  const shipDate = topShipDate ?? nestedShipDate;
  if (shipDate !== null && !isCalendarDate(shipDate)) {
    problems.block("ship_date", "SHIP_DATE_INVALID", "Ship date must be written YYYY-MM-DD.");
  }
  const quote = context.quote;
  if (!quote || isBlank(request.rate_id)) return;
  if (request.rate_id !== quote.rate_id) {
    problems.block("rate_id", "QUOTE_MISMATCH", "The rate sent is not the quote shown; re-quote and choose again.");
  }
  if (shipDate !== null && shipDate !== quote.ship_date) {
    problems.block(
      topShipDate !== null ? "ship_date" : "options.ship_date",
      "SHIP_DATE_DIFFERS_FROM_QUOTE",
      `The ship date ${shipDate} differs from the quote's ${quote.ship_date}: the label would be re-priced and the charge would not match the rate. Re-quote for ${shipDate}.`,
      "Re-quote",
    );
  }
  const now = context.now ?? new Date();
  const expiresAt = Date.parse(quote.expires_at);
  if (!Number.isNaN(expiresAt) && now.getTime() >= expiresAt) {
    problems.block("rate_id", "QUOTE_EXPIRED", "The quote has expired. Re-quote and choose a rate again.", "Re-quote");
  }
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

function checkCarrierPrinting(problems: ProblemList, request: LabelRequestInput, carrier: string | null): void {
  if (carrier === "UPS") {
    const { to_address: to, from_address: from } = request;
    for (const [key, address] of [
      ["from_address", from],
      ["to_address", to],
    ] as const) {
      if (!address || isBlank(address.company) || isBlank(address.name)) continue;
      for (const field of ["company", "name"] as const) {
        const text = String(address[field]);
        if (text.length > LINE_LIMIT) {
          problems.warn(
            `${key}.${field}`,
            "UPS_LINE_TRUNCATED",
            `UPS prints the ${field === "company" ? "company as the name line" : "name as the attention line"}, cut at ${LINE_LIMIT} characters; "${cutText(text, LINE_LIMIT)}" will be cut.`,
            text.slice(0, LINE_LIMIT),
          );
        }
      }
    }
  }
  const fields = request.label_custom_fields;
  if (fields == null) return;
  const printed = carrier ? PRINTED_CUSTOM_FIELDS[carrier] : undefined;
  for (const [name, value] of Object.entries(fields)) {
    const path = `label_custom_fields.${name}`;
    const limit = printed?.[name];
    if (limit === undefined) {
      problems.warn(
        path,
        "CUSTOM_FIELD_NOT_PRINTED",
        carrier
          ? `${carrier} does not print "${name}" on the label; it is stored but not printed.`
          : `"${name}" may not be printed: the carrier is not known yet.`,
      );
    } else if (typeof value === "string" && value.length > limit) {
      problems.warn(
        path,
        "CUSTOM_FIELD_TRUNCATED",
        `${carrier} prints "${name}" up to ${limit} characters; "${cutText(value, limit)}" will be cut.`,
        value.slice(0, limit),
      );
    }
  }
}

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
  if (BLOCKED_COUNTRIES.includes(to)) {
    problems.block(
      "to_address.country",
      "ADDRESS_BLOCKED",
      `Shipments to ${to} are not allowed by the shipping service.`,
    );
  }

  const { parcel, parcels } = request;
  if (parcel != null && parcels != null) {
    problems.block("parcels", "PARCEL_AND_PARCELS", "Send one box (parcel) or several boxes (parcels), not both.");
  } else if (parcel == null && parcels == null) {
    problems.block("parcel", "PARCEL_REQUIRED", "Enter the box's weight and dimensions.");
  } else if (parcels != null && parcels.length === 0) {
    problems.block("parcels", "PARCEL_REQUIRED", "Add at least one box.");
  }
  if (parcel != null) checkParcel(problems, "parcel", parcel);
  parcels?.forEach((p, index) => checkParcel(problems, `parcels[${index}]`, p));

  const resolved = resolveService(problems, request, context, { from, to });
  checkMultiPiece(problems, request, resolved);
  checkCustoms(problems, request, resolved, international, to, context.products ?? []);
  checkBilling(problems, request);
  checkOrderLink(problems, request);
  checkQuoteAndShipDate(problems, request, context);
  checkCarrierPrinting(problems, request, resolved.carrier);

  if (request.label_format != null && !isOneOf(request.label_format, LABEL_FORMATS)) {
    problems.block("label_format", "LABEL_FORMAT_INVALID", `Label format must be one of ${LABEL_FORMATS.join(", ")}.`);
  }
  if (request.label_size != null && !isOneOf(request.label_size, LABEL_SIZES)) {
    problems.block("label_size", "LABEL_SIZE_INVALID", `Label size must be one of ${LABEL_SIZES.join(", ")}.`);
  }
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
