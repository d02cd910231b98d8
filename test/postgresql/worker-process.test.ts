import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import db from "../../app/db.server";
import { createPrismaJobQueue } from "../../app/jobs/prisma-job-queue.server";
import { SLOW_EFFECT_JOB } from "../helpers/job-worker-process";
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
});
