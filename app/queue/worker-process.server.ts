import { logger } from "~/logger.server";

import type { JobWorker, WorkerStopReport } from "./job-queue";

// What a process running the worker does with it (`npm run worker` on PostgreSQL, the app process
// on SQLite: in-process-worker.server.ts): start it, and on SIGTERM or SIGINT (a deploy, Ctrl-C)
// stop claiming, let running jobs finish within the grace period, hand the rest back to the
// queue, close the database, and exit 0. A second signal exits at once: jobs still held are then
// taken over by another worker (or the restarted process) when their lease ends.

export type WorkerProcessOptions = {
  worker: JobWorker;
  /** How long running jobs get to finish after SIGTERM (default 20 s; platforms usually allow 30 s). */
  graceMs?: number;
  /** Runs after the worker stopped, before exiting (close the database). */
  close?: () => Promise<void>;
  log?: (line: string) => void;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
};

/** WORKER_GRACE_MS: how long a stopping worker waits for its running jobs (default 20 s). */
export function workerGraceMs(value = process.env.WORKER_GRACE_MS): number {
  const ms = Number(value ?? 20_000);
  return Number.isFinite(ms) && ms >= 0 ? ms : 20_000;
}

export function runWorkerProcess(options: WorkerProcessOptions): { stopped: Promise<WorkerStopReport> } {
  const log = options.log ?? ((line: string) => logger.info(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  let resolveStopped: (report: WorkerStopReport) => void = () => {};
  const stopped = new Promise<WorkerStopReport>((resolve) => {
    resolveStopped = resolve;
  });
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`worker: ${signal} again, exiting now`);
      exit(1);
      return;
    }
    stopping = true;
    log(`worker: ${signal}, finishing running jobs`);
    void options.worker
      .stop({ graceMs: options.graceMs })
      .then(async (report) => {
        log(`worker: stopped (${report.finished} finished, ${report.released} released)`);
        await options.close?.();
        resolveStopped(report);
        exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "worker: stopping failed");
        exit(1);
      });
  };
  for (const signal of signals) process.on(signal, onSignal);
  options.worker.start();
  log("worker: started");
  return { stopped };
}
