import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { JobDefinition } from "./job-queue";
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

describe("the worker loop", () => {
  it("claims again at once when a job ends while it is still claiming, instead of sleeping a poll interval", async () => {
    const queued = ["a1", "a2", "a3"];
    const done: string[] = [];
    let finishRunning: (() => void) | null = null;
    let claimedWorkThisRound = false;
    const store: JobStore = {
      async claimNext(definition) {
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
      async complete(job) {
        done.push(job.id);
        return true;
      },
      fail: async () => true,
      release: async () => true,
    };
    const work: JobDefinition<Record<string, never>> = {
      name: "work",
      payloadSchema: z.object({}),
      concurrency: 1,
      run: () =>
        new Promise<void>((resolve) => {
          finishRunning = resolve;
        }),
    };
    const idle: JobDefinition<Record<string, never>> = { ...work, name: "idle", run: async () => {} };
    // Every kind is asked on every round here: the round that asks the idle kind is the hook.
    const worker = createJobWorker(store, [work, idle], { pollIntervalMs: 60_000, emptyRecheckMs: 0, log: quiet });
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
    const done: string[] = [];
    const store: JobStore = {
      async claimNext(definition) {
        asked[definition.name] = (asked[definition.name] ?? 0) + 1;
        if (definition.name === "idle") return null;
        const id = queued.shift();
        return id ? claimed(id, "work") : null;
      },
      async complete(job) {
        done.push(job.id);
        return true;
      },
      fail: async () => true,
      release: async () => true,
    };
    const work: JobDefinition<Record<string, never>> = {
      name: "work",
      payloadSchema: z.object({}),
      concurrency: 1,
      run: () => new Promise<void>((resolve) => setTimeout(resolve, 1)),
    };
    const idle: JobDefinition<Record<string, never>> = { ...work, name: "idle", run: async () => {} };
    const worker = createJobWorker(store, [work, idle], { pollIntervalMs: 60_000, emptyRecheckMs: 60_000, log: quiet });
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
