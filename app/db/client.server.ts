import { createRequire } from "node:module";

import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import Database from "libsql";
import pg from "pg";

import { resolveDatabaseUrl } from "../../prisma/database-url";
import { PrismaLibSQLOneConnection } from "./sqlite-adapter.server";

// Opening the app's database, SQLite or PostgreSQL, without reading the app's environment: the
// app's one client (db.server.ts), the demo and the tests open theirs here.

/** `postgresql://…` or `postgres://…`: the database is PostgreSQL (ADR 14); anything else is SQLite. */
export const isPostgresqlUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

// A Prisma client is generated for one provider: PostgreSQL's is generated next to SQLite's
// (scripts/prisma-postgresql.mjs) from the same schema, so its model API is the same one.
const requireGenerated = createRequire(import.meta.url);

function createPostgresqlClient(url: string): PrismaClient {
  const generated = requireGenerated(".prisma/client-postgresql") as { PrismaClient: typeof PrismaClient };
  const client = new generated.PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  postgresqlUrls.set(client, url);
  return client;
}

const postgresqlUrls = new WeakMap<PrismaClient, string>();
const pools = new Map<string, pg.Pool>();

/**
 * A pool on this client's PostgreSQL database for the one path written without Prisma (ADR 25:
 * the deliveries of fulfillment orders ready to ship), opened on first use, one a database and
 * process; null on SQLite.
 */
export function postgresqlPoolOf(db: PrismaClient): pg.Pool | null {
  const url = postgresqlUrls.get(db);
  if (url === undefined) return null;
  let pool = pools.get(url);
  if (!pool) {
    // One connection: group commit writes one batch at a time. Idle, it does not keep a stopping
    // process alive.
    pool = new pg.Pool({ connectionString: url, max: 1, allowExitOnIdle: true });
    // An idle connection the server ended (a restart, a dropped test database) is replaced on
    // next use; unhandled, its error would end the process.
    pool.on("error", () => {});
    pools.set(url, pool);
  }
  return pool;
}

// WAL is a property of the file, kept by every later connection: readers never wait for a commit,
// and a commit costs one sync instead of the rollback journal's several. Set here, before the
// adapter opens its connections, because the adapter has no option for it.
function turnOnWriteAheadLog(url: string): void {
  const connection = new Database(url.slice("file:".length));
  try {
    connection.pragma("journal_mode = WAL");
  } finally {
    connection.close();
  }
}

export function createPrismaClient(databaseUrl: string, options: { wal?: boolean } = {}): PrismaClient {
  if (isPostgresqlUrl(databaseUrl)) return createPostgresqlClient(databaseUrl);
  const url = resolveDatabaseUrl(databaseUrl);
  // Tests copy a fresh file under a closed client before each test: a WAL file left by a
  // connection the client dropped could be replayed onto the new copy, so tests keep the journal.
  const wal = options.wal ?? (url.startsWith("file:") && process.env.NODE_ENV !== "test");
  if (wal) turnOnWriteAheadLog(url);
  // One SQLite file serves one process (ADR 19): the adapter runs one query or transaction at a
  // time, so the process never waits on its own lock, and nothing else writes the file. One
  // connection for all of it (sqlite-adapter.server.ts: the stock client leaked one a transaction).
  return new PrismaClient({ adapter: new PrismaLibSQLOneConnection({ url }) });
}
