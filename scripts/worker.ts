// `npm run worker`: the process that runs the app's background jobs (app/jobs/). The web process
// only enqueues; run one or more of these next to it, against the same DATABASE_URL and with the
// same environment (README "Running in production: web and worker").
//
// SIGTERM or SIGINT: stop claiming, let running jobs finish for up to WORKER_GRACE_MS (default
// 20 s), hand the rest back to the queue, exit 0. See docs/decisions/0007-job-queue.md.

import db from "../app/db.server";
import { getEnv } from "../app/env.server";
import { jobQueueFor, stopPgBosses } from "../app/jobs/queue.server";
import { createWorkerJobs } from "../app/jobs/worker-jobs.server";
import { runWorkerProcess } from "../app/jobs/worker-process.server";
import { logger } from "../app/logger.server";

getEnv(); // a bad environment stops the worker at boot, with the variable's name
// Its lines are the app's logger's (JSON on stdout, with each job's shop and name).
const log = (line: string) => logger.info(line);
const queue = jobQueueFor(db);
const { definitions, schedules } = createWorkerJobs(db, queue);
const graceMs = Number(process.env.WORKER_GRACE_MS ?? 20_000);

runWorkerProcess({
  worker: queue.createWorker(definitions, { schedules }),
  graceMs: Number.isFinite(graceMs) && graceMs >= 0 ? graceMs : 20_000,
  close: async () => {
    await stopPgBosses();
    await db.$disconnect();
  },
  log,
});

// `npm run demo` holds our stdin open: when it goes away (even killed hard), stop as on SIGTERM.
if (process.env.DEMO_EXIT_WITH_PARENT === "1") {
  let signalled = false;
  const stop = () => {
    if (signalled) return;
    signalled = true;
    process.kill(process.pid, "SIGTERM");
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
}
