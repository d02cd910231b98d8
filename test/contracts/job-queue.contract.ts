import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import {
  type JobContext,
  type JobDefinition,
  type JobQueue,
  type JobWorker,
  PermanentJobError,
} from "~/queue/job-queue";

import { TEST_SHOP } from "../setup/test-env";

// What every JobQueue adapter promises (app/queue/job-queue.ts), checked only through the port:
// the SQLite adapter (the app's Job table) and pg-boss (PostgreSQL) run these same cases
// (app/queue/prisma-job-queue.contract.test.ts, test/postgresql/pg-boss-job-queue.contract.test.ts).
// Workers are started before anything is enqueued: pg-boss binds a job's lease and backoff when
// it is enqueued, from its queue, which a worker configures from its definitions as it starts.

const OTHER_SHOP = "other-shop.myshopify.com";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { info: () => {}, error: () => {} };
const WAIT = { timeout: 15_000, interval: 20 };

type Run = { n: number; shop: string; attempt: number; maxAttempts: number; at: number };
type Behaviour = (payload: { n: number }, context: JobContext, runs: Run[]) => Promise<void>;

export function describeJobQueueContract(adapter: string, makeQueue: () => JobQueue) {
  describe(`the job queue contract (${adapter})`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    let kinds = 0;
    /** A job kind of its own per test, recording every run. */
    function recordingJob(
      behaviour: Behaviour = async () => {},
      options: Partial<
        Pick<
          JobDefinition<{ n: number }>,
          | "concurrency"
          | "perShopConcurrency"
          | "perShopConcurrencyPerWorker"
          | "maxAttempts"
          | "backoff"
          | "leaseMs"
          | "maxRunMs"
        >
      > = {},
    ) {
      const runs: Run[] = [];
      const definition: JobDefinition<{ n: number }> = {
        name: `contract-${process.pid}-${++kinds}`,
        payloadSchema: z.object({ n: z.number() }),
        concurrency: options.concurrency ?? 2,
        maxAttempts: options.maxAttempts ?? 3,
        backoff: options.backoff ?? { baseMs: 0, maxMs: 0 },
        ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
        ...(options.maxRunMs ? { maxRunMs: options.maxRunMs } : {}),
        ...(options.perShopConcurrency ? { perShopConcurrency: options.perShopConcurrency } : {}),
        ...(options.perShopConcurrencyPerWorker
          ? { perShopConcurrencyPerWorker: options.perShopConcurrencyPerWorker }
          : {}),
        run: async (payload, context) => {
          runs.push({
            n: payload.n,
            shop: context.shop,
            attempt: context.attempt,
            maxAttempts: context.maxAttempts,
            at: Date.now(),
          });
          await behaviour(payload, context, runs);
        },
      };
      return { definition, runs };
    }

    async function started(queue: JobQueue, definition: JobDefinition<{ n: number }>): Promise<JobWorker> {
      const worker = queue.createWorker([definition], { pollIntervalMs: 20, log: quiet });
      worker.start();
      cleanups.push(() => worker.stop({ graceMs: 0 }));
      // A worker readies its queue as it starts (pg-boss): give it that moment.
      await sleep(300);
      return worker;
    }

    it("runs an enqueued job once, in the worker, with its payload, shop and first attempt", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob();
      await started(queue, definition);
      const { status } = await queue.enqueue(definition, TEST_SHOP, { n: 7 });
      expect(status).toBe("enqueued");
      await expect.poll(() => runs.length, WAIT).toBe(1);
      await sleep(200);
      expect(runs).toEqual([expect.objectContaining({ n: 7, shop: TEST_SHOP, attempt: 1, maxAttempts: 3 })]);
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
    });

    it("answers the job already waiting for a de-duplication key, per shop, and frees the key once it ended", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob();
      await started(queue, definition);
      const later = new Date(Date.now() + 1500);
      const first = await queue.enqueue(definition, TEST_SHOP, { n: 1 }, { dedupeKey: "k", runAt: later });
      const again = await queue.enqueue(definition, TEST_SHOP, { n: 2 }, { dedupeKey: "k" });
      const otherShop = await queue.enqueue(definition, OTHER_SHOP, { n: 3 }, { dedupeKey: "k", runAt: later });
      expect(again).toEqual({ jobId: first.jobId, status: "duplicate" });
      expect(otherShop.status).toBe("enqueued");
      expect(otherShop.jobId).not.toBe(first.jobId);

      await expect.poll(() => runs.length, WAIT).toBe(2);
      expect(runs.map((run) => run.n).sort()).toEqual([1, 3]);
      // Ended: the key takes a new job. A run is recorded as it starts, and the job ends a moment
      // later (the worker records it done): until then the same key still answers that job.
      let next = await queue.enqueue(definition, TEST_SHOP, { n: 4 }, { dedupeKey: "k" });
      await expect
        .poll(async () => {
          if (next.status === "duplicate") {
            expect(next.jobId).toBe(first.jobId);
            next = await queue.enqueue(definition, TEST_SHOP, { n: 4 }, { dedupeKey: "k" });
          }
          return next.status;
        }, WAIT)
        .toBe("enqueued");
      expect(next.jobId).not.toBe(first.jobId);
      await expect.poll(() => runs.length, WAIT).toBe(3);
    });

    it("refuses a payload that does not fit its schema and stores nothing", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob();
      await started(queue, definition);
      await expect(queue.enqueue(definition, TEST_SHOP, { n: "seven" } as unknown as { n: number })).rejects.toThrow();
      await sleep(500);
      expect(runs).toEqual([]);
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
    });

    it("does not run a job before its runAt", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob();
      await started(queue, definition);
      const runAt = Date.now() + 1500;
      await queue.enqueue(definition, TEST_SHOP, { n: 1 }, { runAt: new Date(runAt) });
      await expect.poll(() => runs.length, WAIT).toBe(1);
      expect(runs[0]?.at).toBeGreaterThanOrEqual(runAt - 50);
    });

    it("retries a failing job after its backoff, then keeps it as dead with its last error", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob(
        async ({ n }, context) => {
          throw new Error(`carrier down (job ${n}, attempt ${context.attempt})`);
        },
        { maxAttempts: 2, backoff: { baseMs: 1000, maxMs: 1000 } },
      );
      await started(queue, definition);
      const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(async () => (await queue.listDeadJobs(TEST_SHOP)).length, WAIT).toBe(1);
      expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
      // A backoff of a second (pg-boss adds jitter: at least half of it).
      expect((runs[1]?.at ?? 0) - (runs[0]?.at ?? 0)).toBeGreaterThanOrEqual(450);
      const [dead] = await queue.listDeadJobs(TEST_SHOP);
      expect(dead).toMatchObject({ id: jobId, name: definition.name, attempts: 2 });
      expect(dead?.lastError).toContain("carrier down (job 1, attempt 2)");
      expect(await queue.listDeadJobs(OTHER_SHOP)).toEqual([]);
    });

    it("makes a job dead after one attempt when it throws PermanentJobError", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob(async () => {
        throw new PermanentJobError("the shop is gone");
      });
      await started(queue, definition);
      const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(async () => (await queue.listDeadJobs(TEST_SHOP)).map((job) => job.id), WAIT).toEqual([jobId]);
      await sleep(300);
      expect(runs).toHaveLength(1);
      expect((await queue.listDeadJobs(TEST_SHOP))[0]?.lastError).toContain("the shop is gone");
    });

    it("runs a dead job again with a fresh set of attempts, for its own shop only", async () => {
      const queue = makeQueue();
      let permanent = true;
      const { definition, runs } = recordingJob(
        async () => {
          if (permanent) throw new PermanentJobError("bad address");
          throw new Error("still failing");
        },
        { maxAttempts: 2 },
      );
      await started(queue, definition);
      const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(async () => (await queue.listDeadJobs(TEST_SHOP)).length, WAIT).toBe(1);

      expect(await queue.retryDeadJob(OTHER_SHOP, jobId)).toMatchObject({
        ok: false,
        error: { code: "JOB_NOT_FOUND" },
      });
      expect(await queue.retryDeadJob(TEST_SHOP, "not-a-job")).toMatchObject({ ok: false });
      permanent = false;
      expect(await queue.retryDeadJob(TEST_SHOP, jobId)).toEqual({ ok: true, value: { jobId } });
      await expect.poll(() => runs.length, WAIT).toBe(3);
      await expect.poll(async () => (await queue.listDeadJobs(TEST_SHOP)).length, WAIT).toBe(1);
      // Its two fresh attempts were used, and no more.
      await sleep(300);
      expect(runs).toHaveLength(3);
      const [, second, third] = runs;
      expect(second && third && third.attempt - second.attempt).toBe(1);
      expect(third?.attempt).toBe(third?.maxAttempts);
    });

    it("cancels the waiting jobs of a shop that was stopped, and only that shop's", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob();
      const runAt = new Date(Date.now() + 1000);
      await started(queue, definition);
      await queue.enqueue(definition, TEST_SHOP, { n: 1 }, { runAt });
      await queue.enqueue(definition, TEST_SHOP, { n: 2 }, { runAt, dedupeKey: "k" });
      await queue.enqueue(definition, OTHER_SHOP, { n: 3 }, { runAt });
      expect(await queue.stopShopJobs(TEST_SHOP)).toEqual({ cancelled: 2 });
      await expect.poll(() => runs.length, WAIT).toBe(1);
      await sleep(500);
      expect(runs.map((run) => run.shop)).toEqual([OTHER_SHOP]);
      // A stopped job is not dead, and its key is free.
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
      expect((await queue.enqueue(definition, TEST_SHOP, { n: 4 }, { dedupeKey: "k" })).status).toBe("enqueued");
    });

    it("runs at most its concurrency of a kind at once in one worker", async () => {
      const queue = makeQueue();
      let running = 0;
      let most = 0;
      const { definition, runs } = recordingJob(
        async () => {
          running++;
          most = Math.max(most, running);
          await sleep(150);
          running--;
        },
        { concurrency: 2 },
      );
      await started(queue, definition);
      for (let n = 0; n < 6; n++) await queue.enqueue(definition, TEST_SHOP, { n });
      await expect.poll(() => runs.length, WAIT).toBe(6);
      expect(most).toBe(2);
    });

    it("runs another shop's job beside one shop's backlog of the same kind, the backlog held to its per-shop cap", async () => {
      const queue = makeQueue();
      const runningPerShop = new Map<string, number>();
      let mostOfOneShop = 0;
      const { definition, runs } = recordingJob(
        async (_payload, context) => {
          const now = (runningPerShop.get(context.shop) ?? 0) + 1;
          runningPerShop.set(context.shop, now);
          mostOfOneShop = Math.max(mostOfOneShop, now);
          await sleep(100);
          runningPerShop.set(context.shop, (runningPerShop.get(context.shop) ?? 1) - 1);
        },
        { concurrency: 3, perShopConcurrency: 2 },
      );
      await started(queue, definition);
      // A bulk run's items, then another shop's one job.
      for (let n = 0; n < 12; n++) await queue.enqueue(definition, TEST_SHOP, { n });
      await queue.enqueue(definition, OTHER_SHOP, { n: 99 });
      await expect.poll(() => runs.length, WAIT).toBe(13);
      // First in first out, it would have run last; the free slot took it while the backlog went on.
      expect(runs.findIndex((run) => run.shop === OTHER_SHOP)).toBeLessThan(8);
      expect(mostOfOneShop).toBe(2);
    });

    it("shares one shop's backlog between two workers, each running at most its per-worker share", async () => {
      const queue = makeQueue();
      const runningIn = [0, 0];
      const mostIn = [0, 0];
      const ranIn = [0, 0];
      const { definition, runs } = recordingJob(async () => {}, {
        concurrency: 6,
        perShopConcurrency: 4,
        perShopConcurrencyPerWorker: 2,
      });
      // The same kind in two worker processes, each counting what it runs.
      const inWorker = (index: number): JobDefinition<{ n: number }> => ({
        ...definition,
        run: async (payload, context) => {
          runningIn[index] = (runningIn[index] ?? 0) + 1;
          mostIn[index] = Math.max(mostIn[index] ?? 0, runningIn[index] ?? 0);
          ranIn[index] = (ranIn[index] ?? 0) + 1;
          await definition.run(payload, context);
          await sleep(100);
          runningIn[index] = (runningIn[index] ?? 1) - 1;
        },
      });
      await started(queue, inWorker(0));
      await started(queue, inWorker(1));
      for (let n = 0; n < 12; n++) await queue.enqueue(definition, TEST_SHOP, { n });
      await expect.poll(() => runs.length, WAIT).toBe(12);
      // Without a share, the worker that claimed first took all four of the shop's slots.
      expect(mostIn).toEqual([2, 2]);
      expect(ranIn.every((count) => count >= 3)).toBe(true);
    });

    it("on stop, waits for running jobs, then hands back those still running to another worker", async () => {
      const queue = makeQueue();
      let holdFirstWorker = true;
      const { definition, runs } = recordingJob(async (_payload, context) => {
        if (!holdFirstWorker) return;
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
      });
      const first = queue.createWorker([definition], { pollIntervalMs: 20, log: quiet });
      first.start();
      await sleep(300);
      await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(() => runs.length, WAIT).toBe(1);
      expect(await first.stop({ graceMs: 100 })).toEqual({ finished: 0, released: 1 });

      holdFirstWorker = false;
      await started(queue, definition);
      await expect.poll(() => runs.length, WAIT).toBe(2);
      await sleep(300);
      expect(runs.map((run) => run.n)).toEqual([1, 1]);
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
    });

    it("keeps a job that runs past its lease with its worker, which renews it: no other worker takes it over", async () => {
      const queue = makeQueue();
      const { definition, runs } = recordingJob(
        async () => {
          await sleep(3500);
        },
        { leaseMs: 1000, maxAttempts: 3 },
      );
      await started(queue, definition);
      await started(queue, definition);
      await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(() => runs.length, WAIT).toBe(1);
      // Three leases and more, with supervision every second (pg-boss): a lease not renewed would
      // have been taken over by the other worker by now.
      await sleep(5000);
      expect(runs.map((run) => run.attempt)).toEqual([1]);
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
    });

    it("lets another worker take over a job whose handler hung past its longest run; the hung run's end changes nothing", async () => {
      const queue = makeQueue();
      let releaseStalled: () => void = () => {};
      const stalled = new Promise<void>((resolve) => (releaseStalled = resolve));
      const { definition, runs } = recordingJob(
        async (_payload, context) => {
          // The first run ignores its deadline and its abort, as a hung handler would.
          if (context.attempt === 1) await stalled;
        },
        { leaseMs: 1000, maxRunMs: 1500, maxAttempts: 3 },
      );
      await started(queue, definition);
      await started(queue, definition);
      await queue.enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(() => runs.length, { ...WAIT, timeout: 20_000 }).toBe(2);
      expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
      releaseStalled();
      await sleep(500);
      expect(runs).toHaveLength(2);
      expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
    });
  });
}
