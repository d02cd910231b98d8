// Label options (`options` on POST /v1/labels and POST /v1/rates), as contract.md fixes them:
// insurance, signature and hazmat, what they cost, and which services cannot carry them. Pure
// functions; `options.ship_date` is read with the rest of the body (validation.ts).

import { parseMoneyToCents } from "./config";
import type { ServiceDefinition } from "./pricing";
import { type FieldProblem, isJsonObject, ProblemList } from "./validation";

export const SIGNATURES = ["standard", "adult"] as const;
export type Signature = (typeof SIGNATURES)[number];
export const HAZMAT_VALUES = ["lithium_batteries", "none"] as const;
export type Hazmat = (typeof HAZMAT_VALUES)[number];

export interface LabelOptions {
  insuranceCents: number | null;
  signature: Signature | null;
  hazmat: Hazmat;
}

export const NO_OPTIONS: LabelOptions = { insuranceCents: null, signature: null, hazmat: "none" };

const KNOWN_OPTION_FIELDS = new Set(["insurance", "signature", "hazmat", "ship_date"]);
const INSURANCE_FIELDS = new Set(["amount", "currency"]);
const MAX_INSURANCE_CENTS = 500_000;
const MIN_INSURANCE_PRICE_CENTS = 100;
const SIGNATURE_PRICE_CENTS: Record<Signature, number> = { standard: 295, adult: 695 };
/** The only services lithium batteries may travel by: every other one flies. */
const GROUND_SERVICE_CODES = new Set(["svc_usps_ground_advantage", "svc_ups_ground", "svc_fedex_ground"]);
const NO_SIGNATURE_SERVICE_CODES = new Set(["svc_dhl_express_worldwide"]);
const DECIMAL_AMOUNT = /^\d+(\.\d{1,2})?$/;

export type OptionsResult = { kind: "ok"; options: LabelOptions } | { kind: "invalid"; problems: FieldProblem[] };

/**
 * The inner fields of `options`. Problems here are VALIDATION_ERROR (the contract's code for
 * them), apart from `ship_date`, which keeps its VALIDATION_FAILED rule and is left to the caller.
 * A non-object `options` is a body-shape problem, also left to the caller.
 */
export function parseLabelOptions(value: unknown): OptionsResult {
  if (!isJsonObject(value)) return { kind: "ok", options: NO_OPTIONS };
  const problems = new ProblemList();
  for (const key of Object.keys(value)) {
    if (!KNOWN_OPTION_FIELDS.has(key)) problems.add(`options.${key}`, "is not a known option");
  }
  const insuranceCents = readInsurance(value.insurance, problems);
  const signature = readChoice(value.signature, "options.signature", SIGNATURES, problems);
  const hazmat = readChoice(value.hazmat, "options.hazmat", HAZMAT_VALUES, problems) ?? "none";
  if (!problems.isEmpty) return { kind: "invalid", problems: problems.items };
  return { kind: "ok", options: { insuranceCents, signature, hazmat } };
}

function readInsurance(value: unknown, problems: ProblemList): number | null {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) {
    problems.add("options.insurance", 'must be an object {"amount": "250.00", "currency": "USD"}');
    return null;
  }
  for (const key of Object.keys(value)) {
    if (!INSURANCE_FIELDS.has(key)) problems.add(`options.insurance.${key}`, "is not a known insurance field");
  }
  if (value.currency !== "USD") problems.add("options.insurance.currency", "must be USD");
  const amount = value.amount;
  if (amount === undefined || amount === null) {
    problems.add("options.insurance.amount", "is required");
    return null;
  }
  if (typeof amount !== "string" || !DECIMAL_AMOUNT.test(amount)) {
    problems.add("options.insurance.amount", 'must be a decimal string such as "250.00"');
    return null;
  }
  const cents = parseMoneyToCents(amount);
  if (cents <= 0 || cents > MAX_INSURANCE_CENTS) {
    problems.add("options.insurance.amount", "must be greater than 0 and at most 5000.00");
    return null;
  }
  return cents;
}

function readChoice<T extends string>(
  value: unknown,
  path: string,
  allowed: readonly T[],
  problems: ProblemList,
): T | null {
  if (value === undefined || value === null) return null;
  const found = allowed.find((a) => a === value);
  if (found === undefined) problems.add(path, `must be one of ${allowed.join(", ")}`);
  return found ?? null;
}

/** What the options add to a shipment's price: insurance 1 % (at least 1.00), signature flat. */
export function priceOptionsCents(options: LabelOptions): number {
  const insurance =
    options.insuranceCents === null ? 0 : Math.max(MIN_INSURANCE_PRICE_CENTS, Math.round(options.insuranceCents / 100));
  const signature = options.signature === null ? 0 : SIGNATURE_PRICE_CENTS[options.signature];
  return insurance + signature;
}

/** Why this service cannot carry these options, one problem per option; empty when it can. */
export function findUnsupportedOptions(service: ServiceDefinition, options: LabelOptions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (options.signature !== null && NO_SIGNATURE_SERVICE_CODES.has(service.serviceCode)) {
    problems.push({ field: "options.signature", message: `${service.service} does not offer signature confirmation` });
  }
  if (options.hazmat === "lithium_batteries" && !GROUND_SERVICE_CODES.has(service.serviceCode)) {
    problems.push({
      field: "options.hazmat",
      message: `lithium batteries go by ground only; ${service.service} is an air service`,
    });
  }
  return problems;
}

/** Two option sets that price and route alike compare equal (a rate is valid for its own only). */
export function toOptionsKey(options: LabelOptions): string {
  return `${options.insuranceCents ?? 0}|${options.signature ?? "none"}|${options.hazmat}`;
}
