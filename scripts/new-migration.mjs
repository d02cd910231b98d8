// npm run db:migration -- <name>: after a change to prisma/schema.prisma, writes the migration of
// both providers from the same change: the difference between the schema as committed (git HEAD)
// and as it is now, as SQLite SQL (prisma/migrations) and as PostgreSQL SQL
// (prisma/postgresql/migrations). Prisma computes both from the two schemas; nothing is kept by
// hand. Review the SQL, then run `npm run setup` to apply it.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { isPostgresqlUrl } from "./migrate-postgresql.mjs";
import { startThrowawayCluster } from "./postgres-cluster.mjs";
import { derivePostgresqlSchema, POSTGRESQL_SCHEMA_PATH } from "./prisma-postgresql.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name in snake_case>");
  process.exit(1);
}

// After the newest migration of either provider (some are dated ahead), so it applies last.
const newest = ["prisma/migrations", "prisma/postgresql/migrations"]
  .flatMap((dir) => readdirSync(join(root, dir), { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && /^\d{14}_/.test(entry.name))
  .map((entry) => Number(entry.name.slice(0, 14)))
  .reduce((a, b) => Math.max(a, b), 0);
const now = Number(new Date().toISOString().replace(/\D/g, "").slice(0, 14));
const stamp = String(Math.max(now, newest + 1));
// The difference is taken from the committed schema: a migration written but not committed yet
// would be written again.
const pending = execFileSync("git", ["status", "--porcelain", "prisma/migrations", "prisma/postgresql/migrations"], {
  cwd: root,
  encoding: "utf8",
});
if (pending.trim()) {
  console.error(`Commit (or remove) the migrations written since the last commit first:\n${pending}`);
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), "migration-"));
// Prisma's PostgreSQL adapter connects even to compare two schemas: a server is needed.
const configured = [process.env.DATABASE_URL, process.env.TEST_POSTGRES_URL].find(isPostgresqlUrl);
const cluster = configured ? null : await startThrowawayCluster();
const postgresUrl = configured ?? cluster.url;
try {
  const previous = execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { cwd: root, encoding: "utf8" });
  writeFileSync(join(work, "sqlite-before.prisma"), previous);
  writeFileSync(join(work, "postgresql-before.prisma"), derivePostgresqlSchema(previous));
  writeFileSync(POSTGRESQL_SCHEMA_PATH, derivePostgresqlSchema());

  const providers = [
    {
      label: "SQLite",
      config: "prisma.config.ts",
      url: "file:prisma/dev.sqlite",
      before: "sqlite-before.prisma",
      now: "prisma/schema.prisma",
      dir: "prisma/migrations",
    },
    {
      label: "PostgreSQL",
      config: "prisma.postgresql.config.ts",
      url: postgresUrl,
      before: "postgresql-before.prisma",
      now: "prisma/postgresql/schema.prisma",
      dir: "prisma/postgresql/migrations",
    },
  ];
  for (const provider of providers) {
    const sql = execFileSync(
      join(root, "node_modules/.bin/prisma"),
      [
        "migrate",
        "diff",
        "--config",
        provider.config,
        "--from-schema-datamodel",
        join(work, provider.before),
        "--to-schema-datamodel",
        provider.now,
        "--script",
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: provider.url },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    if (!/\b(CREATE|ALTER|DROP)\b/.test(sql)) {
      console.log(`${provider.label}: no change since the last commit`);
      continue;
    }
    const dir = join(root, provider.dir, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "migration.sql"), sql);
    console.log(`${provider.label}: ${provider.dir}/${stamp}_${name}/migration.sql`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  cluster?.stop();
}
