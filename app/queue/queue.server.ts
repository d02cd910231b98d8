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

/** The caller's transaction: Prisma's, or on PostgreSQL one on a `pg` connection outside Prisma (ADR 25). */
export type TransactionConnection = Prisma.TransactionClient | IDatabase;

export type JobToEnqueue<P> = { readonly shop: string; readonly payload: P; readonly options?: EnqueueOptions };

/**
 * The one way to enqueue in the caller's transaction: the jobs exist exactly when it commits,
 * answered in order. On a `pg` connection they go out as one insert; in a Prisma transaction one
 * by one (a group commit batches its transaction's, pg-boss-batched-enqueue.server.ts).
 */
export async function enqueueJobs<P>(
  connection: TransactionConnection,
  kind: JobKind<P>,
  jobs: readonly JobToEnqueue<P>[],
): Promise<EnqueueResult[]> {
  // A Prisma client has no `executeSql` (its raw queries are `$`-named).
  if (typeof (connection as IDatabase).executeSql === "function") {
    return enqueueManyWithPgBoss(await appBoss(), connection as IDatabase, kind, jobs);
  }
  const tx = connection as Prisma.TransactionClient;
  const results: EnqueueResult[] = [];
  for (const { shop, payload, options } of jobs) {
    results.push(
      await runByDatabase(tx, {
        sqlite: () => enqueuePrismaJob(tx, kind, shop, payload, options),
        postgresql: async () => enqueueWithPgBoss(await appBoss(), tx, kind, shop, payload, options),
      }),
    );
  }
  return results;
}

/** One job, as `enqueueJobs` enqueues it. */
export async function enqueueJob<P>(
  connection: TransactionConnection,
  kind: JobKind<P>,
  shop: string,
  payload: P,
  options?: EnqueueOptions,
): Promise<EnqueueResult> {
  return (await enqueueJobs(connection, kind, [{ shop, payload, options }]))[0] as EnqueueResult;
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
