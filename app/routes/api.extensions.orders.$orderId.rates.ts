import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { z } from "zod";

import type { ExtensionRatesResponse } from "~/extension-api/contract";
import { readJsonBody, requireExtensionOrderGid } from "~/extension-api/input.server";
import { quoteForExtension } from "~/extension-api/orders.server";
import {
  answerLabelError,
  handleExtensionRequest,
  methodNotAllowed,
  refuseRequest,
} from "~/http/extension-request.server";
import { createShippingClientForShop } from "~/settings/settings.server";

// POST /api/extensions/orders/:orderId/rates — the rates for the order's shipment as prefilled
// from Shopify (free), cheapest first. GET answers only the browser's preflight.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async () => methodNotAllowed("POST"));

const RatesSchema = z.object({ fulfillmentOrderId: z.string().min(1, "Choose the shipment to quote.").max(100) });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, admin, staffMemberId }) => {
    const orderGid = requireExtensionOrderGid(params.orderId);
    if (!orderGid) return refuseRequest("orderId", "The order id must be a Shopify order id.");
    const body = await readJsonBody(request, RatesSchema);
    if (!body.ok) return body.response;
    const shipping = await createShippingClientForShop(db, shop);
    if (!shipping.ok) return answerLabelError(shipping.error);
    const rates = await quoteForExtension(
      { db, shop, admin, shipping: shipping.value, staffMemberId },
      orderGid,
      body.value.fulfillmentOrderId,
    );
    if (!rates.ok) return answerLabelError(rates.error);
    return Response.json({ rates: rates.value } satisfies ExtensionRatesResponse);
  });
