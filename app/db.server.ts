import { type Client, type Config, createClient, type TransactionMode } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";

import { resolveDatabaseUrl } from "../prisma/database-url";
import { getEnv } from "./env.server";

// One client per process; in development Vite reloads modules, so keep it on globalThis to
// avoid opening a new connection on every change.
declare global {
  var prismaGlobal: PrismaClient | undefined;
}

// SQLite lets one connection write at a time; the web and worker processes share the file.
// Another process's write lock answers SQLITE_BUSY (P1008 from the adapter) with nothing written,
// and the query is retried after a short async pause. (SQLite's own
// busy_timeout would block the Node thread, and with it another connection of the same process
// that holds the lock: tests run two "processes" in one.) Two more rules keep a refused write
// from wedging the database (prisma/prisma#30028, libsql-client-ts#352):
// - A COMMIT refused with SQLITE_BUSY is tried again after a pause; one that fails for good is
//   rolled back: the adapter leaves it open, and its connection would otherwise hold the write
//   lock for good, refusing every other writer.
// - Outside tests the file is in WAL mode: readers never block a commit, nor a writer them.
// Correctness never depends on any of this: state transitions are conditional updates (ADR 3, 5).
const BUSY_CODES = new Set(["P1008", "SQLITE_BUSY"]);
const MAX_BUSY_ATTEMPTS = 60;

export function isBusyError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code === "string" && BUSY_CODES.has(code)) return true;
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

// A short, growing, jittered pause before trying a refused statement again.
function pauseAfterBusy(attempt: number): Promise<void> {
  const delay = Math.min(100, 5 * attempt) * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, delay));
}

export async function retryWhenBusy<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isBusyError(error) || attempt >= MAX_BUSY_ATTEMPTS) throw error;
      await pauseAfterBusy(attempt);
    }
  }
}

/** A libsql client that retries a refused COMMIT (rolling back one that fails for good), and sets WAL mode once when asked. */
export function withSqliteDiscipline(client: Client, options: { wal: boolean }): Client {
  let walSet = !options.wal;
  const prepare = async () => {
    if (walSet) return;
    walSet = true;
    await client.execute("PRAGMA journal_mode = WAL");
  };
  // The client keeps its state in private fields: every call must reach it with itself as `this`.
  const call =
    (property: "execute" | "batch" | "executeMultiple") =>
    async (...args: unknown[]) => {
      await prepare();
      return (client[property] as (...a: unknown[]) => Promise<unknown>).apply(client, args);
    };
  const wrapped = {
    execute: call("execute"),
    batch: call("batch"),
    executeMultiple: call("executeMultiple"),
    transaction: async (mode?: TransactionMode) => {
      await prepare();
      const tx = await client.transaction(mode);
      return new Proxy(tx, {
        get(target, property) {
          if (property === "commit") {
            // COMMIT refused by another process's lock leaves the transaction open: try it again
            // after a pause, as a single query would be; only for good does it roll back (the
            // adapter would leave it open, holding the write lock).
            return async () => {
              for (let attempt = 1; ; attempt++) {
                try {
                  await target.commit();
                  return;
                } catch (error) {
                  if (!isBusyError(error) || attempt >= MAX_BUSY_ATTEMPTS) {
                    await target.rollback().catch(() => {});
                    throw error;
                  }
                  await pauseAfterBusy(attempt);
                }
              }
            };
          }
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
  return new Proxy(client, {
    get(target, property) {
      if (typeof property === "string" && property in wrapped) return wrapped[property as keyof typeof wrapped];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

class DisciplinedLibSQL extends PrismaLibSQL {
  constructor(
    config: Config,
    private readonly wal: boolean,
  ) {
    super(config);
  }
  override createClient(config: Config): Client {
    return withSqliteDiscipline(createClient(config), { wal: this.wal });
  }
}

export function createPrismaClient(databaseUrl: string, options: { wal?: boolean } = {}): PrismaClient {
  const url = resolveDatabaseUrl(databaseUrl);
  // Tests copy a fresh file under a closed client before each test: a WAL file left by a
  // connection the client dropped could be replayed onto the new copy, so tests keep the journal.
  const wal = options.wal ?? (url.startsWith("file:") && process.env.NODE_ENV !== "test");
  const client = new PrismaClient({ adapter: new DisciplinedLibSQL({ url }, wal) });
  const retrying = client.$extends({
    query: { $allOperations: ({ args, query }) => retryWhenBusy(() => query(args)) },
  });
  // A query-only extension leaves every model and method as they are; callers keep the plain type.
  return retrying as unknown as PrismaClient;
}

const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient(getEnv().DATABASE_URL);
if (getEnv().NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
