import { randomUUID } from "node:crypto";

import type { Prisma } from "@prisma/client";
import type { Db as IDatabase, JobInsert, PgBoss } from "pg-boss";

import type { EnqueueResult } from "./job-queue";

// Group commit on PostgreSQL (app/webhooks/webhook-delivery.server.ts) writes a batch of webhook
// deliveries in one transaction, and each delivery may enqueue a job. pg-boss's `send` is one
// statement a job, through Prisma's raw-query path: about 1 ms of a web process's CPU each, the
// largest part of a delivery's cost in a burst (ADR 20, "webhooks on PostgreSQL, after the server
// change"). In a transaction marked with `batchEnqueues`, the jobs enqueued within one turn of the
// event loop go out as one pg-boss `insert`, with ids chosen here; a job whose de-duplication key
// was held already is answered with the holder's id, as `send` would, read in one more statement.

/** The options `enqueueWithPgBoss` gives a job, to `send` or to this batch's `insert` alike. */
export type PgBossJobOptions = Pick<JobInsert, "group" | "retryLimit" | "startAfter"> & { singletonKey: string };

/** One job as `enqueueWithPgBoss` would `send` it. */
export type BatchedJob = { readonly data: object; readonly options: PgBossJobOptions };

type Waiting = {
  readonly name: string;
  readonly job: BatchedJob;
  readonly resolve: (result: EnqueueResult | null) => void;
  readonly reject: (error: unknown) => void;
};

type Batch = { waiting: Waiting[]; scheduled: boolean };

const batches = new WeakMap<Prisma.TransactionClient, Batch>();

/** From now until `endBatchedEnqueues`, jobs enqueued in `tx` are inserted together. */
export function batchEnqueues(tx: Prisma.TransactionClient): void {
  batches.set(tx, { waiting: [], scheduled: false });
}

export function endBatchedEnqueues(tx: Prisma.TransactionClient): void {
  batches.delete(tx);
}

export function isBatchingEnqueues(tx: Prisma.TransactionClient | null): tx is Prisma.TransactionClient {
  return tx !== null && batches.has(tx);
}

/**
 * Enqueues `job` with the others of this turn. Null when its key's holder could not be read (it
 * ended meanwhile): the caller sends it alone then, as it would have.
 */
export function enqueueBatched(
  boss: PgBoss,
  tx: Prisma.TransactionClient,
  db: IDatabase,
  schema: string,
  name: string,
  job: BatchedJob,
): Promise<EnqueueResult | null> {
  const batch = batches.get(tx);
  if (!batch) throw new Error("enqueueBatched: the transaction is not batching its enqueues");
  return new Promise((resolve, reject) => {
    batch.waiting.push({ name, job, resolve, reject });
    if (batch.scheduled) return;
    batch.scheduled = true;
    // The deliveries' effects run side by side; each reaches its enqueue after its own reads, so
    // the flush waits for the turn of the event loop they share.
    setImmediate(() => {
      const waiting = batch.waiting.splice(0);
      batch.scheduled = false;
      void insertTogether(boss, db, schema, waiting);
    });
  });
}

/**
 * The live job (created, retrying or active) holding each of these de-duplication keys, by key.
 * Read straight from the exclusive index's rows: pg-boss's findJobs would page through every
 * finished job that ever had the key (kept 14 days) before the live one. Called after an insert
 * that skipped them, which waited for any transaction holding a key to end: a holder read then is
 * committed (or the caller's own).
 */
export async function readKeyHolders(
  db: IDatabase,
  schema: string,
  name: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const { rows } = await db.executeSql(
    `SELECT id::text AS id, singleton_key AS key FROM ${schema}.job
     WHERE name = $1 AND singleton_key = ANY($2::text[]) AND state <= 'active'`,
    [name, keys],
  );
  return new Map((rows as { id: string; key: string }[]).map((row) => [row.key, row.id]));
}

/**
 * Inserts jobs of one queue in one statement, with ids chosen here, and answers each in order: its
 * id, or the id of the job holding its de-duplication key (as `send` answers), or null when that
 * holder ended before it could be read (the caller sends that one alone).
 */
export async function insertJobs(
  boss: PgBoss,
  db: IDatabase,
  schema: string,
  name: string,
  jobs: readonly BatchedJob[],
): Promise<(EnqueueResult | null)[]> {
  const ids = jobs.map(() => randomUUID());
  const inserted = new Set(
    (await boss.insert(
      name,
      jobs.map((job, i) => ({ ...job.options, id: ids[i], data: job.data })),
      { db, returnId: true },
    )) ?? [],
  );
  const held = jobs.filter((_, i) => !inserted.has(ids[i] as string));
  // Two jobs of one insert with one key: the second's holder is the first.
  const holders = held.length
    ? await readKeyHolders(
        db,
        schema,
        name,
        held.map((job) => job.options.singletonKey),
      )
    : new Map<string, string>();
  return jobs.map((job, i) => {
    const id = ids[i] as string;
    if (inserted.has(id)) return { jobId: id, status: "enqueued" };
    const holder = holders.get(job.options.singletonKey);
    return holder ? { jobId: holder, status: "duplicate" } : null;
  });
}

async function insertTogether(boss: PgBoss, db: IDatabase, schema: string, waiting: Waiting[]): Promise<void> {
  const byName = new Map<string, Waiting[]>();
  for (const entry of waiting) {
    const entries = byName.get(entry.name);
    if (entries) entries.push(entry);
    else byName.set(entry.name, [entry]);
  }
  for (const [name, entries] of byName) {
    try {
      const results = await insertJobs(
        boss,
        db,
        schema,
        name,
        entries.map((entry) => entry.job),
      );
      entries.forEach((entry, i) => entry.resolve(results[i] ?? null));
    } catch (error) {
      for (const entry of entries) entry.reject(error);
    }
  }
}
