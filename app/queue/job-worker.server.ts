import { retryWhileConnectionLost } from "~/db/client.server";
import { logFor, logger } from "~/logger.server";
import { runWithAccessContext } from "~/utils/access-context.server";

import {
  type AnyJobDefinition,
  type JobWorker,
  PermanentJobError,
  queueOutcomeOf,
  type Schedule,
  type WorkerLog,
  type WorkerOptions,
  type WorkerStopReport,
} from "./job-queue";

// The worker loop, over the storage a queue adapter provides. It claims due jobs up to each
// definition's concurrency, runs them, and records the outcome; every record is conditional on
// the claim's token, so a worker that lost its lease (or whose shop was stopped) changes nothing.
// While a handler runs, its short lease is renewed (a heartbeat, also conditional on the token):
// a job holds its claim only as long as its process lives, so a dead worker's job is taken over
// in seconds, not after the longest a job may run.

/** A job a worker claimed: it owns it until `leaseUntil` (unless renewed), proven by `token`. */
export type ClaimedJob = {
  readonly id: string;
  readonly shop: string;
  readonly name: string;
  readonly payload: unknown;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly token: string;
  readonly leaseUntil: Date;
};

/** What the loop needs from a store. Each write is conditional on the token; false when the claim was lost. */
export interface JobStore {
  /** The next due job of this kind, of a shop other than `skipShops` (those at this worker's share). */
  claimNext(definition: AnyJobDefinition, now: Date, skipShops?: readonly string[]): Promise<ClaimedJob | null>;
  complete(job: ClaimedJob, now: Date): Promise<boolean>;
  /** Queued again at `retryAt`, or dead when `retryAt` is null. */
  fail(job: ClaimedJob, error: string, retryAt: Date | null, now: Date): Promise<boolean>;
  /** Queued again at once, the attempt not counted. */
  release(job: ClaimedJob, now: Date): Promise<boolean>;
  /**
   * The claim held until `leaseUntil` (never shortened), if the token still holds it: false when
   * the job was taken over, stopped, or ended. Throws when the store could not be asked.
   */
  renew(job: ClaimedJob, leaseUntil: Date, now: Date): Promise<boolean>;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
// Short, and renewed while the handler runs (every RENEWALS_PER_LEASE-th of it): a worker that
// dies holds its jobs at most this long. Three renewals in a row may fail (a database hiccup)
// before the handler is aborted.
export const DEFAULT_LEASE_MS = 20_000;
export const DEFAULT_MAX_RUN_MS = 5 * 60_000;
export const DEFAULT_BACKOFF = { baseMs: 10_000, maxMs: 60 * 60_000 };
const DEFAULT_GRACE_MS = 20_000;
const RENEWALS_PER_LEASE = 4;
// Handlers are told to stop a little before their lease ends, so their last write lands in time.
const LEASE_MARGIN_MS = 5_000;
// A job's outcome is written through a lost connection (a database restart) while its claim is
// still ours, so a finished job is not run again only because its "done" was not heard.
const settle = <T>(write: () => Promise<T>) =>
  retryWhileConnectionLost(write, { withinMs: DEFAULT_LEASE_MS - LEASE_MARGIN_MS });

/** The margin before a lease's end at which its handler is told to stop (at most a quarter of it). */
export function leaseMarginMs(leaseMs: number): number {
  return Math.min(LEASE_MARGIN_MS, leaseMs / RENEWALS_PER_LEASE);
}
// A kind found with nothing due is not asked again for this long (at most the poll interval):
// every job that ends wakes the loop, and asking each idle kind's table again on every wake was
// most of a busy worker's queries (a bulk run's 1,000 purchases woke it 1,000 times).
const EMPTY_RECHECK_MS = 250;

/** The wait before the retry after attempt `attempt` (1-based). */
export function retryDelayMs(definition: Pick<AnyJobDefinition, "backoff">, attempt: number): number {
  const { baseMs, maxMs } = definition.backoff ?? DEFAULT_BACKOFF;
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error).slice(0, 2000);
}

// The app's logger, each line with the job's context (shop, job, jobId, attempt).
const appLog: WorkerLog = {
  info: (message, context) => (context ? logFor(context) : logger).info(message),
  warn: (message, error, context) =>
    (context ? logFor(context) : logger).warn(error === undefined ? {} : { err: error }, message),
  error: (message, error, context) =>
    (context ? logFor(context) : logger).error(error === undefined ? {} : { err: error }, message),
};

type Running = { job: ClaimedJob; controller: AbortController; done: Promise<void> };

export function createJobWorker(
  store: JobStore,
  definitions: readonly AnyJobDefinition[],
  options: WorkerOptions = {},
): JobWorker {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? appLog;
  const outcomeOf = options.outcomeOf ?? queueOutcomeOf;
  const warn = (log.warn ?? log.error).bind(log);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const names = new Set<string>();
  for (const definition of definitions) {
    if (names.has(definition.name)) throw new Error(`Two job definitions are named ${definition.name}`);
    if (!(definition.concurrency >= 1)) throw new Error(`Job ${definition.name} needs a concurrency of at least 1`);
    if (definition.perShopConcurrency !== undefined && !(definition.perShopConcurrency >= 1)) {
      throw new Error(`Job ${definition.name} needs a per-shop concurrency of at least 1`);
    }
    if (definition.perShopConcurrencyPerWorker !== undefined && !(definition.perShopConcurrencyPerWorker >= 1)) {
      throw new Error(`Job ${definition.name} needs a per-worker share of a shop's jobs of at least 1`);
    }
    names.add(definition.name);
  }

  const emptyRecheckMs = Math.min(pollIntervalMs, options.emptyRecheckMs ?? EMPTY_RECHECK_MS);
  const foundEmptyAt = new Map<string, number>();
  const running = new Map<string, Running>();
  const runningOf = (name: string) => [...running.values()].filter((r) => r.job.name === name).length;
  /** The shops running as many jobs of this kind in this process as its per-worker share allows. */
  const shopsAtWorkerShare = (definition: AnyJobDefinition): string[] => {
    const share = definition.perShopConcurrencyPerWorker;
    if (share === undefined) return [];
    const byShop = new Map<string, number>();
    for (const { job } of running.values()) {
      if (job.name === definition.name) byShop.set(job.shop, (byShop.get(job.shop) ?? 0) + 1);
    }
    return [...byShop].filter(([, count]) => count >= share).map(([shop]) => shop);
  };
  let state: "idle" | "running" | "stopping" | "stopped" = "idle";
  let wake: (() => void) | null = null;
  // A job that ends while the loop is still claiming (awaiting the database) finds no sleeper to
  // wake: remembered, so the loop claims again at once instead of sleeping a whole poll interval
  // with a free slot (a bulk run's items went one a second per slot).
  let wakeRequested = false;
  const requestWake = () => {
    wakeRequested = true;
    wake?.();
  };
  let loop: Promise<void> = Promise.resolve();
  const scheduleTimers: NodeJS.Timeout[] = [];
  const released = new Set<string>();

  /**
   * Keeps the job's lease alive while its handler runs: renewed every quarter of the lease, up to
   * the job's longest run. The handler is aborted at the margin before the lease it holds (so a
   * store that cannot be reached past the lease stops it before another worker may take the job),
   * and at once when a renewal finds the claim gone. Ends with the handler, or once aborted.
   */
  function keepLease(definition: AnyJobDefinition, job: ClaimedJob, controller: AbortController) {
    const context = { shop: job.shop, job: job.name, jobId: job.id, attempt: job.attempts };
    const leaseMs = definition.leaseMs ?? DEFAULT_LEASE_MS;
    const marginMs = leaseMarginMs(leaseMs);
    const runUntil = now().getTime() + (definition.maxRunMs ?? DEFAULT_MAX_RUN_MS);
    let leaseUntil = job.leaseUntil;
    let ended = false;
    let renewing = false;
    let abortTimer: NodeJS.Timeout | undefined;
    const armAbort = () => {
      clearTimeout(abortTimer);
      const left = leaseUntil.getTime() - now().getTime() - marginMs;
      abortTimer = setTimeout(() => controller.abort(new Error("job lease ended")), Math.max(0, left));
    };
    const renew = async () => {
      if (ended || renewing) return;
      const at = now();
      // Counted from before the call: a slow answer never extends the lease past what the store holds.
      const next = new Date(Math.min(at.getTime() + leaseMs, runUntil));
      if (next.getTime() <= leaseUntil.getTime()) return;
      renewing = true;
      try {
        const held = await store.renew(job, next, at);
        if (ended) return;
        if (!held) {
          log.info(`job ${job.name} lost its claim while running: aborted`, context);
          controller.abort(new Error("job claim lost"));
          return;
        }
        leaseUntil = next;
        armAbort();
      } catch (error) {
        // The lease it holds still stands; the abort timer stops the handler before it ends.
        if (!ended) warn(`job ${job.name}: renewing its lease failed`, error, context);
      } finally {
        renewing = false;
      }
    };
    const renewTimer = setInterval(() => void renew(), leaseMs / RENEWALS_PER_LEASE);
    const end = () => {
      ended = true;
      clearInterval(renewTimer);
      clearTimeout(abortTimer);
    };
    // Aborted for any reason (lease, claim, stop): the job is no longer this worker's to hold.
    controller.signal.addEventListener("abort", () => {
      ended = true;
      clearInterval(renewTimer);
    });
    armAbort();
    return { deadline: () => new Date(leaseUntil.getTime() - marginMs), end };
  }

  async function runJob(definition: AnyJobDefinition, job: ClaimedJob, controller: AbortController): Promise<void> {
    const context = { shop: job.shop, job: job.name, jobId: job.id, attempt: job.attempts };
    const lease = keepLease(definition, job, controller);
    try {
      const parsed = definition.payloadSchema.safeParse(job.payload);
      if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.message}`);
      // The job's reads of personal data are logged as the job's (ADR 28).
      const access = { actor: `job:${job.name}`, purpose: job.name };
      const run = runWithAccessContext(access, () =>
        definition.run(parsed.data, {
          jobId: job.id,
          shop: job.shop,
          attempt: job.attempts,
          maxAttempts: job.maxAttempts,
          get deadline() {
            return lease.deadline();
          },
          signal: controller.signal,
        }),
      );
      // No renewal after the handler returned: the outcome below ends the claim.
      await run.finally(lease.end);
      if (released.has(job.id)) return;
      if (!(await settle(() => store.complete(job, now()))))
        log.info(`job ${job.name} finished after losing its claim`, context);
    } catch (error) {
      lease.end();
      if (released.has(job.id)) return;
      // One mapping for every job (the app's: job-outcome.ts): retried with backoff, dead, or dropped.
      const outcome = outcomeOf(error);
      if (outcome.kind === "dropped") {
        log.info(`job ${job.name} dropped: ${outcome.reason}`, context);
        await settle(() => store.complete(job, now()));
        return;
      }
      const retryAt =
        outcome.kind === "dead" || job.attempts >= job.maxAttempts
          ? null
          : new Date(now().getTime() + retryDelayMs(definition, job.attempts));
      if (retryAt) {
        warn(`job ${job.name} attempt ${job.attempts} failed, retrying at ${retryAt.toISOString()}`, error, context);
      } else {
        log.error(`job ${job.name} is dead after attempt ${job.attempts}: ${outcome.reason}`, error, context);
      }
      await settle(() => store.fail(job, describeError(error), retryAt, now()));
    } finally {
      lease.end();
    }
  }

  async function claimDue(): Promise<boolean> {
    let claimedAny = false;
    for (const definition of definitions) {
      const emptyAt = foundEmptyAt.get(definition.name);
      if (emptyAt !== undefined && performance.now() - emptyAt < emptyRecheckMs) continue;
      foundEmptyAt.delete(definition.name);
      while (state === "running" && runningOf(definition.name) < definition.concurrency) {
        const skipShops = shopsAtWorkerShare(definition);
        const job = await store.claimNext(definition, now(), skipShops.length ? skipShops : undefined);
        if (!job) {
          foundEmptyAt.set(definition.name, performance.now());
          break;
        }
        claimedAny = true;
        const controller = new AbortController();
        const entry: Running = { job, controller, done: Promise.resolve() };
        entry.done = runJob(definition, job, controller)
          .catch((error: unknown) =>
            log.error(`job ${job.name}: recording its outcome failed`, error, {
              shop: job.shop,
              job: job.name,
              jobId: job.id,
            }),
          )
          .finally(() => {
            running.delete(job.id);
            // Its kind has a free slot now, and its shop one under a per-shop cap: asked again at
            // once, even if it was found with nothing claimable a moment ago (its shop at the cap).
            foundEmptyAt.delete(job.name);
            requestWake();
          });
        running.set(job.id, entry);
      }
    }
    return claimedAny;
  }

  async function pollLoop(): Promise<void> {
    while (state === "running") {
      let claimed = false;
      wakeRequested = false;
      try {
        claimed = await claimDue();
      } catch (error) {
        log.error("claiming jobs failed", error);
      }
      if (claimed || wakeRequested || state !== "running") continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }

  function startSchedule(schedule: Schedule) {
    let busy = false;
    const tick = () => {
      if (busy || state !== "running") return;
      busy = true;
      // A schedule's reads of personal data are logged as its own, like a job's (ADR 28).
      runWithAccessContext({ actor: `job:${schedule.name}`, purpose: schedule.name }, () => schedule.run())
        .catch((error: unknown) => log.error(`schedule ${schedule.name} failed`, error))
        .finally(() => {
          busy = false;
        });
    };
    tick();
    scheduleTimers.push(setInterval(tick, schedule.everyMs));
  }

  return {
    start() {
      if (state !== "idle") return;
      state = "running";
      loop = pollLoop();
      for (const schedule of options.schedules ?? []) startSchedule(schedule);
    },
    async stop(stopOptions = {}): Promise<WorkerStopReport> {
      if (state === "idle" || state === "stopped") {
        state = "stopped";
        return { finished: 0, released: 0 };
      }
      state = "stopping";
      for (const timer of scheduleTimers.splice(0)) clearInterval(timer);
      requestWake();
      await loop;
      const holding = [...running.values()];
      const graceMs = stopOptions.graceMs ?? DEFAULT_GRACE_MS;
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(holding.map((r) => r.done)),
        new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(graceTimer);
      const left = [...running.values()];
      for (const entry of left) {
        released.add(entry.job.id);
        entry.controller.abort(new Error("worker stopping"));
        await store.release(entry.job, now());
      }
      state = "stopped";
      return { finished: holding.length - left.length, released: left.length };
    },
  };
}
