// A process running a worker, for tests: the same process wiring as `npm run worker` and the app
// process on SQLite (runWorkerProcess: signals, grace period, release), with one job whose
// effects a test can count from outside.
// Started by test/postgresql/worker-process.test.ts as
//   node --import tsx test/helpers/job-worker-process.ts
// with DATABASE_URL, EFFECT_FILE (one line per start and per finish), JOB_MS, GRACE_MS, LEASE_MS,
// and QUEUE=pg-boss for production's queue (else the Job table, on the same PostgreSQL).

import { appendFileSync } from "node:fs";

import { z } from "zod";

import { createPrismaClient } from "~/db.server";
import type { JobDefinition } from "~/queue/job-queue";
import { createPrismaJobQueue } from "~/queue/prisma-job-queue.server";
import { jobQueueFor, stopPgBosses } from "~/queue/queue.server";
import { runWorkerProcess } from "~/queue/worker-process.server";

export const SLOW_EFFECT_JOB = {
  name: "test-slow-effect",
  payloadSchema: z.object({ n: z.number() }),
  concurrency: 4,
  leaseMs: Number(process.env.LEASE_MS ?? 60_000),
  // A job taken over is retried (pg-boss) after this, not the default 10 s.
  backoff: { baseMs: 1000, maxMs: 1000 },
  run: async (payload, context) => {
    const file = process.env.EFFECT_FILE;
    if (!file) throw new Error("EFFECT_FILE is not set");
    appendFileSync(file, `start ${payload.n} ${process.pid} ${context.attempt}\n`);
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.JOB_MS ?? 0)));
    appendFileSync(file, `done ${payload.n} ${process.pid}\n`);
  },
} satisfies JobDefinition<{ n: number }>;

const isMain = process.argv[1]?.endsWith("job-worker-process.ts") ?? false;
if (isMain) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const db = createPrismaClient(url);
  const queue = process.env.QUEUE === "pg-boss" ? jobQueueFor(db) : createPrismaJobQueue(db);
  const worker = queue.createWorker([SLOW_EFFECT_JOB], { pollIntervalMs: 20 });
  runWorkerProcess({
    worker,
    graceMs: Number(process.env.GRACE_MS ?? 20_000),
    close: async () => {
      await stopPgBosses();
      await db.$disconnect();
    },
    log: (line) => process.stdout.write(`${line}\n`),
  });
}
