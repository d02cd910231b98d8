import { z } from "zod";

import { delay } from "~/utils/delay";
import { err, ok, type Result } from "~/utils/result";

import {
  type AdminGraphqlClient,
  createShopifyError,
  runAdminGraphql,
  type ShopifyError,
  type ShopifyProblem,
  toUserError,
  UserErrorSchema,
} from "./admin-client";
import { BULK_OPERATION_STATUS_QUERY, ordersForLabelBulkQuery, RUN_BULK_QUERY_MUTATION } from "./bulk-orders.graphql";
import { getNumericId, type OrderGid } from "./ids";
import { toFulfillmentOrder, toFulfillmentOrderLineItem, toLineItem, toOrderForLabel } from "./order-mapping";
import { OrderForLabelDataSchema, OrderFulfillmentOrdersDataSchema } from "./order-schemas";
import type { ShopifyOrderForLabelResult } from "./orders";

// Reading many orders with one bulk operation (ADR 20): free of query cost, where reading them
// one by one costs about 50 points an order. Start it, poll its status, download its JSONL and map
// each order through the same zod boundary and mapping as the order's own queries.

const RunBulkQueryDataSchema = z.object({
  bulkOperationRunQuery: z
    .object({
      bulkOperation: z.object({ id: z.string(), status: z.string() }).nullish(),
      userErrors: z.array(UserErrorSchema),
    })
    .nullable(),
});

const BulkOperationStatusDataSchema = z.object({
  bulkOperation: z
    .object({ id: z.string(), status: z.string(), errorCode: z.string().nullish(), url: z.string().nullish() })
    .nullable(),
});

export type BulkOperationStatus = { status: string; errorCode: string | null; url: string | null };

/** Starts the bulk read of the orders; answers the operation's id. */
export async function startOrdersBulkRead(
  admin: AdminGraphqlClient,
  orderGids: readonly OrderGid[],
): Promise<Result<string, ShopifyError>> {
  const search = orderGids.map((gid) => `id:${getNumericId(gid) ?? "0"}`).join(" OR ");
  const result = await runAdminGraphql(admin, {
    operation: "RunBulkQuery",
    document: RUN_BULK_QUERY_MUTATION,
    variables: { query: ordersForLabelBulkQuery(search) },
    schema: RunBulkQueryDataSchema,
  });
  if (!result.ok) return result;
  const payload = result.value.data.bulkOperationRunQuery;
  if (payload?.userErrors.length) return err(toUserError("RunBulkQuery", payload.userErrors));
  if (!payload?.bulkOperation) return err(createShopifyError("INVALID_RESPONSE", "RunBulkQuery: no bulk operation"));
  return ok(payload.bulkOperation.id);
}

export async function getBulkOperationStatus(
  admin: AdminGraphqlClient,
  id: string,
): Promise<Result<BulkOperationStatus, ShopifyError>> {
  const result = await runAdminGraphql(admin, {
    operation: "BulkOperationStatus",
    document: BULK_OPERATION_STATUS_QUERY,
    variables: { id },
    schema: BulkOperationStatusDataSchema,
  });
  if (!result.ok) return result;
  const operation = result.value.data.bulkOperation;
  if (!operation) return err(createShopifyError("NOT_FOUND", `BulkOperationStatus: no bulk operation ${id}`));
  return ok({ status: operation.status, errorCode: operation.errorCode ?? null, url: operation.url ?? null });
}

type Line = Record<string, unknown> & { id?: unknown; __parentId?: unknown };
const kindOf = (line: Line) => {
  const id = typeof line.id === "string" ? line.id : "";
  if (line.__parentId === undefined) return "order";
  if (id.startsWith("gid://shopify/LineItem/")) return "lineItem";
  if (id.startsWith("gid://shopify/FulfillmentOrder/")) return "fulfillmentOrder";
  if (id.startsWith("gid://shopify/FulfillmentOrderLineItem/")) return "fulfillmentOrderLineItem";
  return "localizedField";
};

/**
 * The orders in a bulk read's JSONL, each as getOrderForLabel gives it. Lines may come in any
 * order (children name their parent); an order whose data does not parse is left out, so its
 * check reads it on its own.
 */
export function readOrdersBulkResult(jsonl: string): Map<OrderGid, ShopifyOrderForLabelResult> {
  const orders = new Map<string, Line>();
  const children = new Map<string, Line[]>();
  for (const text of jsonl.split("\n")) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as Line;
    if (kindOf(line) === "order" && typeof line.id === "string") orders.set(line.id, line);
    else if (typeof line.__parentId === "string") {
      const list = children.get(line.__parentId) ?? [];
      list.push(line);
      children.set(line.__parentId, list);
    }
  }
  const page = { hasNextPage: false, endCursor: null };
  const strip = ({ __parentId: _parent, ...rest }: Line) => rest;
  const result = new Map<OrderGid, ShopifyOrderForLabelResult>();
  for (const [id, line] of orders) {
    const own = children.get(id) ?? [];
    const of = (kind: string) => own.filter((l) => kindOf(l) === kind).map(strip);
    const header = OrderForLabelDataSchema.safeParse({
      order: {
        ...line,
        localizedFields: { pageInfo: { hasNextPage: false }, nodes: of("localizedField") },
        lineItems: { pageInfo: page, nodes: of("lineItem") },
      },
    });
    const fulfillmentOrders = OrderFulfillmentOrdersDataSchema.safeParse({
      order: {
        id,
        fulfillmentOrders: {
          pageInfo: page,
          nodes: of("fulfillmentOrder").map((fo) => ({
            ...fo,
            lineItems: { pageInfo: page, nodes: (children.get(String(fo.id)) ?? []).map(strip) },
          })),
        },
      },
    });
    const order = header.success ? header.data.order : null;
    const fos = fulfillmentOrders.success ? fulfillmentOrders.data.order?.fulfillmentOrders.nodes : null;
    if (!order || !fos) continue;
    const problems: ShopifyProblem[] = [];
    const lineItems = order.lineItems.nodes.map((li) => toLineItem(li, problems));
    const mapped = fos.map((fo) =>
      toFulfillmentOrder(
        fo,
        fo.lineItems.nodes.map((l) => toFulfillmentOrderLineItem(l, problems)),
        true,
        problems,
      ),
    );
    result.set(order.id, { order: toOrderForLabel(order, lineItems, mapped, problems), problems });
  }
  return result;
}

export type BulkReadOptions = {
  /** Downloads the result file (a storage URL on Shopify: no token). */
  fetch: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Between status reads. */
  pollMs?: number;
  /** The longest the read may take before the caller reads the orders one by one instead. */
  timeoutMs?: number;
};

/** Waits for a bulk read of orders (`startOrdersBulkRead`, by this process or another) and reads its result. */
export async function followOrdersBulkRead(
  admin: AdminGraphqlClient,
  operationId: string,
  options: BulkReadOptions,
): Promise<Result<Map<OrderGid, ShopifyOrderForLabelResult>, ShopifyError>> {
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;
  const deadline = now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const status = await getBulkOperationStatus(admin, operationId);
    if (!status.ok) return status;
    if (status.value.status === "COMPLETED") {
      if (!status.value.url) return ok(new Map());
      const response = await options.fetch(status.value.url).catch(() => null);
      if (!response?.ok) {
        return err(
          createShopifyError("NETWORK_ERROR", `bulk read: result file answered ${response?.status ?? "nothing"}`),
        );
      }
      return ok(readOrdersBulkResult(await response.text()));
    }
    if (status.value.status !== "CREATED" && status.value.status !== "RUNNING") {
      return err(
        createShopifyError(
          "GRAPHQL_ERROR",
          `bulk read: operation ${operationId} ${status.value.status} (${status.value.errorCode ?? "no code"})`,
        ),
      );
    }
    if (now() >= deadline) {
      return err(createShopifyError("NETWORK_ERROR", `bulk read: operation ${operationId} still running`));
    }
    await sleep(options.pollMs ?? 1_000);
  }
}
