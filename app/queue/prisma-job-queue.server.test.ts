import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import db from "~/db.server";

import { TEST_SHOP } from "../../test/setup/test-env";
import { type JobDefinition, type JobWorker, PermanentJobError } from "./job-queue";
import {
  createPrismaJobQueue,
  createPrismaJobStore,
  listDeadJobs,
  retryDeadJob,
  stopShopJobs,
} from "./prisma-job-queue.server";

const OTHER_SHOP = "other-shop.myshopify.com";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { info: () => {}, error: () => {} };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function started(worker: JobWorker): JobWorker {
  worker.start();
  cleanups.push(() => worker.stop({ graceMs: 0 }));
  return worker;
}

/** A job that counts its runs per payload, in this process. */
function countingJob(options: { ms?: number; concurrency?: number; fail?: (n: number) => Error | null } = {}) {
  const runs = new Map<number, number>();
  const definition = {
    name: "counting",
    payloadSchema: z.object({ n: z.number() }),
    concurrency: options.concurrency ?? 2,
    backoff: { baseMs: 1000, maxMs: 8000 },
    maxAttempts: 3,
    run: async ({ n }) => {
      runs.set(n, (runs.get(n) ?? 0) + 1);
      if (options.ms) await sleep(options.ms);
      const failure = options.fail?.(n);
      if (failure) throw failure;
    },
  } satisfies JobDefinition<{ n: number }>;
  return { definition, runs };
}

const jobRow = (id: string) => db.job.findUniqueOrThrow({ where: { id } });
const waitForStatus = (id: string, status: string) =>
  expect.poll(async () => (await jobRow(id)).status, { timeout: 5000, interval: 10 }).toBe(status);

describe("the job queue", () => {
  it("runs an enqueued job once in the worker and marks it done", async () => {
    const queue = createPrismaJobQueue(db);
    const { definition, runs } = countingJob();
    const { jobId, status } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
    expect(status).toBe("enqueued");
    expect(runs.size).toBe(0); // enqueueing never runs anything

    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));
    await waitForStatus(jobId, "done");
    expect(runs.get(1)).toBe(1);
  });

  it("keeps one queued job per de-duplication key, and frees the key once the job ended", async () => {
    const queue = createPrismaJobQueue(db);
    const { definition, runs } = countingJob();
    const first = await queue.enqueue(definition, TEST_SHOP, { n: 1 }, { dedupeKey: "sweep" });
    const again = await queue.enqueue(definition, TEST_SHOP, { n: 2 }, { dedupeKey: "sweep" });
    const otherShop = await queue.enqueue(definition, OTHER_SHOP, { n: 3 }, { dedupeKey: "sweep" });
    expect(again).toEqual({ jobId: first.jobId, status: "duplicate" });
    expect(otherShop.status).toBe("enqueued");

    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));
    await waitForStatus(first.jobId, "done");
    const later = await queue.enqueue(definition, TEST_SHOP, { n: 4 }, { dedupeKey: "sweep" });
    expect(later.status).toBe("enqueued");
    await waitForStatus(later.jobId, "done");
    expect([...runs.keys()].sort()).toEqual([1, 3, 4]);
  });

  it("claims the next job as soon as a slot frees, even when it frees while the worker is claiming", async () => {
    const queue = createPrismaJobQueue(db);
    const { definition, runs } = countingJob({ concurrency: 2 });
    // A second kind with nothing queued: the worker awaits the database for it on every round,
    // and jobs of the first kind end meanwhile.
    const idle = { ...countingJob().definition, name: "idle" };
    const ids: string[] = [];
    for (let n = 1; n <= 12; n++) ids.push((await queue.enqueue(definition, TEST_SHOP, { n })).jobId);
    const startedAt = Date.now();
    // A poll interval longer than the test: only wake-ups move the queue.
    started(queue.createWorker([definition, idle], { pollIntervalMs: 60_000, log: quiet }));
    await expect
      .poll(async () => db.job.count({ where: { id: { in: ids }, status: "done" } }), { timeout: 20_000, interval: 20 })
      .toBe(12);
    expect(runs.size).toBe(12);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it("does not run a job before its run-at time", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const queue = createPrismaJobQueue(db, { now: () => clock });
    const { definition, runs } = countingJob();
    const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 }, { runAt: new Date("2026-11-23T10:05:00Z") });
    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));
    await sleep(100);
    expect(runs.size).toBe(0);
    clock = new Date("2026-11-23T10:05:00Z");
    await waitForStatus(jobId, "done");
  });

  it("refuses a payload that does not fit the job's schema when it is enqueued", async () => {
    const { definition } = countingJob();
    await expect(
      createPrismaJobQueue(db).enqueue(definition, TEST_SHOP, { n: "one" } as unknown as { n: number }),
    ).rejects.toThrow();
    expect(await db.job.count()).toBe(0);
  });

  it("retries a failing job with exponential backoff, then keeps it as dead with its last error", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const at = (ms: number) => new Date(Date.parse("2026-11-23T10:00:00Z") + ms);
    const { definition, runs } = countingJob({ fail: () => new Error("service unavailable") });
    // One clock for the queue and its worker: the job is due at the fixed time, whatever the calendar says.
    const queue = createPrismaJobQueue(db, { now: () => clock });
    const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));

    // Attempt 1 fails: the retry waits 1 s; attempt 2 fails: it waits 2 s; attempt 3 is the last.
    await expect.poll(async () => (await jobRow(jobId)).runAt, { timeout: 5000 }).toEqual(at(1000));
    expect(await jobRow(jobId)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "Error: service unavailable",
    });
    clock = at(999);
    await sleep(80);
    expect(runs.get(1)).toBe(1);
    clock = at(1000);
    await expect.poll(async () => (await jobRow(jobId)).runAt, { timeout: 5000 }).toEqual(at(3000));
    clock = at(3000);
    await waitForStatus(jobId, "dead");
    expect(runs.get(1)).toBe(3);

    expect(await listDeadJobs(db, TEST_SHOP)).toEqual([
      expect.objectContaining({ id: jobId, name: "counting", attempts: 3, lastError: "Error: service unavailable" }),
    ]);
    expect(await listDeadJobs(db, OTHER_SHOP)).toEqual([]);
  });

  it("runs a dead job again when the merchant retries it, and only for the shop that owns it", async () => {
    let fail = true;
    const { definition, runs } = countingJob({ fail: () => (fail ? new PermanentJobError("bad address") : null) });
    const queue = createPrismaJobQueue(db);
    const { jobId } = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));
    await waitForStatus(jobId, "dead");
    expect(runs.get(1)).toBe(1); // a permanent failure is not retried

    expect(await retryDeadJob(db, OTHER_SHOP, jobId)).toMatchObject({ ok: false, error: { code: "JOB_NOT_FOUND" } });
    fail = false;
    expect(await retryDeadJob(db, TEST_SHOP, jobId)).toEqual({ ok: true, value: { jobId } });
    await waitForStatus(jobId, "done");
    expect(runs.get(1)).toBe(2);
    expect(await retryDeadJob(db, TEST_SHOP, jobId)).toMatchObject({ ok: false });
  });

  it("takes over a job whose worker died mid-job once its lease ended, and the dead worker can no longer record it", async () => {
    const { definition, runs } = countingJob();
    const { jobId } = await createPrismaJobQueue(db).enqueue(definition, TEST_SHOP, { n: 1 });
    const t0 = new Date();
    // On SQLite the worker runs inside the one process that owns the file (ADR 19): the dying
    // worker is a second store on the app's own client.
    const dying = createPrismaJobStore(db);
    const held = await dying.claimNext({ ...definition, leaseMs: 60_000 }, t0);
    expect(held?.id).toBe(jobId);

    const store = createPrismaJobStore(db);
    expect(await store.claimNext(definition, new Date(t0.getTime() + 59_000))).toBeNull();
    const takenOver = await store.claimNext(definition, new Date(t0.getTime() + 60_001));
    expect(takenOver).toMatchObject({ id: jobId, attempts: 2 });
    if (!held || !takenOver) throw new Error("unreachable");
    expect(await dying.complete(held, new Date())).toBe(false);
    expect(await store.complete(takenOver, new Date())).toBe(true);
    expect(runs.size).toBe(0);
  });

  it("keeps a job as dead when the worker running its last attempt died", async () => {
    const { definition } = countingJob();
    const { jobId } = await createPrismaJobQueue(db).enqueue(definition, TEST_SHOP, { n: 1 }, { maxAttempts: 1 });
    const store = createPrismaJobStore(db);
    const t0 = new Date();
    expect(await store.claimNext(definition, t0)).not.toBeNull();
    expect(await store.claimNext(definition, new Date(t0.getTime() + 10 * 60_000))).toBeNull();
    expect(await jobRow(jobId)).toMatchObject({ status: "dead", attempts: 1, dedupeKey: null });
  });

  it("stops an uninstalled shop's jobs: queued ones never run and a running one cannot record its outcome", async () => {
    const { definition, runs } = countingJob();
    const queue = createPrismaJobQueue(db);
    const running = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
    const store = createPrismaJobStore(db);
    const held = await store.claimNext(definition, new Date());
    const queued = await queue.enqueue(definition, TEST_SHOP, { n: 2 }, { dedupeKey: "k" });
    const otherShop = await queue.enqueue(definition, OTHER_SHOP, { n: 3 });

    expect(await stopShopJobs(db, TEST_SHOP)).toEqual({ cancelled: 2 });
    if (!held) throw new Error("unreachable");
    expect(await store.complete(held, new Date())).toBe(false);
    started(queue.createWorker([definition], { pollIntervalMs: 10, log: quiet }));
    await waitForStatus(otherShop.jobId, "done");
    expect([...runs.keys()]).toEqual([3]);
    expect((await jobRow(running.jobId)).status).toBe("cancelled");
    expect((await jobRow(queued.jobId)).status).toBe("cancelled");
  });

  it("when stopped, lets running jobs finish within the grace period and claims nothing new", async () => {
    const { definition, runs } = countingJob({ ms: 150, concurrency: 1 });
    const queue = createPrismaJobQueue(db);
    const first = await queue.enqueue(definition, TEST_SHOP, { n: 1 });
    const second = await queue.enqueue(definition, TEST_SHOP, { n: 2 });
    const worker = queue.createWorker([definition], { pollIntervalMs: 10, log: quiet });
    worker.start();
    await expect.poll(() => runs.size, { timeout: 5000, interval: 5 }).toBe(1);

    expect(await worker.stop({ graceMs: 5000 })).toEqual({ finished: 1, released: 0 });
    expect((await jobRow(first.jobId)).status).toBe("done");
    expect(await jobRow(second.jobId)).toMatchObject({ status: "queued", attempts: 0 });
  });

  it("when stopped, releases a job that outlasts the grace period so another worker runs it at once", async () => {
    let aborted = false;
    const definition = {
      name: "slow",
      payloadSchema: z.object({}),
      concurrency: 1,
      run: async (_payload, { signal }) => {
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        aborted = true;
      },
    } satisfies JobDefinition<Record<string, never>>;
    const queue = createPrismaJobQueue(db);
    const { jobId } = await queue.enqueue(definition, TEST_SHOP, {});
    const worker = queue.createWorker([definition], { pollIntervalMs: 10, log: quiet });
    worker.start();
    await waitForStatus(jobId, "running");

    expect(await worker.stop({ graceMs: 50 })).toEqual({ finished: 0, released: 1 });
    expect(aborted).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({ status: "queued", attempts: 0, claimToken: null });
    expect(await createPrismaJobStore(db).claimNext(definition, new Date())).toMatchObject({ id: jobId, attempts: 1 });
  });
});
