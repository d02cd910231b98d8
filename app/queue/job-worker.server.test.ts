import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import type { JobContext, JobDefinition, JobWorker } from "./job-queue";
import { type ClaimedJob, createJobWorker, type JobStore } from "./job-worker.server";

// The loop against an in-memory store whose timing the test controls.

const quiet = { info: () => {}, error: () => {} };

function claimed(id: string, name: string): ClaimedJob {
  return {
    id,
    shop: "s",
    name,
    payload: {},
    attempts: 1,
    maxAttempts: 3,
    token: id,
    leaseUntil: new Date(Date.now() + 60_000),
  };
}

/** The loop over a store whose claims `claimNext` answers, with a `work` kind running `run` and an `idle` kind. */
function setUp(claimNext: JobStore["claimNext"], run: () => Promise<void>, emptyRecheckMs: number) {
  const done: string[] = [];
  const store: JobStore = {
    claimNext,
    async complete(job) {
      done.push(job.id);
      return true;
    },
    fail: async () => true,
    release: async () => true,
    renew: async () => true,
  };
  const work: JobDefinition<Record<string, never>> = { name: "work", payloadSchema: z.object({}), concurrency: 1, run };
  const idle: JobDefinition<Record<string, never>> = { ...work, name: "idle", run: async () => {} };
  const worker = createJobWorker(store, [work, idle], { pollIntervalMs: 60_000, emptyRecheckMs, log: quiet });
  return { done, worker };
}

describe("the worker loop", () => {
  it("claims again at once when a job ends while it is still claiming, instead of sleeping a poll interval", async () => {
    const queued = ["a1", "a2", "a3"];
    let finishRunning: (() => void) | null = null;
    let claimedWorkThisRound = false;
    // Every kind is asked on every round here: the round that asks the idle kind is the hook.
    const { done, worker } = setUp(
      async (definition) => {
        if (definition.name === "idle") {
          // In a round that found the first kind's slot taken, its job ends while this claim is
          // still in flight: nobody is asleep to be woken yet.
          if (!claimedWorkThisRound) {
            finishRunning?.();
            finishRunning = null;
          }
          claimedWorkThisRound = false;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return null;
        }
        claimedWorkThisRound = true;
        const id = queued.shift();
        return id ? claimed(id, "work") : null;
      },
      () =>
        new Promise<void>((resolve) => {
          finishRunning = resolve;
        }),
      0,
    );
    worker.start();
    try {
      await expect.poll(() => done.length, { timeout: 3_000, interval: 10 }).toBe(3);
    } finally {
      await worker.stop({ graceMs: 100 });
    }
  });

  it("does not ask a kind found empty again on every wake: 40 jobs ending ask the idle kind a few times, not 40", async () => {
    const queued = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const asked: Record<string, number> = { work: 0, idle: 0 };
    const { done, worker } = setUp(
      async (definition) => {
        asked[definition.name] = (asked[definition.name] ?? 0) + 1;
        if (definition.name === "idle") return null;
        const id = queued.shift();
        return id ? claimed(id, "work") : null;
      },
      () => new Promise<void>((resolve) => setTimeout(resolve, 1)),
      60_000,
    );
    worker.start();
    try {
      await expect.poll(() => done.length, { timeout: 3_000, interval: 10 }).toBe(40);
      // Asked once when the loop started; the work kind's own jobs still went one after another.
      expect(asked.idle).toBe(1);
      expect(asked.work).toBeGreaterThanOrEqual(40);
    } finally {
      await worker.stop({ graceMs: 100 });
    }
  });
});

describe("the worker's lease renewal", () => {
  const LEASE_MS = 20_000;
  const T0 = new Date("2026-12-01T10:00:00Z");

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const elapsed = () => Date.now() - T0.getTime();

  /** One job, claimed at T0 with a lease of LEASE_MS, and what the worker asked of the store. */
  function oneJobStore(renewal: (call: number) => Promise<boolean>) {
    let handedOut = false;
    const renewals: { at: number; leaseUntil: number }[] = [];
    const completed: number[] = [];
    const store: JobStore = {
      async claimNext() {
        if (handedOut) return null;
        handedOut = true;
        return { ...claimed("j1", "long"), leaseUntil: new Date(Date.now() + LEASE_MS) };
      },
      async complete() {
        completed.push(elapsed());
        return true;
      },
      fail: async () => true,
      release: async () => true,
      async renew(_job, leaseUntil, now) {
        renewals.push({ at: now.getTime() - T0.getTime(), leaseUntil: leaseUntil.getTime() - T0.getTime() });
        return renewal(renewals.length);
      },
    };
    return { store, renewals, completed };
  }

  /** A handler that runs until the test ends it, or until it is aborted, noting when. */
  function longJob(options: Partial<JobDefinition<Record<string, never>>> = {}) {
    const seen: { abortedAt: number | null; reason: string | null; context: JobContext | null } = {
      abortedAt: null,
      reason: null,
      context: null,
    };
    let finish: () => void = () => {};
    const definition: JobDefinition<Record<string, never>> = {
      name: "long",
      payloadSchema: z.object({}),
      concurrency: 1,
      leaseMs: LEASE_MS,
      ...options,
      run: (_payload, context) =>
        new Promise<void>((resolve) => {
          seen.context = context;
          finish = resolve;
          context.signal.addEventListener("abort", () => {
            seen.abortedAt = elapsed();
            seen.reason = context.signal.reason instanceof Error ? context.signal.reason.message : null;
            resolve();
          });
        }),
    };
    return { definition, seen, finish: () => finish() };
  }

  async function started(store: JobStore, definition: JobDefinition<Record<string, never>>) {
    const worker = createJobWorker(store, [definition], { pollIntervalMs: 1_000, log: quiet });
    worker.start();
    await vi.advanceTimersByTimeAsync(0);
    return worker;
  }

  async function stopped(worker: JobWorker) {
    const stopping = worker.stop({ graceMs: 0 });
    await vi.advanceTimersByTimeAsync(10);
    await stopping;
  }

  it("renews the lease every quarter of it while the handler runs, so the job outlives its first lease, and not after it finished", async () => {
    const { store, renewals, completed } = oneJobStore(async () => true);
    const job = longJob();
    const worker = await started(store, job.definition);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.seen.abortedAt).toBeNull();
    expect(renewals.map((r) => r.at)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60].map((s) => s * 1000));
    expect(renewals.every((r) => r.leaseUntil === r.at + LEASE_MS)).toBe(true);
    // The deadline moved with the lease: a margin (5 s) before the last renewal's end.
    expect((job.seen.context?.deadline.getTime() ?? 0) - T0.getTime()).toBe(60_000 + LEASE_MS - 5_000);

    job.finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(completed).toEqual([60_000]);
    expect(renewals).toHaveLength(12);
    await stopped(worker);
  });

  it("aborts the handler at once when a renewal finds its claim gone, and renews no more", async () => {
    // The second renewal finds another worker's token (it took the job over).
    const { store, renewals } = oneJobStore(async (call) => call < 2);
    const job = longJob();
    const worker = await started(store, job.definition);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.seen).toMatchObject({ abortedAt: 10_000, reason: "job claim lost" });
    expect(renewals.map((r) => r.at)).toEqual([5_000, 10_000]);
    await stopped(worker);
  });

  it("aborts the handler a margin before the lease it holds ends when renewals keep failing (the database unreachable)", async () => {
    const { store, renewals } = oneJobStore(async () => {
      throw new Error("connection refused");
    });
    const job = longJob();
    const worker = await started(store, job.definition);

    await vi.advanceTimersByTimeAsync(14_999);
    expect(job.seen.abortedAt).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    // The lease taken at T0 ends at 20 s: another worker may take the job only after that.
    expect(job.seen).toMatchObject({ abortedAt: 15_000, reason: "job lease ended" });
    expect(renewals.every((r) => r.at <= 15_000)).toBe(true);
    await stopped(worker);
  });

  it("renews a lease that failed once, and the handler goes on", async () => {
    const { store, renewals } = oneJobStore(async (call) => {
      if (call === 1) throw new Error("connection reset");
      return true;
    });
    const job = longJob();
    const worker = await started(store, job.definition);

    await vi.advanceTimersByTimeAsync(40_000);
    expect(job.seen.abortedAt).toBeNull();
    expect(renewals.length).toBeGreaterThanOrEqual(7);
    job.finish();
    await stopped(worker);
  });

  it("stops renewing at the job's longest run, so a handler that hangs is aborted before that lease ends", async () => {
    const { store, renewals } = oneJobStore(async () => true);
    const job = longJob({ maxRunMs: 30_000 });
    const worker = await started(store, job.definition);

    await vi.advanceTimersByTimeAsync(120_000);
    expect(Math.max(...renewals.map((r) => r.leaseUntil))).toBe(30_000);
    expect(job.seen).toMatchObject({ abortedAt: 25_000, reason: "job lease ended" });
    await stopped(worker);
  });
});
