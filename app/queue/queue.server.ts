import type { Prisma, PrismaClient } from "@prisma/client";
import type { Db as IDatabase, PgBoss } from "pg-boss";

import { runByDatabase } from "~/db/database-kind.server";
import { getEnv } from "~/env.server";

import type { EnqueueOptions, EnqueueResult, JobKind, JobQueue } from "./job-queue";
import {
  createPgBossJobQueue,
  createPgBossWorker,
  enqueueManyWithPgBoss,
  enqueueWithPgBoss,
  eraseShopJobsWithPgBoss,
  type PgBossOptions,
  startPgBoss,
  stopShopJobsWithPgBoss,
} from "./pg-boss-job-queue.server";
import {
  createPrismaJobQueue,
  enqueueJob as enqueuePrismaJob,
  stopShopJobs as stopPrismaShopJobs,
} from "./prisma-job-queue.server";

// Which queue adapter the app uses follows its database (ADR 15): SQLite keeps jobs in the app's
// own Job table (prisma-job-queue.server.ts); PostgreSQL runs them on pg-boss
// (pg-boss-job-queue.server.ts). Code that enqueues inside a transaction calls these functions with
// its transaction client; everything else takes a JobQueue from `jobQueueFor`.

const bosses = new Map<string, Promise<PgBoss>>();

declare global {
  // Set once this process started a pg-boss: the test setup stops them only then, so a test file
  // that never enqueues on PostgreSQL does not load the queue at all.
  var pgBossStarted: boolean | undefined;
}

/** The process's pg-boss for this database (one supervising, one not), started on first use. */
export function pgBossFor(url: string, options: PgBossOptions = {}): Promise<PgBoss> {
  const key = `${options.supervise === false ? "enqueue" : "supervise"} ${url}`;
  let boss = bosses.get(key);
  if (!boss) {
    boss = startPgBoss(url, options);
    globalThis.pgBossStarted = true;
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

/** Enqueues in the caller's transaction: the job exists exactly when the transaction commits. */
export async function enqueueJob<P>(
  tx: Prisma.TransactionClient,
  kind: JobKind<P>,
  shop: string,
  payload: P,
  options?: EnqueueOptions,
): Promise<EnqueueResult> {
  return runByDatabase(tx, {
    sqlite: () => enqueuePrismaJob(tx, kind, shop, payload, options),
    postgresql: async () => enqueueWithPgBoss(await appBoss(), tx, kind, shop, payload, options),
  });
}

/**
 * PostgreSQL only: enqueues jobs of one kind in one insert through `connection`, a transaction
 * the caller holds on the app's database outside Prisma (ADR 25); answered in order.
 */
export async function enqueueJobsOnConnection<P>(
  connection: IDatabase,
  kind: JobKind<P>,
  jobs: readonly { shop: string; payload: P; options?: EnqueueOptions }[],
): Promise<EnqueueResult[]> {
  return enqueueManyWithPgBoss(await appBoss(), connection, kind, jobs);
}

/** The shop uninstalled or was erased: in the caller's transaction, its queued and running jobs stop. */
export async function stopShopJobs(tx: Prisma.TransactionClient, shop: string): Promise<{ cancelled: number }> {
  return runByDatabase(tx, {
    sqlite: () => stopPrismaShopJobs(tx, shop),
    postgresql: async () => stopShopJobsWithPgBoss(await appBoss(), tx, shop),
  });
}

/** shop/redact: every job of the shop is deleted, finished or not. */
export async function eraseShopJobs(tx: Prisma.TransactionClient, shop: string): Promise<{ deleted: number }> {
  await stopShopJobs(tx, shop);
  return runByDatabase(tx, {
    sqlite: async () => ({ deleted: (await tx.job.deleteMany({ where: { shop } })).count }),
    postgresql: async () => eraseShopJobsWithPgBoss(await appBoss(), tx, shop),
  });
}

/** The queue for this database's client: pg-boss on PostgreSQL, the Job table on SQLite. */
export function jobQueueFor(db: PrismaClient): JobQueue {
  return runByDatabase(db, {
    sqlite: () => createPrismaJobQueue(db),
    // Workers supervise (expiry, retention); everything else uses the boss that supervises nothing.
    postgresql: (): JobQueue => ({
      ...createPgBossJobQueue(appBoss),
      createWorker: (definitions, options) => createPgBossWorker(workerBoss, definitions, options),
    }),
  });
}
