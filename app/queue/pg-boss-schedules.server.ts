import type { PgBoss } from "pg-boss";
import { z } from "zod";

import type { AnyJobDefinition, Schedule } from "./job-queue";

// The worker's schedules on PostgreSQL run on pg-boss's cron (ADR 21): each schedule is a row in
// pg-boss's schedule table, and pg-boss's cron pass (one instance at a time, under its lock) sends
// one job per occurrence into the schedule's own queue, which the worker loop runs like any job.
// So a tick runs once over the whole fleet, not once per worker process as a timer in each did.
// The queue's `exclusive` policy drops a tick while the previous one is still queued or running.
// On SQLite the one process keeps its timers (job-worker.server.ts): pg-boss needs PostgreSQL.

/** Schedule queues are named apart from job kinds ("label-recovery" is both). */
export const SCHEDULE_QUEUE_PREFIX = "schedule.";

export const scheduleQueueName = (schedule: Pick<Schedule, "name">) => `${SCHEDULE_QUEUE_PREFIX}${schedule.name}`;

/**
 * A schedule's interval as a cron expression. pg-boss's cron pass runs every 30 s and matches
 * minutes, so an interval must be whole minutes dividing an hour, or whole hours dividing a day:
 * anything else would drift from what the schedule says, and is refused.
 */
export function cronFor(everyMs: number): string {
  const minutes = everyMs / 60_000;
  if (Number.isInteger(minutes) && minutes >= 1 && minutes < 60 && 60 % minutes === 0) {
    return minutes === 1 ? "* * * * *" : `*/${minutes} * * * *`;
  }
  const hours = everyMs / 3_600_000;
  if (Number.isInteger(hours) && hours >= 1 && hours <= 24 && 24 % hours === 0) {
    return hours === 1 ? "0 * * * *" : hours === 24 ? "0 0 * * *" : `0 */${hours} * * *`;
  }
  throw new Error(
    `a schedule every ${everyMs} ms has no cron expression: use minutes dividing an hour or hours dividing a day`,
  );
}

/**
 * The job each schedule's ticks run as. One attempt: a failed tick is logged (by the loop, as a
 * dead job with no shop) and the next occurrence is the retry. A tick runs one sweep, so one
 * slot per worker is plenty.
 */
export function scheduleJobDefinition(schedule: Schedule): AnyJobDefinition {
  return {
    name: scheduleQueueName(schedule),
    payloadSchema: z.null(),
    maxAttempts: 1,
    concurrency: 1,
    run: () => schedule.run(),
  };
}

/** What pg-boss sends for a tick: the data every job of ours carries, with no shop. */
export const SCHEDULE_TICK_DATA = { shop: "", payload: null, maxAttempts: 1 };

/**
 * Stores each schedule in pg-boss (an upsert: every worker does it at start, one row stays) and
 * removes ours that the code no longer has, which would otherwise fill queues nobody works.
 */
export async function keepPgBossSchedules(boss: PgBoss, schedules: readonly Schedule[]): Promise<void> {
  const wanted = new Set(schedules.map(scheduleQueueName));
  for (const stored of await boss.getSchedules()) {
    if (stored.name.startsWith(SCHEDULE_QUEUE_PREFIX) && !wanted.has(stored.name)) {
      await boss.unschedule(stored.name, stored.key);
    }
  }
  for (const schedule of schedules) {
    await boss.schedule(scheduleQueueName(schedule), cronFor(schedule.everyMs), SCHEDULE_TICK_DATA, { retryLimit: 0 });
  }
}
