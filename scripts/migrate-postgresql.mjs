// Applies prisma/postgresql/migrations to the PostgreSQL database of DATABASE_URL, in order,
// each once, each in its own transaction. Prisma's own `migrate deploy` cannot run here: its
// WebAssembly schema engine, the only one that needs no download, fails on PostgreSQL's catalog
// (`Column type 'name' could not be deserialized`). The SQL itself is Prisma's, generated from
// the schema (`npm run db:migration`). An advisory lock lets several processes start at once.
// Then pg-boss (the job queue on PostgreSQL, ADR 15) installs or migrates its own schema, under
// its own lock.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";
import { PgBoss } from "pg-boss";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const POSTGRESQL_MIGRATIONS_DIR = join(root, "prisma/postgresql/migrations");
const LOCK_ID = 727_274_001; // any constant: "the app's migrations"

/** `postgresql://…` or `postgres://…`: the database is PostgreSQL; anything else is SQLite. */
export const isPostgresqlUrl = (url) => /^postgres(ql)?:\/\//.test(url ?? "");

export function listPostgresqlMigrations(dir = POSTGRESQL_MIGRATIONS_DIR) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name, "migration.sql"), "utf8") }));
}

/** Applies what is missing, then pg-boss's schema; answers the names of the app's migrations applied now. */
export async function migratePostgresql(connectionString, options = {}) {
  const applied = await migrateApp(connectionString, options);
  await migratePgBoss(connectionString);
  return applied;
}

/** pg-boss's start installs or upgrades its schema; nothing else is started (no supervision, no cron). */
async function migratePgBoss(connectionString) {
  const boss = new PgBoss({
    connectionString,
    schema: "pgboss",
    max: 1,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  boss.on("error", (error) => console.error("pg-boss:", error));
  await boss.start();
  await boss.stop({ graceful: false, close: true, timeout: 1000 });
  // The app finds a shop's jobs by the shop in their data (stopping them at uninstall, erasing
  // them at shop/redact, the Activity screen's dead jobs): an index of ours on pg-boss's table.
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`CREATE INDEX IF NOT EXISTS app_job_shop ON pgboss.job ((data->>'shop'))`);
  } finally {
    await client.end();
  }
}

async function migrateApp(connectionString, { log = () => {} } = {}) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS "_app_migrations" (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query('SELECT name FROM "_app_migrations"')).rows.map((row) => row.name));
    const applied = [];
    for (const migration of listPostgresqlMigrations()) {
      if (done.has(migration.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO "_app_migrations" (name) VALUES ($1)', [migration.name]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${error instanceof Error ? error.message : error}`);
      }
      applied.push(migration.name);
      log(`applied ${migration.name}`);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
    await client.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL ?? "";
  if (!isPostgresqlUrl(url)) {
    console.error("DATABASE_URL must be a postgresql:// URL");
    process.exit(1);
  }
  const applied = await migratePostgresql(url, { log: (line) => console.log(line) });
  console.log(applied.length ? `${applied.length} migration(s) applied` : "database up to date");
}
