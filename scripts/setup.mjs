// One-shot, offline project set-up: Shopify's Admin schema from the npm registry, the Prisma
// client, and the SQLite database migrated. Safe to run again: every step skips work already done.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

import { isPostgresqlUrl, migratePostgresql } from "./migrate-postgresql.mjs";
import { derivePostgresqlSchema, POSTGRESQL_SCHEMA_PATH } from "./prisma-postgresql.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const quiet = process.argv.includes("--quiet");
const log = (message) => {
  if (!quiet) console.log(`setup: ${message}`);
};

// The schema ships inside @shopify/dev-mcp; `npm pack` fetches the tarball from the registry
// without installing that package's large dependency tree.
export const ADMIN_API_VERSION = "2026-10";
const DEV_MCP = "@shopify/dev-mcp@1.16.0";
const schemaPath = join(root, "app/types", `admin-${ADMIN_API_VERSION}.schema.json`);

// The Prisma CLI reads DATABASE_URL; default it to the same SQLite file the app opens.
const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL || "file:prisma/dev.sqlite" };

function run(cmd, args, cwd = root, extraEnv = {}) {
  return execFileSync(cmd, args, {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
}

function fetchAdminSchema() {
  if (existsSync(schemaPath)) return log(`Admin schema ${ADMIN_API_VERSION} already present`);
  const work = mkdtempSync(join(tmpdir(), "dev-mcp-"));
  try {
    const tarball = run("npm", ["pack", DEV_MCP, "--silent", "--pack-destination", work]).trim().split("\n").pop();
    const member = `package/dist/data/admin_${ADMIN_API_VERSION}.json.gz`;
    run("tar", ["xzf", join(work, tarball), "-C", work, member]);
    const json = gunzipSync(readFileSync(join(work, member)));
    const parsed = JSON.parse(json.toString("utf8"));
    if (!parsed?.data?.__schema) throw new Error(`${member} is not an introspection result`);
    mkdirSync(dirname(schemaPath), { recursive: true });
    writeFileSync(schemaPath, json);
    log(`Admin schema ${ADMIN_API_VERSION} written to ${schemaPath}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// One client per provider, both from prisma/schema.prisma: SQLite's (the default) and
// PostgreSQL's, from the schema derived for it (scripts/prisma-postgresql.mjs, ADR 14).
function generatePrismaClients() {
  const derived = derivePostgresqlSchema();
  if (!existsSync(POSTGRESQL_SCHEMA_PATH) || readFileSync(POSTGRESQL_SCHEMA_PATH, "utf8") !== derived) {
    writeFileSync(POSTGRESQL_SCHEMA_PATH, derived);
    log("PostgreSQL schema derived from prisma/schema.prisma");
  }
  const schema = readFileSync(join(root, "prisma/schema.prisma"), "utf8");
  const clients = [
    { name: "SQLite", dir: "client", args: [] },
    { name: "PostgreSQL", dir: "client-postgresql", args: ["--config", "prisma.postgresql.config.ts"] },
  ];
  for (const client of clients) {
    const marker = join(root, `node_modules/.prisma/${client.dir}/index.js`);
    const stamp = join(root, `node_modules/.prisma/${client.dir}.schema.stamp`);
    if (existsSync(marker) && existsSync(stamp) && readFileSync(stamp, "utf8") === schema) {
      log(`Prisma client (${client.name}) up to date`);
      continue;
    }
    // The CLI wants a URL of the provider it generates for; generating connects to nothing.
    const sqliteUrl = isPostgresqlUrl(env.DATABASE_URL) ? "file:prisma/dev.sqlite" : env.DATABASE_URL;
    const url = client.dir === "client" ? sqliteUrl : "postgresql://localhost/unused";
    run("npx", ["--no-install", "prisma", "generate", ...client.args], root, { DATABASE_URL: url });
    writeFileSync(stamp, schema);
    log(`Prisma client (${client.name}) generated`);
  }
}

async function migrateDatabase() {
  if (isPostgresqlUrl(env.DATABASE_URL)) {
    const applied = await migratePostgresql(env.DATABASE_URL);
    return log(applied.length ? `PostgreSQL: ${applied.join(", ")} applied` : "PostgreSQL database up to date");
  }
  run("npx", ["--no-install", "prisma", "migrate", "deploy"]);
  log("database migrated");
}

// Types for every `#graphql` document in app/ (app/types/admin.generated.d.ts); also proves that
// each document parses against the schema, since codegen refuses unknown fields.
function generateGraphqlTypes() {
  run("npx", ["--no-install", "graphql-codegen"]);
  log("GraphQL types generated");
}

fetchAdminSchema();
generateGraphqlTypes();
if (existsSync(join(root, "prisma/schema.prisma"))) {
  generatePrismaClients();
  if (!process.argv.includes("--no-migrate")) await migrateDatabase();
}
