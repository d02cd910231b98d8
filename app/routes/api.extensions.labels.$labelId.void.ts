import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";

import type { ExtensionVoidResponse } from "~/extension-api/contract";
import { toExtensionLabel } from "~/extension-api/shared.server";
import {
  answerLabelError,
  answerSpendingRefusal,
  extensionError,
  handleExtensionRequest,
  methodNotAllowed,
  refuseRequest,
} from "~/http/extension-request.server";
import { checkSpendingPermission } from "~/http/spending-permission.server";
import { requestLabelVoid } from "~/labels/void-label.server";
import { createShippingClientForShop } from "~/settings/settings.server";

// POST /api/extensions/labels/:labelId/void — "Void label" in the order page's extension: asks the
// carrier to void a bought label through the one void use case (ADR 22). GET answers only the
// browser's preflight.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async () => methodNotAllowed("POST"));

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop, admin, staffMemberId }) => {
    if (request.method !== "POST") return extensionError(405, "INVALID_REQUEST", "Use POST to void a label.");
    const labelId = params.labelId ?? "";
    if (!/^[a-z0-9]{8,40}$/.test(labelId)) return refuseRequest("labelId", "The label id is not one of the app's.");
    // Voiding moves money and cancels a fulfillment: the staff who may buy only (ADR 13), asked first.
    const allowed = await checkSpendingPermission(request, { shop, staffMemberId });
    if (!allowed.ok) return answerSpendingRefusal(allowed.refusal);
    const shipping = await createShippingClientForShop(db, shop);
    if (!shipping.ok) return answerLabelError(shipping.error);
    const result = await requestLabelVoid({ db, shop, admin, shipping: shipping.value, staffMemberId }, labelId);
    if (!result.ok) {
      // The app's own checks refused it: nothing was sent, and the message says why.
      if (result.error.code === "INVALID_STATE") return extensionError(409, "NOT_VOIDABLE", result.error.message);
      return answerLabelError(result.error);
    }
    return Response.json({ label: toExtensionLabel(result.value) } satisfies ExtensionVoidResponse);
  });
