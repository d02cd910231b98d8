import type { Prisma, PrismaClient } from "@prisma/client";

import { type AuditInput, findPurchaseAuthorizer, recordAudits } from "~/labels/audit.server";
import { isTransientLabelError, type LabelError } from "~/labels/label-errors";
import { findLabelStatuses } from "~/labels/label-repository.server";
import { buyLabel } from "~/shipments/buy-label.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { err, ok, type Result } from "~/utils/result";

import {
  type BulkRunError,
  describeRetryCause,
  NOT_STARTED_CANCELLED,
  RETRYING_PREFIX,
  runError,
  UNDER_WAY_RUN_STATUSES,
} from "./bulk-runs.server";
import { RUN_TRANSACTION } from "./run-limits";

/**
 * A bulk item's claim on its label's purchase (ADR 5), shorter than a single label's two minutes:
 * a worker that dies holding it leaves the label to the job's next attempt, which another worker
 * starts within about 40 s (ADR 7's renewed leases), so the run's page settles within a minute.
 * The request itself gets three quarters of it; a longer Retry-After is retried by the job.
 */
export const BULK_PURCHASE_LEASE_MS = 30_000;

// A bulk run once it is checked (bulk-runs.server.ts): the review's confirmation at its exact
// total, buying item by item through the pipeline's buyLabel, cancelling, retrying what was not
// bought, and resuming items whose job died.

// ---------- Review and confirm ----------

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

// Prisma commits an interactive transaction unless its callback throws. A refusal found after the
// run was claimed throws this, so the claim is undone, and is answered as the refusal it carries.
class RunRefusal extends Error {
  constructor(readonly refusal: BulkRunError) {
    super(refusal.message);
  }
}

/** One transaction that keeps what it wrote only when it answers ok: a refusal writes nothing. */
async function commitUnlessRefused<T>(
  db: PrismaClient,
  work: (tx: Prisma.TransactionClient) => Promise<Result<T, BulkRunError>>,
): Promise<Result<T, BulkRunError>> {
  try {
    return await db.$transaction(async (tx) => {
      const result = await work(tx);
      if (!result.ok) throw new RunRefusal(result.error);
      return result;
    }, RUN_TRANSACTION);
  } catch (error) {
    if (error instanceof RunRefusal) return err(error.refusal);
    throw error;
  }
}

/** Why a change of the run was refused, from where it stands now. */
async function refusalFor(db: Prisma.TransactionClient, shop: string, runId: string): Promise<BulkRunError> {
  const run = await db.bulkRun.findFirst({ where: { id: runId, shop }, select: { status: true } });
  return run
    ? runError("INVALID_STATE", `${describeRunState(run.status)} Reload the page to see where it stands.`)
    : runError("NOT_FOUND", "This run does not exist.");
}

const READY_FIELDS = { id: true, quotedCents: true, labelId: true, orderGid: true } as const;

export async function confirmBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  expected: { count: number; totalCents: number },
  enqueueBuy: (tx: Prisma.TransactionClient, itemId: string) => Promise<unknown>,
  options: { confirmedBy?: string | null; now?: () => Date } = {},
): Promise<Result<{ queued: number }, BulkRunError>> {
  const confirmedBy = options.confirmedBy ?? null;
  return commitUnlessRefused(db, async (tx) => {
    // The run leaves review in this one conditional update, which holds its row until the
    // transaction ends: of two confirmations at once (or a confirmation and a cancel, on two
    // processes), the second finds it no longer in review and is refused, having written nothing.
    const claimed = await tx.bulkRun.updateMany({
      where: { id: runId, shop, status: "review" },
      data: { status: "running", confirmedAt: (options.now ?? (() => new Date()))(), confirmedBy },
    });
    if (claimed.count === 0) return err(await refusalFor(tx, shop, runId));
    const ready = await tx.bulkRunItem.updateManyAndReturn({
      where: { runId, status: "ready" },
      data: { status: "queued" },
      select: READY_FIELDS,
    });
    const total = ready.reduce((sum, item) => sum + (item.quotedCents ?? 0), 0);
    if (ready.length !== expected.count || total !== expected.totalCents) {
      return err(
        runError("TOTAL_CHANGED", "The labels or their total changed since you reviewed them. Review them again."),
      );
    }
    if (ready.length === 0) return err(runError("INVALID_STATE", "Nothing in this run can be bought."));
    await tx.bulkRun.update({ where: { id: runId }, data: { confirmedCents: total } });
    for (const item of ready) await enqueueBuy(tx, item.id);
    await recordAudits(tx, authorizations(shop, runId, ready, confirmedBy, "total confirmed"));
    return ok({ queued: ready.length });
  });
}

// ---------- Buying ----------

export type BulkBuyDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** With `voidLabel`, a label bought for a held order is voided at once when Settings asks. */
  shipping: Pick<ShippingClient, "purchaseLabel" | "getLabel"> & Partial<Pick<ShippingClient, "voidLabel">>;
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
  if (run.status !== "running") return leaveUnbought(db, item.id, run);
  if (!item.labelId) {
    await failItem(db, item.id, "No draft label to buy: open the order to create one.");
    return finishRun(db, run.id);
  }
  await db.bulkRunItem.updateMany({
    where: { id: item.id, status: { in: ["queued", "buying"] } },
    data: { status: "buying", attempts: { increment: 1 } },
  });

  // The charge is the person's who confirmed the run (or retried the item), not the worker's.
  const staffMemberId = await findPurchaseAuthorizer(db, shop, item.labelId);
  const bought = await buyLabel(
    {
      db,
      shop,
      admin: deps.admin,
      shipping: deps.shipping,
      staffMemberId,
      beforeRequest: () => whyNotBuy(db, shop, run.id),
    },
    item.labelId,
    { purchase: { leaseMs: BULK_PURCHASE_LEASE_MS } },
  );
  if (!bought.ok) {
    // The run was cancelled or stopped while this item waited for a shipping slot: its request
    // never left, the label is still a draft.
    if (bought.error.shipping?.code === "WITHHELD") {
      const latest = await db.bulkRun.findFirst({ where: { id: run.id, shop } });
      return leaveUnbought(db, item.id, latest ?? run);
    }
    const code = bought.error.shipping?.code;
    if (code && STOPS_THE_RUN.has(code)) {
      await stopRun(db, run.id, bought.error.message);
      await failItem(db, item.id, bought.error.message);
      return finishRun(db, run.id);
    }
    // Shopify would not let this shipment be fulfilled now (on hold, cancelled, closed, sent
    // elsewhere): skipped with the reason, nothing bought; the rest of the run goes on.
    if (bought.error.code === "NOT_FULFILLABLE") {
      await db.bulkRunItem.updateMany({
        where: { id: item.id, status: { in: [...BEING_BOUGHT] } },
        data: { status: "not_fulfillable", message: bought.error.message },
      });
      return finishRun(db, run.id);
    }
    if (isTransientLabelError(bought.error) && !options.lastAttempt) {
      // Back in the queue with the cause, so the page can say what it waits for (an outage)
      // instead of showing it as being bought; a cancel now leaves it unbought.
      await db.bulkRunItem.updateMany({
        where: { id: item.id, status: "buying" },
        data: { status: "queued", message: `${RETRYING_PREFIX}${describeRetryCause(bought.error)}` },
      });
      return err(bought.error);
    }
    await failItem(db, item.id, bought.error.message);
    return finishRun(db, run.id);
  }
  // The service's word is a fact: recorded whatever the item's state (a job that took it over
  // after this one's lease, a cancel meanwhile), as the label's own purchase is (ADR 5).
  await db.bulkRunItem.update({
    where: { id: item.id },
    data: {
      status: "bought",
      message: !bought.value.writeBackError
        ? null
        : // Held or cancelled in Shopify in the instant of the purchase: said as it is, with its void.
          bought.value.label.attention?.reason === "bought_while_held" || bought.value.label.status === "void_pending"
          ? bought.value.writeBackError
          : "Bought. Tracking is not in Shopify yet: it is sent again automatically, or from the order page.",
    },
  });
  return finishRun(db, run.id);
}

/** Why a request of this run must not leave now; null while the run is going. */
async function whyNotBuy(db: PrismaClient, shop: string, runId: string): Promise<string | null> {
  const run = await db.bulkRun.findFirst({ where: { id: runId, shop }, select: { status: true } });
  if (run?.status === "running") return null;
  return `bulk run ${runId} is ${run?.status ?? "gone"}`;
}

/**
 * For the recovery job's purchases: a label whose bulk run was cancelled or stopped while its
 * purchase's outcome was unknown is read back (bought stays bought) but never bought anew.
 */
export async function whyNotRecoverPurchase(db: PrismaClient, shop: string, labelId: string): Promise<string | null> {
  const item = await db.bulkRunItem.findFirst({
    where: { shop, labelId },
    orderBy: { createdAt: "desc" },
    select: { runId: true },
  });
  if (!item) return null;
  return whyNotBuy(db, shop, item.runId);
}

/** An item whose run was cancelled or stopped before its purchase left: not started, with why. */
async function leaveUnbought(
  db: PrismaClient,
  itemId: string,
  run: { id: string; status: string; stopReason: string | null },
): Promise<Result<void, LabelError>> {
  const message =
    run.status === "stopped"
      ? (run.stopReason ?? "Buying stopped before this label was bought.")
      : NOT_STARTED_CANCELLED;
  await db.bulkRunItem.updateMany({
    where: { id: itemId, status: { in: [...BEING_BOUGHT] } },
    data: { status: "not_started", message },
  });
  return finishRun(db, run.id);
}

/** Where a run stands, for a refusal: the merchant's words, not the stored status. */
function describeRunState(status: string): string {
  switch (status) {
    case "checking":
      return "These orders are still being checked.";
    case "review":
      return "These labels are waiting for your review.";
    case "running":
      return "These labels are already being bought.";
    case "done":
      return "Buying these labels has already finished.";
    case "stopped":
      return "Buying these labels has already stopped.";
    case "cancelled":
      return "Buying these labels was already cancelled.";
    default:
      return "These labels have changed.";
  }
}

/** An item is being bought while queued or buying; a job may move it on only from these. */
const BEING_BOUGHT = ["queued", "buying"] as const;

/**
 * Only while it is being bought: a job whose item another job (after its lease) bought, or a
 * retry queued again, does not mark it failed over that.
 */
function failItem(db: PrismaClient, itemId: string, message: string) {
  return db.bulkRunItem.updateMany({
    where: { id: itemId, status: { in: [...BEING_BOUGHT] } },
    data: { status: "failed", message },
  });
}

// The run and its items change together: a retry that sets the run going again (holding its row)
// either comes before and has its items stopped too, or after and finds the run stopped.
async function stopRun(db: PrismaClient, runId: string, reason: string) {
  await db.$transaction(async (tx) => {
    const stopped = await tx.bulkRun.updateMany({
      where: { id: runId, status: "running" },
      data: { status: "stopped", stopReason: reason, finishedAt: new Date() },
    });
    if (stopped.count > 0) {
      await tx.bulkRunItem.updateMany({
        where: { runId, status: "queued" },
        data: { status: "not_started", message: reason },
      });
    }
  }, RUN_TRANSACTION);
}

async function finishRun(db: PrismaClient, runId: string): Promise<Result<void, LabelError>> {
  const left = await db.bulkRunItem.count({ where: { runId, status: { in: [...BEING_BOUGHT] } } });
  if (left > 0) return ok(undefined);
  await db.$transaction(async (tx) => {
    // Counted again holding the run's row (this no-op update takes it): a retry that queued items
    // meanwhile holds it too, so its items are counted here, or it sets the run going after this.
    const going = await tx.bulkRun.updateMany({ where: { id: runId, status: "running" }, data: { status: "running" } });
    if (going.count === 0) return;
    const stillLeft = await tx.bulkRunItem.count({ where: { runId, status: { in: [...BEING_BOUGHT] } } });
    if (stillLeft === 0) {
      await tx.bulkRun.update({ where: { id: runId }, data: { status: "done", finishedAt: new Date() } });
    }
  }, RUN_TRANSACTION);
  return ok(undefined);
}

// ---------- Cancel and retry ----------

/**
 * Stops every purchase that has not left yet: queued and unchecked items are not started, and
 * an item whose job is waiting for a shipping slot is withheld once it gets one (whyNotBuy).
 * Only requests already on the wire (at most the worker's slots) can still be charged.
 */
export async function cancelBulkRun(
  db: PrismaClient,
  shop: string,
  runId: string,
  options: { now?: () => Date } = {},
): Promise<Result<void, BulkRunError>> {
  // One transaction: a confirmation or retry on another process waits for the run's row, then
  // finds it cancelled with its items already not started, never one without the other.
  return db.$transaction(async (tx) => {
    const cancelled = await tx.bulkRun.updateMany({
      where: { id: runId, shop, status: { in: ["checking", "review", "running"] } },
      data: { status: "cancelled", finishedAt: (options.now ?? (() => new Date()))() },
    });
    if (cancelled.count === 0) return err(await refusalFor(tx, shop, runId));
    await tx.bulkRunItem.updateMany({
      where: { runId, status: { in: ["checking", "ready", "queued"] } },
      data: { status: "not_started", message: NOT_STARTED_CANCELLED },
    });
    return ok(undefined);
  }, RUN_TRANSACTION);
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
  return commitUnlessRefused(db, async (tx) => {
    const run = await tx.bulkRun.findFirst({ where: { id: runId, shop } });
    if (!run) return err(runError("NOT_FOUND", "This run does not exist."));
    if (run.status === "checking" || run.status === "review") {
      return err(runError("INVALID_STATE", "Nothing has been bought in this run yet."));
    }
    const candidates = [
      ...(await tx.bulkRunItem.findMany({ where: { runId, status: "failed", labelId: { not: null } } })),
      ...(await notFulfillableDrafts(tx, shop, runId)),
    ];
    if (candidates.length === 0) return err(runError("INVALID_STATE", "No labels to retry."));
    // The run goes again first, holding its row until the transaction ends (a cancel, a stop or
    // the run's end wait for it, or it for them); then the items are taken back from the states
    // they were read in. A second retry at the same moment finds them taken and writes nothing.
    const going = await tx.bulkRun.updateMany({
      where: { id: runId, shop, status: { notIn: ["checking", "review"] } },
      data: { status: "running", stopReason: null, finishedAt: null },
    });
    if (going.count === 0) return err(await refusalFor(tx, shop, runId));
    const retried = await tx.bulkRunItem.updateManyAndReturn({
      where: { runId, id: { in: candidates.map((c) => c.id) }, status: { in: ["failed", "not_fulfillable"] } },
      data: { status: "queued", message: null },
      select: READY_FIELDS,
    });
    if (retried.length === 0) {
      return err(
        runError("INVALID_STATE", "These labels are already being retried. Reload the page to see where they stand."),
      );
    }
    for (const item of retried) await enqueueBuy(tx, item.id);
    await recordAudits(tx, authorizations(shop, runId, retried, options.retriedBy ?? null, "failed label retried"));
    return ok({ queued: retried.length });
  });
}

/**
 * The items a cancelled, stopped or finished run did not start whose label is still the run's
 * draft: what "Buy the N labels not bought" buys (their quotes are its total).
 */
export async function listNotStartedDrafts(
  db: Prisma.TransactionClient,
  shop: string,
  runId: string,
): Promise<{ id: string; labelId: string; orderGid: string; quotedCents: number | null }[]> {
  const items = await db.bulkRunItem.findMany({
    where: { runId, shop, status: "not_started", labelId: { not: null } },
    select: READY_FIELDS,
  });
  const statuses = await findLabelStatuses(
    db,
    shop,
    items.flatMap((item) => (item.labelId ? [item.labelId] : [])),
  );
  return items.flatMap((item) =>
    item.labelId && statuses.get(item.labelId) === "draft" ? [{ ...item, labelId: item.labelId }] : [],
  );
}

/**
 * "Buy the N labels not bought" on a cancelled, stopped or finished run: the items it did not
 * start, whose drafts are still there, confirmed like any bulk purchase. The page posts the count
 * and total it showed; the server counts both again from the rows and refuses a difference, then
 * sets the run going again with those items queued (and nothing else).
 */
export async function buyNotStartedBulkItems(
  db: PrismaClient,
  shop: string,
  runId: string,
  expected: { count: number; totalCents: number },
  enqueueBuy: (tx: Prisma.TransactionClient, itemId: string) => Promise<unknown>,
  options: { confirmedBy?: string | null } = {},
): Promise<Result<{ queued: number }, BulkRunError>> {
  return commitUnlessRefused(db, async (tx) => {
    const run = await tx.bulkRun.findFirst({ where: { id: runId, shop } });
    if (!run) return err(runError("NOT_FOUND", "This run does not exist."));
    if (!ENDED_RUN_STATUSES.includes(run.status)) return err(await refusalFor(tx, shop, runId));
    const candidates = await listNotStartedDrafts(tx, shop, runId);
    if (candidates.length === 0) return err(runError("INVALID_STATE", "Every label of this run was bought or tried."));
    // Holding the run's row until the end (a cancel or another confirmation waits, then finds it
    // going and these items queued, or this finds it changed and writes nothing).
    const going = await tx.bulkRun.updateMany({
      where: { id: runId, shop, status: { in: [...ENDED_RUN_STATUSES] } },
      data: { status: "running", stopReason: null, finishedAt: null },
    });
    if (going.count === 0) return err(await refusalFor(tx, shop, runId));
    const queued = await tx.bulkRunItem.updateManyAndReturn({
      where: { runId, id: { in: candidates.map((c) => c.id) }, status: "not_started" },
      data: { status: "queued", message: null },
      select: READY_FIELDS,
    });
    const total = queued.reduce((sum, item) => sum + (item.quotedCents ?? 0), 0);
    if (queued.length !== expected.count || total !== expected.totalCents) {
      return err(
        runError("TOTAL_CHANGED", "The labels not bought or their total changed since you saw them. Look again."),
      );
    }
    await tx.bulkRun.update({ where: { id: runId }, data: { confirmedCents: (run.confirmedCents ?? 0) + total } });
    for (const item of queued) await enqueueBuy(tx, item.id);
    await recordAudits(
      tx,
      authorizations(shop, runId, queued, options.confirmedBy ?? null, "labels not bought confirmed"),
    );
    return ok({ queued: queued.length });
  });
}

/** Runs that ended (cancelled, stopped, or done): their labels not bought may be bought after all. */
const ENDED_RUN_STATUSES: readonly string[] = ["cancelled", "stopped", "done"];

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
  // Runs cancelled or stopped lately too: an item whose job died there would read "Buying" for
  // ever; its job, run again, leaves it unbought (or finds it bought).
  const runs = await db.bulkRun.findMany({
    where: {
      OR: [
        { status: { in: [...UNDER_WAY_RUN_STATUSES] } },
        { status: { in: ["cancelled", "stopped"] }, finishedAt: { gt: new Date(now.getTime() - 24 * 60 * 60_000) } },
      ],
    },
  });
  let checks = 0;
  let buys = 0;
  for (const run of runs) {
    const statuses = run.status === "checking" ? ["checking"] : ["queued", "buying"];
    const stranded = await db.bulkRunItem.findMany({
      where: { runId: run.id, status: { in: statuses }, updatedAt: { lt: before } },
      select: { id: true },
    });
    for (const item of stranded) {
      const resumed = await db.$transaction(async (tx) => {
        // Taken by touching it, with its job: a sweep on another worker at the same moment finds
        // it fresh and leaves it, and the next sweep waits a full period for the new job.
        const taken = await tx.bulkRunItem.updateMany({
          where: { id: item.id, status: { in: statuses }, updatedAt: { lt: before } },
          data: { updatedAt: now },
        });
        if (taken.count === 0) return false;
        const kind = run.status === "checking" ? enqueue.check : enqueue.buy;
        await kind(tx, run.shop, item.id);
        return true;
      });
      if (!resumed) continue;
      if (run.status === "checking") checks += 1;
      else buys += 1;
    }
  }
  return { checks, buys };
}
