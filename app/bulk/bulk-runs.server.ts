import type { BulkRun, BulkRunItem, Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { draftShipmentByRules } from "~/auto-draft/auto-draft.server";
import type { AutoDraftRule } from "~/auto-draft/auto-draft-rules";
import { getAutoDraftSettings } from "~/auto-draft/auto-draft-settings.server";
import { isTransientLabelError, type LabelError } from "~/labels/label-errors";
import type { LabelView } from "~/labels/label-repository.server";
import { sealPersonal } from "~/settings/personal-data-box.server";
import { checkShipment } from "~/shipments/check-shipment";
import { optionsOf } from "~/shipments/drafted-options.server";
import { loadOrder, loadShopContext, shipmentOf } from "~/shipments/load-shipment.server";
import type { ShippingClient } from "~/shipping/client.server";
import { describeService } from "~/shipping/services";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { hasItemsToShip, isOpenToShip, isShipped } from "~/shopify/fulfillment-order-choice";
import { type FulfillmentOrderGid, parseFulfillmentOrderGid, parseOrderGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import { isUniqueViolation } from "~/utils/prisma-errors";
import { err, ok, type Result } from "~/utils/result";
import { parseStoredJson } from "~/utils/stored-json";

import { type BulkChoice, BulkChoiceSchema, rulesForOverride } from "./bulk-choice";
import type { RunReads } from "./bulk-run-reads.server";
import { findMissingCustoms } from "./missing-customs";
import { MAX_BULK_RUN_ORDERS, RUN_TRANSACTION } from "./run-limits";

// Bulk labelling (issue 12). A run is rows, so its progress survives a reload, a restart or
// another browser, and a crash resumes from them:
//   checking ─(every item checked)─▶ review ─confirm(exact total)─▶ running ─▶ done
//                                                                      ├─▶ stopped (plan limit, balance)
//   checking | review | running ──cancel──▶ cancelled                  └─ retry failed ─▶ running
// Checking spends nothing: each order goes through the pipeline (app/shipments: load, check,
// quote, draft; drafts are free) by the run's rules; what blocks is listed, never bought. Buying
// goes item by item through the job queue with the pipeline's `buyLabel`, so every exactly-once
// rule of ADR 5 holds, the service's charges are one per bought item, and an item whose shipment
// Shopify holds or closed by then is not bought ("not_fulfillable"; Retry buys it once released).

export { type BulkChoice, BulkChoiceSchema } from "./bulk-choice";

// An order's shipments follow it in the list: its items take positions order × SLOTS + n.
const SLOTS_PER_ORDER = 100;

export const BULK_ITEM_STATUSES = [
  "checking",
  "blocked",
  "skipped",
  "ready",
  "queued",
  "buying",
  "bought",
  "failed",
  "not_started",
  // Its turn came while Shopify held, cancelled or closed its shipment: nothing bought; retried once released.
  "not_fulfillable",
] as const;
export type BulkItemStatus = (typeof BULK_ITEM_STATUSES)[number];
export type BulkRunStatus = "checking" | "review" | "running" | "done" | "stopped" | "cancelled";

export type BulkProblem = { path: string; message: string };
export const ProblemsSchema = z.array(z.object({ path: z.string(), message: z.string() }));

export type BulkRunError = {
  code: "INVALID_SELECTION" | "NOT_FOUND" | "INVALID_STATE" | "TOTAL_CHANGED";
  message: string;
};
export const runError = (code: BulkRunError["code"], message: string): BulkRunError => ({ code, message });

export const NOT_STARTED_CANCELLED = "Cancelled before it was bought.";
/** A queued item's message while its job waits to try again after a passing failure (an outage). */
export const RETRYING_PREFIX = "Waiting to retry: ";

/** What a passing failure waits on, in the merchant's words (not "try again": the run does). */
export function describeRetryCause(error: LabelError): string {
  const shipping = error.shipping?.code;
  if (shipping === "RATE_LIMITED") return "the shipping service is busy.";
  if (shipping === "SERVICE_UNAVAILABLE") return "the shipping service is unavailable.";
  if (shipping === "NETWORK_ERROR" || shipping === "TIMEOUT") return "the shipping service is not answering.";
  if (error.shopify || error.code === "SHOPIFY_ERROR") return "Shopify is not answering.";
  if (error.code === "PURCHASE_OUTCOME_UNKNOWN" || error.code === "PURCHASE_IN_PROGRESS") {
    return "the shipping service has not confirmed the purchase yet. It is asked again; nothing is charged twice.";
  }
  return error.message;
}

// ---------- Starting ----------

export type BulkSelection = { orderGid: string; orderName: string };

export async function startBulkRun(
  db: PrismaClient,
  shop: string,
  input: { orders: readonly BulkSelection[]; choice: BulkChoice; createdBy?: string | null },
  enqueueCheck: (tx: Prisma.TransactionClient, itemId: string) => Promise<unknown>,
): Promise<Result<{ runId: string }, BulkRunError>> {
  const seen = new Set<string>();
  const orders = input.orders.filter((o) => parseOrderGid(o.orderGid) && !seen.has(o.orderGid) && seen.add(o.orderGid));
  if (orders.length === 0) return err(runError("INVALID_SELECTION", "Select at least one order."));
  if (orders.length > MAX_BULK_RUN_ORDERS) {
    return err(
      runError("INVALID_SELECTION", `Select up to ${MAX_BULK_RUN_ORDERS.toLocaleString("en-US")} orders at a time.`),
    );
  }
  const runId = await db.$transaction(async (tx) => {
    const run = await tx.bulkRun.create({
      data: { shop, choice: JSON.stringify(input.choice), createdBy: input.createdBy ?? null },
    });
    await tx.bulkRunItem.createMany({
      data: orders.map((o, i) => ({
        runId: run.id,
        shop,
        position: i * SLOTS_PER_ORDER,
        orderGid: o.orderGid,
        orderName: o.orderName,
      })),
    });
    const items = await tx.bulkRunItem.findMany({ where: { runId: run.id }, select: { id: true } });
    for (const item of items) await enqueueCheck(tx, item.id);
    return run.id;
  }, RUN_TRANSACTION);
  return ok({ runId });
}

// ---------- Checking ----------

export type BulkCheckDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  shipping: Pick<ShippingClient, "getRates" | "createDraftLabel"> | null;
  /** What the run's checks read once for all its orders (bulk-run-reads.server.ts); null: each reads its own. */
  readRun?: (runId: string) => Promise<RunReads | null>;
};

async function rulesFor(db: PrismaClient, shop: string, choice: BulkChoice): Promise<AutoDraftRule[]> {
  return rulesForOverride(choice) ?? (await getAutoDraftSettings(db, shop)).rules;
}

export const parseChoice = (run: BulkRun): BulkChoice =>
  parseStoredJson(run.choice, BulkChoiceSchema, { mode: "rules" } as BulkChoice);

function readyFields(label: LabelView) {
  return {
    status: "ready",
    labelId: label.id,
    carrier: label.carrier,
    serviceName: describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode }),
    quotedCents: label.quotedCents,
    boxes: label.packageCount,
    options: JSON.stringify(optionsOf(label.request)),
    problems: "[]",
    message: null,
  } as const;
}

/** What a label already on the shipment means for the run: a draft is bought as it is; a bought one is left. */
function fieldsForExisting(label: LabelView | null, fallback: string) {
  if (label?.status === "draft") return readyFields(label);
  if (label && (label.status === "purchased" || label.status === "fulfilled" || label.status === "purchasing")) {
    return { status: "skipped", labelId: label.id, message: "Already has a bought label." } as const;
  }
  return { status: "skipped", message: fallback } as const;
}

/** The order's shipments a run labels: open, shipped by a carrier, with something left to ship. */
export function shipmentsToLabel(order: ShopifyOrderForLabel): ShopifyFulfillmentOrder[] {
  return order.fulfillmentOrders.filter((fo) => isOpenToShip(fo.status) && isShipped(fo) && hasItemsToShip(fo));
}

/** Why an order has no shipment a run labels, in the merchant's words. */
export function describeNothingToLabel(order: ShopifyOrderForLabel): string {
  const waiting = order.fulfillmentOrders.filter((fo) => isShipped(fo) && hasItemsToShip(fo));
  if (waiting.some((fo) => fo.status === "ON_HOLD")) {
    return "On hold in Shopify: release the hold, then label it.";
  }
  if (waiting.some((fo) => fo.status === "SCHEDULED")) {
    return "Scheduled in Shopify: it can be labelled once Shopify releases it.";
  }
  return "Nothing left to ship by carrier on this order.";
}

/**
 * Checks one selected order: lists its shipments and drafts each by the run's rules (the order
 * and the shop's locations read once for all of them), or records what blocks it. Safe to run
 * again (a retried job): items already checked are left alone. An error is for the job to retry
 * (Shopify or the service unavailable).
 */
export async function checkBulkRunItem(deps: BulkCheckDeps, itemId: string): Promise<Result<void, LabelError>> {
  const { db, shop, admin } = deps;
  const item = await db.bulkRunItem.findFirst({ where: { id: itemId, shop } });
  if (!item || item.status !== "checking") return ok(undefined);
  const run = await db.bulkRun.findFirst({ where: { id: item.runId, shop } });
  if (!run) return ok(undefined);
  if (run.status !== "checking") {
    await db.bulkRunItem.updateMany({
      where: { id: item.id, status: "checking" },
      data: { status: "not_started", message: NOT_STARTED_CANCELLED },
    });
    return ok(undefined);
  }
  const orderGid = parseOrderGid(item.orderGid);
  const reads = orderGid && deps.readRun ? await deps.readRun(run.id) : null;
  const context = reads?.shopAndLocations ? await loadShopContext({ db, shop, admin }, reads.shopAndLocations) : null;
  const loaded = orderGid
    ? await loadOrder(
        { db, shop, admin },
        orderGid,
        context?.ok ? context.value : undefined,
        reads?.orders.get(orderGid),
      )
    : null;
  if (!loaded || !loaded.ok) {
    if (loaded && loaded.error.code !== "NOT_FOUND") return err(loaded.error);
    await settleItem(db, item.id, { status: "skipped", message: "This order is no longer in Shopify." });
    return finishChecking(db, run.id);
  }
  const order = loaded.value.order;
  const shipments = shipmentsToLabel(order);
  if (shipments.length === 0) {
    await settleItem(db, item.id, {
      status: "skipped",
      orderName: order.name,
      message: describeNothingToLabel(order),
    });
    return finishChecking(db, run.id);
  }
  const rules = await rulesFor(db, shop, parseChoice(run));
  // Every shipment's item exists, still checking, before the first is settled: another order's
  // check finishing meanwhile must not count none left and move the run to review without them.
  const targets = [];
  for (const [index, fo] of shipments.entries()) {
    const gid = parseFulfillmentOrderGid(fo.id);
    const shipment = shipmentOf(loaded.value, fo.id);
    if (!gid || !shipment) continue;
    targets.push({ shipment, target: await itemForShipment(db, item, gid, index, order.name) });
  }
  for (const { shipment, target } of targets) {
    if (target.status !== "checking") continue;
    // Whatever the outcome, the review lists the products to fix once (international shipments).
    const missingCustoms = JSON.stringify(findMissingCustoms(checkShipment(shipment).prefilled));
    const drafted = await draftShipmentByRules({ db, shop, admin, shipping: deps.shipping }, shipment, {
      rules,
      recordOutcome: false,
    });
    if (!drafted.ok) {
      if (isTransientLabelError(drafted.error)) return err(drafted.error);
      await settleItem(db, target.id, {
        status: "blocked",
        // What blocked it may quote the recipient (the ZIP code as typed): sealed at rest (ADR 28).
        problems: sealPersonal(JSON.stringify([{ path: "label", message: drafted.error.message }])),
        missingCustoms,
      });
      continue;
    }
    const outcome = drafted.value;
    if (outcome.status === "drafted") {
      await settleItem(db, target.id, { ...readyFields(outcome.label), missingCustoms });
    } else if (outcome.status === "blocked") {
      await settleItem(db, target.id, {
        status: "blocked",
        problems: sealPersonal(JSON.stringify(outcome.problems)),
        missingCustoms,
      });
    } else {
      await settleItem(db, target.id, {
        ...fieldsForExisting(outcome.label ?? null, capitalize(outcome.reason)),
        missingCustoms,
      });
    }
  }
  return finishChecking(db, run.id);
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith(".") ? "" : ".");

/**
 * The item that holds a shipment: the order's own for its first, a new one after it for the
 * others. The order's name is Shopify's (a run started from an admin extension knows only ids).
 */
async function itemForShipment(
  db: PrismaClient,
  orderItem: BulkRunItem,
  fulfillmentOrderGid: FulfillmentOrderGid,
  index: number,
  orderName: string,
): Promise<BulkRunItem> {
  const existing = await db.bulkRunItem.findFirst({ where: { runId: orderItem.runId, fulfillmentOrderGid } });
  if (existing) return existing;
  if (index === 0) {
    return db.bulkRunItem.update({ where: { id: orderItem.id }, data: { fulfillmentOrderGid, orderName } });
  }
  try {
    return await db.bulkRunItem.create({
      data: {
        runId: orderItem.runId,
        shop: orderItem.shop,
        position: orderItem.position + index,
        orderGid: orderItem.orderGid,
        orderName,
        fulfillmentOrderGid,
      },
    });
  } catch (error) {
    // A job that took this one over after its lease made it first: the unique key decides.
    if (!isUniqueViolation(error)) throw error;
    return db.bulkRunItem.findFirstOrThrow({ where: { runId: orderItem.runId, fulfillmentOrderGid } });
  }
}

/**
 * The check job's last attempt failed too (Shopify or the service down for all of them): the
 * order's shipments still being checked are blocked with the reason, so the run reaches review
 * instead of staying "checking" for ever. Nothing was bought; a new run checks them again.
 */
export async function giveUpBulkCheck(db: PrismaClient, shop: string, itemId: string, reason: string): Promise<void> {
  const item = await db.bulkRunItem.findFirst({ where: { id: itemId, shop } });
  if (!item) return;
  await db.bulkRunItem.updateMany({
    where: { runId: item.runId, orderGid: item.orderGid, status: "checking" },
    data: { status: "blocked", problems: JSON.stringify([{ path: "order", message: reason }]) },
  });
  await finishChecking(db, item.runId);
}

function settleItem(db: PrismaClient, itemId: string, data: Prisma.BulkRunItemUpdateManyMutationInput) {
  return db.bulkRunItem.updateMany({ where: { id: itemId, status: "checking" }, data });
}

async function finishChecking(db: PrismaClient, runId: string): Promise<Result<void, LabelError>> {
  const left = await db.bulkRunItem.count({ where: { runId, status: "checking" } });
  if (left === 0) await db.bulkRun.updateMany({ where: { id: runId, status: "checking" }, data: { status: "review" } });
  return ok(undefined);
}

/** A run in these statuses is under way, checking or buying: it spends the shop's Shopify rate limit (ADR 20). */
export const UNDER_WAY_RUN_STATUSES: readonly BulkRunStatus[] = ["checking", "running"];

/** Whether one of the shop's bulk runs is checking or buying; the pages then spare the allowance. */
export async function hasSpendingRun(db: PrismaClient, shop: string): Promise<boolean> {
  const run = await db.bulkRun.findFirst({
    where: { shop, status: { in: [...UNDER_WAY_RUN_STATUSES] } },
    select: { id: true },
  });
  return run !== null;
}

/** The statuses a run pays for: what its review totals and its confirmation buys. */
export const BILLABLE: readonly BulkItemStatus[] = ["ready", "queued", "buying", "bought"];
