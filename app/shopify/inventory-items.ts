import { z } from "zod";

import { describeMalformedHsCode } from "~/shipping/hs-code";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type ShopifyError,
  toUserError,
  UserErrorSchema,
} from "./admin-client";
import { toShopifyHsCode } from "./hs-code";
import type { InventoryItemGid } from "./ids";
import { UPDATE_INVENTORY_ITEM_CUSTOMS_MUTATION } from "./inventory-items.graphql";
import { GidSchema, ns } from "./response-schemas";

export interface InventoryItemCustoms {
  readonly id: InventoryItemGid;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
}

/** What to change; a field left out stays as Shopify has it. */
export interface InventoryItemCustomsUpdate {
  readonly inventoryItemId: InventoryItemGid;
  readonly hsCode?: string;
  readonly countryOfOrigin?: string;
}

const PayloadSchema = z.object({
  inventoryItem: z
    .object({
      id: GidSchema<InventoryItemGid>("InventoryItem"),
      harmonizedSystemCode: ns,
      countryCodeOfOrigin: ns,
    })
    .nullish(),
  userErrors: z.array(UserErrorSchema),
});
const DataSchema = z.object({ inventoryItemUpdate: PayloadSchema.nullable() });

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/**
 * Shopify types the origin as its CountryCode enum: an unknown code is refused as a GraphQL
 * error before the mutation runs, which reads as a system failure. It is caught here instead, in
 * the merchant's words. ZZ is the enum's "unknown region", not a country.
 */
function checkCountryCode(code: string): ShopifyError | null {
  if (/^[A-Z]{2}$/.test(code) && code !== "ZZ" && regionNames.of(code)) return null;
  return createShopifyError("USER_ERROR", `UpdateInventoryItemCustoms: ${JSON.stringify(code)} is not a country code`, {
    message: `"${code}" is not a country code Shopify knows; use the two-letter ISO code (for example PT for Portugal).`,
    fields: ["countryOfOrigin"],
  });
}

/** Writes the HS code and/or country of origin to an inventory item; userErrors come back typed. */
export async function updateInventoryItemCustoms(
  admin: AdminGraphqlClient,
  update: InventoryItemCustomsUpdate,
): Promise<Result<InventoryItemCustoms, ShopifyError>> {
  const input: { harmonizedSystemCode?: string; countryCodeOfOrigin?: string } = {};
  if (update.hsCode !== undefined) {
    const malformed = describeMalformedHsCode(update.hsCode);
    if (malformed) {
      return err(
        createShopifyError("USER_ERROR", `UpdateInventoryItemCustoms: ${malformed}`, {
          message: malformed,
          fields: ["harmonizedSystemCode"],
        }),
      );
    }
    input.harmonizedSystemCode = toShopifyHsCode(update.hsCode);
  }
  if (update.countryOfOrigin !== undefined) {
    const country = update.countryOfOrigin.trim().toUpperCase();
    const invalid = checkCountryCode(country);
    if (invalid) return err(invalid);
    input.countryCodeOfOrigin = country;
  }
  if (Object.keys(input).length === 0) {
    return err(createShopifyError("USER_ERROR", "UpdateInventoryItemCustoms: nothing to update"));
  }
  const result = await runAdminGraphql(admin, {
    operation: "UpdateInventoryItemCustoms",
    document: UPDATE_INVENTORY_ITEM_CUSTOMS_MUTATION,
    variables: { id: update.inventoryItemId, input },
    schema: DataSchema,
  });
  if (!result.ok) return result;
  const payload = result.value.data.inventoryItemUpdate;
  if (!payload) return err(createShopifyError("GRAPHQL_ERROR", "UpdateInventoryItemCustoms: payload is null"));
  if (payload.userErrors.length > 0) return err(toUserError("UpdateInventoryItemCustoms", payload.userErrors));
  if (!payload.inventoryItem) {
    return err(
      createShopifyError("INVALID_RESPONSE", "UpdateInventoryItemCustoms: no inventory item and no userErrors"),
    );
  }
  const item = payload.inventoryItem;
  return ok({ id: item.id, hsCode: item.harmonizedSystemCode, countryOfOrigin: item.countryCodeOfOrigin });
}
