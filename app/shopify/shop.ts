import { z } from "zod";

import { ok, type Result } from "~/utils/result";

import { type AdminGraphqlClient, runAdminGraphql, type ShopifyError, type ShopifyProblem } from "./admin-client";
import type { LocationGid } from "./ids";
import type { ShopifyStreetAddress, ShopifyWeightUnit } from "./orders";
import { GidSchema, ns, readEnum, streetAddressFields, WEIGHT_UNITS } from "./response-schemas";
import { SHOP_AND_LOCATIONS_FOR_LABELS_QUERY } from "./shop.graphql";

export interface ShopifyShop {
  readonly id: string;
  readonly name: string;
  // The owner's private login e-mail: never printed on labels.
  readonly email: string;
  // The store's public sender e-mail (Settings → Store details): the label's sender e-mail.
  readonly contactEmail: string;
  readonly myshopifyDomain: string;
  readonly currencyCode: string;
  // null: a unit this app doesn't know (reported as a problem).
  readonly weightUnit: ShopifyWeightUnit | null;
  readonly unitSystem: string;
  readonly ianaTimezone: string;
  // The store's address (Shop.shopAddress); the fallback ship-from and phone for labels.
  readonly address: ShopifyStreetAddress & {
    readonly company: string | null;
    readonly provinceCode: string | null;
    readonly country: string | null;
  };
}

export interface ShopifyLocation {
  readonly id: LocationGid;
  readonly legacyId: string;
  readonly name: string;
  readonly isActive: boolean;
  readonly fulfillsOnlineOrders: boolean;
  readonly shipsInventory: boolean;
  readonly address: ShopifyStreetAddress & {
    readonly provinceCode: string | null;
    readonly country: string | null;
  };
}

export interface ShopifyShopAndLocations {
  readonly shop: ShopifyShop;
  readonly locations: readonly ShopifyLocation[];
  readonly problems: readonly ShopifyProblem[];
}

const DataSchema = z.object({
  shop: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    contactEmail: z.string(),
    myshopifyDomain: z.string(),
    currencyCode: z.string(),
    weightUnit: z.string(),
    unitSystem: z.string(),
    ianaTimezone: z.string(),
    shopAddress: z.object({
      ...streetAddressFields,
      company: ns,
      provinceCode: ns,
      country: ns,
      countryCodeV2: ns,
    }),
  }),
  locations: z.object({
    pageInfo: z.object({ hasNextPage: z.boolean() }),
    nodes: z.array(
      z.object({
        id: GidSchema<LocationGid>("Location"),
        legacyResourceId: z.union([z.string(), z.number()]).transform(String),
        name: z.string(),
        isActive: z.boolean(),
        fulfillsOnlineOrders: z.boolean(),
        shipsInventory: z.boolean(),
        address: z.object({
          ...streetAddressFields,
          provinceCode: ns,
          country: ns,
          countryCode: ns,
        }),
      }),
    ),
  }),
});

// Active locations only (Shopify's default); 50 covers all but the largest merchants, and more
// is reported as a problem instead of silently dropped.
export const LOCATIONS_PAGE_SIZE = 50;

export async function getShopAndLocations(
  admin: AdminGraphqlClient,
): Promise<Result<ShopifyShopAndLocations, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "ShopAndLocationsForLabels",
    document: SHOP_AND_LOCATIONS_FOR_LABELS_QUERY,
    variables: { locationsFirst: LOCATIONS_PAGE_SIZE },
    schema: DataSchema,
  });
  if (!result.ok) return result;
  const { shop, locations } = result.value.data;
  const problems: ShopifyProblem[] = [...result.value.problems];
  if (locations.pageInfo.hasNextPage) {
    problems.push({
      code: "TRUNCATED",
      message: `Only the first ${LOCATIONS_PAGE_SIZE} locations are shown.`,
      logMessage: `ShopAndLocationsForLabels: more than ${LOCATIONS_PAGE_SIZE} locations`,
    });
  }
  const weightUnit = readEnum(
    WEIGHT_UNITS,
    shop.weightUnit,
    { operation: "ShopAndLocationsForLabels", path: "shop.weightUnit", what: "weight unit" },
    problems,
  );
  const { shopAddress, ...shopRest } = shop;
  const { countryCodeV2, ...address } = shopAddress;
  return ok({
    shop: { ...shopRest, weightUnit, address: { ...address, countryCode: countryCodeV2 } },
    locations: locations.nodes.map(({ legacyResourceId, ...location }) => ({
      ...location,
      legacyId: legacyResourceId,
    })),
    problems,
  });
}
