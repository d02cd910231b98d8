import { z } from "zod";

import { refuseRequest } from "~/http/extension-request.server";
import { numericOrderGid, type OrderGid } from "~/shopify/ids";

import { parseOrderIds } from "./print.server";
import { MAX_EXTENSION_ORDERS } from "./shared.server";

// Reading what an admin extension sends: JSON bodies through a schema, order ids from the path.

/** The order a path names by its numeric id (the extension has `gid://shopify/Order/<id>`). */
export function requireExtensionOrderGid(orderId: string | undefined): OrderGid | null {
  return orderId ? numericOrderGid(orderId) : null;
}

/** The JSON body through `schema`; a body that does not fit is 400 naming its first field. */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return { ok: false, response: refuseRequest("body", "The request body must be JSON.") };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.join(".") || "body";
  return { ok: false, response: refuseRequest(path, issue?.message ?? "The request could not be read.") };
}

/** `{ orderIds }`: Order GIDs (or numeric ids) as Shopify's selection gives them. */
export const OrderIdsBodySchema = z.object({
  orderIds: z
    .array(z.string().max(100))
    .min(1, "Select at least one order.")
    .max(
      MAX_EXTENSION_ORDERS,
      `Select at most ${MAX_EXTENSION_ORDERS} orders here; the app's Orders screen takes more.`,
    )
    .transform((ids, ctx) => {
      const gids = parseOrderIds(ids);
      if (!gids) ctx.addIssue({ code: "custom", message: "Every id must be a Shopify order id." });
      return gids ?? [];
    }),
});

/** The `orderIds` (or `orders`) query parameter: comma-separated order GIDs or numeric ids. */
export function readOrderIdsParam(url: URL, name: string) {
  const raw = url.searchParams.get(name) ?? "";
  if (raw.trim() === "") return { ok: false as const, response: refuseRequest(name, "Select at least one order.") };
  // Shopify's selection never leaves a gap: ",7" or "7,,8" is a malformed request, not one order.
  const values = raw.split(",").map((v) => v.trim());
  if (values.length > MAX_EXTENSION_ORDERS) {
    return { ok: false as const, response: refuseRequest(name, `Select at most ${MAX_EXTENSION_ORDERS} orders.`) };
  }
  const gids = parseOrderIds(values);
  if (!gids) return { ok: false as const, response: refuseRequest(name, "Every id must be a Shopify order id.") };
  return { ok: true as const, value: gids };
}
