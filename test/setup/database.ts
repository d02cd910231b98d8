import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import type pg from "pg";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TMP_DIR = join(ROOT, "test/.tmp");
// Set by the global setup for the workers of one vitest run: runs started side by side (watch
// mode, an editor, CI) each get their own folder and never swap databases under each other.
const RUN_DIR_VARIABLE = "TEST_DATABASE_RUN_DIR";

/** Migrates an empty database once per run; every test then starts from a copy of it. */
export function createBaseDatabase(): { runDir: string; remove: () => void } {
  mkdirSync(TMP_DIR, { recursive: true });
  const runDir = mkdtempSync(join(TMP_DIR, "run-"));
  execFileSync(join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${join(runDir, "base.sqlite")}` },
    stdio: "pipe",
  });
  process.env[RUN_DIR_VARIABLE] = runDir;
  return { runDir, remove: () => rmSync(runDir, { recursive: true, force: true }) };
}

function runDir(): string {
  const dir = process.env[RUN_DIR_VARIABLE];
  if (!dir) throw new Error(`${RUN_DIR_VARIABLE} is not set: the vitest global setup did not run`);
  return dir;
}

export function workerDatabasePath(): string {
  return join(runDir(), `worker-${process.env.VITEST_POOL_ID ?? "0"}.sqlite`);
}

/** Replaces the worker's database file with a fresh copy of the migrated base. */
export function resetWorkerDatabase(path: string): void {
  for (const suffix of ["-journal", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(join(runDir(), "base.sqlite"), path);
}

// ---------- PostgreSQL (TEST_POSTGRES_URL set: `npm run test:postgres`) ----------
// The run migrates one database; each worker gets its own copy (CREATE DATABASE … TEMPLATE) and
// empties it before every test (TRUNCATE), so tests never see each other's rows here either.

const POSTGRES_BASE_VARIABLE = "TEST_POSTGRES_BASE_DATABASE";

/** The admin URL of the PostgreSQL server the tests run on, when they run on PostgreSQL. */
export const testPostgresUrl = (): string | null => process.env.TEST_POSTGRES_URL || null;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// pg and the migrations (which load pg-boss) are imported on PostgreSQL only: every SQLite test
// file's setup would pay for them.
const loadPg = async () => (await import("pg")).default;

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new (await loadPg()).Client({ connectionString: testPostgresUrl() ?? "" });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates and migrates the run's base database; answers how to drop it and its workers' copies. */
export async function createBasePostgresDatabase(): Promise<() => Promise<void>> {
  const url = testPostgresUrl() ?? "";
  const base = `ship_test_${process.pid}_${Date.now().toString(36)}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${base}"`));
  const { migratePostgresql } = await import("../../scripts/migrate-postgresql.mjs");
  await migratePostgresql(withDatabase(url, base));
  process.env[POSTGRES_BASE_VARIABLE] = base;
  return () =>
    withAdminClient(async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2",
        [base, `${base}_w%`],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
}

/** The worker's database, copied from the run's base the first time: its URL and how to empty it. */
export async function workerPostgresDatabase(): Promise<{ url: string; reset: () => Promise<void> }> {
  const base = process.env[POSTGRES_BASE_VARIABLE];
  if (!base) throw new Error(`${POSTGRES_BASE_VARIABLE} is not set: the vitest global setup did not run`);
  const name = `${base}_w${process.env.VITEST_POOL_ID ?? "0"}`;
  await withAdminClient(async (client) => {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}" TEMPLATE "${base}"`);
  });
  const url = withDatabase(testPostgresUrl() ?? "", name);
  const client = new (await loadPg()).Client({ connectionString: url });
  await client.connect();
  // A connection a test left busy fails the reset within seconds instead of hanging the run.
  await client.query("SET lock_timeout = '10s'");
  const { rows } = await client.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_app_migrations'",
  );
  // pg-boss's jobs too (its queues stay: a process's pg-boss remembers which exist).
  const tables = [...rows.map((r) => `"${r.tablename}"`), "pgboss.job"];
  const truncate = `TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE`;
  return { url, reset: () => truncateRetryingDeadlocks(client, truncate) };
}

const DEADLOCK_DETECTED = "40P01";

// A pg-boss an earlier test started keeps supervising (every second in the queue's tests), and its
// maintenance locks the job table's partitions in another order than TRUNCATE does: PostgreSQL
// then aborts one of the two. Aborting the truncate is harmless; it is simply run again.
async function truncateRetryingDeadlocks(client: pg.Client, truncate: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(truncate);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== DEADLOCK_DETECTED || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
