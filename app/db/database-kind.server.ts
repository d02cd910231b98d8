import type { Prisma, PrismaClient } from "@prisma/client";

// The one place that tells the app's two databases apart (ADR 26). Everything that differs between
// SQLite and PostgreSQL is chosen here, by `byDatabase`, from a table with an entry for each: no
// module outside app/db/ asks which database it is on (test/db-seam.test.ts fails on one).

export type DatabaseKind = "sqlite" | "postgresql";

type AnyClient = PrismaClient | Prisma.TransactionClient;

/**
 * The database a client (or a transaction's client, which says its parent's) talks to. Prisma has
 * no public way to ask a transaction's client, so this reads the provider it was generated for;
 * only here.
 */
export function databaseKindOf(db: AnyClient): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" ? "postgresql" : "sqlite";
}

/** The entry of `choices` for the client's database: each difference has one for every database. */
export function byDatabase<T>(db: AnyClient, choices: Readonly<Record<DatabaseKind, T>>): T {
  return choices[databaseKindOf(db)];
}

/** Runs the entry of `choices` for the client's database, where the difference is work to do. */
export function runByDatabase<T>(db: AnyClient, choices: Readonly<Record<DatabaseKind, () => T>>): T {
  return choices[databaseKindOf(db)]();
}
