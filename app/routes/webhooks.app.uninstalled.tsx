import type { ActionFunctionArgs } from "@remix-run/node";

import db from "../db.server";
import { authenticate } from "../shopify.server";
import { deleteShopSessions } from "../webhooks/app-lifecycle.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // Throws 401 for a bad HMAC and 400 for missing headers, before anything is touched.
  const { shop } = await authenticate.webhook(request);
  await deleteShopSessions(db, shop);
  return new Response();
};
