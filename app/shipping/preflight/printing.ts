// What the carrier prints on the label: UPS's name lines, which custom fields each carrier
// prints and where it cuts them, and the label's format and size.

import type { LabelRequestInput } from "../preflight";
import { LABEL_FORMATS, LABEL_SIZES } from "../vocabulary";
import { LINE_LIMIT } from "./addresses";
import { cutText, isBlank, isOneOf, type ProblemList } from "./problem-list";

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

export function checkCarrierPrinting(problems: ProblemList, request: LabelRequestInput, carrier: string | null): void {
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

export function checkLabelFormat(problems: ProblemList, request: LabelRequestInput): void {
  if (request.label_format != null && !isOneOf(request.label_format, LABEL_FORMATS)) {
    problems.block("label_format", "LABEL_FORMAT_INVALID", `Label format must be one of ${LABEL_FORMATS.join(", ")}.`);
  }
  if (request.label_size != null && !isOneOf(request.label_size, LABEL_SIZES)) {
    problems.block("label_size", "LABEL_SIZE_INVALID", `Label size must be one of ${LABEL_SIZES.join(", ")}.`);
  }
}
