import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { databaseKindOf } from "~/db/database-kind.server";
import { jobOutcomeOf } from "~/jobs/job-outcome";
import type { AnyJobDefinition, EnqueueOptions, JobQueue, WorkerLog, WorkerOptions } from "~/queue/job-queue";
import { jobQueueFor } from "~/queue/queue.server";

// What tests read of the queue, whichever adapter holds the jobs: the Job table on SQLite,
// pg-boss's job table on PostgreSQL (app/queue/queue.server.ts). Statuses are the port's words.

export type JobStatus = "queued" | "running" | "done" | "dead" | "cancelled";
export type StoredJob = {
  id: string;
  name: string;
  shop: string;
  status: JobStatus;
  attempts: number;
  /** Not started before this. */
  runAt: Date;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the fields they enqueued
  payload: any;
};
export type JobFilter = { name?: string; shop?: string; status?: JobStatus | JobStatus[]; ids?: string[] };

type PgBossRow = {
  id: string;
  name: string;
  shop: string | null;
  state: string;
  payload: unknown;
  retry_count: number;
  started: boolean;
  dead: boolean;
  start_after: Date;
};

function statusOf(row: PgBossRow): JobStatus {
  switch (row.state) {
    case "created":
    case "retry":
      return "queued";
    case "active":
      return "running";
    case "completed":
      return "done";
    case "failed":
      return "dead";
    default:
      return row.dead ? "dead" : "cancelled";
  }
}

export async function listJobs(db: PrismaClient, filter: JobFilter = {}): Promise<StoredJob[]> {
  const statuses = filter.status === undefined ? null : [filter.status].flat();
  let jobs: StoredJob[];
  if (databaseKindOf(db) === "postgresql") {
    const rows = await db.$queryRaw<PgBossRow[]>`
      SELECT id::text AS id, name, data->>'shop' AS shop, state::text AS state, data->'payload' AS payload, retry_count,
             started_on IS NOT NULL AS started, coalesce(output->>'dead', '') = 'true' AS dead, start_after
      FROM pgboss.job ORDER BY created_on, id`;
    jobs = rows.map((row) => ({
      id: row.id,
      name: row.name,
      shop: row.shop ?? "",
      status: statusOf(row),
      // pg-boss counts a job's starts in retry_count (from 0); a job never started has none.
      attempts: row.started ? row.retry_count + 1 : row.retry_count,
      runAt: row.start_after,
      payload: row.payload,
    }));
  } else {
    const rows = await db.job.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    jobs = rows.map((row) => ({
      id: row.id,
      name: row.name,
      shop: row.shop,
      status: row.status as JobStatus,
      attempts: row.attempts,
      runAt: row.runAt,
      payload: JSON.parse(row.payload) as unknown,
    }));
  }
  return jobs.filter(
    (job) =>
      (filter.name === undefined || job.name === filter.name) &&
      (filter.shop === undefined || job.shop === filter.shop) &&
      (filter.ids === undefined || filter.ids.includes(job.id)) &&
      (statuses === null || statuses.includes(job.status)),
  );
}

export const countJobs = async (db: PrismaClient, filter: JobFilter = {}) => (await listJobs(db, filter)).length;

export async function findJob(db: PrismaClient, id: string): Promise<StoredJob> {
  const [job] = await listJobs(db, { ids: [id] });
  if (!job) throw new Error(`no job ${id}`);
  return job;
}

/** The app's queue for this database, with a worker started (tests stop it). */
export function startWorker(
  db: PrismaClient,
  definitions: readonly AnyJobDefinition[],
  options: WorkerOptions = {},
): { queue: JobQueue; stop: () => Promise<unknown> } {
  const queue = jobQueueFor(db);
  const worker = queue.createWorker(definitions, { pollIntervalMs: 20, outcomeOf: jobOutcomeOf, ...options });
  worker.start();
  return { queue, stop: () => worker.stop({ graceMs: 0 }) };
}

const RECOVERY_KIND = { name: "label-recovery", payloadSchema: z.object({}) };

/** Enqueues a label-recovery job for the shop through the app's queue (a stand-in for any job). */
export async function enqueueTestJob(db: PrismaClient, shop: string, options: EnqueueOptions = {}): Promise<string> {
  return (await jobQueueFor(db).enqueue(RECOVERY_KIND, shop, {}, options)).jobId;
}

/** A job of the shop that used up its attempts with this error, made through the app's queue and a worker. */
export async function createDeadJob(db: PrismaClient, shop: string, lastError: string): Promise<string> {
  const quiet = { info: () => {}, error: () => {} };
  const failing = {
    ...RECOVERY_KIND,
    maxAttempts: 1,
    concurrency: 1,
    run: async () => {
      throw new Error(lastError);
    },
  };
  const { queue, stop } = startWorker(db, [failing], { log: quiet });
  try {
    const { jobId } = await queue.enqueue(failing, shop, {});
    for (let waited = 0; waited < 15_000; waited += 50) {
      if ((await findJob(db, jobId)).status === "dead") return jobId;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} did not die within 15 s`);
  } finally {
    await stop();
  }
}

/**
 * The worker process has set its jobs' queues up long before anything is enqueued; on pg-boss a job
 * takes its queue's lease and backoff when it is enqueued. Starting (and stopping) a worker with
 * these definitions first does what that worker did. (On SQLite both are read from the definition
 * when the job runs, and this changes nothing.)
 */
export async function setUpQueues(db: PrismaClient, definitions: readonly AnyJobDefinition[]): Promise<void> {
  const worker = jobQueueFor(db).createWorker(definitions, { pollIntervalMs: 20, outcomeOf: jobOutcomeOf });
  worker.start();
  await worker.stop({ graceMs: 0 });
}

/** The worker's log, kept for the failure message (console.error would fail the test). */
export function collectingLog(name: string, lines: string[]): WorkerLog {
  return {
    info: (message) => lines.push(`${name} info: ${message}`),
    error: (message, error) =>
      lines.push(`${name} error: ${message}${error instanceof Error ? ` — ${error.message}` : ""}`),
  };
}
