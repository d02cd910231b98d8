import type { z } from "zod";

import type { Result } from "~/utils/result";
import { describeThrown } from "~/utils/thrown";

// The job queue's port. Callers (web routes, webhooks, the worker's schedules) see only these
// types. The adapter follows the database (queue.server.ts): on SQLite, the app's Job table
// (prisma-job-queue.server.ts); on PostgreSQL, pg-boss (pg-boss-job-queue.server.ts). Both meet
// test/contracts/job-queue.contract.ts. See docs/decisions/0007-job-queue.md and 0015-pg-boss-queue.md.
//
// Delivery is at least once: a job whose worker dies is run again after its lease, so every
// handler must be safe to run twice (the label use cases are exactly-once by themselves, ADR 5).

/** What a handler is given besides its payload. */
export type JobContext = {
  readonly jobId: string;
  readonly shop: string;
  /** 1 for the first run; counts runs a dead worker started too. */
  readonly attempt: number;
  /** The job's own limit (its definition's, or what it was enqueued with): the attempt after which it is dead. */
  readonly maxAttempts: number;
  /**
   * A margin before the lease ends, as last renewed: a call made on the job's behalf must not
   * outlive it (ADR 5). Read it when a call starts; a renewal only moves it later, so a call
   * bounded by a deadline read earlier still ends in time.
   */
  readonly deadline: Date;
  /**
   * Aborted at the deadline when the lease could not be renewed (the database unreachable), at
   * once when a renewal finds the claim gone (taken over, the shop stopped), at the job's longest
   * run (`maxRunMs`), and when the worker is stopped and will not wait any longer: in each case
   * before another worker may take the job.
   */
  readonly signal: AbortSignal;
};

/**
 * What enqueueing needs to know of a job: its name, its payload's schema and its attempts. A web
 * route enqueues with this alone; only the worker builds the handler (and its Shopify and shipping
 * clients) around it, as a JobDefinition.
 */
export type JobKind<P> = {
  readonly name: string;
  readonly payloadSchema: z.ZodType<P, unknown>;
  /** Runs before the job is dead (default 5). */
  readonly maxAttempts?: number;
};

/** A named kind of job: its payload's schema, how many run at once per worker, retries, and the handler. */
export type JobDefinition<P> = JobKind<P> & {
  /** How many jobs of this name one worker process runs at the same time. */
  readonly concurrency: number;
  /**
   * How many jobs of this name one shop may have running at once, over every worker (default: no
   * cap but `concurrency`). A shop with a backlog of this kind (a bulk run's items) then leaves
   * the other slots to other shops' jobs, which wait for a free slot, not behind its backlog.
   */
  readonly perShopConcurrency?: number;
  /**
   * How many of one shop's jobs of this name one worker process runs at once (default: no cap but
   * `perShopConcurrency`). Without it the first worker to claim a shop's jobs keeps the shop's
   * slots: a job that ends wakes its own worker at once, and the others ask only each poll.
   */
  readonly perShopConcurrencyPerWorker?: number;
  /**
   * How long a claim lasts unless renewed (default 20 s). The worker renews it every quarter of
   * this while the handler runs, so a job outlives its lease only while its process lives: one
   * whose worker died is taken over after at most this (plus pg-boss's supervision interval).
   */
  readonly leaseMs?: number;
  /**
   * The longest one attempt may hold its claim (default 5 minutes): its lease is not renewed past
   * it, so a handler that hangs is aborted and the job taken over, as a dead worker's is.
   */
  readonly maxRunMs?: number;
  /** Wait before retry n (1-based): baseMs · 2^(n-1), at most maxMs (default 10 s … 1 h); pg-boss's has jitter (between it and twice it). */
  readonly backoff?: { readonly baseMs: number; readonly maxMs: number };
  /**
   * Throw to end the attempt; what becomes of the job is decided by the worker's one mapping
   * (`WorkerOptions.outcomeOf`: the app's is app/jobs/job-outcome.ts): transient failures are
   * retried with backoff, permanent ones make it dead at once, and some drop it.
   */
  readonly run: (payload: P, context: JobContext) => Promise<void>;
};

/** A failure that retrying cannot fix (a malformed payload, a shop that is gone): the job is dead at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** What becomes of a job whose attempt threw: run again after its backoff, dead at once, or ended quietly. */
export type JobOutcome =
  | { readonly kind: "retry"; readonly reason: string }
  | { readonly kind: "dead"; readonly reason: string }
  | { readonly kind: "dropped"; readonly reason: string };

/** The queue's own mapping, for a worker given none: dead for a PermanentJobError, else retried. */
export function queueOutcomeOf(thrown: unknown): JobOutcome {
  return { kind: thrown instanceof PermanentJobError ? "dead" : "retry", reason: describeThrown(thrown) };
}

export type EnqueueOptions = {
  /**
   * At most one queued or running job per (shop, name, key): enqueueing the same key again meanwhile
   * returns the job already there. Once it ended (done, dead, cancelled) the key is free again.
   */
  readonly dedupeKey?: string;
  /** Not before this time (default now). */
  readonly runAt?: Date;
  /** Overrides the definition's maxAttempts for this job. */
  readonly maxAttempts?: number;
};

export type EnqueueResult = { readonly jobId: string; readonly status: "enqueued" | "duplicate" };

/** A job that used up its attempts, as the Activity screen shows it. */
export type DeadJob = {
  readonly id: string;
  readonly name: string;
  readonly attempts: number;
  readonly lastError: string | null;
  /** When it died (ISO). */
  readonly failedAt: string;
  readonly createdAt: string;
};

export type RetryDeadJobError = { readonly code: "JOB_NOT_FOUND"; readonly logMessage: string };

export interface JobQueue {
  /** Stores the job for the worker; never runs it here. The payload is checked against the schema (a bad one throws: a bug). */
  enqueue<P>(kind: JobKind<P>, shop: string, payload: P, options?: EnqueueOptions): Promise<EnqueueResult>;
  /** The shop uninstalled or was erased: its queued jobs are cancelled and running ones lose their claim. */
  stopShopJobs(shop: string): Promise<{ cancelled: number }>;
  listDeadJobs(shop: string): Promise<DeadJob[]>;
  /** A dead job of this shop runs again, with a fresh set of attempts, as soon as a worker is free. */
  retryDeadJob(shop: string, jobId: string): Promise<Result<{ jobId: string }, RetryDeadJobError>>;
  /** A worker for these definitions; nothing runs until `start()`. */
  createWorker(definitions: readonly AnyJobDefinition[], options?: WorkerOptions): JobWorker;
}

// Definitions of different payloads in one list: each is only ever called with its own payload.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<any>;

export type WorkerOptions = {
  /** How often to look for due jobs when idle (default 1 s). */
  readonly pollIntervalMs?: number;
  /** How long a kind found with nothing due is not asked again (default 250 ms, at most the poll interval). */
  readonly emptyRecheckMs?: number;
  /**
   * Work done on a timer in the worker (never in the web process), e.g. enqueueing a sweep per shop:
   * the loop's own timer on SQLite, pg-boss's cron (once over every worker) on PostgreSQL.
   */
  readonly schedules?: readonly Schedule[];
  readonly log?: WorkerLog;
  readonly now?: () => Date;
  /** What becomes of a job whose attempt threw (default `queueOutcomeOf`); the app's is job-outcome.ts. */
  readonly outcomeOf?: (thrown: unknown) => JobOutcome;
};

export type Schedule = { readonly name: string; readonly everyMs: number; readonly run: () => Promise<void> };

/**
 * Where a worker's lines go (default: the app's logger, app/logger.server.ts). `context` names the
 * job (`shop`, `job`, `jobId`, `attempt`); a failed attempt to be retried is a warning, a job
 * that is dead an error. Without `warn`, warnings go to `error`.
 */
export type WorkerLog = {
  info(message: string, context?: Readonly<Record<string, unknown>>): void;
  warn?(message: string, error?: unknown, context?: Readonly<Record<string, unknown>>): void;
  error(message: string, error?: unknown, context?: Readonly<Record<string, unknown>>): void;
};

export type WorkerStopReport = {
  /** Jobs that finished (done or failed) during the grace period. */
  readonly finished: number;
  /** Jobs still running at the end of the grace period, handed back to the queue unchanged. */
  readonly released: number;
};

export interface JobWorker {
  start(): void;
  /**
   * Stops claiming, waits up to `graceMs` (default 20 s) for the jobs it runs, then aborts and
   * releases the rest (queued again) so another worker takes them at once. The Job table does not
   * count the interrupted attempt; pg-boss counts every start.
   */
  stop(options?: { graceMs?: number }): Promise<WorkerStopReport>;
}
