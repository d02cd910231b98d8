import type { Prisma, PrismaClient } from "@prisma/client";

// SQLite lets one connection write at a time; another process's write answers SQLITE_BUSY,
// which the libsql adapter reports as P1008 ("Operation has timed out") with nothing written.
// The label use cases retry those after a short async pause. (SQLite's own busy_timeout would
// block the Node thread, and with it the connection that holds the lock, in the same process.)
// Correctness never depends on this: every transition is a conditional update (ADR 3, ADR 5).

const BUSY_CODES = new Set(["P1008", "SQLITE_BUSY"]);
const MAX_ATTEMPTS = 60;

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
      if (!isBusyError(error) || attempt >= MAX_ATTEMPTS) throw error;
      const delay = Math.min(100, 5 * attempt) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The Label table with every call retried on SQLITE_BUSY. */
export function labelTable(db: PrismaClient) {
  return {
    findFirst: (args: Prisma.LabelFindFirstArgs) => retryWhenBusy(() => db.label.findFirst(args)),
    findMany: (args: Prisma.LabelFindManyArgs) => retryWhenBusy(() => db.label.findMany(args)),
    create: (args: Prisma.LabelCreateArgs) => retryWhenBusy(() => db.label.create(args)),
    update: (args: Prisma.LabelUpdateArgs) => retryWhenBusy(() => db.label.update(args)),
    updateMany: (args: Prisma.LabelUpdateManyArgs) => retryWhenBusy(() => db.label.updateMany(args)),
    count: (args: Prisma.LabelCountArgs) => retryWhenBusy(() => db.label.count(args)),
  };
}
