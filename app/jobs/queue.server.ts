import type { Prisma, PrismaClient } from "@prisma/client";
import type { PgBoss } from "pg-boss";

import { getEnv } from "~/env.server";
import { logFor } from "~/logger.server";

import type { EnqueueOptions, EnqueueResult, JobKind, JobQueue, Schedule } from "./job-queue";
import {
  createPgBossJobQueue,
  createPgBossWorker,
  enqueueWithPgBoss,
  eraseShopJobsWithPgBoss,
  type PgBossOptions,
  startPgBoss,
  stopShopJobsWithPgBoss,
} from "./pg-boss-job-queue.server";
import {
  createPrismaJobQueue,
  ended,
  enqueueJob as enqueuePrismaJob,
  providerOf,
  stopShopJobs as stopPrismaShopJobs,
} from "./prisma-job-queue.server";

// Which queue adapter the app uses follows its database (ADR 15): SQLite keeps jobs in the app's
// own Job table (prisma-job-queue.server.ts); PostgreSQL runs them on pg-boss
// (pg-boss-job-queue.server.ts). Code that enqueues inside a transaction calls these functions with
// its transaction client; everything else takes a JobQueue from `jobQueueFor`.

const bosses = new Map<string, Promise<PgBoss>>();

/** The process's pg-boss for this database (one supervising, one not), started on first use. */
export function pgBossFor(url: string, options: PgBossOptions = {}): Promise<PgBoss> {
  const key = `${options.supervise === false ? "enqueue" : "supervise"} ${url}`;
  let boss = bosses.get(key);
  if (!boss) {
    boss = startPgBoss(url, options);
    boss.catch(() => bosses.delete(key));
    bosses.set(key, boss);
  }
  return boss;
}

/** Stops every pg-boss this process started (a worker's or test's shutdown). */
export async function stopPgBosses(): Promise<void> {
  const started = [...bosses.values()];
  bosses.clear();
  await Promise.all(
    started.map(async (boss) => (await boss.catch(() => null))?.stop({ graceful: false, timeout: 1000 })),
  );
}

// The app's database is DATABASE_URL (db.server.ts): a transaction client does not say its URL.
// Enqueueing, stopping and listing use a pg-boss that supervises nothing, so a web process starts
// no background work (workers supervise). PG_BOSS_SUPERVISE_SECONDS: how soon a job whose worker
// died is taken over after its lease.
const appBoss = () => pgBossFor(getEnv().DATABASE_URL, { supervise: false });
const workerBoss = () => {
  const env = getEnv();
  return pgBossFor(env.DATABASE_URL, { superviseIntervalSeconds: env.PG_BOSS_SUPERVISE_SECONDS });
};

const onPostgresql = (db: Prisma.TransactionClient | PrismaClient) => providerOf(db) === "postgresql";

/** Enqueues in the caller's transaction: the job exists exactly when the transaction commits. */
export async function enqueueJob<P>(
  tx: Prisma.TransactionClient,
  kind: JobKind<P>,
  shop: string,
  payload: P,
  options?: EnqueueOptions,
): Promise<EnqueueResult> {
  if (onPostgresql(tx)) return enqueueWithPgBoss(await appBoss(), tx, kind, shop, payload, options);
  return enqueuePrismaJob(tx, kind, shop, payload, options);
}

/** The shop uninstalled or was erased: in the caller's transaction, its queued and running jobs stop. */
export async function stopShopJobs(tx: Prisma.TransactionClient, shop: string): Promise<{ cancelled: number }> {
  // The Job table too on PostgreSQL: it may still hold jobs an earlier release left (see below).
  const inTable = await stopPrismaShopJobs(tx, shop);
  if (!onPostgresql(tx)) return inTable;
  const inPgBoss = await stopShopJobsWithPgBoss(await appBoss(), tx, shop);
  return { cancelled: inTable.cancelled + inPgBoss.cancelled };
}

/** shop/redact: every job of the shop is deleted, finished or not. */
export async function eraseShopJobs(tx: Prisma.TransactionClient, shop: string): Promise<{ deleted: number }> {
  await stopShopJobs(tx, shop);
  const inTable = (await tx.job.deleteMany({ where: { shop } })).count;
  if (!onPostgresql(tx)) return { deleted: inTable };
  return { deleted: inTable + (await eraseShopJobsWithPgBoss(await appBoss(), tx, shop)).deleted };
}

/** The queue for this database's client: pg-boss on PostgreSQL, the Job table on SQLite. */
export function jobQueueFor(db: PrismaClient): JobQueue {
  return onPostgresql(db) ? createPostgresqlQueue(db) : createPrismaJobQueue(db);
}

// ---------- PostgreSQL: jobs an earlier release left in the Job table ----------
// Before pg-boss (ADR 15) PostgreSQL kept jobs in the Job table, and during a rolling deploy a
// web process of that release still enqueues there. The worker moves every such job that is
// waiting (or whose worker died) into pg-boss, each in one transaction with the Job row's end, so
// it runs once; the Activity screen still lists and retries the table's dead jobs (a retried one
// is then moved too).

const MOVE_EVERY_MS = 60_000;
const MOVE_BATCH = 200;

export async function moveJobTableJobsToPgBoss(
  db: PrismaClient,
  boss: PgBoss,
  kinds: readonly JobKind<unknown>[],
  now = new Date(),
): Promise<{ moved: number; failed: number }> {
  const byName = new Map(kinds.map((kind) => [kind.name, kind]));
  const rows = await db.job.findMany({
    where: {
      name: { in: [...byName.keys()] },
      OR: [{ status: "queued" }, { status: "running", leaseUntil: { lt: now } }],
    },
    orderBy: [{ runAt: "asc" }, { id: "asc" }],
    take: MOVE_BATCH,
  });
  let moved = 0;
  let failed = 0;
  for (const row of rows) {
    const kind = byName.get(row.name);
    if (!kind) continue;
    try {
      await db.$transaction(async (tx) => {
        const { count } = await tx.job.updateMany({
          where: { id: row.id, status: row.status, claimToken: row.claimToken },
          data: ended("cancelled", now, "moved to pg-boss"),
        });
        if (count !== 1) return; // another worker moved it, or its own worker finished it
        const keyPrefix = `${row.shop}:${row.name}:`;
        const dedupeKey = row.dedupeKey?.startsWith(keyPrefix) ? row.dedupeKey.slice(keyPrefix.length) : undefined;
        await enqueueWithPgBoss(boss, tx, kind, row.shop, JSON.parse(row.payload) as unknown, {
          ...(dedupeKey === undefined ? {} : { dedupeKey }),
          runAt: row.runAt,
          maxAttempts: Math.max(1, row.maxAttempts - row.attempts),
        });
        moved++;
      });
    } catch (error) {
      // A payload this release cannot read: left in the table, said once per pass.
      failed++;
      logFor({ shop: row.shop, job: row.name, jobId: row.id }).error(
        { err: error },
        "job could not move from the Job table to pg-boss",
      );
    }
  }
  return { moved, failed };
}

function createPostgresqlQueue(db: PrismaClient): JobQueue {
  const pgBoss = createPgBossJobQueue(appBoss);
  const table = createPrismaJobQueue(db);
  return {
    enqueue: pgBoss.enqueue,
    // Both tables at once, as an uninstall's transaction stops them.
    stopShopJobs: (shop) => db.$transaction((tx) => stopShopJobs(tx, shop)),
    listDeadJobs: async (shop) => {
      const both = [...(await pgBoss.listDeadJobs(shop)), ...(await table.listDeadJobs(shop))];
      return both.sort((a, b) => b.failedAt.localeCompare(a.failedAt)).slice(0, 50);
    },
    retryDeadJob: async (shop, jobId) => {
      const retried = await pgBoss.retryDeadJob(shop, jobId);
      return retried.ok ? retried : table.retryDeadJob(shop, jobId);
    },
    createWorker: (definitions, options = {}) => {
      const move: Schedule = {
        name: "move-job-table-jobs",
        everyMs: MOVE_EVERY_MS,
        run: async () => {
          const { moved } = await moveJobTableJobsToPgBoss(db, await appBoss(), definitions);
          if (moved) options.log?.info(`moved ${moved} job(s) from the Job table to pg-boss`);
        },
      };
      return createPgBossWorker(workerBoss, definitions, {
        ...options,
        schedules: [...(options.schedules ?? []), move],
      });
    },
  };
}
