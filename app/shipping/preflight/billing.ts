// Billing another party: the carrier account it needs, who pays, and that party's account,
// country and postal code.

import type { LabelRequestInput } from "../preflight";
import { PAYERS } from "../vocabulary";
import { isBlank, isOneOf, type ProblemList } from "./problem-list";

export function checkBilling(problems: ProblemList, request: LabelRequestInput): void {
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
