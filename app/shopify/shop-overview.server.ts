import { z } from "zod";

import { err, ok, type Result } from "../utils/result";
import { type AdminGraphqlClient, runAdminGraphql, type ShopifyError } from "./admin-client";

export const SHOP_OVERVIEW_QUERY = `#graphql
  query ShopOverview {
    shop {
      name
      myshopifyDomain
      currencyCode
    }
  }
`;

const ShopOverviewDataSchema = z.object({
  shop: z.object({ name: z.string(), myshopifyDomain: z.string(), currencyCode: z.string() }),
});

export type ShopOverview = { name: string; domain: string; currencyCode: string };

/** The shop's name and currency for the home page: proof that the Admin API answers for this shop. */
export async function getShopOverview(admin: AdminGraphqlClient): Promise<Result<ShopOverview, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "ShopOverview",
    document: SHOP_OVERVIEW_QUERY,
    schema: ShopOverviewDataSchema,
  });
  if (!result.ok) return err(result.error);
  const { shop } = result.value.data;
  return ok({ name: shop.name, domain: shop.myshopifyDomain, currencyCode: shop.currencyCode });
}
