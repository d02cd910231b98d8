import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";

import { resolveDatabaseUrl } from "../prisma/database-url";
import { getEnv } from "./env.server";

// One client per process; in development Vite reloads modules, so keep it on globalThis to
// avoid opening a new connection on every change.
declare global {
  var prismaGlobal: PrismaClient | undefined;
}

// SQLite lets one connection write at a time: another connection's write answers SQLITE_BUSY,
// which the libsql adapter reports as P1008 ("Operation has timed out") with nothing written.
// Every query is retried after a short async pause. SQLite's own busy_timeout would block the
// Node thread, and with it a connection in the same process that holds the lock. Correctness
// never depends on this: state transitions are conditional updates (ADR 3, ADR 5).
const BUSY_CODES = new Set(["P1008", "SQLITE_BUSY"]);
const MAX_BUSY_ATTEMPTS = 60;

export function isBusyError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code === "string" && BUSY_CODES.has(code)) return true;
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

export async function retryWhenBusy<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isBusyError(error) || attempt >= MAX_BUSY_ATTEMPTS) throw error;
      const delay = Math.min(100, 5 * attempt) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export function createPrismaClient(databaseUrl: string): PrismaClient {
  const client = new PrismaClient({ adapter: new PrismaLibSQL({ url: resolveDatabaseUrl(databaseUrl) }) });
  const retrying = client.$extends({
    query: { $allOperations: ({ args, query }) => retryWhenBusy(() => query(args)) },
  });
  // A query-only extension leaves every model and method as they are; callers keep the plain type.
  return retrying as unknown as PrismaClient;
}

const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient(getEnv().DATABASE_URL);
if (getEnv().NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
