import { afterAll, afterEach, beforeEach, vi } from "vitest";

import { stopPgBosses } from "~/jobs/queue.server";

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
afterAll(() => stopPgBosses());

// An unexpected console.error fails the test that caused it: errors the code logs are bugs
// unless the test says it expects them (by spying on console.error itself).
let consoleErrorCalls: unknown[][] = [];
beforeEach(() => {
  consoleErrorCalls = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrorCalls.push(args);
  });
});
afterEach(() => {
  const calls = consoleErrorCalls;
  consoleErrorCalls = [];
  if (calls.length > 0) {
    throw new Error(
      `console.error was called unexpectedly:\n${calls.map((call) => call.map(String).join(" ")).join("\n")}`,
    );
  }
});
