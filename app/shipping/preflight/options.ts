// Label options (contract.md, "Label options"): known fields only, insurance within its bounds,
// and what the chosen service cannot carry (no signature on DHL Express Worldwide, lithium
// batteries by ground only). Each problem names its field before anything is sent.

import type { KnownPreflightProblem, LabelRequestInput } from "../preflight";
import {
  describeService,
  GROUND_SERVICE_CODES,
  isServiceOfferedOnRoute,
  NO_SIGNATURE_SERVICE_CODES,
  type ServiceInfo,
  SERVICES,
} from "../services";
import { HAZMAT_OPTIONS, INSURANCE_MAX_CENTS, parseAmountCents, SIGNATURE_OPTIONS } from "../vocabulary";
import { countryOf, isBlank, isOneOf, type ProblemList } from "./problem-list";
import type { ResolvedService } from "./service";

const KNOWN_OPTIONS = ["insurance", "signature", "hazmat", "ship_date"];
const KNOWN_INSURANCE_FIELDS = ["amount", "currency"];
const DECIMAL_AMOUNT = /^\d+(\.\d{1,2})?$/;

type OptionsInput = NonNullable<LabelRequestInput["options"]>;

export function checkLabelOptions(problems: ProblemList, request: LabelRequestInput, resolved: ResolvedService): void {
  const options = request.options;
  if (options == null) return;
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      problems.block(
        `options.${key}`,
        "OPTION_UNKNOWN",
        `"${key}" is not a shipping option the service knows (insurance, signature, hazmat).`,
        "Remove it.",
      );
    }
  }
  checkInsurance(problems, options);
  if (!isBlank(options.signature) && !isOneOf(options.signature, SIGNATURE_OPTIONS)) {
    problems.block("options.signature", "SIGNATURE_INVALID", "Signature must be standard or adult.");
  }
  if (!isBlank(options.hazmat) && !isOneOf(options.hazmat, HAZMAT_OPTIONS)) {
    problems.block(
      "options.hazmat",
      "HAZMAT_INVALID",
      "Hazardous contents must be lithium_batteries or none: the service takes no other.",
    );
  }
  for (const problem of checkOptionsForService(options, resolved.info)) problems.push(problem);
  checkLithiumRoute(problems, request);
}

/**
 * Lithium batteries go by ground only, and every ground service is domestic: abroad no service
 * can carry them, so the shipment is stopped at its field rather than quoted into an empty list.
 */
function checkLithiumRoute(problems: ProblemList, request: LabelRequestInput): void {
  if (request.options?.hazmat !== "lithium_batteries") return;
  // The chosen service's own verdict already says it (an air service): one message, not two.
  if (problems.items.some((p) => p.code === "LITHIUM_GROUND_ONLY")) return;
  if (isBlank(request.from_address?.country) || isBlank(request.to_address?.country)) return;
  const from = countryOf(request.from_address);
  const to = countryOf(request.to_address);
  const ground = GROUND_SERVICE_CODES.map((code) => SERVICES.find((s) => s.serviceCode === code));
  if (ground.some((info) => info && isServiceOfferedOnRoute(info, from, to))) return;
  problems.block(
    "options.hazmat",
    "LITHIUM_GROUND_ONLY",
    `Lithium batteries travel by ground only, and no ground service (${GROUND_NAMES}) ships from ${from} to ${to}. Ship the batteries separately, or remove the lithium batteries option if none are in this parcel.`,
  );
}

function checkInsurance(problems: ProblemList, options: OptionsInput): void {
  const insurance = options.insurance;
  if (insurance == null) return;
  for (const key of Object.keys(insurance)) {
    if (!KNOWN_INSURANCE_FIELDS.includes(key)) {
      problems.block(
        `options.insurance.${key}`,
        "OPTION_UNKNOWN",
        `Insurance has no "${key}": only amount and currency.`,
      );
    }
  }
  const amount = insurance.amount;
  const cents = typeof amount === "string" && DECIMAL_AMOUNT.test(amount.trim()) ? parseAmountCents(amount) : null;
  if (isBlank(amount)) {
    problems.block("options.insurance.amount", "INSURANCE_AMOUNT_INVALID", "Enter the amount to insure, in USD.");
  } else if (cents === null) {
    problems.block(
      "options.insurance.amount",
      "INSURANCE_AMOUNT_INVALID",
      "Write the insured amount as a number of dollars, such as 250.00.",
    );
  } else if (cents <= 0) {
    problems.block("options.insurance.amount", "INSURANCE_AMOUNT_INVALID", "The insured amount must be more than 0.");
  } else if (cents > INSURANCE_MAX_CENTS) {
    problems.block(
      "options.insurance.amount",
      "INSURANCE_AMOUNT_INVALID",
      "Shipments can be insured for at most 5,000.00 USD.",
      "Insure 5,000.00 or less.",
    );
  }
  if (insurance.currency !== "USD") {
    problems.block("options.insurance.currency", "INSURANCE_CURRENCY_INVALID", "Insurance is bought in USD only.");
  }
}

const GROUND_NAMES = GROUND_SERVICE_CODES.map((code) => SERVICES.find((s) => s.serviceCode === code))
  .filter((s): s is ServiceInfo => s !== undefined)
  .map(describeService)
  .join(", ");

/**
 * The options a service cannot carry, each named by its field: none when the service is not known
 * yet. The order page can run it per rate; preflight runs it on the service resolved.
 */
export function checkOptionsForService(
  options: { signature?: string | null; hazmat?: string | null } | null | undefined,
  service: ServiceInfo | null,
): KnownPreflightProblem[] {
  if (options == null || service === null) return [];
  const problems: KnownPreflightProblem[] = [];
  const name = describeService(service);
  if (!isBlank(options.signature) && NO_SIGNATURE_SERVICE_CODES.includes(service.serviceCode)) {
    problems.push({
      path: "options.signature",
      code: "SIGNATURE_NOT_OFFERED",
      severity: "blocking",
      message: `${name} does not offer signature confirmation. Choose another service, or remove the signature.`,
      suggestion: "Choose another service",
    });
  }
  if (options.hazmat === "lithium_batteries" && !GROUND_SERVICE_CODES.includes(service.serviceCode)) {
    problems.push({
      path: "options.hazmat",
      code: "LITHIUM_GROUND_ONLY",
      severity: "blocking",
      message: `Lithium batteries travel by ground only (${GROUND_NAMES}); ${name} flies. Choose a ground service.`,
      suggestion: "Choose a ground service",
    });
  }
  return problems;
}
