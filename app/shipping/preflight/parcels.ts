// Boxes: one parcel or several, each box's weight, dimensions and units, and whether the chosen
// service can ship several boxes as one shipment.

import type { LabelRequestInput } from "../preflight";
import { MULTI_PIECE_SERVICE_CODE } from "../services";
import { DIMENSION_UNITS, WEIGHT_UNITS } from "../vocabulary";
import { isOneOf, type ParcelInput, type ProblemList } from "./problem-list";
import type { ResolvedService } from "./service";

export const MAX_PARCELS = 20;

export function checkParcels(problems: ProblemList, request: LabelRequestInput): void {
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

export function checkMultiPiece(problems: ProblemList, request: LabelRequestInput, resolved: ResolvedService): void {
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
