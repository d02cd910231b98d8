import { createRequire } from "node:module";

import type { Client, Config } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";

import { resolveDatabaseUrl } from "../prisma/database-url";
import { SqliteClient } from "./sqlite-client.server";

// Opening the app's database, SQLite or PostgreSQL, without reading the app's environment: the
// app's one client (db.server.ts), the demo and the tests open theirs here.

// SQLite lets one connection write at a time; the web and worker processes share the file. The
// adapter talks to SqliteClient (sqlite-client.server.ts), which waits out the other process's
// write lock without wedging the connection, and takes the lock when a transaction begins.
// Correctness never depends on the waiting: state transitions are conditional updates (ADR 3, 5).
class WaitingLibSQL extends PrismaLibSQL {
  constructor(
    config: Config,
    private readonly wal: boolean,
  ) {
    super(config);
  }
  override createClient(config: Config): Client {
    return SqliteClient.fromUrl(config.url, { wal: this.wal, ...(config.intMode ? { intMode: config.intMode } : {}) });
  }
}

/** `postgresql://…` or `postgres://…`: the database is PostgreSQL (ADR 14); anything else is SQLite. */
export const isPostgresqlUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

// A Prisma client is generated for one provider: PostgreSQL's is generated next to SQLite's
// (scripts/prisma-postgresql.mjs) from the same schema, so its model API is the same one.
const requireGenerated = createRequire(import.meta.url);

function createPostgresqlClient(url: string): PrismaClient {
  const generated = requireGenerated(".prisma/client-postgresql") as { PrismaClient: typeof PrismaClient };
  return new generated.PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

export function createPrismaClient(databaseUrl: string, options: { wal?: boolean } = {}): PrismaClient {
  if (isPostgresqlUrl(databaseUrl)) return createPostgresqlClient(databaseUrl);
  const url = resolveDatabaseUrl(databaseUrl);
  // Tests copy a fresh file under a closed client before each test: a WAL file left by a
  // connection the client dropped could be replayed onto the new copy, so tests keep the journal.
  const wal = options.wal ?? (url.startsWith("file:") && process.env.NODE_ENV !== "test");
  return new PrismaClient({ adapter: new WaitingLibSQL({ url }, wal) });
}
