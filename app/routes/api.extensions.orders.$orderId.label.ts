import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { z } from "zod";

import type { ExtensionBuyResponse, ExtensionOrderState } from "~/extension-api/contract";
import { readJsonBody, requireExtensionOrderGid } from "~/extension-api/input.server";
import { buyForExtension, loadOrderForExtension } from "~/extension-api/orders.server";
import {
  answerLabelError,
  answerSpendingRefusal,
  extensionError,
  handleExtensionRequest,
  refuseRequest,
} from "~/http/extension-request.server";
import { checkSpendingPermission } from "~/http/spending-permission.server";
import { createShippingClientForShop } from "~/settings/settings.server";

// GET  /api/extensions/orders/:orderId/label — "Create label" on Shopify's order page: the
//      order's shipment prefilled, its problems, and its label when it has one.
// POST /api/extensions/orders/:orderId/label — buys that shipment's label with the chosen service
//      at exactly the amount the merchant confirmed (app/extension-api/contract.ts).

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, admin }) => {
    const orderGid = requireExtensionOrderGid(params.orderId);
    if (!orderGid) return refuseRequest("orderId", "The order id must be a Shopify order id.");
    const state = await loadOrderForExtension({ db, shop, admin }, orderGid);
    if (!state.ok) return answerLabelError(state.error);
    return Response.json(state.value satisfies ExtensionOrderState);
  });

const BuySchema = z.object({
  fulfillmentOrderId: z.string().min(1, "Choose the shipment to label.").max(100),
  serviceCode: z.string().min(1, "Choose a service.").max(100),
  expectedCents: z.number({ error: "Confirm the amount to pay." }).int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/, "The currency must be a 3-letter code."),
});

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, admin, staffMemberId }) => {
    if (request.method !== "POST") return extensionError(405, "INVALID_REQUEST", "Use POST to buy a label.");
    const orderGid = requireExtensionOrderGid(params.orderId);
    if (!orderGid) return refuseRequest("orderId", "The order id must be a Shopify order id.");
    const body = await readJsonBody(request, BuySchema);
    if (!body.ok) return body.response;
    // Only a staff member Shopify lets fulfil orders may spend (ADR 13); asked before any draft.
    const allowed = await checkSpendingPermission(request, { shop, staffMemberId });
    if (!allowed.ok) return answerSpendingRefusal(allowed.refusal);
    const shipping = await createShippingClientForShop(db, shop);
    if (!shipping.ok) return answerLabelError(shipping.error);
    const outcome = await buyForExtension(
      { db, shop, admin, shipping: shipping.value, staffMemberId },
      orderGid,
      body.value,
    );
    if (outcome.ok) return Response.json({ label: outcome.label } satisfies ExtensionBuyResponse);
    if ("error" in outcome) return answerLabelError(outcome.error);
    const { refusal } = outcome;
    if (refusal.kind === "price_changed") {
      return extensionError(409, "PRICE_CHANGED", refusal.message, { rate: refusal.rate });
    }
    if (refusal.kind === "already_labelled") {
      return extensionError(409, "ALREADY_LABELLED", refusal.message, { label: refusal.label });
    }
    return extensionError(422, "SHIPPING_REFUSED", refusal.message, {
      fields: [{ path: "serviceCode", message: refusal.message }],
    });
  });
