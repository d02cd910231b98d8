import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { clearAutoDraftOutcomesForOrder, listBlockedFulfillmentOrders } from "~/auto-draft/auto-draft-outcomes.server";
import { postgresqlPoolOf } from "~/db/client.server";
import { enqueueAutoDraft, enqueueRecheckLabels } from "~/jobs/order-change-jobs.server";
import { hasActiveLabels, listActiveLabelsForFulfillmentOrders } from "~/labels/label-repository.server";
import { type FulfillmentOrderGid, parseFulfillmentOrderGid, parseOrderGid, toOrderGid } from "~/shopify/ids";
import { err, ok, type Result } from "~/utils/result";

import { AUTO_DRAFTS_OFF, recordReadyDelivery } from "./ready-deliveries.server";
import { type DeliveryOutcome, processDeliveryOnce, type WebhookDelivery } from "./webhook-delivery.server";

// The order and fulfillment-order topics. A route acknowledges at once: the delivery is recorded
// and its job enqueued in one transaction (a redelivery does nothing; a crash rolls both back and
// Shopify's retry enqueues it), and the worker does the Shopify and shipping calls later. Deliveries
// that concern nothing the app holds are recorded and dropped here, so the queue only carries work.

/** A fulfillment order became ready to ship: it may get an automatic draft. */
export const FULFILLMENT_ORDER_READY_TOPICS = [
  "FULFILLMENT_ORDERS_ORDER_ROUTING_COMPLETE",
  "FULFILLMENT_ORDERS_HOLD_RELEASED",
  "FULFILLMENT_ORDERS_SCHEDULED_FULFILLMENT_ORDER_READY",
] as const;
/** Fulfillment orders were closed, held or reshaped: their labels are re-checked, new ones may be drafted. */
export const FULFILLMENT_ORDER_CHANGE_TOPICS = [
  "FULFILLMENT_ORDERS_PLACED_ON_HOLD",
  "FULFILLMENT_ORDERS_CANCELLED",
  "FULFILLMENT_ORDERS_MOVED",
  "FULFILLMENT_ORDERS_MERGED",
  "FULFILLMENT_ORDERS_SPLIT",
] as const;
export const ORDER_TOPICS = ["ORDERS_CANCELLED", "ORDERS_UPDATED"] as const;

export type OrderWebhookError =
  { code: "UNKNOWN_TOPIC"; logMessage: string } | { code: "INVALID_PAYLOAD"; logMessage: string };
export type OrderWebhookAction = { action: "enqueued"; jobs: string[] } | { action: "ignored"; reason: string };

const ReadyPayloadSchema = z.object({ fulfillment_order: z.object({ id: z.string() }).loose() }).loose();
// What orders/cancelled and orders/updated carry for us: its keys are the subscription's
// include_fields in shopify.app.toml (test/shopify-config.test.ts keeps the two the same), so a
// field read here must be listed there. `updated_at` is not read: it makes each change's body
// differ, so Shopify does not drop one as a duplicate of the last (debouncing of trimmed payloads).
export const OrderPayloadSchema = z
  .object({
    admin_graphql_api_id: z.string().optional(),
    id: z.union([z.number(), z.string()]).optional(),
    updated_at: z.string().optional(),
  })
  .loose();

const readyFulfillmentOrderOf = (payload: unknown) => {
  const parsed = ReadyPayloadSchema.safeParse(payload);
  return parsed.success ? parseFulfillmentOrderGid(parsed.data.fulfillment_order.id) : undefined;
};

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

const invalid = (delivery: WebhookDelivery, why: string): Result<never, OrderWebhookError> =>
  err({ code: "INVALID_PAYLOAD", logMessage: `${delivery.topic} payload for ${delivery.shop}: ${why}` });

/** Every fulfillment order GID anywhere in a payload (moved, merged and split name several, in varying keys). */
export function collectFulfillmentOrderGids(payload: unknown): FulfillmentOrderGid[] {
  const found = new Set<FulfillmentOrderGid>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 8) return;
    if (typeof value === "string") {
      const gid = parseFulfillmentOrderGid(value);
      if (gid) found.add(gid);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (value && typeof value === "object") {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(payload, 0);
  return [...found];
}

// Deliveries arriving together share a transaction (processDeliveryOnce): the shop's switch is
// read once for all of them. No webhook's effect turns it (shop/redact deletes it, but comes
// 48 hours after the uninstall, when no order delivery for the shop can share its transaction).
const autoDraftByTransaction = new WeakMap<Prisma.TransactionClient, Map<string, Promise<boolean>>>();

function isAutoDraftOn(tx: Prisma.TransactionClient, shop: string): Promise<boolean> {
  let byShop = autoDraftByTransaction.get(tx);
  if (!byShop) {
    byShop = new Map();
    autoDraftByTransaction.set(tx, byShop);
  }
  let answer = byShop.get(shop);
  if (!answer) {
    answer = tx.shopSettings
      .findUnique({ where: { shop }, select: { autoDraft: true } })
      .then((row) => row?.autoDraft ?? false);
    byShop.set(shop, answer);
  }
  return answer;
}

/** The ready topics that `recordReadyDelivery` takes on PostgreSQL: all but a released hold, which reads labels. */
const LANE_TOPICS = FULFILLMENT_ORDER_READY_TOPICS.filter((topic) => topic !== "FULFILLMENT_ORDERS_HOLD_RELEASED");

export async function handleFulfillmentOrderWebhook(
  db: PrismaClient,
  delivery: WebhookDelivery,
  payload: unknown,
): Promise<DeliveryOutcome<Result<OrderWebhookAction, OrderWebhookError>>> {
  const pool = isOneOf(LANE_TOPICS, delivery.topic) ? postgresqlPoolOf(db) : null;
  const readyGid = pool ? readyFulfillmentOrderOf(payload) : undefined;
  if (pool && readyGid) return recordReadyDelivery(pool, { delivery, fulfillmentOrderGid: readyGid });
  return processDeliveryOnce(db, delivery, async (tx): Promise<Result<OrderWebhookAction, OrderWebhookError>> => {
    const { shop, topic } = delivery;
    if (isOneOf(FULFILLMENT_ORDER_READY_TOPICS, topic)) {
      const gid = readyFulfillmentOrderOf(payload);
      if (!gid) return invalid(delivery, "no fulfillment_order.id GID");
      const jobs: string[] = [];
      // A released hold: its draft marked "On hold" is re-checked, and buyable again.
      if (topic === "FULFILLMENT_ORDERS_HOLD_RELEASED") {
        const labelled = await listActiveLabelsForFulfillmentOrders(tx, shop, [gid]);
        if (labelled.length > 0) {
          jobs.push((await enqueueRecheckLabels(tx, shop, { fulfillmentOrderGids: [gid], trigger: topic })).jobId);
        }
      }
      if (await isAutoDraftOn(tx, shop)) jobs.push((await enqueueAutoDraft(tx, shop, gid, topic)).jobId);
      if (jobs.length === 0) return ok(AUTO_DRAFTS_OFF);
      return ok({ action: "enqueued", jobs });
    }
    if (isOneOf(FULFILLMENT_ORDER_CHANGE_TOPICS, topic)) {
      const gids = collectFulfillmentOrderGids(payload);
      if (gids.length === 0) return invalid(delivery, "no fulfillment order GID");
      // Nothing of ours on them, and nothing to draft: no work.
      const labelled = await listActiveLabelsForFulfillmentOrders(tx, shop, gids);
      // A hold concerns only the labels already there: nothing to draft for a held shipment.
      if (
        labelled.length === 0 &&
        (topic === "FULFILLMENT_ORDERS_PLACED_ON_HOLD" || !(await isAutoDraftOn(tx, shop)))
      ) {
        return ok({ action: "ignored", reason: "no labels on these fulfillment orders" });
      }
      const job = await enqueueRecheckLabels(tx, shop, { fulfillmentOrderGids: gids, trigger: topic });
      return ok({ action: "enqueued", jobs: [job.jobId] });
    }
    return err({ code: "UNKNOWN_TOPIC", logMessage: `${topic} is not a fulfillment order topic` });
  });
}

export async function handleOrderWebhook(
  db: PrismaClient,
  delivery: WebhookDelivery,
  payload: unknown,
): Promise<DeliveryOutcome<Result<OrderWebhookAction, OrderWebhookError>>> {
  return processDeliveryOnce(db, delivery, async (tx): Promise<Result<OrderWebhookAction, OrderWebhookError>> => {
    const { shop, topic } = delivery;
    if (!isOneOf(ORDER_TOPICS, topic)) {
      return err({ code: "UNKNOWN_TOPIC", logMessage: `${topic} is not an order topic` });
    }
    const parsed = OrderPayloadSchema.safeParse(payload);
    const raw = parsed.success ? parsed.data : {};
    const orderGid =
      (raw.admin_graphql_api_id ? parseOrderGid(raw.admin_graphql_api_id) : undefined) ??
      (raw.id !== undefined && /^\d+$/.test(String(raw.id)) ? toOrderGid(String(raw.id)) : undefined);
    if (!orderGid) return invalid(delivery, "no order id");

    const jobs: string[] = [];
    if (topic === "ORDERS_CANCELLED") await clearAutoDraftOutcomesForOrder(tx, shop, orderGid);
    // orders/updated comes for every change (tags, notes, our own fulfillments): only an order
    // with labels can have one go stale, and the job compares the address itself.
    if (await hasActiveLabels(tx, shop, orderGid)) {
      jobs.push((await enqueueRecheckLabels(tx, shop, { orderGids: [orderGid], trigger: topic })).jobId);
    }
    // The merchant may have just fixed what kept auto-draft from drafting (the address, a weight).
    if (topic === "ORDERS_UPDATED" && (await isAutoDraftOn(tx, shop))) {
      for (const fo of await listBlockedFulfillmentOrders(tx, shop, orderGid)) {
        const gid = parseFulfillmentOrderGid(fo);
        if (gid) jobs.push((await enqueueAutoDraft(tx, shop, gid, topic)).jobId);
      }
    }
    return ok(jobs.length > 0 ? { action: "enqueued", jobs } : { action: "ignored", reason: "nothing to re-check" });
  });
}
