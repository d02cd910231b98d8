import { z } from "zod";

import { err, ok, type Result } from "../utils/result";
import type { AdminGraphqlClient } from "./admin-client.server";

export const SHOP_OVERVIEW_QUERY = `#graphql
  query ShopOverview {
    shop {
      name
      myshopifyDomain
      currencyCode
    }
  }
`;

const ShopOverviewResponseSchema = z.object({
  data: z
    .object({
      shop: z.object({ name: z.string(), myshopifyDomain: z.string(), currencyCode: z.string() }).nullable(),
    })
    .nullable()
    .optional(),
  errors: z.array(z.object({ message: z.string() }).passthrough()).optional(),
});

export type ShopOverview = { name: string; domain: string; currencyCode: string };
export type ShopOverviewError = { code: "SHOPIFY_UNAVAILABLE"; logMessage: string; merchantMessage: string };

/** The shop's name and currency for the home page: proof that the Admin API answers for this shop. */
export async function getShopOverview(graphql: AdminGraphqlClient): Promise<Result<ShopOverview, ShopOverviewError>> {
  const unavailable = (logMessage: string) =>
    err<ShopOverviewError>({
      code: "SHOPIFY_UNAVAILABLE",
      logMessage,
      merchantMessage: "Shopify did not return your store details. Reload the page in a moment.",
    });
  const response = await graphql(SHOP_OVERVIEW_QUERY);
  const parsed = ShopOverviewResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return unavailable(`ShopOverview: unexpected response: ${parsed.error.message}`);
  const shop = parsed.data.data?.shop;
  if (!shop) {
    const messages = parsed.data.errors?.map((e) => e.message).join("; ") ?? "no data";
    return unavailable(`ShopOverview: ${messages}`);
  }
  return ok({ name: shop.name, domain: shop.myshopifyDomain, currencyCode: shop.currencyCode });
}
