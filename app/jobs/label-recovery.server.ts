import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { whyNotRecoverPurchase } from "~/bulk/bulk-buying.server";
import { isBoughtWhileHeld, voidHeldPurchaseIfAsked } from "~/labels/held-purchase.server";
import {
  listRetryableWriteBackIds,
  listShopsWithRecoveryWork,
  listStuckPurchaseIds,
  listUnsettledVoids,
} from "~/labels/label-repository.server";
import { recoverStuckPurchases } from "~/labels/purchase.server";
import { settleOverdueVoids } from "~/labels/void-label.server";
import { retryPendingWriteBacks } from "~/labels/write-tracking.server";
import type { JobDefinition, JobQueue } from "~/queue/job-queue";
import { createSpendGuard } from "~/shipments/buy-label.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

// A purchase whose process died after the charge, or a tracking write-back that Shopify did not
// take (throttled, down, network), must finish without the merchant noticing: this sweep finds
// them in every shop and finishes them, exactly once, through the same use cases the surfaces use.

export type LabelRecoveryDeps = {
  db: PrismaClient;
  /** The shop's Admin API, or null when the app has no offline session for it (uninstalled). */
  adminFor: (shop: string) => Promise<AdminGraphqlClient | null>;
  /** The shop's shipping client, or null when it has no usable API key. */
  shippingFor: (
    shop: string,
  ) => Promise<
    (Pick<ShippingClient, "purchaseLabel" | "getLabel"> & Partial<Pick<ShippingClient, "voidLabel">>) | null
  >;
  now?: () => Date;
};

export type LabelRecoveryReport = {
  purchasesRecovered: number;
  writeBacksDone: number;
  writeBacksPending: number;
  /** Voids settled by reading them back, or whose Shopify fulfillment was cancelled at last. */
  voidsSettled: number;
  /** Shops skipped because the app cannot reach them right now, with why. */
  skipped: Array<{ shop: string; reason: string }>;
};

/** The sweep for one shop: what the `label-recovery` job runs. */
export async function recoverShopLabels(deps: LabelRecoveryDeps, shop: string): Promise<LabelRecoveryReport> {
  // A live clock, read at each step: a sweep can take minutes, and a lease written from a
  // clock frozen at its start could already be over when written.
  const now = deps.now ?? (() => new Date());
  const report: LabelRecoveryReport = {
    purchasesRecovered: 0,
    writeBacksDone: 0,
    writeBacksPending: 0,
    voidsSettled: 0,
    skipped: [],
  };

  if ((await listStuckPurchaseIds(deps.db, shop, now())).length > 0) {
    const shipping = await deps.shippingFor(shop);
    if (shipping) {
      // A purchase found never charged is bought only if Shopify still lets its shipment be fulfilled.
      const beforeSpend = createSpendGuard(await deps.adminFor(shop));
      // A label of a bulk run cancelled meanwhile is only read back, never bought anew.
      const beforeRequest = (label: { id: string }) => whyNotRecoverPurchase(deps.db, shop, label.id);
      const recovered = await recoverStuckPurchases({ db: deps.db, shop, shipping, beforeSpend, beforeRequest, now });
      report.purchasesRecovered += recovered.filter((label) => label.status === "purchased").length;
    } else {
      report.skipped.push({ shop, reason: "no shipping API key" });
    }
  }

  // Voids whose decision is overdue or whose Shopify fulfillment is still to cancel (ADR 22).
  if ((await listUnsettledVoids(deps.db, shop, now(), 1)).length > 0) {
    const admin = await deps.adminFor(shop);
    if (admin) {
      report.voidsSettled += await settleOverdueVoids({
        db: deps.db,
        shop,
        admin,
        shipping: await deps.shippingFor(shop),
        now,
      });
    } else {
      report.skipped.push({ shop, reason: "no offline session" });
    }
  }

  // After the purchases above, so a recovered label's tracking goes out in the same run.
  if ((await listRetryableWriteBackIds(deps.db, shop, now(), 1)).length > 0) {
    const admin = await deps.adminFor(shop);
    if (admin) {
      const { done, stillPending } = await retryPendingWriteBacks({ db: deps.db, shop, admin, now }, {});
      report.writeBacksDone += done.length;
      report.writeBacksPending += stillPending.length;
      // A recovered purchase whose shipment Shopify held meanwhile: voided now if Settings asks.
      const held = stillPending.filter(isBoughtWhileHeld);
      const shipping = held.length > 0 ? await deps.shippingFor(shop) : null;
      const voidLabel = shipping?.voidLabel?.bind(shipping);
      for (const label of voidLabel ? held : []) {
        if (voidLabel)
          await voidHeldPurchaseIfAsked({ db: deps.db, shop, admin, shipping: { voidLabel }, now }, label.id);
      }
    } else {
      report.skipped.push({ shop, reason: "no offline session" });
    }
  }
  return report;
}

// The job is per shop (the job's own shop); it carries nothing else.
export const LabelRecoveryPayloadSchema = z.object({});
export type LabelRecoveryPayload = z.infer<typeof LabelRecoveryPayloadSchema>;

export const LABEL_RECOVERY_JOB_NAME = "label-recovery";
/** How often the worker looks for shops with work to recover. */
export const LABEL_RECOVERY_EVERY_MS = 60_000;

/** The `label-recovery` job: one shop's sweep. At most one is queued or running per shop (de-duplication key). */
export function createLabelRecoveryJob(
  deps: LabelRecoveryDeps,
  onReport?: (shop: string, report: LabelRecoveryReport) => void,
): JobDefinition<LabelRecoveryPayload> {
  return {
    name: LABEL_RECOVERY_JOB_NAME,
    payloadSchema: LabelRecoveryPayloadSchema,
    concurrency: 2,
    // Purchases hold 120 s leases and write-backs their own; a shop's sweep is bounded by them.
    maxRunMs: 10 * 60_000,
    maxAttempts: 5,
    backoff: { baseMs: 30_000, maxMs: 15 * 60_000 },
    run: async (_payload, context) => {
      const report = await recoverShopLabels(deps, context.shop);
      onReport?.(context.shop, report);
    },
  };
}

/**
 * The worker's schedule: a `label-recovery` job for every shop that has a stuck purchase or a
 * write-back to retry and is still installed (has an offline session). Every worker may run it;
 * the de-duplication key keeps one job per shop.
 */
export async function enqueueLabelRecoveryJobs(
  db: PrismaClient,
  queue: Pick<JobQueue, "enqueue">,
  job: JobDefinition<LabelRecoveryPayload>,
  now: Date = new Date(),
): Promise<{ enqueued: string[] }> {
  const shops = await listShopsWithRecoveryWork(db, now);
  if (shops.length === 0) return { enqueued: [] };
  const installed = new Set(
    (
      await db.session.findMany({
        where: { shop: { in: shops }, isOnline: false },
        distinct: ["shop"],
        select: { shop: true },
      })
    ).map((row) => row.shop),
  );
  const enqueued: string[] = [];
  for (const shop of shops.filter((s) => installed.has(s))) {
    const result = await queue.enqueue(job, shop, {}, { dedupeKey: "sweep" });
    if (result.status === "enqueued") enqueued.push(shop);
  }
  return { enqueued };
}
