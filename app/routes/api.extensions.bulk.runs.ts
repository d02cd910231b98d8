import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";

import { startBulkRun } from "~/bulk/bulk-runs.server";
import { toBulkRunOrders } from "~/extension-api/bulk.server";
import type { ExtensionBulkStartResponse } from "~/extension-api/contract";
import { OrderIdsBodySchema, readJsonBody } from "~/extension-api/input.server";
import { appUrlFor } from "~/extension-api/shared.server";
import { extensionError, handleExtensionRequest, methodNotAllowed } from "~/http/extension-request.server";
import { enqueueBulkCheck } from "~/jobs/bulk-run-jobs.server";

// POST /api/extensions/bulk/runs — starts a bulk run over the selection with the shop's rules,
// as the Orders screen's "Create labels" does, and answers where its review opens in the app.
// Nothing is bought here: the merchant confirms the exact total on the review.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async () => methodNotAllowed("POST"));

export const action = ({ request }: ActionFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, staffMemberId }) => {
    const body = await readJsonBody(request, OrderIdsBodySchema);
    if (!body.ok) return body.response;
    const started = await startBulkRun(
      db,
      shop,
      { orders: toBulkRunOrders(body.value.orderIds), choice: { mode: "rules" }, createdBy: staffMemberId },
      (tx, itemId) => enqueueBulkCheck(tx, shop, itemId),
    );
    if (!started.ok) {
      return extensionError(400, "INVALID_REQUEST", started.error.message, {
        fields: [{ path: "orderIds", message: started.error.message }],
      });
    }
    const { runId } = started.value;
    return Response.json({ runId, reviewUrl: appUrlFor(`/app/bulk/${runId}`) } satisfies ExtensionBulkStartResponse);
  });
