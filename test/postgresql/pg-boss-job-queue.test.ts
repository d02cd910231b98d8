import { describe, expect, it } from "vitest";
import { z } from "zod";

import db from "~/db.server";
import { createPgBossJobQueue } from "~/queue/pg-boss-job-queue.server";
import { SCHEDULE_TICK_DATA, scheduleQueueName } from "~/queue/pg-boss-schedules.server";
import { enqueueJob, eraseShopJobs, jobQueueFor, pgBossFor, stopShopJobs } from "~/queue/queue.server";

import { describeJobQueueContract } from "../contracts/job-queue.contract";
import { TEST_SHOP } from "../setup/test-env";

// On PostgreSQL (`npm run test:postgres`) the job queue is pg-boss: the port's contract, and what
// only a queue in the app's own database can promise, a job recorded in its cause's transaction.

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("postgresql://")) throw new Error("pg-boss's tests: run them with `npm run test:postgres`");

// Supervision every second, so a stalled worker's job is taken over within the test's patience.
const boss = () => pgBossFor(url, { superviseIntervalSeconds: 1 });

describeJobQueueContract("pg-boss", () => createPgBossJobQueue(boss));

const NOTE_JOB = { name: "contract-note", payloadSchema: z.object({ note: z.string() }) };
const pgBossJobs = async (shop: string) =>
  db.$queryRaw<{ state: string }[]>`SELECT state::text AS state FROM pgboss.job WHERE data->>'shop' = ${shop}`;

describe("pg-boss in the app's transactions", () => {
  it("is the app's queue on PostgreSQL", async () => {
    await boss();
    const { jobId } = await jobQueueFor(db).enqueue(NOTE_JOB, TEST_SHOP, { note: "hello" });
    expect(await pgBossJobs(TEST_SHOP)).toEqual([{ state: "created" }]);
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.job.count()).toBe(0);
  });

  it("records a job exactly when the transaction that caused it commits", async () => {
    await boss();
    await expect(
      db.$transaction(async (tx) => {
        await enqueueJob(tx, NOTE_JOB, TEST_SHOP, { note: "rolled back" });
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await pgBossJobs(TEST_SHOP)).toEqual([]);

    const result = await db.$transaction(async (tx) => {
      const first = await enqueueJob(tx, NOTE_JOB, TEST_SHOP, { note: "one" }, { dedupeKey: "k" });
      const again = await enqueueJob(tx, NOTE_JOB, TEST_SHOP, { note: "two" }, { dedupeKey: "k" });
      return { first, again };
    });
    expect(result.again).toEqual({ jobId: result.first.jobId, status: "duplicate" });
    expect(await pgBossJobs(TEST_SHOP)).toEqual([{ state: "created" }]);
  });

  it("stops and erases a shop's jobs inside the uninstall's or redact's transaction", async () => {
    await boss();
    await jobQueueFor(db).enqueue(NOTE_JOB, TEST_SHOP, { note: "a" });
    await jobQueueFor(db).enqueue(NOTE_JOB, "other-shop.myshopify.com", { note: "b" });
    await expect(
      db.$transaction(async (tx) => {
        await stopShopJobs(tx, TEST_SHOP);
        throw new Error("uninstall failed");
      }),
    ).rejects.toThrow();
    expect(await pgBossJobs(TEST_SHOP)).toEqual([{ state: "created" }]);

    expect(await db.$transaction((tx) => stopShopJobs(tx, TEST_SHOP))).toEqual({ cancelled: 1 });
    expect(await pgBossJobs(TEST_SHOP)).toEqual([{ state: "cancelled" }]);
    expect(await db.$transaction((tx) => eraseShopJobs(tx, TEST_SHOP))).toEqual({ deleted: 1 });
    expect(await pgBossJobs(TEST_SHOP)).toEqual([]);
    expect(await pgBossJobs("other-shop.myshopify.com")).toEqual([{ state: "created" }]);
  });

  it("finds the job holding a key past a long history of finished jobs with that key", async () => {
    const b = await boss();
    const queue = jobQueueFor(db);
    await queue.enqueue(NOTE_JOB, TEST_SHOP, { note: "first" });
    // 1,100 finished jobs with the key, then a live one.
    const key = `${TEST_SHOP}:sweep`;
    await b.getDb().executeSql(
      `INSERT INTO pgboss.job (name, data, state, singleton_key, policy, completed_on)
       SELECT $1, '{}'::jsonb, 'completed', $2, 'exclusive', now() FROM generate_series(1, 1100)`,
      [NOTE_JOB.name, key],
    );
    const live = await queue.enqueue(NOTE_JOB, TEST_SHOP, { note: "live" }, { dedupeKey: "sweep" });
    expect(live.status).toBe("enqueued");
    expect(await queue.enqueue(NOTE_JOB, TEST_SHOP, { note: "again" }, { dedupeKey: "sweep" })).toEqual({
      jobId: live.jobId,
      status: "duplicate",
    });
  });
});

describe("the worker's schedules on pg-boss", () => {
  it("are pg-boss cron rows, one for every worker, and each tick runs once over all of them", async () => {
    const b = await boss();
    // A schedule an earlier version kept, which the code no longer has.
    await b.createQueue("schedule.gone");
    await b.schedule("schedule.gone", "* * * * *", SCHEDULE_TICK_DATA);
    const runs: string[] = [];
    let finishTick = () => {};
    const tickHeld = new Promise<void>((resolve) => (finishTick = resolve));
    const sweep = {
      name: "test-sweep",
      everyMs: 5 * 60_000,
      run: async () => {
        runs.push("tick");
        await tickHeld;
      },
    };
    const queue = createPgBossJobQueue(boss);
    const workers = [0, 1].map(() => queue.createWorker([], { schedules: [sweep], pollIntervalMs: 50 }));
    for (const worker of workers) worker.start();
    try {
      await expect
        .poll(async () => (await b.getSchedules()).map((row) => `${row.name} ${row.cron}`), { timeout: 10_000 })
        .toEqual([`${scheduleQueueName(sweep)} */5 * * * *`]);
      // Neither worker runs it on a timer of its own at start, as the SQLite loop does.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toEqual([]);

      // A tick as pg-boss's cron pass sends it runs on one worker; a tick that comes due while it
      // still runs is dropped, as the timer skipped a tick while the last one was busy.
      expect(await b.send(scheduleQueueName(sweep), SCHEDULE_TICK_DATA)).not.toBeNull();
      await expect.poll(() => runs, { timeout: 10_000 }).toEqual(["tick"]);
      expect(await b.send(scheduleQueueName(sweep), SCHEDULE_TICK_DATA)).toBeNull();
      finishTick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toEqual(["tick"]);
    } finally {
      finishTick();
      for (const worker of workers) await worker.stop({ graceMs: 1000 });
      await b.unschedule(scheduleQueueName(sweep));
    }
  });
});
