import type { PrismaClient } from "@prisma/client";
import { SessionNotFoundError } from "@shopify/shopify-app-react-router/server";

import { resumeStrandedBulkItems } from "~/bulk/bulk-buying.server";
import { byDatabase } from "~/db/database-kind.server";
import { logFor } from "~/logger.server";
import { createShippingClientForShop } from "~/settings/settings.server";
import type { RequestSlots } from "~/shipping/client.server";
import { unauthenticated } from "~/shopify.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { paceAdminClient, pacerFor } from "~/shopify/paced-admin-client";

import type { AnyJobDefinition, JobQueue, JobWorker, Schedule } from "../queue/job-queue";
import { pruneFinishedJobs } from "../queue/prisma-job-queue.server";
import { jobQueueFor } from "../queue/queue.server";
import {
  type BulkJobDeps,
  createBulkBuyJob,
  createBulkCheckJob,
  enqueueBulkBuy,
  enqueueBulkCheck,
} from "./bulk-run-jobs.server";
import type { JobResultLog } from "./define-shop-job.server";
import { jobOutcomeOf } from "./job-outcome";
import {
  createLabelRecoveryJob,
  enqueueLabelRecoveryJobs,
  LABEL_RECOVERY_EVERY_MS,
  type LabelRecoveryDeps,
} from "./label-recovery.server";
import { createAutoDraftJob, createRecheckLabelsJob, type OrderChangeJobDeps } from "./order-change-jobs.server";
import { createShipToRetentionSchedule, SHIP_TO_RETENTION_SCHEDULE } from "./retention-jobs.server";
import { createShippingEventJob } from "./shipping-event-jobs.server";

// Every job the worker runs and every schedule it keeps, wired to Shopify (offline sessions) and
// the shipping service (each shop's stored key). Loaded by the processes that run the worker:
// `npm run worker` on PostgreSQL (scripts/worker.ts), the app process on SQLite
// (in-process-worker.server.ts).

/**
 * A shop's Admin API from its offline session, or null when the shop has none (the app was
 * uninstalled: the job is dropped). Anything else (Shopify down or a network blip while the
 * library refreshes an expiring token) is thrown, and the one mapping (job-outcome.ts) retries it.
 * Every call waits for the shop's pacer, leaving the merchant's pages their share of the bucket.
 */
export function createAdminFor(
  unauthenticatedAdmin: (shop: string) => Promise<{ admin: { graphql: AdminGraphqlClient } }>,
): (shop: string) => Promise<AdminGraphqlClient | null> {
  return async (shop) => {
    try {
      return paceAdminClient((await unauthenticatedAdmin(shop)).admin.graphql, pacerFor(shop));
    } catch (error) {
      if (error instanceof SessionNotFoundError) return null;
      throw error;
    }
  };
}

// Each job is given a shop's Admin API (its offline session) and shipping client (its stored key).
export function createShopClientsDeps(db: PrismaClient): LabelRecoveryDeps & OrderChangeJobDeps & BulkJobDeps {
  return {
    db,
    adminFor: createAdminFor(unauthenticated.admin),
    shippingFor: async (shop: string, options?: { slots?: RequestSlots }) => {
      const client = await createShippingClientForShop(db, shop, options?.slots ? { slots: options.slots } : {});
      return client.ok ? client.value : null;
    },
  };
}

/** What the jobs did, at info on the app's logger with each line's context. */
const logResult: JobResultLog = (message, context) => logFor(context).info(message);

export function createWorkerJobs(
  db: PrismaClient,
  queue: JobQueue,
  log: JobResultLog = logResult,
): { definitions: AnyJobDefinition[]; schedules: Schedule[] } {
  const clients = createShopClientsDeps(db);
  const labelRecovery = createLabelRecoveryJob(clients, (shop, report) => {
    if (report.purchasesRecovered || report.writeBacksDone || report.writeBacksPending || report.skipped.length) {
      log("label recovery", { shop, job: "label-recovery", ...report });
    }
  });
  const orderChangeDeps = { ...clients, onResult: log };
  return {
    definitions: [
      labelRecovery,
      createAutoDraftJob(orderChangeDeps),
      createRecheckLabelsJob(orderChangeDeps),
      createShippingEventJob(orderChangeDeps),
      createBulkCheckJob(clients),
      createBulkBuyJob(clients),
    ],
    schedules: [
      {
        name: "label-recovery",
        everyMs: LABEL_RECOVERY_EVERY_MS,
        run: async () => {
          await enqueueLabelRecoveryJobs(db, queue, labelRecovery);
        },
      },
      // The Job table's retention; pg-boss (PostgreSQL) deletes finished jobs itself.
      ...byDatabase(db, {
        sqlite: [
          { name: "prune-finished-jobs", everyMs: 60 * 60_000, run: async () => void (await pruneFinishedJobs(db)) },
        ],
        postgresql: [],
      }),
      {
        // A bulk item whose job died with its worker on the last attempt is queued again.
        name: "bulk-run-sweep",
        everyMs: 5 * 60_000,
        run: async () => {
          const resumed = await resumeStrandedBulkItems(db, { check: enqueueBulkCheck, buy: enqueueBulkBuy });
          if (resumed.checks || resumed.buys) log("bulk-run sweep resumed stranded items", { ...resumed });
        },
      },
      createShipToRetentionSchedule(db, (line) => log(line, { job: SHIP_TO_RETENTION_SCHEDULE })),
    ],
  };
}

/** The worker `npm run worker` runs, and the app process on SQLite: every job and schedule. */
export function createAppJobWorker(db: PrismaClient): JobWorker {
  const queue = jobQueueFor(db);
  const { definitions, schedules } = createWorkerJobs(db, queue);
  return queue.createWorker(definitions, { schedules, outcomeOf: jobOutcomeOf });
}
