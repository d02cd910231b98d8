// One of two processes racing each other on a bulk run, for test/postgresql/bulk-run-races.test.ts:
// a web process of its own (its own Prisma client and pg-boss on the test's database) that
// confirms, cancels or retries runs at planned moments, as two people clicking at once on two
// processes would. Started as
//   node --import tsx test/helpers/bulk-run-race-process.ts
// with DATABASE_URL, RACE_DIR (the folder it talks through) and RACE_NAME (who it is). It reads
// RACE_DIR/plan-<name>.json, writes RACE_DIR/ready-<name>, waits for RACE_DIR/go (a start time,
// epoch ms, on this machine's one clock), runs round i at start + i × gap, and writes what each
// call answered to RACE_DIR/result-<name>.json.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { Prisma, PrismaClient } from "@prisma/client";

import {
  cancelBulkRun,
  confirmBulkRun,
  resumeStrandedBulkItems,
  retryFailedBulkItems,
} from "~/bulk/bulk-buying.server";
import { createPrismaClient } from "~/db/client.server";
import { enqueueBulkBuy } from "~/jobs/bulk-run-jobs.server";
import { pgBossFor, stopPgBosses } from "~/queue/queue.server";

export type RaceAction = (
  | { kind: "confirm"; runId: string; expected: { count: number; totalCents: number } }
  | { kind: "cancel"; runId: string }
  | { kind: "retry"; runId: string }
  /** The worker's sweep for stranded items, at `now` (epoch ms) on its clock. */
  | { kind: "resume"; now: number }
) & {
  /** How long after the round's start this process acts: rounds try different interleavings. */
  delayMs?: number;
};

export type RacePlan = { shop: string; gapMs: number; rounds: RaceAction[] };

export type RaceOutcome = {
  round: number;
  /** The call's answer as it came back, or the message of what it threw. */
  answer: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } } | { threw: string };
  /** Items this process enqueued a buy job for, in a transaction that then committed. */
  enqueued: string[];
  /** When the call started and returned (epoch ms): the test checks the two processes overlapped. */
  startedAt: number;
  endedAt: number;
};

/** The moment this process stamps on what it writes in round `round`: each process its own. */
export const raceClock = (name: string, round: number) =>
  new Date(Date.UTC(2026, 2, 1, name === "a" ? 9 : 15, 0, round));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps most of the way, then spins: both processes start within a millisecond of `at`. */
async function waitUntil(at: number): Promise<void> {
  while (at - Date.now() > 5) await sleep(Math.min(50, at - Date.now() - 5));
  while (Date.now() < at) {
    // spin
  }
}

async function play(
  db: PrismaClient,
  action: RaceAction,
  plan: RacePlan,
  name: string,
  round: number,
  enqueued: string[],
) {
  const enqueue = async (tx: Prisma.TransactionClient, itemId: string) => {
    await enqueueBulkBuy(tx, plan.shop, itemId);
    enqueued.push(itemId);
  };
  const now = () => raceClock(name, round);
  switch (action.kind) {
    case "confirm":
      return confirmBulkRun(db, plan.shop, action.runId, action.expected, enqueue, { confirmedBy: name, now });
    case "cancel":
      return cancelBulkRun(db, plan.shop, action.runId, { now });
    case "retry":
      return retryFailedBulkItems(db, plan.shop, action.runId, enqueue, { retriedBy: name });
    case "resume": {
      const resumed = await resumeStrandedBulkItems(
        db,
        { check: (tx, _shop, itemId) => enqueue(tx, itemId), buy: (tx, _shop, itemId) => enqueue(tx, itemId) },
        new Date(action.now),
      );
      return { ok: true, value: resumed } as const;
    }
  }
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? "";
  const dir = process.env.RACE_DIR ?? "";
  const name = process.env.RACE_NAME ?? "";
  if (!url || !dir || !name) throw new Error("DATABASE_URL, RACE_DIR and RACE_NAME must be set");
  const db = createPrismaClient(url);
  const plan = JSON.parse(readFileSync(join(dir, `plan-${name}.json`), "utf8")) as RacePlan;
  // Connected and pg-boss started before the start line, so neither process pays for it in the race.
  await db.$queryRawUnsafe("SELECT 1");
  await pgBossFor(url, { supervise: false });
  writeFileSync(join(dir, `ready-${name}`), String(process.pid));
  while (!existsSync(join(dir, "go"))) await sleep(10);
  const start = Number(readFileSync(join(dir, "go"), "utf8"));

  const outcomes: RaceOutcome[] = [];
  for (const [round, action] of plan.rounds.entries()) {
    await waitUntil(start + round * plan.gapMs + (action.delayMs ?? 0));
    const enqueued: string[] = [];
    const startedAt = Date.now();
    let answer: RaceOutcome["answer"];
    try {
      const result = await play(db, action, plan, name, round, enqueued);
      answer = result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
    } catch (error) {
      answer = { threw: error instanceof Error ? error.message : String(error) };
      // Rolled back: nothing it enqueued was kept.
      enqueued.length = 0;
    }
    outcomes.push({ round, answer, enqueued, startedAt, endedAt: Date.now() });
  }
  writeFileSync(join(dir, `result-${name}.json`), JSON.stringify(outcomes));
  await stopPgBosses();
  await db.$disconnect();
}

if (process.argv[1]?.endsWith("bulk-run-race-process.ts")) await main();
