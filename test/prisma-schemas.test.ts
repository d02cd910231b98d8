import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { listPostgresqlMigrations, POSTGRESQL_MIGRATIONS_DIR } from "../scripts/migrate-postgresql.mjs";
import { derivePostgresqlSchema, POSTGRESQL_SCHEMA_PATH } from "../scripts/prisma-postgresql.mjs";

// One schema, two providers (ADR 14): PostgreSQL's schema is derived from prisma/schema.prisma,
// never kept by hand. (That its migrations build that schema is test/postgresql/migrations.test.ts,
// run on PostgreSQL by `npm run test:postgres`.)
describe("the Prisma schemas", () => {
  it("commits the PostgreSQL schema exactly as derived from prisma/schema.prisma", () => {
    expect(readFileSync(POSTGRESQL_SCHEMA_PATH, "utf8"), "run `npm run setup` and commit the result").toBe(
      derivePostgresqlSchema(),
    );
  });

  it("keeps PostgreSQL's migrations as PostgreSQL's, each with its SQL", () => {
    expect(readFileSync(join(POSTGRESQL_MIGRATIONS_DIR, "migration_lock.toml"), "utf8")).toContain(
      'provider = "postgresql"',
    );
    const migrations = listPostgresqlMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    for (const migration of migrations) expect(migration.sql, migration.name).toMatch(/CREATE|ALTER|DROP/);
  });
});
