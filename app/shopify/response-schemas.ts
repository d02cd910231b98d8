import { z } from "zod";

// Pieces of the zod boundary that every Shopify adapter parses responses with.

/** A GID of one Shopify type, branded for the rest of the app. */
export const GidSchema = <T extends string>(type: string) =>
  z
    .string()
    .refine((v) => v.startsWith(`gid://shopify/${type}/`), { message: `expected a ${type} GID` })
    .transform((v) => v as T);

/** A nullable string field: missing and null both become null. */
export const ns = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const WeightUnitSchema = z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]);

/** The street lines every Shopify address type shares (see ShopifyStreetAddress). */
export const streetAddressFields = {
  address1: ns,
  address2: ns,
  city: ns,
  province: ns,
  zip: ns,
  phone: ns,
};
