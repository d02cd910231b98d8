import type { LoaderFunctionArgs } from "react-router";

import { readOrderListVersion } from "~/routes/app.orders._index/order-list.server";

import { requireShopContext } from "../http/shop-context.server";

// GET /app/orders-version: the Orders list's change token (readOrderListVersion), asked every few
// seconds while the list is open. The app's database only: never Shopify, never the shipping service.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  return { version: await readOrderListVersion(db, shop) };
};
