import { execFileSync } from "node:child_process";
import { join } from "node:path";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { ROOT } from "../setup/database";

// On PostgreSQL (`npm run test:postgres`): the committed migrations build exactly the schema that
// prisma/schema.prisma describes today. A schema change without its PostgreSQL migration
// (`npm run db:migration`) fails here. The worker's database was built by the migrations; a
// second database is built straight from the schema by Prisma, and the two are compared.

const postgresUrl = process.env.TEST_POSTGRES_URL;
if (!postgresUrl) throw new Error("PostgreSQL's own tests: run them with `npm run test:postgres`");

type Shape = { columns: string[]; indexes: string[] };

async function shapeOf(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ line: string }>(`
      SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_app_migrations'`);
    const indexes = await client.query<{ line: string }>(`
      SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_app_migrations'`);
    return { columns: columns.rows.map((r) => r.line).sort(), indexes: indexes.rows.map((r) => r.line).sort() };
  } finally {
    await client.end();
  }
}

describe("the PostgreSQL migrations", () => {
  it("build the schema prisma/schema.prisma describes", async () => {
    const fromSchema = execFileSync(
      join(ROOT, "node_modules/.bin/prisma"),
      [
        "migrate",
        "diff",
        "--config",
        "prisma.postgresql.config.ts",
        "--from-empty",
        "--to-schema-datamodel",
        "prisma/postgresql/schema.prisma",
        "--script",
      ],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: postgresUrl },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const name = `ship_schema_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    try {
      const url = new URL(postgresUrl ?? "");
      url.pathname = `/${name}`;
      const direct = new pg.Client({ connectionString: url.toString() });
      await direct.connect();
      await direct.query(fromSchema);
      await direct.end();
      const migrated = await shapeOf(process.env.DATABASE_URL ?? "");
      const described = await shapeOf(url.toString());
      expect(migrated.columns.length).toBeGreaterThan(50);
      expect(migrated).toEqual(described);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
