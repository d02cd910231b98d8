import { z } from "zod";

import type { ShopifyProblem } from "./admin-client";

// Pieces of the zod boundary that every Shopify adapter parses responses with.

/** A GID of one Shopify type, branded for the rest of the app. */
export const GidSchema = <T extends string>(type: string) =>
  z
    .string()
    .refine((v) => v.startsWith(`gid://shopify/${type}/`), { error: `expected a ${type} GID` })
    .transform((v) => v as T);

/** A nullable string field: missing and null both become null. */
export const ns = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const WEIGHT_UNITS = ["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"] as const;
export type ShopifyWeightUnit = (typeof WEIGHT_UNITS)[number];

/**
 * Reads a value of an enum Shopify may extend in a later version. Responses parse enums as plain
 * strings; a value this app does not know becomes null plus a problem on that field, so one new
 * value never fails the whole order.
 */
export function readEnum<T extends string>(
  values: readonly T[],
  raw: string,
  where: { operation: string; path: string; what: string },
  problems: ShopifyProblem[],
): T | null {
  if ((values as readonly string[]).includes(raw)) return raw as T;
  problems.push({
    code: "UNRECOGNIZED_VALUE",
    path: where.path,
    message: `Shopify sent a ${where.what} this app doesn't know ("${raw}"); check it in Shopify.`,
    logMessage: `${where.operation}: unknown enum value ${JSON.stringify(raw)} at ${where.path}`,
  });
  return null;
}

/** A weight as Shopify sends it; the unit is read with readEnum. */
export const RawWeightSchema = z.object({ unit: z.string(), value: z.number() });

export function readWeight(
  raw: z.infer<typeof RawWeightSchema> | null | undefined,
  where: { operation: string; path: string },
  problems: ShopifyProblem[],
): { value: number; unit: ShopifyWeightUnit } | null {
  if (!raw) return null;
  const unit = readEnum(WEIGHT_UNITS, raw.unit, { ...where, what: "weight unit" }, problems);
  return unit ? { value: raw.value, unit } : null;
}

/** The street lines every Shopify address type shares (see ShopifyStreetAddress). */
export const streetAddressFields = {
  address1: ns,
  address2: ns,
  city: ns,
  province: ns,
  zip: ns,
  phone: ns,
};
