import { randomUUID } from "node:crypto";

import type { Job, Prisma, PrismaClient } from "@prisma/client";

import { isUniqueViolation } from "~/utils/prisma-errors";
import { err, ok, type Result } from "~/utils/result";

import type {
  AnyJobDefinition,
  DeadJob,
  EnqueueOptions,
  EnqueueResult,
  JobKind,
  JobQueue,
  RetryDeadJobError,
  WorkerOptions,
} from "./job-queue";
import {
  type ClaimedJob,
  createJobWorker,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  type JobStore,
} from "./job-worker.server";

// The queue adapter on SQLite: jobs are rows of the app's database, claimed the way labels are
// (ADR 5): one conditional update from the state a job may leave, with a fresh token and a lease;
// every later write is conditional on that token. PostgreSQL runs its jobs on pg-boss
// (pg-boss-job-queue.server.ts; ADR 26 removed this table's PostgreSQL path, which only tests
// reached). See docs/decisions/0007-job-queue.md.

export type JobStatus = "queued" | "running" | "done" | "dead" | "cancelled";

const CLAIM_CANDIDATES = 10;
const CLAIM_ROUNDS = 3;
const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60_000;

const dedupeKeyFor = (shop: string, name: string, key: string) => `${shop}:${name}:${key}`;

/** Ends a job: the key is free again and no one holds it. */
export const ended = (status: JobStatus, now: Date, lastError?: string) => ({
  status,
  dedupeKey: null,
  claimToken: null,
  leaseUntil: null,
  finishedAt: now,
  ...(lastError === undefined ? {} : { lastError }),
});

export async function enqueueJob<P>(
  db: Prisma.TransactionClient,
  definition: JobKind<P>,
  shop: string,
  payload: P,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  // A payload that does not fit its job is a bug in the caller: fail loudly here, not in the worker.
  const parsed = definition.payloadSchema.parse(payload);
  const dedupeKey = options.dedupeKey === undefined ? null : dedupeKeyFor(shop, definition.name, options.dedupeKey);
  const maxAttempts = options.maxAttempts ?? definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const runAt = options.runAt ?? new Date();
  // The job holding the key may end between our insert and our read: try again then.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const job = await db.job.create({
        data: {
          shop,
          name: definition.name,
          payload: JSON.stringify(parsed),
          dedupeKey,
          runAt,
          maxAttempts,
        },
      });
      return { jobId: job.id, status: "enqueued" };
    } catch (error) {
      if (!dedupeKey || !isUniqueViolation(error)) throw error;
      const holder = await db.job.findUnique({ where: { dedupeKey }, select: { id: true } });
      if (holder) return { jobId: holder.id, status: "duplicate" };
    }
  }
  throw new Error(
    `enqueue ${definition.name} for ${shop}: the de-duplication key ${options.dedupeKey} kept changing hands`,
  );
}

/** Takes a transaction client: app/uninstalled and shop/redact stop the jobs in their own transaction. */
export async function stopShopJobs(db: Prisma.TransactionClient, shop: string, now = new Date()) {
  const { count } = await db.job.updateMany({
    where: { shop, status: { in: ["queued", "running"] } },
    data: ended("cancelled", now, "stopped: the app was uninstalled from the shop"),
  });
  return { cancelled: count };
}

function toDeadJob(row: Job): DeadJob {
  return {
    id: row.id,
    name: row.name,
    attempts: row.attempts,
    lastError: row.lastError,
    failedAt: (row.finishedAt ?? row.updatedAt).toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listDeadJobs(db: PrismaClient, shop: string, options: { take?: number } = {}) {
  const rows = await db.job.findMany({
    where: { shop, status: "dead" },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    take: options.take ?? 50,
  });
  return rows.map(toDeadJob);
}

export async function retryDeadJob(
  db: PrismaClient,
  shop: string,
  jobId: string,
  now = new Date(),
): Promise<Result<{ jobId: string }, RetryDeadJobError>> {
  const { count } = await db.job.updateMany({
    where: { id: jobId, shop, status: "dead" },
    data: { status: "queued", attempts: 0, runAt: now, finishedAt: null, claimToken: null, leaseUntil: null },
  });
  if (count === 1) return ok({ jobId });
  return err({ code: "JOB_NOT_FOUND", logMessage: `retryDeadJob: no dead job ${jobId} in ${shop}` });
}

/** Done and cancelled jobs are kept a week for inspection, then deleted. Dead jobs stay until retried. */
export async function pruneFinishedJobs(db: PrismaClient, now = new Date()): Promise<{ deleted: number }> {
  const { count } = await db.job.deleteMany({
    where: {
      status: { in: ["done", "cancelled"] },
      finishedAt: { lt: new Date(now.getTime() - FINISHED_JOBS_KEPT_MS) },
    },
  });
  return { deleted: count };
}

function parsePayload(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined; // fails the definition's schema: the job is dead, with why
  }
}

/**
 * One store operation at a time per worker process. On SQLite, the libsql adapter runs a write in
 * a transaction on its own connection: a claim and a completion overlapping in one process can
 * each hold the lock the other waits for until both time out. Across processes (PostgreSQL), the
 * conditional updates decide; correctness never depends on this.
 */
function serialized<A extends unknown[], R>(lock: { tail: Promise<unknown> }, operation: (...args: A) => Promise<R>) {
  return (...args: A): Promise<R> => {
    const result = lock.tail.then(() => operation(...args));
    lock.tail = result.catch(() => undefined);
    return result;
  };
}

export function createPrismaJobStore(db: PrismaClient): JobStore {
  const lock = { tail: Promise.resolve() as Promise<unknown> };
  const store = createUnserializedStore(db);
  return {
    claimNext: serialized(lock, store.claimNext),
    complete: serialized(lock, store.complete),
    fail: serialized(lock, store.fail),
    release: serialized(lock, store.release),
    renew: serialized(lock, store.renew),
  };
}

/**
 * The shops running as many jobs of this kind as its per-shop cap allows (a lease not over), whose
 * waiting jobs are not claimed now. Read before the claim, not with it: within a process the store
 * runs one operation at a time, so the cap holds there; two processes claiming for one shop at the
 * same moment may each take its last slot.
 */
async function findShopsAtCap(db: PrismaClient, definition: AnyJobDefinition, now: Date): Promise<string[]> {
  const cap = definition.perShopConcurrency;
  if (cap === undefined) return [];
  const busy = await db.job.groupBy({
    by: ["shop"],
    where: { name: definition.name, status: "running", leaseUntil: { gte: now } },
    having: { shop: { _count: { gte: cap } } },
  });
  return busy.map((row) => row.shop);
}

function createUnserializedStore(db: PrismaClient): JobStore {
  const own = (job: ClaimedJob) => ({ id: job.id, status: "running", claimToken: job.token });
  return {
    async claimNext(
      definition: AnyJobDefinition,
      now: Date,
      skipShops?: readonly string[],
    ): Promise<ClaimedJob | null> {
      const leaseMs = definition.leaseMs ?? DEFAULT_LEASE_MS;
      // Other workers may take every candidate first: read again rather than report "nothing
      // due" (which would leave this kind unasked for a while, job-worker.server.ts).
      for (let round = 0; round < CLAIM_ROUNDS; round++) {
        const shopsNotNow = [...(await findShopsAtCap(db, definition, now)), ...(skipShops ?? [])];
        const candidates = await db.job.findMany({
          where: {
            name: definition.name,
            ...(shopsNotNow.length ? { shop: { notIn: shopsNotNow } } : {}),
            OR: [
              { status: "queued", runAt: { lte: now } },
              // Its worker died (or stalled past its lease): take it over.
              { status: "running", leaseUntil: { lt: now } },
            ],
          },
          orderBy: [{ runAt: "asc" }, { id: "asc" }],
          take: CLAIM_CANDIDATES,
        });
        if (candidates.length === 0) return null;
        for (const candidate of candidates) {
          // Conditional on exactly what we read: another worker's claim in between changes it.
          const from: Prisma.JobWhereInput =
            candidate.status === "queued"
              ? { id: candidate.id, status: "queued", runAt: { lte: now } }
              : { id: candidate.id, status: "running", claimToken: candidate.claimToken, leaseUntil: { lt: now } };
          if (candidate.status === "running" && candidate.attempts >= candidate.maxAttempts) {
            // The last attempt's worker never came back: no attempt is left to take it over with.
            await db.job.updateMany({
              where: from,
              data: ended(
                "dead",
                now,
                candidate.lastError ?? "the worker running its last attempt stopped (lease ended)",
              ),
            });
            continue;
          }
          const token = randomUUID();
          const leaseUntil = new Date(now.getTime() + leaseMs);
          const { count } = await db.job.updateMany({
            where: from,
            data: { status: "running", claimToken: token, leaseUntil, attempts: { increment: 1 } },
          });
          if (count !== 1) continue;
          return {
            id: candidate.id,
            shop: candidate.shop,
            name: candidate.name,
            payload: parsePayload(candidate.payload),
            attempts: candidate.attempts + 1,
            maxAttempts: candidate.maxAttempts,
            token,
            leaseUntil,
          };
        }
      }
      return null;
    },

    async complete(job, now) {
      const { count } = await db.job.updateMany({ where: own(job), data: ended("done", now) });
      return count === 1;
    },

    async fail(job, error, retryAt, now) {
      const data: Prisma.JobUpdateManyMutationInput = retryAt
        ? { status: "queued", runAt: retryAt, lastError: error, claimToken: null, leaseUntil: null }
        : ended("dead", now, error);
      const { count } = await db.job.updateMany({ where: own(job), data });
      return count === 1;
    },

    async release(job, now) {
      const { count } = await db.job.updateMany({
        where: own(job),
        data: { status: "queued", runAt: now, claimToken: null, leaseUntil: null, attempts: { decrement: 1 } },
      });
      return count === 1;
    },

    async renew(job, leaseUntil) {
      // Only the claim's holder: a worker that took the job over holds another token.
      const { count } = await db.job.updateMany({ where: own(job), data: { leaseUntil } });
      return count === 1;
    },
  };
}

/**
 * The database-backed queue: the default for SQLite and PostgreSQL alike. `now` is the one clock
 * of the queue and its workers: a job enqueued without `runAt` is due at `now()`, and workers
 * compare due times against the same clock (a test that fixes it never mixes it with the calendar).
 */
export function createPrismaJobQueue(db: PrismaClient, clock: { now?: () => Date } = {}): JobQueue {
  const now = clock.now ?? (() => new Date());
  const store = createPrismaJobStore(db);
  return {
    enqueue: (definition, shop, payload, options) =>
      enqueueJob(db, definition, shop, payload, { ...options, runAt: options?.runAt ?? now() }),
    stopShopJobs: (shop) => stopShopJobs(db, shop, now()),
    listDeadJobs: (shop) => listDeadJobs(db, shop),
    retryDeadJob: (shop, jobId) => retryDeadJob(db, shop, jobId, now()),
    createWorker: (definitions, options?: WorkerOptions) => createJobWorker(store, definitions, { now, ...options }),
  };
}
