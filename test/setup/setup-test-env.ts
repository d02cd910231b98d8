import { afterAll, afterEach, beforeEach, vi } from "vitest";

import { resetWorkerDatabase, testPostgresUrl, workerDatabasePath, workerPostgresDatabase } from "./database";
import { TEST_ENV } from "./test-env";

Object.assign(process.env, TEST_ENV);

// Each worker owns one SQLite file, refreshed from the migrated base before every test, so tests
// never see each other's rows and no test pays for running migrations. On PostgreSQL
// (TEST_POSTGRES_URL), each worker owns a database, emptied before every test.
const postgres = testPostgresUrl() ? await workerPostgresDatabase() : null;
const databasePath = postgres ? null : workerDatabasePath();
process.env.DATABASE_URL = postgres ? postgres.url : `file:${databasePath}`;
if (databasePath) resetWorkerDatabase(databasePath);

beforeEach(async () => {
  // Close the app's client (if a test file loaded it) before swapping the file under it (or
  // emptying the tables, which waits for every other connection's locks); the next query
  // reconnects.
  await globalThis.prismaGlobal?.$disconnect();
  if (postgres) return postgres.reset();
  if (databasePath) resetWorkerDatabase(databasePath);
});

// A test file that enqueued on PostgreSQL started the process's pg-boss: its pool and timers go.
// Imported only then: loading the queue costs every other file about a second.
afterAll(async () => {
  if (!globalThis.pgBossStarted) return;
  globalThis.pgBossStarted = false;
  const { stopPgBosses } = await import("~/queue/queue.server");
  await stopPgBosses();
});

// An unexpected console.error or console.warn fails the test that caused it: what the code logs
// at those levels is a bug unless the test says it expects it (by spying on the console method
// itself). The app's logger hands its warnings and errors to these two in tests, already
// redacted, and drops the rest (app/logger.server.ts, docs/decisions/0017-one-logger.md).
const UNEXPECTED = ["error", "warn"] as const;
let unexpectedCalls: Array<{ method: (typeof UNEXPECTED)[number]; args: unknown[] }> = [];
beforeEach(() => {
  unexpectedCalls = [];
  for (const method of UNEXPECTED) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      unexpectedCalls.push({ method, args });
    });
  }
});
afterEach(() => {
  const calls = unexpectedCalls;
  unexpectedCalls = [];
  if (calls.length > 0) {
    const lines = calls.map(({ method, args }) => `console.${method}: ${args.map(String).join(" ")}`);
    throw new Error(`console.${calls[0]?.method} was called unexpectedly:\n${lines.join("\n")}`);
  }
});
