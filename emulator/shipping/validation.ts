// Request validation against shipping-api.md. Every rule the spec states lives here, written
// from the spec text itself (never from the app's schemas), so that an app bug is caught.

import { type Carrier, CARRIERS } from "./pricing";

export interface FieldProblem {
  field: string;
  message: string;
}

export interface Address {
  name: string;
  company: string | null;
  street1: string;
  street2: string | null;
  city: string;
  state: string | null;
  zip: string;
  country: string;
  phone: string | null;
  email: string | null;
  delivery_instructions: string | null;
  residential: boolean | null;
}

export interface Parcel {
  weight: number;
  length: number;
  width: number;
  height: number;
  weight_unit: string;
  dimension_unit: string;
}

export interface Customs {
  description: string;
  value: number;
  contents_type: string;
  quantity: number;
  hs_code: string | null;
  country_of_origin: string;
  tax_id: string | null;
  tax_id_type: string | null;
  eel_pfc: string | null;
}

export interface Billing {
  payer: "shipper" | "recipient" | "third_party";
  accountNumber: string | null;
  countryCode: string | null;
  postalCode: string | null;
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Collects every problem of a body so that one response lists them all. */
export class ProblemList {
  readonly items: FieldProblem[] = [];
  add(field: string, message: string): void {
    this.items.push({ field, message });
  }
  get isEmpty(): boolean {
    return this.items.length === 0;
  }
}

function joinPath(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** null and undefined both mean "absent" (the spec allows `state: null`). */
export function readOptionalString(obj: JsonObject, key: string, path: string, problems: ProblemList): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") {
    problems.add(joinPath(path, key), "must be a string");
    return null;
  }
  return value;
}

export function readRequiredString(obj: JsonObject, key: string, path: string, problems: ProblemList): string {
  const value = obj[key];
  if (value === undefined || value === null) {
    problems.add(joinPath(path, key), "is required");
    return "";
  }
  if (typeof value !== "string") {
    problems.add(joinPath(path, key), "must be a string");
    return "";
  }
  if (value.trim() === "") {
    problems.add(joinPath(path, key), "must not be empty");
    return "";
  }
  return value;
}

function readEnum<T extends string>(
  obj: JsonObject,
  key: string,
  path: string,
  allowed: readonly T[],
  problems: ProblemList,
): T | null {
  const value = readOptionalString(obj, key, path, problems);
  if (value === null) return null;
  if (!(allowed as readonly string[]).includes(value)) {
    problems.add(joinPath(path, key), `must be one of ${allowed.join(", ")}`);
    return null;
  }
  return value as T;
}

const COUNTRY_CODE = /^[A-Z]{2}$/;
const STATE_REQUIRED_COUNTRIES = new Set(["US", "CA", "AU"]);
export const DELIVERY_INSTRUCTIONS_MAX = 35;

export function parseAddress(
  value: unknown,
  path: string,
  problems: ProblemList,
  warnings: Record<string, string>,
): Address | null {
  if (value === undefined || value === null) {
    problems.add(path, "is required");
    return null;
  }
  if (!isJsonObject(value)) {
    problems.add(path, "must be an object");
    return null;
  }
  const countryRaw = readOptionalString(value, "country", path, problems);
  const country = countryRaw ?? "US";
  if (countryRaw !== null && !COUNTRY_CODE.test(countryRaw)) {
    problems.add(`${path}.country`, "must be a two-letter ISO code");
  }
  const state = readOptionalString(value, "state", path, problems);
  if (STATE_REQUIRED_COUNTRIES.has(country) && (state === null || state.trim() === "")) {
    problems.add(`${path}.state`, `is required for ${country} addresses`);
  }
  const residential = value.residential;
  if (residential !== undefined && residential !== null && typeof residential !== "boolean") {
    problems.add(`${path}.residential`, "must be a boolean");
  }
  let deliveryInstructions = readOptionalString(value, "delivery_instructions", path, problems);
  if (deliveryInstructions !== null && deliveryInstructions.length > DELIVERY_INSTRUCTIONS_MAX) {
    warnings[`${path}.delivery_instructions`] = `truncated to ${DELIVERY_INSTRUCTIONS_MAX} characters`;
    deliveryInstructions = deliveryInstructions.slice(0, DELIVERY_INSTRUCTIONS_MAX);
  }
  return {
    name: readRequiredString(value, "name", path, problems),
    company: readOptionalString(value, "company", path, problems),
    street1: readRequiredString(value, "street1", path, problems),
    street2: readOptionalString(value, "street2", path, problems),
    city: readRequiredString(value, "city", path, problems),
    state,
    zip: readRequiredString(value, "zip", path, problems),
    country,
    phone: readOptionalString(value, "phone", path, problems),
    email: readOptionalString(value, "email", path, problems),
    delivery_instructions: deliveryInstructions,
    residential: typeof residential === "boolean" ? residential : null,
  };
}

const WEIGHT_UNITS = ["oz", "lb", "g", "kg"] as const;
const DIMENSION_UNITS = ["in", "cm"] as const;
export const MAX_BOXES = 20;

function parseParcel(value: unknown, path: string, problems: ProblemList): Parcel | null {
  if (!isJsonObject(value)) {
    problems.add(path, "must be an object");
    return null;
  }
  const readDimension = (key: string): number => {
    const n = value[key];
    if (n === undefined || n === null) problems.add(`${path}.${key}`, "is required");
    else if (typeof n !== "number" || !Number.isFinite(n)) problems.add(`${path}.${key}`, "must be a number");
    else if (n <= 0) problems.add(`${path}.${key}`, "must be greater than 0");
    else return n;
    return 0;
  };
  return {
    weight: readDimension("weight"),
    length: readDimension("length"),
    width: readDimension("width"),
    height: readDimension("height"),
    weight_unit: readEnum(value, "weight_unit", path, WEIGHT_UNITS, problems) ?? "oz",
    dimension_unit: readEnum(value, "dimension_unit", path, DIMENSION_UNITS, problems) ?? "in",
  };
}

export type ParcelsResult = { kind: "both" } | { kind: "parsed"; parcels: Parcel[]; multiPiece: boolean };

/** `parcel` xor `parcels` (max 20). Both present is a separate error code (VALIDATION_ERROR). */
export function parseParcels(body: JsonObject, problems: ProblemList): ParcelsResult {
  const hasParcel = body.parcel !== undefined && body.parcel !== null;
  const hasParcels = body.parcels !== undefined && body.parcels !== null;
  if (hasParcel && hasParcels) return { kind: "both" };
  if (hasParcels) {
    if (!Array.isArray(body.parcels)) {
      problems.add("parcels", "must be an array");
      return { kind: "parsed", parcels: [], multiPiece: true };
    }
    const list: unknown[] = body.parcels;
    if (list.length === 0) problems.add("parcels", "must contain at least one box");
    if (list.length > MAX_BOXES) problems.add("parcels", `must contain at most ${MAX_BOXES} boxes`);
    const parcels: Parcel[] = [];
    list.slice(0, MAX_BOXES + 1).forEach((p, i) => {
      const parsed = parseParcel(p, `parcels[${i}]`, problems);
      if (parsed) parcels.push(parsed);
    });
    return { kind: "parsed", parcels, multiPiece: true };
  }
  if (!hasParcel) {
    problems.add("parcel", "is required unless parcels is used");
    return { kind: "parsed", parcels: [], multiPiece: false };
  }
  const parsed = parseParcel(body.parcel, "parcel", problems);
  return { kind: "parsed", parcels: parsed ? [parsed] : [], multiPiece: false };
}

const CONTENTS_TYPES = ["merchandise", "documents", "gift", "returned_goods", "sample"] as const;

export function parseCustoms(value: unknown, problems: ProblemList): Customs | null {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) {
    problems.add("customs", "must be an object");
    return null;
  }
  const description = readRequiredString(value, "description", "customs", problems);
  let declared = 0;
  const rawValue = value.value;
  if (rawValue === undefined || rawValue === null) problems.add("customs.value", "is required");
  else if (typeof rawValue !== "number" || !Number.isFinite(rawValue))
    problems.add("customs.value", "must be a number");
  else if (rawValue <= 0) problems.add("customs.value", "must be greater than 0");
  else declared = rawValue;
  let quantity = 1;
  const rawQuantity = value.quantity;
  if (rawQuantity !== undefined && rawQuantity !== null) {
    if (typeof rawQuantity !== "number" || !Number.isInteger(rawQuantity) || rawQuantity < 1) {
      problems.add("customs.quantity", "must be a positive integer");
    } else quantity = rawQuantity;
  }
  const origin = readOptionalString(value, "country_of_origin", "customs", problems);
  if (origin !== null && !COUNTRY_CODE.test(origin))
    problems.add("customs.country_of_origin", "must be a two-letter ISO code");
  return {
    description,
    value: declared,
    contents_type: readEnum(value, "contents_type", "customs", CONTENTS_TYPES, problems) ?? "merchandise",
    quantity,
    hs_code: readOptionalString(value, "hs_code", "customs", problems),
    country_of_origin: origin ?? "US",
    tax_id: readOptionalString(value, "tax_id", "customs", problems),
    tax_id_type: readOptionalString(value, "tax_id_type", "customs", problems),
    eel_pfc: readOptionalString(value, "eel_pfc", "customs", problems),
  };
}

const PAYERS = ["shipper", "recipient", "third_party"] as const;

export function parseBilling(value: unknown, carrierAccountId: string | null, problems: ProblemList): Billing | null {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) {
    problems.add("billing", "must be an object");
    return null;
  }
  if (carrierAccountId === null) problems.add("carrier_account_id", "is required when billing is sent");
  // The spec marks payer "Required"; "shipper (default)" describes billing without a billing object.
  const payer = readEnum(value, "payer", "billing", PAYERS, problems);
  if (value.payer === undefined || value.payer === null) problems.add("billing.payer", "is required");
  const accountNumber = readOptionalString(value, "accountNumber", "billing", problems);
  const countryCode = readOptionalString(value, "countryCode", "billing", problems);
  const postalCode = readOptionalString(value, "postalCode", "billing", problems);
  if ((payer === "recipient" || payer === "third_party") && (accountNumber === null || accountNumber.trim() === "")) {
    problems.add("billing.accountNumber", `is required for payer ${payer}`);
  }
  if (payer === "third_party") {
    if (countryCode === null || countryCode.trim() === "")
      problems.add("billing.countryCode", "is required for payer third_party");
    if (postalCode === null || postalCode.trim() === "")
      problems.add("billing.postalCode", "is required for payer third_party");
  }
  if (countryCode !== null && countryCode.trim() !== "" && !COUNTRY_CODE.test(countryCode)) {
    problems.add("billing.countryCode", "must be a two-letter ISO code");
  }
  return { payer: payer ?? "shipper", accountNumber, countryCode, postalCode };
}

export function parseCarrier(body: JsonObject, problems: ProblemList): Carrier | null {
  return readEnum(body, "carrier", "", CARRIERS, problems);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD and a real calendar date. */
export function readShipDate(obj: JsonObject, key: string, path: string, problems: ProblemList): string | null {
  const value = readOptionalString(obj, key, path, problems);
  if (value === null) return null;
  const match = DATE.exec(value);
  const parsed = match ? new Date(`${value}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    problems.add(joinPath(path, key), "must be a date YYYY-MM-DD");
    return null;
  }
  return value;
}

// --- The label creation request --------------------------------------------------------------

const LABEL_FORMATS = ["pdf", "png", "zpl"] as const;
const LABEL_SIZES = ["4x6", "4x8"] as const;

export interface LabelRequest {
  from: Address;
  to: Address;
  parcels: Parcel[];
  multiPiece: boolean;
  carrier: Carrier | null;
  rateId: string | null;
  serviceName: string | null;
  serviceCode: string | null;
  carrierAccountId: string | null;
  labelFormat: (typeof LABEL_FORMATS)[number];
  labelSize: (typeof LABEL_SIZES)[number];
  reference: string | null;
  labelCustomFields: JsonObject | null;
  options: JsonObject | null;
  customs: Customs | null;
  billing: Billing | null;
  /** Top-level `ship_date`, else `options.ship_date`. */
  shipDate: string | null;
  platform: string | null;
  platformOrderId: string | null;
  orderId: string | null;
}

export type LabelRequestResult =
  | { kind: "both_parcels" }
  | { kind: "invalid"; problems: FieldProblem[] }
  | { kind: "ok"; request: LabelRequest; warnings: Record<string, string> };

/** The body rules of POST /v1/labels; every problem is collected before answering. */
export function parseLabelRequest(body: JsonObject): LabelRequestResult {
  const problems = new ProblemList();
  const warnings: Record<string, string> = {};
  const parcels = parseParcels(body, problems);
  if (parcels.kind === "both") return { kind: "both_parcels" };
  const from = parseAddress(body.from_address, "from_address", problems, warnings);
  const to = parseAddress(body.to_address, "to_address", problems, warnings);
  const carrier = parseCarrier(body, problems);
  const rateId = readOptionalString(body, "rate_id", "", problems);
  const serviceName = readOptionalString(body, "service", "", problems);
  const serviceCode = readOptionalString(body, "service_code", "", problems);
  if (serviceName !== null && serviceCode !== null)
    problems.add("service_code", "send service or service_code, not both");
  const carrierAccountId = readOptionalString(body, "carrier_account_id", "", problems);
  const labelFormat = readEnum(body, "label_format", "", LABEL_FORMATS, problems) ?? "pdf";
  const labelSize = readEnum(body, "label_size", "", LABEL_SIZES, problems) ?? "4x6";
  const reference = readOptionalString(body, "reference", "", problems);
  const labelCustomFields = readObject(body, "label_custom_fields", problems);
  const options = readObject(body, "options", problems);
  const customs = parseCustoms(body.customs, problems);
  const billing = parseBilling(body.billing, carrierAccountId, problems);
  const shipDate = readShipDates(body, options, problems);
  const platform = readAliased(body, "platform", "channel", problems);
  const platformOrderId = readAliased(body, "platform_order_id", "external_order_id", problems);
  // "Pair with platform_order_id": one without the other cannot be linked to an order.
  if (platform !== null && platformOrderId === null) problems.add("platform_order_id", "is required with platform");
  if (platform === null && platformOrderId !== null) problems.add("platform", "is required with platform_order_id");
  const orderId = readOptionalString(body, "order_id", "", problems);
  if (!problems.isEmpty || from === null || to === null) return { kind: "invalid", problems: problems.items };
  return {
    kind: "ok",
    warnings,
    request: {
      from,
      to,
      parcels: parcels.parcels,
      multiPiece: parcels.multiPiece,
      carrier,
      rateId,
      serviceName,
      serviceCode,
      carrierAccountId,
      labelFormat,
      labelSize,
      reference,
      labelCustomFields,
      options,
      customs,
      billing,
      shipDate,
      platform,
      platformOrderId,
      orderId,
    },
  };
}

/** `ship_date` at top level or inside `options` (both given and different: a problem). */
function readShipDates(body: JsonObject, options: JsonObject | null, problems: ProblemList): string | null {
  const top = readShipDate(body, "ship_date", "", problems);
  const inOptions = options === null ? null : readShipDate(options, "ship_date", "options", problems);
  if (top !== null && inOptions !== null && top !== inOptions)
    problems.add("options.ship_date", "differs from ship_date");
  return top ?? inOptions;
}

/** The ship date of a quote: as for a label, top level or in `options`. */
export function readQuoteShipDate(body: JsonObject, problems: ProblemList): string | null {
  return readShipDates(body, readObject(body, "options", problems), problems);
}

function readObject(body: JsonObject, key: string, problems: ProblemList): JsonObject | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) {
    problems.add(key, "must be an object");
    return null;
  }
  return value;
}

/** A field and its alias: either may be sent; both with different values is a conflict. */
function readAliased(body: JsonObject, key: string, alias: string, problems: ProblemList): string | null {
  const main = readOptionalString(body, key, "", problems);
  const other = readOptionalString(body, alias, "", problems);
  if (main !== null && other !== null && main !== other) problems.add(alias, `conflicts with ${key}`);
  return main ?? other;
}

// --- International rules -------------------------------------------------------------------

/** Why a phone is unusable on an international label, or null when usable. */
export function findPhoneProblem(phone: string | null): string | null {
  if (phone === null || phone.trim() === "") return "is required for international shipments";
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 7) return "is too short (at least 7 digits)";
  if (/^0+$/.test(digits)) return "is a placeholder (all zeros)";
  const candidates = [digits];
  // A leading country code ("+1 ...", "+44 ...") must not hide a placeholder national number.
  if (phone.trim().startsWith("+")) {
    for (let k = 1; k <= 3; k++) if (digits.length - k >= 7) candidates.push(digits.slice(k));
  } else if (digits.length === 11 && digits.startsWith("1")) {
    candidates.push(digits.slice(1));
  }
  if (candidates.some(isAscendingRun) || candidates.some((c) => /^0+$/.test(c))) {
    return "is a placeholder (ascending digit sequence)";
  }
  return null;
}

/** 0123456789, 123456789, 1234567890 (wrapping 9 -> 0): each digit one more than the last. */
function isAscendingRun(digits: string): boolean {
  for (let i = 1; i < digits.length; i++) {
    if (Number(digits[i]) !== (Number(digits[i - 1]) + 1) % 10) return false;
  }
  return true;
}

/** Generic words and bare categories customs officers hold parcels for. */
// prettier-ignore
export const VAGUE_CUSTOMS_WORDS: ReadonlySet<string> = new Set([
  "goods", "good", "gift", "gifts", "present", "presents", "merchandise", "item", "items", "stuff",
  "sample", "samples", "product", "products", "clothing", "clothes", "apparel", "garments",
  "accessories", "accessory", "parts", "part", "spare", "things", "thing", "electronics",
  "toys", "toy", "cosmetics", "household", "tools", "supplies", "equipment", "materials",
  "material", "jewelry", "jewellery", "food", "personal", "effects", "souvenirs", "souvenir",
  "order", "package", "parcel", "contents", "content", "misc", "miscellaneous", "various",
  "assorted", "other", "general", "mixed", "commercial", "retail", "shopify",
]);
/** Filler words that make no description specific on their own. */
const FILLER_WORDS = new Set(["a", "an", "the", "and", "or", "of", "for", "with", "some", "my", "new", "used", "x"]);

export function isVagueDescription(description: string): boolean {
  const words = description
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== "" && !FILLER_WORDS.has(w));
  return words.every((w) => VAGUE_CUSTOMS_WORDS.has(w));
}
