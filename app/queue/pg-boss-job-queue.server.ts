import { randomUUID } from "node:crypto";

import type { Prisma } from "@prisma/client";
import { type CommandResponse, type Db as IDatabase, fromPrisma, PgBoss } from "pg-boss";
import { z } from "zod";

import { logger } from "~/logger.server";
import { err, ok, type Result } from "~/utils/result";

import type {
  AnyJobDefinition,
  DeadJob,
  EnqueueOptions,
  EnqueueResult,
  JobKind,
  JobQueue,
  JobWorker,
  RetryDeadJobError,
  WorkerOptions,
} from "./job-queue";
import {
  type ClaimedJob,
  createJobWorker,
  DEFAULT_BACKOFF,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  type JobStore,
} from "./job-worker.server";
import {
  type BatchedJob,
  enqueueBatched,
  insertJobs,
  isBatchingEnqueues,
  readKeyHolders,
} from "./pg-boss-batched-enqueue.server";
import { keepPgBossSchedules, scheduleJobDefinition } from "./pg-boss-schedules.server";

// The queue adapter for PostgreSQL: pg-boss keeps, claims (SKIP LOCKED), retries and expires the
// jobs; the worker loop (job-worker.server.ts) is the one the SQLite adapter uses, over a JobStore
// made of pg-boss's fetch/complete/fail. See docs/decisions/0015-pg-boss-queue.md.
//
// How the port maps onto pg-boss:
// - One pg-boss queue per job name, policy `exclusive` (at most one created, retry or active job per
//   singleton key): our de-duplication key. A job without a key gets a key of its own.
// - A job's data is { shop, payload, maxAttempts }; retryLimit is maxAttempts - 1.
// - Enqueueing inside the caller's Prisma transaction: pg-boss's insert runs through that
//   transaction (`send(…, { db })`), so the job exists exactly when its cause commits.
// - The lease is pg-boss's expireInSeconds: its supervisor fails (and so retries) a job whose worker
//   stopped answering. The worker renews it while the job runs (raising the job's expire_seconds,
//   fenced to its attempt). Retries wait pg-boss's exponential backoff from the definition's base.
// - "Dead" is pg-boss's `failed`, or `cancelled` with `dead: true` in its output: pg-boss fails a
//   job for good only once its retries are used up, so a PermanentJobError fails and cancels it.

export const PG_BOSS_SCHEMA = "pgboss";
// Finished jobs are kept two weeks (pg-boss deletes them after that), dead ones included: long
// enough for the Activity screen's "Retry".
const FINISHED_JOBS_KEPT_SECONDS = 14 * 24 * 60 * 60;

type JobData = { shop: string; payload: unknown; maxAttempts: number };

export type PgBossOptions = {
  /**
   * Whether this pg-boss supervises (fails jobs whose lease ended, deletes old ones) and sends the
   * schedules' ticks: workers do; a web process only enqueues and reads, and starts no background
   * work (default true).
   */
  supervise?: boolean;
  /** How often pg-boss looks for jobs whose worker stopped (lease ended); default 10 s. */
  superviseIntervalSeconds?: number;
  /** Connections in pg-boss's own pool (default 4); enqueueing inside a transaction uses the app's. */
  max?: number;
};

/** pg-boss statements run through a Prisma transaction (pg-boss's `db` option). */
const prismaDatabase = (db: Prisma.TransactionClient): IDatabase => fromPrisma(db);

// pg-boss's typings leave its command answers empty; at run time they count the jobs changed.
const CommandResponseSchema = z.object({ affected: z.number() });
const affected = (response: CommandResponse) => CommandResponseSchema.parse(response).affected;

/** Starts pg-boss on this database: installs or migrates its schema (under its own lock) first. */
export async function startPgBoss(url: string, options: PgBossOptions = {}): Promise<PgBoss> {
  const supervise = options.supervise ?? true;
  const boss = new PgBoss({
    connectionString: url,
    schema: PG_BOSS_SCHEMA,
    max: options.max ?? 4,
    // Workers run pg-boss's cron pass for the worker's schedules (pg-boss-schedules.server.ts).
    schedule: supervise,
    supervise,
    // Expiry runs in pg-boss's queue monitor pass, so both intervals bound how soon a dead
    // worker's job (lease ended) is failed for a retry.
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    monitorIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    registerInstance: false,
  });
  // Errors of pg-boss's own timers (maintenance, supervision): logged, never thrown at a caller.
  boss.on("error", (error) => logger.error({ err: error }, "pg-boss: background work failed"));
  try {
    await boss.start();
  } catch (error) {
    // Its pool and timers go with it; the caller may try again.
    await boss.stop({ graceful: false, timeout: 1000 }).catch(() => {});
    throw error;
  }
  return boss;
}

const ensured = new WeakMap<PgBoss, Map<string, Promise<void>>>();

/** Creates the job's queue the first time this process uses it (pg-boss refuses jobs of unknown queues). */
function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  let names = ensured.get(boss);
  if (!names) ensured.set(boss, (names = new Map()));
  let ready = names.get(name);
  if (!ready) {
    ready = (async () => {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, {
        policy: "exclusive",
        deleteAfterSeconds: FINISHED_JOBS_KEPT_SECONDS,
        expireInSeconds: leaseSeconds(undefined),
        ...retryOptions(undefined),
      });
    })();
    ready.catch(() => names.delete(name));
    names.set(name, ready);
  }
  return ready;
}

/** pg-boss's lease (expireInSeconds, whole seconds, at least 1) for a definition's leaseMs. */
const leaseSeconds = (leaseMs: number | undefined) => Math.max(1, Math.ceil((leaseMs ?? DEFAULT_LEASE_MS) / 1000));

/** pg-boss's retry settings for a definition's backoff: base and cap in whole seconds. */
function retryOptions(backoff: AnyJobDefinition["backoff"]) {
  const { baseMs, maxMs } = backoff ?? DEFAULT_BACKOFF;
  const retryDelay = Math.round(baseMs / 1000);
  // Under a second (tests): retried at once, as pg-boss has no finer delay.
  if (retryDelay === 0) return { retryDelay: 0, retryBackoff: false };
  return { retryDelay, retryBackoff: true, retryDelayMax: Math.max(retryDelay, Math.round(maxMs / 1000)) };
}

/** The worker's definitions set their queues' lease and backoff (jobs take them when enqueued). */
async function configureQueue(boss: PgBoss, definition: AnyJobDefinition): Promise<void> {
  await ensureQueue(boss, definition.name);
  await boss.updateQueue(definition.name, {
    expireInSeconds: leaseSeconds(definition.leaseMs),
    ...retryOptions(definition.backoff),
  });
}

/** A job as pg-boss keeps it: our data and the options our port's rules give it. */
function toPgBossJob<P>(kind: JobKind<P>, shop: string, payload: P, options: EnqueueOptions = {}): BatchedJob {
  // A payload that does not fit its job is a bug in the caller: fail loudly here, not in the worker.
  const parsed = kind.payloadSchema.parse(payload);
  const maxAttempts = options.maxAttempts ?? kind.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  // The shop is part of the key: two shops' jobs never de-duplicate each other.
  const singletonKey = options.dedupeKey === undefined ? `once:${randomUUID()}` : `${shop}:${options.dedupeKey}`;
  const data: JobData = { shop, payload: parsed, maxAttempts };
  return {
    data,
    options: {
      singletonKey,
      // The shop is the job's group, for the per-shop cap a worker may claim under.
      group: { id: shop },
      retryLimit: maxAttempts - 1,
      ...(options.runAt ? { startAfter: options.runAt } : {}),
    },
  };
}

/**
 * One job by `send`, through the caller's `connection` (its transaction) or else pg-boss's own
 * pool; a de-duplication key already held answers with its holder's id.
 */
async function sendJob(boss: PgBoss, connection: IDatabase | null, name: string, job: BatchedJob) {
  const { singletonKey } = job.options;
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = await boss.send(name, job.data, { ...job.options, ...(connection ? { db: connection } : {}) });
    if (id) return { jobId: id, status: "enqueued" as const };
    const holders = await readKeyHolders(connection ?? boss.getDb(), PG_BOSS_SCHEMA, name, [singletonKey]);
    const holder = holders.get(singletonKey);
    if (holder) return { jobId: holder, status: "duplicate" as const };
  }
  throw new Error(`enqueue ${name}: the de-duplication key ${singletonKey} kept changing hands`);
}

/**
 * Enqueues through `db`: a transaction client records the job in the caller's transaction.
 * Exported for the queue dispatcher (queue.server.ts); other code goes through the JobQueue.
 */
export async function enqueueWithPgBoss<P>(
  boss: PgBoss,
  db: Prisma.TransactionClient | null,
  kind: JobKind<P>,
  shop: string,
  payload: P,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  const job = toPgBossJob(kind, shop, payload, options);
  await ensureQueue(boss, kind.name);
  const connection = db ? prismaDatabase(db) : null;
  if (connection && isBatchingEnqueues(db)) {
    const batched = await enqueueBatched(boss, db, connection, PG_BOSS_SCHEMA, kind.name, job);
    if (batched) return batched;
  }
  return sendJob(boss, connection, kind.name, job);
}

/**
 * Enqueues several jobs of one kind through `connection` (a caller's transaction on the app's
 * pool, ready-deliveries.server.ts) in one insert, answered in order as `enqueueWithPgBoss`
 * answers each.
 */
export async function enqueueManyWithPgBoss<P>(
  boss: PgBoss,
  connection: IDatabase,
  kind: JobKind<P>,
  jobs: readonly { shop: string; payload: P; options?: EnqueueOptions }[],
): Promise<EnqueueResult[]> {
  const built = jobs.map((job) => toPgBossJob(kind, job.shop, job.payload, job.options));
  if (built.length === 0) return [];
  await ensureQueue(boss, kind.name);
  const inserted = await insertJobs(boss, connection, PG_BOSS_SCHEMA, kind.name, built);
  return Promise.all(
    inserted.map((result, i) => result ?? sendJob(boss, connection, kind.name, built[i] as BatchedJob)),
  );
}

type StoredJob = { id: string; name: string };

/** The shop's jobs in these states, by queue: read through `db` so a transaction sees its own writes. */
async function shopJobs(db: IDatabase, shop: string, live: boolean): Promise<Map<string, string[]>> {
  const { rows } = await db.executeSql(
    `SELECT id::text AS id, name FROM ${PG_BOSS_SCHEMA}.job
     WHERE data->>'shop' = $1 ${live ? "AND state < 'completed'" : ""}`,
    [shop],
  );
  const byName = new Map<string, string[]>();
  for (const row of rows as StoredJob[]) byName.set(row.name, [...(byName.get(row.name) ?? []), row.id]);
  return byName;
}

// pg-boss fails a job by deleting its row and inserting it again (same id, new state): a statement
// that waited for such a fail skips the re-inserted row. Each pass reads afresh, so a few passes
// catch a job that was failing at the moment.
const SHOP_PASSES = 5;

/** Applies `act` to the shop's jobs (only live ones, or all), pass after pass until none is left; answers how many it changed. */
async function actOnShopJobs(
  connection: IDatabase,
  shop: string,
  live: boolean,
  act: (name: string, ids: string[]) => Promise<CommandResponse>,
): Promise<number> {
  let changed = 0;
  for (let pass = 0; pass < SHOP_PASSES; pass++) {
    const jobs = await shopJobs(connection, shop, live);
    if (jobs.size === 0) break;
    for (const [name, ids] of jobs) changed += affected(await act(name, ids));
  }
  return changed;
}

/** Cancels the shop's waiting and running jobs (a running one's worker then finds its claim gone). */
export async function stopShopJobsWithPgBoss(boss: PgBoss, db: Prisma.TransactionClient | null, shop: string) {
  const connection = db ? prismaDatabase(db) : boss.getDb();
  const cancelled = await actOnShopJobs(connection, shop, true, (name, ids) =>
    boss.cancel(name, ids, { db: connection }),
  );
  return { cancelled };
}

/** Deletes every job of the shop, finished or not (shop/redact). */
export async function eraseShopJobsWithPgBoss(boss: PgBoss, db: Prisma.TransactionClient, shop: string) {
  const connection = prismaDatabase(db);
  const deleted = await actOnShopJobs(connection, shop, false, (name, ids) =>
    boss.deleteJob(name, ids, { db: connection }),
  );
  return { deleted };
}

const DEAD = `(state = 'failed' OR (state = 'cancelled' AND output->>'dead' = 'true'))`;

type DeadRow = {
  id: string;
  name: string;
  retry_count: number;
  message: string | null;
  completed_on: Date | null;
  created_on: Date;
};

export async function listDeadJobsWithPgBoss(boss: PgBoss, shop: string, take = 50): Promise<DeadJob[]> {
  const { rows } = await boss.getDb().executeSql(
    // pg-boss's supervisor records a lease that ran out as { value: { message } }.
    `SELECT id::text AS id, name, retry_count, completed_on, created_on,
            coalesce(output->>'message', output->'value'->>'message') AS message
     FROM ${PG_BOSS_SCHEMA}.job
     WHERE data->>'shop' = $1 AND ${DEAD}
     ORDER BY completed_on DESC NULLS LAST, id DESC LIMIT $2`,
    [shop, take],
  );
  return (rows as DeadRow[]).map((row) => ({
    id: row.id,
    name: row.name,
    attempts: row.retry_count + 1,
    lastError: row.message,
    failedAt: (row.completed_on ?? row.created_on).toISOString(),
    createdAt: row.created_on.toISOString(),
  }));
}

/** Runs statements in one transaction of pg-boss's own pool. */
async function inTransaction<T>(boss: PgBoss, run: (db: IDatabase) => Promise<T>): Promise<T> {
  const begin = boss.getDb().beginTransaction;
  if (!begin) throw new Error("pg-boss's database has no transactions");
  const tx = await begin.call(boss.getDb());
  try {
    const result = await run(tx.db);
    await tx.commit();
    return result;
  } catch (error) {
    await tx.rollback();
    throw error;
  }
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function retryDeadJobWithPgBoss(
  boss: PgBoss,
  shop: string,
  jobId: string,
): Promise<Result<{ jobId: string }, RetryDeadJobError>> {
  const notFound = (why: string) => err({ code: "JOB_NOT_FOUND" as const, logMessage: `retryDeadJob: ${why}` });
  if (!isUuid(jobId)) return notFound(`no dead job ${jobId} in ${shop}`);
  try {
    return await inTransaction(boss, async (db) => {
      const { rows } = await db.executeSql(
        `SELECT name, state, retry_count, data FROM ${PG_BOSS_SCHEMA}.job
         WHERE id = $1 AND data->>'shop' = $2 AND ${DEAD} FOR UPDATE`,
        [jobId, shop],
      );
      const row = rows[0] as { name: string; state: string; retry_count: number; data: JobData } | undefined;
      if (!row) return notFound(`no dead job ${jobId} in ${shop}`);
      // Back to waiting, then a fresh set of attempts: its next run counts retry_count + 1.
      if (row.state === "failed") await boss.retry(row.name, jobId, { db });
      else await boss.resume(row.name, jobId, { db });
      const maxAttempts = row.data.maxAttempts || DEFAULT_MAX_ATTEMPTS;
      // A fresh waiting period too: pg-boss deletes a job still waiting past its retention.
      await boss.update(row.name, undefined, {
        id: jobId,
        retryLimit: row.retry_count + maxAttempts,
        retentionSeconds: FINISHED_JOBS_KEPT_SECONDS,
        db,
      });
      return ok({ jobId });
    });
  } catch (error) {
    // Its key is held by a newer job of the same work (unique violation): that one does it.
    if ((error as { code?: string }).code === "23505") return notFound(`job ${jobId}: a newer job holds its key`);
    throw error;
  }
}

/** The worker loop's store over pg-boss. The token is the attempt pg-boss handed out (its retry count). */
export function createPgBossJobStore(boss: PgBoss): JobStore {
  const attemptOf = (job: ClaimedJob) => ({ id: job.id, retryCount: Number(job.token) });
  return {
    async claimNext(definition, _now, skipShops) {
      // The lease is judged by the database's clock from the job's start; counted here from just
      // before the fetch, on this process's clock, it ends no later than the real one.
      const fetchedAt = Date.now();
      const [job] = await boss.fetch<JobData>(definition.name, {
        batchSize: 1,
        includeMetadata: true,
        // Every job's group is its shop (enqueueWithPgBoss): pg-boss counts a group's active jobs
        // over every worker and skips the waiting jobs of a shop at its cap.
        ...(definition.perShopConcurrency === undefined ? {} : { groupConcurrency: definition.perShopConcurrency }),
        // The shops at this worker's own share of them (the loop counts its running jobs).
        ...(skipShops?.length ? { ignoreGroups: [...skipShops] } : {}),
      });
      if (!job) return null;
      const data = job.data as Partial<JobData> | null;
      return {
        id: job.id,
        shop: typeof data?.shop === "string" ? data.shop : "",
        name: definition.name,
        // A job whose data lacks its payload fails its schema in the loop: dead, with why.
        payload: data?.payload,
        attempts: job.retryCount + 1,
        maxAttempts: job.retryLimit + 1,
        token: String(job.retryCount),
        leaseUntil: new Date(fetchedAt + job.expireInSeconds * 1000),
      };
    },

    async complete(job) {
      return affected(await boss.complete(job.name, attemptOf(job))) === 1;
    },

    async fail(job, error, retryAt) {
      const output = { message: error };
      // pg-boss schedules the retry itself (its backoff, from the definition's base), so retryAt
      // only says whether there is one. With attempts left, only a permanent error has none.
      if (retryAt || job.attempts >= job.maxAttempts) {
        return affected(await boss.fail(job.name, attemptOf(job), output)) === 1;
      }
      return inTransaction(boss, async (db) => {
        const failed = await boss.fail(job.name, attemptOf(job), { ...output, dead: true }, { db });
        if (affected(failed) !== 1) return false;
        await boss.cancel(job.name, job.id, { db });
        return true;
      });
    },

    async renew(job, leaseUntil, now) {
      // pg-boss expires an active job at started_on + expire_seconds (its supervisor then fails it
      // for a retry): the lease is extended by raising expire_seconds, counted on the database's
      // clock, fenced to the attempt this worker fetched as complete and fail are. (Its own
      // heartbeat, touch() with heartbeatSeconds, cannot go below 10 s and adds a second clock.)
      const seconds = leaseSeconds(leaseUntil.getTime() - now.getTime());
      const { rows } = await boss.getDb().executeSql(
        `WITH renewed AS (
           UPDATE ${PG_BOSS_SCHEMA}.job
           SET expire_seconds = GREATEST(expire_seconds,
             CEIL(EXTRACT(EPOCH FROM (${PG_BOSS_SCHEMA}.job_now() - started_on)))::int + $4)
           WHERE name = $1 AND id = $2::uuid AND retry_count = $3 AND state = 'active'
           RETURNING 1
         ) SELECT count(*)::int AS renewed FROM renewed`,
        [job.name, job.id, Number(job.token), seconds],
      );
      return (rows[0] as { renewed: number } | undefined)?.renewed === 1;
    },

    async release(job) {
      // Back to waiting at once (pg-boss has no un-claim: cancel and resume in one transaction).
      // pg-boss counts every start, so the interrupted run counts as an attempt.
      return inTransaction(boss, async (db) => {
        const cancelled = await boss.cancel(job.name, attemptOf(job), { db });
        if (affected(cancelled) !== 1) return false;
        await boss.resume(job.name, job.id, { db });
        return true;
      });
    },
  };
}

/** The queue on pg-boss. `boss` is started lazily by the caller (pgBossFor); every call awaits it. */
export function createPgBossJobQueue(getBoss: () => Promise<PgBoss>): JobQueue {
  return {
    enqueue: async (kind, shop, payload, options) =>
      enqueueWithPgBoss(await getBoss(), null, kind, shop, payload, options),
    stopShopJobs: async (shop) => stopShopJobsWithPgBoss(await getBoss(), null, shop),
    listDeadJobs: async (shop) => listDeadJobsWithPgBoss(await getBoss(), shop),
    retryDeadJob: async (shop, jobId) => retryDeadJobWithPgBoss(await getBoss(), shop, jobId),
    createWorker: (definitions, options?: WorkerOptions) => createPgBossWorker(getBoss, definitions, options),
  };
}

const START_RETRY_MS = { first: 1000, most: 30_000 };

export function createPgBossWorker(
  getBoss: () => Promise<PgBoss>,
  definitions: readonly AnyJobDefinition[],
  options: WorkerOptions = {},
): JobWorker {
  const schedules = options.schedules ?? [];
  const withTicks = [...definitions, ...schedules.map(scheduleJobDefinition)];
  let inner: JobWorker | null = null;
  let starting: Promise<void> | null = null;
  let stopped = false;
  let wakeStarter: (() => void) | null = null;
  const log = options.log ?? {
    error: (message: string, error?: unknown) => logger.error(error === undefined ? {} : { err: error }, message),
  };
  return {
    start() {
      // A database that is not there yet (a deploy, a failover) is waited for, never given up on:
      // a worker process that runs nothing while looking alive would be worse than one that exits.
      starting ??= (async () => {
        for (let attempt = 0; !stopped; attempt++) {
          try {
            const boss = await getBoss();
            for (const definition of withTicks) await configureQueue(boss, definition);
            await keepPgBossSchedules(boss, schedules);
            if (stopped) return;
            // pg-boss sends the ticks; the loop runs them as jobs and keeps no timers of its own.
            inner = createJobWorker(createPgBossJobStore(boss), withTicks, { ...options, schedules: [] });
            inner.start();
            return;
          } catch (error) {
            const waitMs = Math.min(START_RETRY_MS.most, START_RETRY_MS.first * 2 ** attempt);
            log.error(`job worker: pg-boss did not start; trying again in ${waitMs / 1000} s`, error);
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, waitMs);
              wakeStarter = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
        }
      })();
    },
    async stop(stopOptions) {
      stopped = true;
      wakeStarter?.();
      await starting;
      return inner ? inner.stop(stopOptions) : { finished: 0, released: 0 };
    },
  };
}
