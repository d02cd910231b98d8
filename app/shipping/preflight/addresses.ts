// Sender and recipient addresses: required fields, country and state, the international phone
// rule, delivery instructions the label cuts, and destinations the service refuses.

import { checkInternationalPhone } from "../phone";
import type { KnownPreflightProblem } from "../preflight";
import { type AddressInput, countryOf, cutText, isBlank, type ProblemList } from "./problem-list";

export const LINE_LIMIT = 35;
// The one list of countries whose addresses need a state or province (the shipping client uses it too).
export const STATE_REQUIRED_COUNTRIES: readonly string[] = ["US", "CA", "AU"];
// Comprehensively embargoed destinations; the service's block list may hold more.
export const BLOCKED_COUNTRIES: readonly string[] = ["CU", "IR", "KP", "SY"];

// 12345, 12345-6789 or 123456789.
const US_ZIP = /^\d{5}(?:-?\d{4})?$/;

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

export function checkAddress(
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
  // A US ZIP code is 5 digits, or 9 with ZIP+4: anything else the carrier cannot route.
  if (country === "US" && !isBlank(address.zip) && !US_ZIP.test(String(address.zip).trim())) {
    problems.block(
      `${key}.zip`,
      "ZIP_INVALID",
      `The ${who}'s ZIP code "${String(address.zip).trim()}" is not a US ZIP code: enter 5 digits, or 9 with ZIP+4 (for example 94043 or 94043-1351).`,
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

export function checkBlockedDestination(problems: ProblemList, to: string): void {
  if (BLOCKED_COUNTRIES.includes(to)) {
    problems.block(
      "to_address.country",
      "ADDRESS_BLOCKED",
      `Shipments to ${to} are not allowed by the shipping service.`,
    );
  }
}
