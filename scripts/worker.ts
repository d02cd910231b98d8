// `npm run worker`: the process that runs the app's background jobs (app/jobs/) on PostgreSQL. The
// web processes only enqueue; run one or more of these next to them, against the same
// DATABASE_URL and with the same environment (README "Running in production: web and worker").
// On SQLite it refuses to start: there the app process runs the jobs itself, and no second
// process opens the file (docs/decisions/0019-one-database-story.md).
//
// SIGTERM or SIGINT: stop claiming, let running jobs finish for up to WORKER_GRACE_MS (default
// 20 s), hand the rest back to the queue, exit 0. See docs/decisions/0007-job-queue.md.

import db from "../app/db.server";
import { byDatabase } from "../app/db/database-kind.server";
import { getEnv } from "../app/env.server";
import { SQLITE_WORKER_REFUSAL } from "../app/jobs/in-process-worker.server";
import { createAppJobWorker } from "../app/jobs/worker-jobs.server";
import { stopPgBosses } from "../app/queue/queue.server";
import { runWorkerProcess, workerGraceMs } from "../app/queue/worker-process.server";
import { stopWithDemoParent } from "./demo-parent";

getEnv(); // a bad environment stops the worker at boot, with the variable's name
if (byDatabase(db, { sqlite: true, postgresql: false })) {
  console.error(SQLITE_WORKER_REFUSAL);
  process.exit(1);
}

// Its lines are the app's logger's (JSON on stdout, with each job's shop and name).
runWorkerProcess({
  worker: createAppJobWorker(db),
  graceMs: workerGraceMs(),
  close: async () => {
    await stopPgBosses();
    await db.$disconnect();
  },
});

stopWithDemoParent();
