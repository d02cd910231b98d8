import type { ActionFunctionArgs, LoaderFunctionArgs, ShouldRevalidateFunction } from "react-router";
import { z } from "zod";

import {
  approveReturnForOrderPage,
  buyReturnLabelForOrderPage,
  loadOrderReturns,
  quoteReturnForOrderPage,
} from "~/routes/app.orders.$orderId.returns/order-returns.server";
import { RateSchema } from "~/shipping/schemas";
import { reportError } from "~/utils/error-report.server";
import { JsonOf } from "~/utils/json-field.server";

import { answerLabelError, PAGE_REFUSALS, requireOrderGid } from "../../http/order-route.server";
import { requireShopContext } from "../../http/shop-context.server";
import { checkSpendingPermission, respondToSpendingRefusal } from "../../http/spending-permission.server";
import { parseLocationGid, parseReturnGid } from "../../shopify/ids";

// /app/orders/:orderId/returns — the order page's Returns section (ADR 23): the order's Shopify
// returns as JSON for the section, and its actions: approve a request, get rates for a return
// label, buy it (Shopify then holds it on the return and can email it to the customer).

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop, db, admin } = await requireShopContext(request);
  const orderGid = requireOrderGid(params);
  const view = await loadOrderReturns({ db, shop, admin }, orderGid);
  if (!view.ok) {
    if (view.error.code === "NOT_FOUND") throw new Response(view.error.message, { status: 404 });
    const { message } = reportError(view.error, { level: "warn" });
    return { view: null, problem: message };
  }
  return { view: view.value, problem: null };
};

// The section changes with its own actions only (approve, a return label). The label page's
// actions (a draft, a purchase, a void) and its refund polling leave it as it was: reading the
// order's returns again after each would spend the shop's Shopify allowance for nothing.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.endsWith("/returns") ? defaultShouldRevalidate : false;

const ReturnIdSchema = z.string().transform((value, ctx) => {
  const gid = parseReturnGid(value);
  if (!gid) ctx.addIssue({ code: "custom", message: "Not a Shopify return" });
  return gid ?? z.NEVER;
});
// The parcel's weight, when the merchant weighed it (the prefill had none, or it was wrong).
const WeightSchema = z
  .union([z.literal(""), z.coerce.number().positive().max(1000)])
  .optional()
  .transform((value) => (value === "" || value === undefined ? {} : { weight: value }));

// Where the parcel goes back to; empty: the location that shipped the items.
const LocationSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    const gid = parseLocationGid(value);
    if (!gid) ctx.addIssue({ code: "custom", message: "Not a location of the shop" });
    return gid ?? z.NEVER;
  });

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), returnId: ReturnIdSchema }),
  z.object({
    intent: z.literal("get-rates"),
    returnId: ReturnIdSchema,
    weight: WeightSchema,
    returnLocationId: LocationSchema,
  }),
  z.object({
    intent: z.literal("buy"),
    returnId: ReturnIdSchema,
    weight: WeightSchema,
    rate: JsonOf(RateSchema),
    returnLocationId: LocationSchema,
    notifyCustomer: z.enum(["true", "false"]).transform((value) => value === "true"),
  }),
]);

// "Approve it first" and "nothing left to send back" are the merchant's to act on, not our failure.
const RETURN_REFUSALS = [...PAGE_REFUSALS, "INVALID_STATE"] as const;

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const context = await requireShopContext(request);
  const orderGid = requireOrderGid(params);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.map(String).join("."));
    return Response.json(
      {
        error: {
          code: "INVALID_REQUEST",
          message: fields.includes("weight")
            ? "Enter the parcel's weight as a number above 0."
            : fields.includes("returnLocationId")
              ? "Choose one of the shop's locations to send the return to."
              : "The page sent an incomplete request. Reload and try again.",
          fields,
        },
      },
      { status: 400 },
    );
  }
  const input = parsed.data;
  const { db, shop, admin, staffMemberId, redirect } = context;

  if (input.intent === "approve") {
    const result = await approveReturnForOrderPage({ db, shop, admin }, { orderGid, returnGid: input.returnId });
    return result.ok
      ? { intent: input.intent, ...result.value }
      : answerLabelError(result.error, redirect, RETURN_REFUSALS);
  }
  // Buying spends the shop's money: only for a staff member Shopify lets fulfil orders (ADR 13).
  if (input.intent === "buy") {
    const allowed = await checkSpendingPermission(request, context);
    if (!allowed.ok) return respondToSpendingRefusal(allowed.refusal);
  }
  const shipping = await context.requireShipping();
  const deps = { db, shop, admin, shipping, staffMemberId };
  if (input.intent === "get-rates") {
    const result = await quoteReturnForOrderPage(deps, {
      orderGid,
      returnGid: input.returnId,
      edits: input.weight,
      returnLocationId: input.returnLocationId,
    });
    return result.ok
      ? { intent: input.intent, rates: result.value.rates }
      : answerLabelError(result.error, redirect, RETURN_REFUSALS);
  }
  const result = await buyReturnLabelForOrderPage(deps, {
    orderGid,
    returnGid: input.returnId,
    rate: input.rate,
    edits: input.weight,
    notifyCustomer: input.notifyCustomer,
    returnLocationId: input.returnLocationId,
  });
  return result.ok
    ? { intent: input.intent, ...result.value }
    : answerLabelError(result.error, redirect, RETURN_REFUSALS);
};
