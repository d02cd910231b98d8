import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import db from "../../app/db.server";
import { createPrismaJobQueue } from "../../app/queue/prisma-job-queue.server";
import { jobQueueFor } from "../../app/queue/queue.server";
import { SLOW_EFFECT_JOB } from "../helpers/job-worker-process";
import { setUpQueues } from "../helpers/jobs";
import { ROOT } from "../setup/database";
import { TEST_SHOP } from "../setup/test-env";

// Real worker processes (test/helpers/job-worker-process.ts: the same wiring as `npm run worker`)
// against this test's database; effects are counted in a file the job appends to. A worker
// process of its own exists only on PostgreSQL: on SQLite the worker runs inside the app's one
// process (ADR 19), so these live in test/postgresql/ and run under `npm run test:postgres` only.

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function effectFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "worker-test-"));
  dirs.push(dir);
  return join(dir, "effects.log");
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);

function startWorker(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/job-worker-process.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      if (code !== 0 && code !== null) console.warn(output);
      resolve(code);
    }),
  );
  return { child, exited, output: () => output };
}

const enqueue = (n: number) => createPrismaJobQueue(db).enqueue(SLOW_EFFECT_JOB, TEST_SHOP, { n });
const POLL = { timeout: 40_000, interval: 25 };

describe("the worker process", () => {
  it("on SIGTERM finishes the jobs it is running, claims no more, and exits 0", async () => {
    const file = effectFile();
    // As many jobs as the worker runs at once (concurrency 4): the one enqueued next must wait.
    const jobs = [await enqueue(1), await enqueue(2), await enqueue(3), await enqueue(4)];
    const { child, exited } = startWorker({ EFFECT_FILE: file, JOB_MS: "600" });
    await expect.poll(() => lines(file).filter((l) => l.startsWith("start")).length, POLL).toBe(4);
    const late = await enqueue(5);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(lines(file).filter((l) => l.startsWith("done")).length).toBe(4);
    for (const { jobId } of jobs)
      expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("done");
    expect(await db.job.findUniqueOrThrow({ where: { id: late.jobId } })).toMatchObject({
      status: "queued",
      attempts: 0,
    });
  }, 90_000);

  it("on SIGTERM releases a job that outlasts the grace period, without counting the attempt", async () => {
    const file = effectFile();
    const { jobId } = await enqueue(1);
    const { child, exited } = startWorker({ EFFECT_FILE: file, JOB_MS: "10000", GRACE_MS: "100" });
    await expect.poll(() => lines(file).length, POLL).toBe(1);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      status: "queued",
      attempts: 0,
      claimToken: null,
    });
  }, 90_000);

  it(
    "leaves the job of a worker killed mid-job to another worker after its lease, which runs it once",
    { timeout: 90_000 },
    async () => {
      const file = effectFile();
      const { jobId } = await enqueue(1);
      const first = startWorker({ EFFECT_FILE: file, JOB_MS: "10000", LEASE_MS: "1500" });
      await expect.poll(() => lines(file).length, POLL).toBe(1);
      first.child.kill("SIGKILL");
      await first.exited;
      expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("running");

      const second = startWorker({ EFFECT_FILE: file, JOB_MS: "50" });
      try {
        await expect
          .poll(async () => (await db.job.findUniqueOrThrow({ where: { id: jobId } })).status, POLL)
          .toBe("done");
      } catch (error) {
        console.warn(second.output(), lines(file));
        throw error;
      }
      const effects = lines(file);
      expect(effects.filter((l) => l.startsWith("start"))).toHaveLength(2);
      expect(effects.filter((l) => l.startsWith("done"))).toEqual([`done 1 ${second.child.pid}`]);
      expect(effects[1]).toBe(`start 1 ${second.child.pid} 2`);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    },
  );

  it(
    "on pg-boss keeps a job running past its lease while its worker lives, and another worker takes it over within seconds of a SIGKILL",
    { timeout: 90_000 },
    async () => {
      // Production's queue with short intervals: a 2 s lease (renewed every 0.5 s), supervision
      // every second (PG_BOSS_SUPERVISE_SECONDS in the test environment), a 1–2 s retry delay.
      const LEASE_MS = 2000;
      const definition = { ...SLOW_EFFECT_JOB, leaseMs: LEASE_MS };
      await setUpQueues(db, [definition]);
      const file = effectFile();
      const env = { EFFECT_FILE: file, LEASE_MS: String(LEASE_MS), QUEUE: "pg-boss" };
      const first = startWorker({ ...env, JOB_MS: "60000" });
      const { jobId } = await jobQueueFor(db).enqueue(definition, TEST_SHOP, { n: 1 });
      await expect.poll(() => lines(file), POLL).toEqual([`start 1 ${first.child.pid} 1`]);
      const second = startWorker({ ...env, JOB_MS: "50" });
      await expect.poll(() => second.output(), POLL).toContain("worker: started");

      // Three leases and more with the other worker polling: the first keeps its job.
      await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS + 1000));
      expect(lines(file)).toHaveLength(1);
      const state = async () =>
        (
          await db.$queryRaw<{ state: string }[]>`SELECT state::text AS state FROM pgboss.job WHERE id = ${jobId}::uuid`
        )[0]?.state;
      expect(await state()).toBe("active");

      first.child.kill("SIGKILL");
      await first.exited;
      const killedAt = Date.now();
      await expect.poll(() => lines(file).length, POLL).toBeGreaterThanOrEqual(2);
      const takeoverMs = Date.now() - killedAt;
      expect(lines(file)[1]).toBe(`start 1 ${second.child.pid} 2`);
      // The lease (2 s) + a supervision pass (1 s, up to 2) + the retry delay (1–2 s) + a poll,
      // with room for a loaded machine.
      expect(takeoverMs).toBeLessThan(LEASE_MS + 2000 + 2000 + 3000);
      await expect.poll(state, POLL).toBe("completed");
      expect(lines(file).filter((l) => l.startsWith("done"))).toEqual([`done 1 ${second.child.pid}`]);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      process.stdout.write(`worker-process: taken over ${takeoverMs} ms after the SIGKILL\n`);
    },
  );
});
