import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";

import { preflightOrdersForExtension } from "~/extension-api/bulk.server";
import type { ExtensionBulkPreflightResponse } from "~/extension-api/contract";
import { OrderIdsBodySchema, readJsonBody } from "~/extension-api/input.server";
import { answerLabelError, handleExtensionRequest, methodNotAllowed } from "~/http/extension-request.server";
import { createShippingClientForShop } from "~/settings/settings.server";

// POST /api/extensions/bulk/preflight — "Create labels" on Shopify's order list: how many of the
// selected orders' shipments are ready and which need fixing, before a run starts. No call to
// the shipping service: nothing is drafted or spent.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async () => methodNotAllowed("POST"));

export const action = ({ request }: ActionFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, admin }) => {
    const body = await readJsonBody(request, OrderIdsBodySchema);
    if (!body.ok) return body.response;
    // Nothing could be bought without a key: say so now rather than after a run blocks every order.
    const shipping = await createShippingClientForShop(db, shop);
    if (!shipping.ok) return answerLabelError(shipping.error);
    const summary = await preflightOrdersForExtension({ db, shop, admin }, body.value.orderIds);
    if (!summary.ok) return answerLabelError(summary.error);
    return Response.json(summary.value satisfies ExtensionBulkPreflightResponse);
  });
