import { z } from "zod";

import { type LabelVoidOutcomes, MAX_LABELS_PER_VOID, requestLabelVoids } from "~/labels/void-label.server";
import { JsonOf } from "~/utils/json-field.server";

import type { ShopContext } from "./shop-context.server";
import { checkSpendingPermission, respondToSpendingRefusal } from "./spending-permission.server";

// "Void labels" from the app's screens that list many labels (the Labels list, a bulk run's page):
// the same checks as the order page's "Void label", then each label through the one use case.

/** The form field that names the labels: a JSON array of label ids. */
export const LabelIdsFieldSchema = JsonOf(
  z
    // The app's label ids (cuids): anything else is not a label the page listed.
    .array(z.string().regex(/^[a-z0-9]{1,64}$/, "Select labels from the list."))
    .min(1, "Select at least one label.")
    .max(MAX_LABELS_PER_VOID, `Select at most ${MAX_LABELS_PER_VOID} labels at a time.`),
);

export type VoidLabelsAnswer = { intent: "void" } & LabelVoidOutcomes;

/**
 * Voids the labels for the staff member behind the request. Voiding cancels fulfillments in
 * Shopify and moves money like buying: only for staff Shopify lets fulfil orders (ADR 13), asked
 * before anything is sent. A shop without a shipping key is sent to Settings. With `within` (a
 * bulk run's labels), an id outside it is counted as not found without being looked at.
 */
export async function voidLabelsForStaff(
  request: Request,
  context: ShopContext,
  labelIds: readonly string[],
  within?: ReadonlySet<string>,
): Promise<Response | VoidLabelsAnswer> {
  const allowed = await checkSpendingPermission(request, context);
  if (!allowed.ok) return respondToSpendingRefusal(allowed.refusal);
  const shipping = await context.requireShipping();
  const { db, shop, admin, staffMemberId } = context;
  const unique = [...new Set(labelIds)];
  const inside = within ? unique.filter((id) => within.has(id)) : unique;
  const { results, notFound } = await requestLabelVoids({ db, shop, admin, shipping, staffMemberId }, inside);
  return { intent: "void", results, notFound: notFound + unique.length - inside.length };
}
