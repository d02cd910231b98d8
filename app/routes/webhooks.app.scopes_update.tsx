import type { ActionFunctionArgs } from "@remix-run/node";

import db from "../db.server";
import { authenticate } from "../shopify.server";
import { recordGrantedScopes } from "../webhooks/app-lifecycle.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const result = await recordGrantedScopes(db, shop, payload);
  // A malformed payload will not get better on redelivery: acknowledge it and log why.
  if (!result.ok) console.warn(result.error.logMessage);
  return new Response();
};
