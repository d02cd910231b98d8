import type { BulkRun, BulkRunItem, Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { draftShipmentByRules, isTransientLabelError } from "~/auto-draft/auto-draft.server";
import type { AutoDraftRule } from "~/auto-draft/auto-draft-rules";
import { getAutoDraftSettings } from "~/auto-draft/auto-draft-settings.server";
import { type AuditInput, findPurchaseAuthorizer, recordAudits } from "~/labels/audit.server";
import type { LabelError } from "~/labels/label-errors";
import { findLabel, findLabelStatuses, type LabelView } from "~/labels/label-repository.server";
import { buyLabel } from "~/shipments/buy-label.server";
import { loadOrder, shipmentOf } from "~/shipments/load-shipment.server";
import type { ShippingClient } from "~/shipping/client.server";
import { describeService } from "~/shipping/services";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { type FulfillmentOrderGid, parseFulfillmentOrderGid, parseOrderGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import { err, ok, type Result } from "~/utils/result";
import { parseStoredJson } from "~/utils/stored-json";

import { type BulkChoice, BulkChoiceSchema, rulesForOverride } from "./bulk-choice";

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

export const MAX_BULK_RUN_ORDERS = 1000;
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
const ProblemsSchema = z.array(z.object({ path: z.string(), message: z.string() }));

export type BulkRunError = {
  code: "INVALID_SELECTION" | "NOT_FOUND" | "INVALID_STATE" | "TOTAL_CHANGED";
  message: string;
};
const runError = (code: BulkRunError["code"], message: string): BulkRunError => ({ code, message });

const NOT_STARTED_CANCELLED = "Cancelled before it was bought.";

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
    return err(runError("INVALID_SELECTION", `Select at most ${MAX_BULK_RUN_ORDERS} orders for one run.`));
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
  });
  return ok({ runId });
}

// ---------- Checking ----------

export type BulkCheckDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  shipping: Pick<ShippingClient, "getRates" | "createDraftLabel"> | null;
};

async function rulesFor(db: PrismaClient, shop: string, choice: BulkChoice): Promise<AutoDraftRule[]> {
  return rulesForOverride(choice) ?? (await getAutoDraftSettings(db, shop)).rules;
}

const parseChoice = (run: BulkRun): BulkChoice =>
  parseStoredJson(run.choice, BulkChoiceSchema, { mode: "rules" } as BulkChoice);

function readyFields(label: LabelView) {
  return {
    status: "ready",
    labelId: label.id,
    carrier: label.carrier,
    serviceName: describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode }),
    quotedCents: label.quotedCents,
    boxes: label.packageCount,
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

/**
 * Checks one selected order: lists its shipments and drafts each by the run's rules (the order
 * and the shop's locations read once for all of them), or records
 * what blocks it. Safe to run again (a retried job): items already checked are left alone.
 * An error is for the job to retry (Shopify or the service unavailable).
 */
/** The order's shipments a run labels: open, shipped by a carrier, with something left to ship. */
export function shipmentsToLabel(order: ShopifyOrderForLabel): ShopifyFulfillmentOrder[] {
  return order.fulfillmentOrders.filter(
    (fo) =>
      (fo.status === "OPEN" || fo.status === "IN_PROGRESS") &&
      fo.deliveryMethod?.methodType === "SHIPPING" &&
      fo.lineItems.some((line) => line.requiresShipping && line.remainingQuantity > 0),
  );
}

/** Why an order has no shipment a run labels, in the merchant's words. */
export function describeNothingToLabel(order: ShopifyOrderForLabel): string {
  const waiting = order.fulfillmentOrders.filter(
    (fo) =>
      fo.deliveryMethod?.methodType === "SHIPPING" &&
      fo.lineItems.some((line) => line.requiresShipping && line.remainingQuantity > 0),
  );
  if (waiting.some((fo) => fo.status === "ON_HOLD")) {
    return "On hold in Shopify: release the hold, then label it.";
  }
  if (waiting.some((fo) => fo.status === "SCHEDULED")) {
    return "Scheduled in Shopify: it can be labelled once Shopify releases it.";
  }
  return "Nothing left to ship by carrier on this order.";
}

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
  const loaded = orderGid ? await loadOrder({ db, shop, admin }, orderGid) : null;
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
  for (const [index, fo] of shipments.entries()) {
    const gid = parseFulfillmentOrderGid(fo.id);
    const shipment = shipmentOf(loaded.value, fo.id);
    if (!gid || !shipment) continue;
    const target = await itemForShipment(db, item, gid, index, order.name);
    if (target.status !== "checking") continue;
    const drafted = await draftShipmentByRules({ db, shop, admin, shipping: deps.shipping }, shipment, {
      rules,
      recordOutcome: false,
    });
    if (!drafted.ok) {
      if (isTransientLabelError(drafted.error)) return err(drafted.error);
      await settleItem(db, target.id, {
        status: "blocked",
        problems: JSON.stringify([{ path: "label", message: drafted.error.message }]),
      });
      continue;
    }
    const outcome = drafted.value;
    if (outcome.status === "drafted") {
      await settleItem(db, target.id, readyFields(outcome.label));
    } else if (outcome.status === "blocked") {
      await settleItem(db, target.id, { status: "blocked", problems: JSON.stringify(outcome.problems) });
    } else {
      await settleItem(db, target.id, fieldsForExisting(outcome.label ?? null, capitalize(outcome.reason)));
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
  return db.bulkRunItem.create({
    data: {
      runId: orderItem.runId,
      shop: orderItem.shop,
      position: orderItem.position + index,
      orderGid: orderItem.orderGid,
      orderName,
      fulfillmentOrderGid,
    },
  });
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

// ---------- Review and confirm ----------

const BILLABLE: readonly BulkItemStatus[] = ["ready", "queued", "buying", "bought"];

/**
 * Who let the worker buy these items: one "authorize" audit entry per label, naming the staff
 * member (ADR 13). The worker's purchase entry then names the same person.
 */
function authorizations(
  shop: string,
  runId: string,
  items: readonly { labelId: string | null; orderGid: string; quotedCents: number | null }[],
  authorizedBy: string | null,
  what: string,
): AuditInput[] {
  return items.map((item) => ({
    shop,
    action: "authorize",
    outcome: "ok",
    orderGid: item.orderGid,
    labelId: item.labelId,
    amountCents: item.quotedCents,
    detail: `bulk run ${runId}: ${what}`,
    staffMemberId: authorizedBy,
  }));
}

export async function confirmBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  expected: { count: number; totalCents: number },
  enqueueBuy: (tx: Prisma.TransactionClient, itemId: string) => Promise<unknown>,
  options: { confirmedBy?: string | null } = {},
): Promise<Result<{ queued: number }, BulkRunError>> {
  return db.$transaction(async (tx) => {
    const run = await tx.bulkRun.findFirst({ where: { id: runId, shop } });
    if (!run) return err(runError("NOT_FOUND", "This run does not exist."));
    if (run.status !== "review")
      return err(runError("INVALID_STATE", `This run is ${run.status}, not waiting for review.`));
    const ready = await tx.bulkRunItem.findMany({
      where: { runId, status: "ready" },
      select: { id: true, quotedCents: true, labelId: true, orderGid: true },
    });
    const total = ready.reduce((sum, item) => sum + (item.quotedCents ?? 0), 0);
    if (ready.length !== expected.count || total !== expected.totalCents) {
      return err(
        runError("TOTAL_CHANGED", "The labels or their total changed since you reviewed them. Review them again."),
      );
    }
    if (ready.length === 0) return err(runError("INVALID_STATE", "Nothing in this run can be bought."));
    await tx.bulkRunItem.updateMany({ where: { runId, status: "ready" }, data: { status: "queued" } });
    await tx.bulkRun.update({
      where: { id: runId },
      data: {
        status: "running",
        confirmedCents: total,
        confirmedAt: new Date(),
        confirmedBy: options.confirmedBy ?? null,
      },
    });
    for (const item of ready) await enqueueBuy(tx, item.id);
    await recordAudits(tx, authorizations(shop, runId, ready, options.confirmedBy ?? null, "total confirmed"));
    return ok({ queued: ready.length });
  });
}

// ---------- Buying ----------

export type BulkBuyDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  shipping: Pick<ShippingClient, "purchaseLabel" | "getLabel">;
};

// The service says no more labels can be bought with this account now: every other item would
// get the same answer, so the run stops and says why.
const STOPS_THE_RUN = new Set(["INSUFFICIENT_BALANCE", "PLAN_LIMIT_REACHED"]);

/**
 * Buys one queued item and writes its tracking back. Safe to run again: `purchase` is exactly
 * once, and an item left "buying" by a crash is bought (or read back) on the retry. An error is
 * for the job to retry; on its last attempt the item is failed with the reason instead.
 */
export async function buyBulkRunItem(
  deps: BulkBuyDeps,
  itemId: string,
  options: { lastAttempt: boolean },
): Promise<Result<void, LabelError>> {
  const { db, shop } = deps;
  const item = await db.bulkRunItem.findFirst({ where: { id: itemId, shop } });
  if (!item || (item.status !== "queued" && item.status !== "buying")) return ok(undefined);
  const run = await db.bulkRun.findFirst({ where: { id: item.runId, shop } });
  if (!run) return ok(undefined);
  if (run.status !== "running") {
    const message = run.status === "stopped" ? (run.stopReason ?? "The run stopped.") : NOT_STARTED_CANCELLED;
    await db.bulkRunItem.updateMany({
      where: { id: item.id, status: "queued" },
      data: { status: "not_started", message },
    });
    return finishRun(db, run.id);
  }
  if (!item.labelId) {
    await db.bulkRunItem.update({ where: { id: item.id }, data: { status: "failed", message: "No draft to buy." } });
    return finishRun(db, run.id);
  }
  await db.bulkRunItem.updateMany({
    where: { id: item.id, status: { in: ["queued", "buying"] } },
    data: { status: "buying", attempts: { increment: 1 } },
  });

  // The charge is the person's who confirmed the run (or retried the item), not the worker's.
  const staffMemberId = await findPurchaseAuthorizer(db, shop, item.labelId);
  const bought = await buyLabel({ db, shop, admin: deps.admin, shipping: deps.shipping, staffMemberId }, item.labelId);
  if (!bought.ok) {
    const code = bought.error.shipping?.code;
    if (code && STOPS_THE_RUN.has(code)) {
      await stopRun(db, run.id, bought.error.message);
      await failItem(db, item.id, bought.error.message);
      return finishRun(db, run.id);
    }
    // Shopify would not let this shipment be fulfilled now (on hold, cancelled, closed, sent
    // elsewhere): skipped with the reason, nothing bought; the rest of the run goes on.
    if (bought.error.code === "NOT_FULFILLABLE") {
      await db.bulkRunItem.update({
        where: { id: item.id },
        data: { status: "not_fulfillable", message: bought.error.message },
      });
      return finishRun(db, run.id);
    }
    if (isTransientLabelError(bought.error) && !options.lastAttempt) return err(bought.error);
    await failItem(db, item.id, bought.error.message);
    return finishRun(db, run.id);
  }
  await db.bulkRunItem.update({
    where: { id: item.id },
    data: {
      status: "bought",
      message: bought.value.writeBackError
        ? "Bought. Tracking is not in Shopify yet: it is sent again automatically, or from the order page."
        : null,
    },
  });
  return finishRun(db, run.id);
}

function failItem(db: PrismaClient, itemId: string, message: string) {
  return db.bulkRunItem.update({ where: { id: itemId }, data: { status: "failed", message } });
}

async function stopRun(db: PrismaClient, runId: string, reason: string) {
  const stopped = await db.bulkRun.updateMany({
    where: { id: runId, status: "running" },
    data: { status: "stopped", stopReason: reason, finishedAt: new Date() },
  });
  if (stopped.count > 0) {
    await db.bulkRunItem.updateMany({
      where: { runId, status: "queued" },
      data: { status: "not_started", message: reason },
    });
  }
}

async function finishRun(db: PrismaClient, runId: string): Promise<Result<void, LabelError>> {
  const left = await db.bulkRunItem.count({ where: { runId, status: { in: ["queued", "buying"] } } });
  if (left === 0) {
    await db.bulkRun.updateMany({
      where: { id: runId, status: "running" },
      data: { status: "done", finishedAt: new Date() },
    });
  }
  return ok(undefined);
}

// ---------- Cancel and retry ----------

/** Stops before the next purchase: queued and unchecked items are not started; one being bought finishes. */
export async function cancelBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
): Promise<Result<void, BulkRunError>> {
  const cancelled = await db.bulkRun.updateMany({
    where: { id: runId, shop, status: { in: ["checking", "review", "running"] } },
    data: { status: "cancelled", finishedAt: new Date() },
  });
  if (cancelled.count === 0) {
    const run = await db.bulkRun.findFirst({ where: { id: runId, shop } });
    return err(
      run
        ? runError("INVALID_STATE", `This run is already ${run.status}.`)
        : runError("NOT_FOUND", "This run does not exist."),
    );
  }
  await db.bulkRunItem.updateMany({
    where: { runId, status: { in: ["checking", "ready", "queued"] } },
    data: { status: "not_started", message: NOT_STARTED_CANCELLED },
  });
  return ok(undefined);
}

/**
 * Items whose turn came while Shopify would not let their shipment be fulfilled, whose label is
 * still the run's draft: a retry buys them once Shopify does (the guard asks again).
 */
async function notFulfillableDrafts(tx: Prisma.TransactionClient, shop: string, runId: string) {
  const held = await tx.bulkRunItem.findMany({ where: { runId, status: "not_fulfillable", labelId: { not: null } } });
  const statuses = await findLabelStatuses(
    tx,
    shop,
    held.flatMap((item) => (item.labelId ? [item.labelId] : [])),
  );
  return held.filter((item) => item.labelId && statuses.get(item.labelId) === "draft");
}

/** Queues the failed items again (and those Shopify would not let be fulfilled, whose draft is still there), and nothing else. */
export async function retryFailedBulkItems(
  db: PrismaClient,
  shop: string,
  runId: string,
  enqueueBuy: (tx: Prisma.TransactionClient, itemId: string) => Promise<unknown>,
  options: { retriedBy?: string | null } = {},
): Promise<Result<{ queued: number }, BulkRunError>> {
  return db.$transaction(async (tx) => {
    const run = await tx.bulkRun.findFirst({ where: { id: runId, shop } });
    if (!run) return err(runError("NOT_FOUND", "This run does not exist."));
    if (run.status === "checking" || run.status === "review") {
      return err(runError("INVALID_STATE", "Nothing has been bought in this run yet."));
    }
    const failed = [
      ...(await tx.bulkRunItem.findMany({ where: { runId, status: "failed", labelId: { not: null } } })),
      ...(await notFulfillableDrafts(tx, shop, runId)),
    ];
    if (failed.length === 0) return err(runError("INVALID_STATE", "No labels to retry."));
    await tx.bulkRunItem.updateMany({
      where: { id: { in: failed.map((f) => f.id) } },
      data: { status: "queued", message: null },
    });
    await tx.bulkRun.update({ where: { id: runId }, data: { status: "running", stopReason: null, finishedAt: null } });
    for (const item of failed) await enqueueBuy(tx, item.id);
    await recordAudits(tx, authorizations(shop, runId, failed, options.retriedBy ?? null, "failed label retried"));
    return ok({ queued: failed.length });
  });
}

// ---------- Sweeping ----------

/** An item untouched this long while its run goes on has lost its job (a worker died on its last attempt). */
export const STRANDED_AFTER_MS = 10 * 60_000;

/**
 * Queues again the items of going runs that nothing has touched for a while: a job whose last
 * attempt died with its worker leaves its item "checking" or "buying" with no job behind it.
 * Enqueueing is de-duplicated per item, so an item whose job is only waiting keeps that job.
 */
export async function resumeStrandedBulkItems(
  db: PrismaClient,
  enqueue: {
    check: (tx: Prisma.TransactionClient, shop: string, itemId: string) => Promise<unknown>;
    buy: (tx: Prisma.TransactionClient, shop: string, itemId: string) => Promise<unknown>;
  },
  now = new Date(),
): Promise<{ checks: number; buys: number }> {
  const before = new Date(now.getTime() - STRANDED_AFTER_MS);
  const runs = await db.bulkRun.findMany({ where: { status: { in: ["checking", "running"] } } });
  let checks = 0;
  let buys = 0;
  for (const run of runs) {
    const statuses = run.status === "checking" ? ["checking"] : ["queued", "buying"];
    const stranded = await db.bulkRunItem.findMany({
      where: { runId: run.id, status: { in: statuses }, updatedAt: { lt: before } },
      select: { id: true },
    });
    for (const item of stranded) {
      if (run.status === "checking") {
        await enqueue.check(db, run.shop, item.id);
        checks += 1;
      } else {
        await enqueue.buy(db, run.shop, item.id);
        buys += 1;
      }
    }
  }
  return { checks, buys };
}

// ---------- Reading ----------

export type BulkRunItemView = {
  id: string;
  orderGid: string;
  orderName: string;
  fulfillmentOrderGid: string | null;
  status: BulkItemStatus;
  problems: BulkProblem[];
  message: string | null;
  labelId: string | null;
  service: string | null;
  quotedCents: number | null;
  boxes: number | null;
};

export type BulkRunView = {
  id: string;
  status: BulkRunStatus;
  choice: BulkChoice;
  stopReason: string | null;
  confirmedCents: number | null;
  createdAt: string;
  items: BulkRunItemView[];
  counts: Record<BulkItemStatus, number>;
  /** What buying every ready (or queued, bought) item costs, as quoted. */
  totalCents: number;
  /** Of the items to buy: how many are done (bought, failed, or refused by Shopify) and how many remain. */
  progress: { bought: number; failed: number; remaining: number; notStarted: number; notFulfillable: number };
  /** Seconds left at the pace so far; null before the first purchase. */
  estimateSeconds: number | null;
};

function toItemView(row: BulkRunItem): BulkRunItemView {
  return {
    id: row.id,
    orderGid: row.orderGid,
    orderName: row.orderName,
    fulfillmentOrderGid: row.fulfillmentOrderGid,
    status: (BULK_ITEM_STATUSES as readonly string[]).includes(row.status) ? (row.status as BulkItemStatus) : "failed",
    problems: parseStoredJson(row.problems, ProblemsSchema, []),
    message: row.message,
    labelId: row.labelId,
    service: row.serviceName,
    quotedCents: row.quotedCents,
    boxes: row.boxes,
  };
}

export async function getBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  now = new Date(),
): Promise<BulkRunView | null> {
  const run = await db.bulkRun.findFirst({ where: { id: runId, shop } });
  if (!run) return null;
  const rows = await db.bulkRunItem.findMany({ where: { runId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const items = rows.map(toItemView);
  // A bought item's note that its tracking is not in Shopify yet holds until the label says so.
  const pending = items.filter((i) => i.status === "bought" && i.message && i.labelId);
  const statuses = new Map<string, string>();
  for (let i = 0; i < pending.length; i += 500) {
    const ids = pending.slice(i, i + 500).flatMap((item) => (item.labelId ? [item.labelId] : []));
    for (const [id, status] of await findLabelStatuses(db, shop, ids)) statuses.set(id, status);
  }
  for (const item of pending) if (item.labelId && statuses.get(item.labelId) === "fulfilled") item.message = null;
  const counts = Object.fromEntries(BULK_ITEM_STATUSES.map((s) => [s, 0])) as Record<BulkItemStatus, number>;
  for (const item of items) counts[item.status] += 1;
  const totalCents = items.filter((i) => BILLABLE.includes(i.status)).reduce((sum, i) => sum + (i.quotedCents ?? 0), 0);
  const done = counts.bought + counts.failed + counts.not_fulfillable;
  const remaining = counts.queued + counts.buying;
  const elapsedS = run.confirmedAt ? (now.getTime() - run.confirmedAt.getTime()) / 1000 : 0;
  return {
    id: run.id,
    status: run.status as BulkRunStatus,
    choice: parseChoice(run),
    stopReason: run.stopReason,
    confirmedCents: run.confirmedCents,
    createdAt: run.createdAt.toISOString(),
    items,
    counts,
    totalCents,
    progress: {
      bought: counts.bought,
      failed: counts.failed,
      remaining,
      notStarted: counts.not_started,
      notFulfillable: counts.not_fulfillable,
    },
    estimateSeconds: run.status === "running" && done > 0 ? Math.round((elapsedS / done) * remaining) : null,
  };
}

/** The run's bought labels in list order, for printing. */
export async function listBulkRunLabels(db: PrismaClient, shop: string, runId: string): Promise<LabelView[]> {
  const rows = await db.bulkRunItem.findMany({
    where: { runId, shop, status: "bought", labelId: { not: null } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  const labels = await Promise.all(rows.map((row) => (row.labelId ? findLabel(db, shop, row.labelId) : null)));
  return labels.filter((label): label is LabelView => label !== null);
}
