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

// While the server restarts or is unreachable, a request waiting for a connection fails within
// this instead of waiting on (pg's default is forever): a webhook route then answers non-2xx
// inside Shopify's 5 s and Shopify retries it, and a job's attempt fails and is retried.
export const POSTGRESQL_CONNECT_TIMEOUT_MS = 3_000;
// The ready-to-ship lane (ADR 25) answers Shopify directly: a statement longer than this is not
// a burst but a stuck server or lock, and the batch fails (Shopify retries) while there is time.
export const READY_LANE_STATEMENT_TIMEOUT_MS = 2_000;
export const READY_LANE_CONNECT_TIMEOUT_MS = 1_500;
export const READY_LANE_APPLICATION_NAME = "ship-orders-ready-lane";

// A connection the server ended (a restart, pg_terminate_backend) emits "error" on the pool when
// idle and on the connection itself when checked out between statements: unheard, either ends the
// process. The statement in flight fails on its own and the pool replaces the connection.
function ignoreConnectionErrors(pool: pg.Pool): void {
  pool.on("error", () => {});
  pool.on("connect", (connection) => connection.on("error", () => {}));
}

function createPostgresqlClient(url: string): PrismaClient {
  const generated = requireGenerated(".prisma/client-postgresql") as { PrismaClient: typeof PrismaClient };
  const pool = new pg.Pool({
    connectionString: url,
    // Named in pg_stat_activity (pg-boss names its own "pgboss").
    application_name: "ship-orders",
    connectionTimeoutMillis: POSTGRESQL_CONNECT_TIMEOUT_MS,
    // A peer that vanished without a reset (a failover, a dropped route) is noticed.
    keepAlive: true,
  });
  ignoreConnectionErrors(pool);
  const client = new generated.PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
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
    // process alive. Every wait is bounded (connecting, each statement on the server, and its
    // answer on the client, which also covers a socket that went silent), so a batch fails
    // within Shopify's 5 s and its deliveries are retried, instead of holding the lane.
    pool = new pg.Pool({
      connectionString: url,
      max: 1,
      allowExitOnIdle: true,
      application_name: READY_LANE_APPLICATION_NAME,
      connectionTimeoutMillis: READY_LANE_CONNECT_TIMEOUT_MS,
      statement_timeout: READY_LANE_STATEMENT_TIMEOUT_MS,
      query_timeout: READY_LANE_STATEMENT_TIMEOUT_MS + 500,
      keepAlive: true,
    });
    ignoreConnectionErrors(pool);
    pools.set(url, pool);
  }
  return pool;
}

// What a lost database connection looks like from Prisma (its driver adapter wraps pg's errors)
// or from pg: the server restarting or ending the session, refusing or resetting the connection.
const CONNECTION_LOST =
  /terminating connection|Connection terminated|connection error and is not queryable|ECONNREFUSED|ECONNRESET|EPIPE|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect|Server has closed the connection|Can't reach database server|57P0[123]|\b08(000|003|006|001|004)\b/;

/** Whether `error` (or what caused it) is the database connection lost, not a refusal of the statement. */
export function isConnectionLost(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== "object") return CONNECTION_LOST.test(String(cause));
    const fields = cause as { message?: unknown; code?: unknown; cause?: unknown };
    if (CONNECTION_LOST.test(`${String(fields.code ?? "")} ${String(fields.message ?? "")}`)) return true;
    cause = fields.cause;
  }
  return false;
}

/**
 * Runs `write` again while the database connection is lost (a restart, a terminated session), a
 * few times over about `withinMs`: for a write recording what an outside service already did,
 * which a failure would otherwise leave unrecorded. `write` must be safe to repeat.
 */
export async function retryWhileConnectionLost<T>(
  write: () => Promise<T>,
  options: { withinMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const withinMs = options.withinMs ?? 10_000;
  for (let waited = 0, pause = 250; ; waited += pause, pause = Math.min(pause * 2, 2_000)) {
    try {
      return await write();
    } catch (error) {
      if (!isConnectionLost(error) || waited + pause > withinMs) throw error;
      await sleep(pause);
    }
  }
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
