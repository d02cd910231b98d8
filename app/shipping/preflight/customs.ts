// The customs declaration: required abroad, its description, value, contents type, quantity and
// origin, the destination's tax id, and the export declaration above the threshold.

import { isVagueCustomsDescription, type ProductForCustoms, suggestCustomsDescription } from "../customs-description";
import { describeMalformedHsCode } from "../hs-code";
import type { LabelRequestInput } from "../preflight";
import { checkTaxIdForDestination, taxIdRuleFor } from "../tax-ids";
import { CONTENTS_TYPES } from "../vocabulary";
import { isBlank, isOneOf, type ProblemList } from "./problem-list";
import type { ResolvedService } from "./service";

export const EXPORT_DECLARATION_THRESHOLD_USD = 2500;

export function checkCustoms(
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

  const hsCodeProblem = isBlank(customs.hs_code) ? null : describeMalformedHsCode(String(customs.hs_code));
  if (hsCodeProblem) problems.block("customs.hs_code", "HS_CODE_INVALID", hsCodeProblem);

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
          `The recipient tax id is not valid for ${taxIdRule.countryName}: enter ${check.expected}.`,
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
