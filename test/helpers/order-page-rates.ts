import { expect } from "vitest";

import { action, loader } from "~/routes/app.orders.$orderId/route";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { formatMinorUnits } from "~/utils/money";

import type { ShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { callRoute, createAdminFormRequest } from "./admin-form-requests";
import { routeArgs } from "./route-args";
import { createAdminRequest } from "./shopify-requests";

export type FormAnswer = { status: number; body: Record<string, unknown> };

type Action = (args: never) => Promise<unknown>;

/** A form post to an order page's action (the order page's own unless `handler` says another). */
export async function postOrderForm(
  path: string,
  fields: Record<string, string>,
  handler: Action = action as Action,
): Promise<FormAnswer> {
  const orderId = path.split("/")[3] ?? "";
  const result = await callRoute(handler, createAdminFormRequest(path, fields), { orderId });
  if (result instanceof Response) return { status: result.status, body: (await result.json()) as FormAnswer["body"] };
  return { status: 200, body: result as FormAnswer["body"] };
}

export const messageOf = (answer: FormAnswer) =>
  String((answer.body.error as { message?: string } | undefined)?.message);
export const priceOf = (rate: Rate) => formatMinorUnits(parseAmountCents(rate.amount), rate.currency);

/**
 * #1001's page and rates for its first shipment as the page asks them (with `options`, if any),
 * dearest first; `fields` is what the page posts with a chosen rate.
 */
export async function quoteOrderPage(shopify: ShopifyAdminEmulator, options?: LabelRequestInput["options"]) {
  const orderId = shopify.findOrderByName("#1001")?.id.split("/").pop() ?? "";
  const path = `/app/orders/${orderId}`;
  const loaded = await loader(routeArgs(createAdminRequest(path), { orderId }));
  await Promise.allSettled(Object.values(loaded.quotes));
  const section = loaded.page?.fulfillmentOrders[0];
  if (!section) throw new Error("no shipment on #1001");
  const request: LabelRequestInput = options ? { ...section.prefill.request, options } : section.prefill.request;
  const quoted = await postOrderForm(path, {
    intent: "get-rates",
    fulfillmentOrderId: section.id,
    request: JSON.stringify(request),
  });
  expect(quoted.status).toBe(200);
  const rates = [...(quoted.body.rates as Rate[])].sort((a, b) => Number(b.amount) - Number(a.amount));
  const fields = (posted: { rate: Rate; request?: LabelRequestInput }) => ({
    fulfillmentOrderId: section.id,
    request: JSON.stringify(posted.request ?? request),
    lineItems: JSON.stringify(section.prefill.lineItems),
    rate: JSON.stringify(posted.rate),
  });
  return { orderId, path, section, request, rates, fields };
}
