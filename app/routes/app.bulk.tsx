import type { ActionFunctionArgs } from "react-router";
import { z } from "zod";

import { BulkChoiceSchema, startBulkRun } from "~/bulk/bulk-runs.server";
import { MAX_BULK_RUN_ORDERS } from "~/bulk/run-limits";
import { respondWithError } from "~/http/error-response.server";
import { requireShopContext } from "~/http/shop-context.server";
import { enqueueBulkCheck } from "~/jobs/bulk-run-jobs.server";
import { listAllMatchingOrders, ORDER_LIST_TABS } from "~/routes/app.orders._index/order-list.server";
import { JsonOf } from "~/utils/json-field.server";

// POST /app/bulk — "Create labels" on the Orders screen: starts a run over the selected orders
// and opens it. The run checks them in the background (the worker), so this answers at once.

const ChoiceField = JsonOf(BulkChoiceSchema).prefault('{"mode":"rules"}');
const StartSchema = z.discriminatedUnion("scope", [
  z.object({
    scope: z.literal("selected"),
    orders: JsonOf(
      z
        .array(z.object({ orderGid: z.string().max(100), orderName: z.string().max(100) }))
        .min(1, "Select at least one order.")
        .max(MAX_BULK_RUN_ORDERS, `Select up to ${MAX_BULK_RUN_ORDERS.toLocaleString("en-US")} orders at a time.`),
    ),
    choice: ChoiceField,
  }),
  // "Select all" on the Orders screen: every order the tab and search show, up to the run's limit.
  z.object({
    scope: z.literal("all"),
    tab: z.enum(ORDER_LIST_TABS).catch("all"),
    q: z.string().max(40).optional(),
    choice: ChoiceField,
  }),
]);

const refuseSelection = (message: string, path = "orders") =>
  Response.json({ error: { message, fields: [{ path, message }] } }, { status: 400 });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { db, shop, admin, staffMemberId, redirect } = await requireShopContext(request);
  const form = Object.fromEntries(await request.formData());
  const parsed = StartSchema.safeParse({ scope: "selected", ...form });
  if (!parsed.success) {
    // Too few or too many orders say so; anything else the form could not have sent.
    const issue = parsed.error.issues[0];
    // A service that cannot ship where it was chosen for is named at its field.
    if (issue?.path[0] === "choice" && issue.path.length > 1 && issue.code === "custom") {
      return refuseSelection(issue.message, issue.path.join("."));
    }
    const counted = issue?.code === "too_small" || issue?.code === "too_big";
    return refuseSelection(counted ? issue.message : "The selection could not be read.");
  }
  const input = parsed.data;
  let orders = input.scope === "selected" ? input.orders : [];
  if (input.scope === "all") {
    const matching = await listAllMatchingOrders(
      { db, shop, admin },
      { tab: input.tab, search: input.q ?? null },
      MAX_BULK_RUN_ORDERS,
    );
    if (!matching.ok) return respondWithError(matching.error);
    orders = matching.value;
  }
  const started = await startBulkRun(
    db,
    shop,
    { orders, choice: input.choice, createdBy: staffMemberId },
    (tx, itemId) => enqueueBulkCheck(tx, shop, itemId),
  );
  if (!started.ok) return refuseSelection(started.error.message);
  // Shopify's redirect keeps shop, host and embedded: a plain one would open the run outside the
  // admin's frame context (App Bridge loses the host and the next request has no session token).
  return redirect(`/app/bulk/${started.value.runId}`);
};
