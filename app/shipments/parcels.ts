import type { BoxWeightUnit, DefaultBox } from "~/settings/settings";
import type { Parcel } from "~/shipping/schemas";

// Weights from Shopify (GRAMS, KILOGRAMS, OUNCES, POUNDS) into the default box's unit, and
// the shipment split into as few boxes as the box's weight limit allows.

export type ShopifyWeightUnitName = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";

const GRAMS_PER_SHOPIFY_UNIT: Record<ShopifyWeightUnitName, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};
const GRAMS_PER_BOX_UNIT: Record<BoxWeightUnit, number> = { g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237 };

export function toGrams(weight: { value: number; unit: ShopifyWeightUnitName }): number {
  return weight.value * GRAMS_PER_SHOPIFY_UNIT[weight.unit];
}

export function gramsToUnit(grams: number, unit: BoxWeightUnit): number {
  return grams / GRAMS_PER_BOX_UNIT[unit];
}

/** A weight in one of the service's units (oz, lb, g, kg) in grams; null for any other unit. */
export function unitToGrams(value: number, unit: string): number | null {
  const factor = (GRAMS_PER_BOX_UNIT as Record<string, number | undefined>)[unit];
  return factor === undefined ? null : value * factor;
}

/** One physical unit to pack (a line item of quantity 3 is three units). */
export type PackUnit = { label: string; grams: number };

export type PackedBoxes = {
  parcels: Parcel[];
  /** Units heavier than one box may hold: each goes alone in its own (overweight) box. */
  oversized: PackUnit[];
};

// Rounded up to 2 decimals: a carrier that weighs the box never finds it lighter than declared.
function roundUpWeight(value: number): number {
  return Math.ceil(value * 100 - 1e-9) / 100;
}

/**
 * Packs units into boxes of the default size, first-fit by decreasing weight, so no box exceeds
 * the limit (tare included). Every box gets the default dimensions.
 */
export function packIntoBoxes(units: readonly PackUnit[], box: DefaultBox): PackedBoxes {
  const tareGrams = box.tareWeight * GRAMS_PER_BOX_UNIT[box.weightUnit];
  const capacityGrams = box.maxWeight * GRAMS_PER_BOX_UNIT[box.weightUnit] - tareGrams;
  const sorted = [...units].sort((a, b) => b.grams - a.grams);
  const loads: number[] = [];
  const oversized: PackUnit[] = [];
  for (const unit of sorted) {
    if (unit.grams > capacityGrams) {
      oversized.push(unit);
      loads.push(unit.grams);
      continue;
    }
    const index = loads.findIndex((load) => load + unit.grams <= capacityGrams + 1e-9);
    if (index === -1) loads.push(unit.grams);
    else loads[index] = (loads[index] ?? 0) + unit.grams;
  }
  if (loads.length === 0) loads.push(0);
  const parcels = loads.map((grams) => ({
    weight: roundUpWeight(gramsToUnit(grams + tareGrams, box.weightUnit)),
    length: box.length,
    width: box.width,
    height: box.height,
    weight_unit: box.weightUnit,
    dimension_unit: box.dimensionUnit,
  }));
  return { parcels, oversized };
}
