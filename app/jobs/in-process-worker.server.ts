import type { PrismaClient } from "@prisma/client";

import { byDatabase } from "~/db/database-kind.server";

import type { WorkerStopReport } from "../queue/job-queue";
import { runWorkerProcess, workerGraceMs, type WorkerProcessOptions } from "../queue/worker-process.server";
import { createAppJobWorker } from "./worker-jobs.server";

// One process on SQLite (ADR 19): the app process runs the job worker itself, so no second
// process ever writes the SQLite file. On PostgreSQL the workers are processes of their own
// (`npm run worker`, scripts/worker.ts) and the app process only enqueues.
//
// The server entry (entry.server.tsx) calls this when the build loads: under `npm start`
// (server/start.ts), the demo's app server (scripts/demo-app-server.ts) and `npm run dev` (Vite loads
// the entry on the first request; its reloads find the worker running, with the job code it
// started with until the dev server restarts). Tests start their own workers: under
// NODE_ENV=test nothing starts here. No variable turns it on or off: on SQLite nothing else may
// run the jobs, and on PostgreSQL a web process never does.

declare global {
  // The worker this process runs, if any: one per process, across Vite's module reloads.
  var jobWorkerInProcess: { stopped: Promise<WorkerStopReport> } | undefined;
}

/** What `npm run worker` answers on SQLite, where the app process runs the jobs. */
export const SQLITE_WORKER_REFUSAL =
  "npm run worker: refused on SQLite. A SQLite database is used by one process only, and the app " +
  "process (npm start, npm run demo) runs the jobs itself. Start the app alone, or set DATABASE_URL " +
  "to a postgresql:// URL to run workers as processes of their own " +
  "(docs/decisions/0019-one-database-story.md).";

/** Whether the app process runs the job worker: on SQLite, outside tests. */
export function runsWorkerInProcess(db: PrismaClient, nodeEnv: string | undefined): boolean {
  return nodeEnv !== "test" && byDatabase(db, { sqlite: true, postgresql: false });
}

// After the worker stopped on SIGTERM, the HTTP server (closed by the same signal: server/start.ts's
// own handler) answers the requests it has and the process ends by itself; one that has not ended
// by then is ended. The database stays open until then: those requests use it.
const EXIT_AFTER_WORKER_MS = 5_000;

function exitOnceIdle(code: number): void {
  if (code !== 0) process.exit(code);
  process.exitCode = 0;
  setTimeout(() => process.exit(0), EXIT_AFTER_WORKER_MS).unref();
}

/**
 * Starts the app's job worker in this process when it runs on SQLite, once per process: the same
 * jobs and schedules as `npm run worker`, and the same SIGTERM/SIGINT handling (stop claiming, let
 * running jobs finish for WORKER_GRACE_MS, hand the rest back). Null when it does not run here.
 */
export function startWorkerInProcess(
  db: PrismaClient,
  options: { nodeEnv?: string } & Pick<WorkerProcessOptions, "signals" | "exit" | "log"> = {},
): { stopped: Promise<WorkerStopReport> } | null {
  const { nodeEnv = process.env.NODE_ENV, ...processOptions } = options;
  if (globalThis.jobWorkerInProcess) return globalThis.jobWorkerInProcess;
  if (!runsWorkerInProcess(db, nodeEnv)) return null;
  globalThis.jobWorkerInProcess = runWorkerProcess({
    worker: createAppJobWorker(db),
    graceMs: workerGraceMs(),
    exit: exitOnceIdle,
    ...processOptions,
  });
  return globalThis.jobWorkerInProcess;
}
