import type { ActionFunctionArgs } from "react-router";

import db from "../db.server";
import { logger } from "../logger.server";
import { receiveShippingEvent } from "../webhooks/shipping-events.server";

// Events from the shipping service (contract.md, "Events"): label.purchased and
// label.tracking_updated, signed with the shop's endpoint secret. Acknowledged once stored.
export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  // The signature covers the exact bytes: read them before anything parses the body.
  const rawBody = await request.text();
  const outcome = await receiveShippingEvent(db, {
    endpointKey: params.endpoint ?? "",
    signature: request.headers.get("Shipping-Signature"),
    rawBody,
  });
  if (outcome.status === 200 && outcome.result === "ignored") logger.warn(`shipping event ignored: ${outcome.detail}`);
  return new Response(null, { status: outcome.status });
};
