import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";

import { requireShopContext } from "~/http/shop-context.server";
import { enqueueBulkCheck } from "~/jobs/bulk-run-jobs.server";
import { BulkChoiceSchema, MAX_BULK_RUN_ORDERS, startBulkRun } from "~/labels/bulk-runs.server";
import { JsonOf } from "~/labels/label-form";

// POST /app/bulk — "Create labels" on the Orders screen: starts a run over the selected orders
// and opens it. The run checks them in the background (the worker), so this answers at once.

const StartSchema = z.object({
  orders: JsonOf(
    z
      .array(z.object({ orderGid: z.string().max(100), orderName: z.string().max(100) }))
      .min(1, "Select at least one order.")
      .max(MAX_BULK_RUN_ORDERS, `Select at most ${MAX_BULK_RUN_ORDERS} orders for one run.`),
  ),
  choice: JsonOf(BulkChoiceSchema).default('{"mode":"rules"}'),
});

export const action = async ({ request }: ActionFunctionArgs) => {
  const { db, shop, staffMemberId } = await requireShopContext(request);
  const parsed = StartSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message =
      issue?.path[0] === "orders" && issue.message !== "not JSON" ? issue.message : "The selection could not be read.";
    return Response.json({ error: { message, fields: [{ path: "orders", message }] } }, { status: 400 });
  }
  const started = await startBulkRun(
    db,
    shop,
    { orders: parsed.data.orders, choice: parsed.data.choice, createdBy: staffMemberId },
    (tx, itemId) => enqueueBulkCheck(tx, shop, itemId),
  );
  if (!started.ok) {
    return Response.json(
      { error: { message: started.error.message, fields: [{ path: "orders", message: started.error.message }] } },
      { status: 400 },
    );
  }
  return redirect(`/app/bulk/${started.value.runId}`);
};
