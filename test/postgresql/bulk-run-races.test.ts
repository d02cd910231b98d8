import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { STRANDED_AFTER_MS } from "../../app/bulk/bulk-buying.server";
import db from "../../app/db.server";
import { enqueueBulkBuy } from "../../app/jobs/bulk-run-jobs.server";
import { type RaceAction, raceClock, type RaceOutcome, type RacePlan } from "../helpers/bulk-run-race-process";
import { listJobs } from "../helpers/jobs";
import { ROOT } from "../setup/database";
import { TEST_SHOP } from "../setup/test-env";

// Issue 39: two people act on the same bulk run at the same moment, through two web processes on
// one PostgreSQL database. Each process here is a real one (test/helpers/bulk-run-race-process.ts:
// its own Prisma client and pg-boss), and both call at the same planned instant, round after round
// on fresh runs. Whatever the interleaving, a run changes state once: the loser is refused in
// words a merchant can read, and nothing is written twice (no second "authorize" entry per label,
// no second buy job asked for, the winner's name and time kept).

const SHOP = TEST_SHOP;
const ITEMS = 25;
// How much later the second process acts, round by round: from the same instant to well into the
// first one's transaction, so the rounds meet at different points of each other's work.
const SECOND_DELAYS_MS = [0, 0, 2, 5, 10, 20, 40, 80];
const ROUNDS = SECOND_DELAYS_MS.length;
const second = (action: RaceAction, round: number): RaceAction => ({
  ...action,
  delayMs: SECOND_DELAYS_MS[round] ?? 0,
});
// Between rounds: long enough for the slower of the two calls to end before the next pair starts.
const GAP_MS = 1_500;
const TIMEOUT_MS = 120_000;
const RETRIED_MEANWHILE = "These labels are already being retried. Reload the page to see where they stand.";

if (!(process.env.DATABASE_URL ?? "").startsWith("postgresql://")) {
  throw new Error("PostgreSQL's own tests: run them with `npm run test:postgres`");
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Outcomes = { a: RaceOutcome[]; b: RaceOutcome[] };

/** Starts both processes, lets them run their plans from one start time, and answers what each got. */
async function race(plans: { a: RaceAction[]; b: RaceAction[] }): Promise<Outcomes> {
  const dir = mkdtempSync(join(tmpdir(), "bulk-race-"));
  dirs.push(dir);
  const exits = (["a", "b"] as const).map((name) => {
    const plan: RacePlan = { shop: SHOP, gapMs: GAP_MS, rounds: plans[name] };
    writeFileSync(join(dir, `plan-${name}.json`), JSON.stringify(plan));
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/bulk-run-race-process.ts"], {
      cwd: ROOT,
      env: { ...process.env, RACE_DIR: dir, RACE_NAME: name },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    return new Promise<void>((resolve, reject) =>
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`process ${name} exited with ${code}:\n${output}`)),
      ),
    );
  });
  const failed = Promise.race(exits.map((exit) => exit.then(() => new Promise<never>(() => {}))));
  await Promise.race([
    failed,
    expect
      .poll(() => existsSync(join(dir, "ready-a")) && existsSync(join(dir, "ready-b")), {
        timeout: 60_000,
        interval: 25,
      })
      .toBe(true),
  ]);
  writeFileSync(join(dir, "go"), String(Date.now() + 300));
  await Promise.all(exits);
  const read = (name: string) => JSON.parse(readFileSync(join(dir, `result-${name}.json`), "utf8")) as RaceOutcome[];
  return { a: read("a"), b: read("b") };
}

/** A run whose items are all `status`, each with a draft label and a quote. */
async function createRun(runStatus: string, itemStatus: string, round: number, updatedAt?: Date) {
  const run = await db.bulkRun.create({ data: { shop: SHOP, status: runStatus } });
  await db.bulkRunItem.createMany({
    data: Array.from({ length: ITEMS }, (_, i) => ({
      runId: run.id,
      shop: SHOP,
      position: i,
      orderGid: `gid://shopify/Order/${round * 1000 + i}`,
      orderName: `#${round * 1000 + i}`,
      fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${round * 1000 + i}`,
      status: itemStatus,
      labelId: `label-${run.id}-${i}`,
      quotedCents: 500 + i,
      message: itemStatus === "failed" ? "The shipping service refused it." : null,
      ...(updatedAt ? { updatedAt } : {}),
    })),
  });
  const items = await db.bulkRunItem.findMany({ where: { runId: run.id }, orderBy: { position: "asc" } });
  return { runId: run.id, items, totalCents: items.reduce((sum, item) => sum + (item.quotedCents ?? 0), 0) };
}

type CreatedRun = Awaited<ReturnType<typeof createRun>>;

async function authorizations(runId: string) {
  return db.auditEntry.findMany({
    where: { shop: SHOP, action: "authorize", labelId: { startsWith: `label-${runId}-` } },
  });
}

async function buyJobsFor(itemIds: readonly string[]) {
  const jobs = await listJobs(db, { name: "bulk-buy", shop: SHOP });
  return jobs.filter((job) => itemIds.includes((job.payload as { itemId: string }).itemId));
}

const overlapped = (x: RaceOutcome, y: RaceOutcome) => x.startedAt < y.endedAt && y.startedAt < x.endedAt;

/** The round's two outcomes as winner and loser, when exactly one answered ok. */
function split(outcomes: Outcomes, round: number) {
  const a = outcomes.a[round];
  const b = outcomes.b[round];
  if (!a || !b) throw new Error(`round ${round} has no outcome`);
  const okOf = (o: RaceOutcome) => "ok" in o.answer && o.answer.ok;
  const winners = [a, b].filter(okOf);
  return { a, b, winners, winnerName: okOf(a) ? "a" : "b", loser: okOf(a) ? b : a };
}

/**
 * One race a round, each on a fresh run (`makeRun`): process a does `a` while process b does `b`,
 * later by the round's delay. Answers each round's run and outcomes (`split`), and a context for
 * the assertions' messages; in some round both calls were under way at once.
 */
async function raceRounds(
  makeRun: (round: number) => Promise<CreatedRun>,
  a: (run: CreatedRun, round: number) => RaceAction,
  b: (run: CreatedRun, round: number) => RaceAction,
) {
  // pg-boss creates a queue on its first job: made here, so neither process's first enqueue does it.
  await db.$transaction((tx) => enqueueBulkBuy(tx, SHOP, "warm-up"));
  const runs: CreatedRun[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await makeRun(round));
  const outcomes = await race({ a: runs.map(a), b: runs.map((run, round) => second(b(run, round), round)) });
  // The race was run: in some round both calls were under way at once.
  expect(runs.some((_, round) => overlapped(split(outcomes, round).a, split(outcomes, round).b))).toBe(true);
  return runs.map((run, round) => {
    const rival = split(outcomes, round);
    return { run, round, ...rival, context: JSON.stringify({ round, a: rival.a, b: rival.b }) };
  });
}

describe("two processes acting on one bulk run at the same moment", () => {
  it(
    "confirms a run once when two people confirm it together: the other is refused, nothing is authorised or queued twice",
    async () => {
      const confirm = (run: CreatedRun): RaceAction => ({
        kind: "confirm",
        runId: run.runId,
        expected: { count: ITEMS, totalCents: run.totalCents },
      });
      const rounds = await raceRounds((round) => createRun("review", "ready", round), confirm, confirm);

      expect(rounds.map(({ winners }) => winners.length)).toEqual(rounds.map(() => 1));
      for (const { run, round, a, b, winners, winnerName, loser, context } of rounds) {
        expect(winners, context).toHaveLength(1);
        expect(loser.answer, context).toEqual({
          ok: false,
          error: {
            code: "INVALID_STATE",
            message: "These labels are already being bought. Reload the page to see where it stands.",
          },
        });
        const stored = await db.bulkRun.findUniqueOrThrow({ where: { id: run.runId } });
        expect(stored, context).toMatchObject({
          status: "running",
          confirmedBy: winnerName,
          confirmedAt: raceClock(winnerName, round),
          confirmedCents: run.totalCents,
        });
        const entries = await authorizations(run.runId);
        expect(entries.map((e) => e.labelId).sort(), context).toEqual(run.items.map((i) => i.labelId).sort());
        expect(new Set(entries.map((e) => e.staffMemberId)), context).toEqual(new Set([winnerName]));
        const itemIds = run.items.map((i) => i.id);
        expect([...a.enqueued, ...b.enqueued].sort(), context).toEqual([...itemIds].sort());
        expect(loser.enqueued, context).toEqual([]);
        expect((await buyJobsFor(itemIds)).length, context).toBe(ITEMS);
        const items = await db.bulkRunItem.findMany({ where: { runId: run.runId } });
        expect(new Set(items.map((i) => i.status)), context).toEqual(new Set(["queued"]));
      }
    },
    TIMEOUT_MS,
  );

  it(
    "keeps a run cancelled when one person cancels it as another confirms it, authorising and queuing at most once",
    async () => {
      const rounds = await raceRounds(
        (round) => createRun("review", "ready", round),
        (run) => ({ kind: "confirm", runId: run.runId, expected: { count: ITEMS, totalCents: run.totalCents } }),
        (run) => ({ kind: "cancel", runId: run.runId }),
      );

      const statuses = await db.bulkRun.findMany({ where: { id: { in: rounds.map(({ run }) => run.runId) } } });
      expect(statuses.map((run) => run.status)).toEqual(rounds.map(() => "cancelled"));
      for (const { run, round, a: confirm, b: cancel, context } of rounds) {
        // Cancelling a run in review or running is always allowed: it is never the one refused.
        expect(cancel.answer, context).toEqual({ ok: true, value: undefined });
        const stored = await db.bulkRun.findUniqueOrThrow({ where: { id: run.runId } });
        expect(stored.status, context).toBe("cancelled");
        expect(stored.finishedAt, context).toEqual(raceClock("b", round));
        const items = await db.bulkRunItem.findMany({ where: { runId: run.runId } });
        expect(new Set(items.map((i) => i.status)), context).toEqual(new Set(["not_started"]));
        const entries = await authorizations(run.runId);
        const itemIds = run.items.map((i) => i.id);
        if ("ok" in confirm.answer && confirm.answer.ok) {
          // Confirmed first, then cancelled: one authorisation and one job per label, none bought.
          expect(stored, context).toMatchObject({ confirmedBy: "a", confirmedAt: raceClock("a", round) });
          expect(entries.map((e) => e.labelId).sort(), context).toEqual(run.items.map((i) => i.labelId).sort());
          expect([...confirm.enqueued].sort(), context).toEqual([...itemIds].sort());
        } else {
          // Cancelled first: the confirmation is refused and leaves nothing behind.
          expect(confirm.answer, context).toEqual({
            ok: false,
            error: {
              code: "INVALID_STATE",
              message: "Buying these labels was already cancelled. Reload the page to see where it stands.",
            },
          });
          expect(stored, context).toMatchObject({ confirmedBy: null, confirmedAt: null, confirmedCents: null });
          expect(entries, context).toEqual([]);
          expect(confirm.enqueued, context).toEqual([]);
          expect(await buyJobsFor(itemIds), context).toEqual([]);
        }
      }
    },
    TIMEOUT_MS,
  );

  it(
    "retries a run's failed labels once when two people retry them together: the other is refused, nothing twice",
    async () => {
      const retry = (run: CreatedRun): RaceAction => ({ kind: "retry", runId: run.runId });
      const rounds = await raceRounds((round) => createRun("stopped", "failed", round), retry, retry);

      expect(rounds.map(({ winners }) => winners.length)).toEqual(rounds.map(() => 1));
      for (const { run, a, b, winners, winnerName, loser, context } of rounds) {
        expect(winners, context).toHaveLength(1);
        expect(winners[0]?.answer, context).toEqual({ ok: true, value: { queued: ITEMS } });
        // Refused either way: it found the labels taken (it read them failed before the other
        // committed) or no longer failed (it read them after).
        expect(loser.answer, context).toEqual({
          ok: false,
          error: { code: "INVALID_STATE", message: expect.any(String) },
        });
        expect([RETRIED_MEANWHILE, "No labels to retry."], context).toContain(
          "error" in loser.answer ? loser.answer.error.message : null,
        );
        const stored = await db.bulkRun.findUniqueOrThrow({ where: { id: run.runId } });
        expect(stored, context).toMatchObject({ status: "running", stopReason: null, finishedAt: null });
        const entries = await authorizations(run.runId);
        expect(entries.map((e) => e.labelId).sort(), context).toEqual(run.items.map((i) => i.labelId).sort());
        expect(new Set(entries.map((e) => e.staffMemberId)), context).toEqual(new Set([winnerName]));
        const itemIds = run.items.map((i) => i.id);
        expect([...a.enqueued, ...b.enqueued].sort(), context).toEqual([...itemIds].sort());
        expect((await buyJobsFor(itemIds)).length, context).toBe(ITEMS);
        const items = await db.bulkRunItem.findMany({ where: { runId: run.runId } });
        expect(new Set(items.map((i) => i.status)), context).toEqual(new Set(["queued"]));
      }
    },
    TIMEOUT_MS,
  );
  it(
    "queues a stranded item again once when two workers sweep at the same moment",
    async () => {
      // Round r sweeps at base + r minutes. Run r's items were last touched just over the stranded
      // period before that, so each sweep finds its own round's run stranded, the later runs not
      // yet, and the earlier ones freshly touched by the sweeps before.
      const base = Date.now();
      const MINUTE = 60_000;
      const sweepAt = (round: number) => base + round * MINUTE;
      const sweep = (_run: CreatedRun, round: number): RaceAction => ({ kind: "resume", now: sweepAt(round) });
      const rounds = await raceRounds(
        (round) => createRun("running", "buying", round, new Date(sweepAt(round) - STRANDED_AFTER_MS - MINUTE / 2)),
        sweep,
        sweep,
      );

      expect(rounds.map(({ a, b }) => a.enqueued.length + b.enqueued.length)).toEqual(rounds.map(() => ITEMS));
      for (const { run, a, b, context } of rounds) {
        const itemIds = run.items.map((i) => i.id);
        expect([...a.enqueued, ...b.enqueued].sort(), context).toEqual([...itemIds].sort());
        const counted = [a, b].map((o) => ("ok" in o.answer && o.answer.ok ? o.answer.value : null));
        expect(counted, context).toEqual([
          { checks: 0, buys: a.enqueued.length },
          { checks: 0, buys: b.enqueued.length },
        ]);
        expect((await buyJobsFor(itemIds)).length, context).toBe(ITEMS);
      }
    },
    TIMEOUT_MS,
  );
});
