import { PrismaLibSQL } from "@prisma/adapter-libsql";

// Prisma's libSQL adapter with every transaction on the client's one connection (ADR 19's
// addendum of 2026-11-29). `@libsql/client` hands a transaction the connection it has and opens
// a new one for what follows; the transaction never closes the one it took (upstream:
// tursodatabase/libsql-client-ts#350, and libsql-js#230 for why closing would not free it
// either). Every Prisma transaction therefore kept two file descriptors (the database and its
// WAL) and about 0.35 MB for the life of the process: a bulk run of 1,000 orders held some
// 18,000 descriptors and 3 GB, and a laptop's default limit of 256 or 1,024 descriptors ends the
// app after a few hundred writes. Prisma's adapter already runs one query or transaction at a
// time (it holds its lock from BEGIN to COMMIT), so one connection serves everything.

type LibsqlClient = ReturnType<PrismaLibSQL["createClient"]>;
type LibsqlConfig = Parameters<PrismaLibSQL["createClient"]>[0];
type LibsqlTransaction = Awaited<ReturnType<LibsqlClient["transaction"]>>;
// The client's `transaction` is overloaded, so its modes are not read off its type.
type TransactionMode = "write" | "read" | "deferred";

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

// A constraint error undoes its own statement and leaves the transaction open (SQLite's ABORT);
// other errors (a full disk, an I/O error, an interrupt) may have rolled the whole of it back.
const keepsTransactionOpen = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT");

function transactionOn(client: LibsqlClient): (mode?: TransactionMode) => Promise<LibsqlTransaction> {
  return async (mode: TransactionMode = "write") => {
    await client.execute(BEGIN[mode]);
    let open = true;
    // Ends it in SQLite whatever state SQLite is in; the error of a ROLLBACK with nothing to roll
    // back is not the caller's.
    const rollBack = async () => {
      open = false;
      await client.execute("ROLLBACK").catch(() => undefined);
    };
    const closedError = () => Object.assign(new Error("The transaction is closed"), { code: "TRANSACTION_CLOSED" });
    const transaction = {
      async execute(...args: Parameters<LibsqlTransaction["execute"]>) {
        if (!open) throw closedError();
        try {
          return await client.execute(...(args as Parameters<LibsqlClient["execute"]>));
        } catch (error) {
          // Nothing of this transaction may run after it outside a transaction.
          if (!keepsTransactionOpen(error)) await rollBack();
          throw error;
        }
      },
      async commit() {
        if (!open) throw closedError();
        try {
          await client.execute("COMMIT");
          open = false;
        } catch (error) {
          // A COMMIT that failed leaves the transaction open, on the connection everything uses.
          await rollBack();
          throw error;
        }
      },
      async rollback() {
        if (open) await rollBack();
      },
      close() {
        if (open) void rollBack();
      },
      get closed() {
        return !open;
      },
      // The client's batch and script calls commit or roll back on their own: not inside this.
      batch: () => Promise.reject(new Error("batch inside a transaction is not supported here")),
      executeMultiple: () => Promise.reject(new Error("executeMultiple inside a transaction is not supported here")),
    };
    return transaction as unknown as LibsqlTransaction;
  };
}

export class PrismaLibSQLOneConnection extends PrismaLibSQL {
  override createClient(config: LibsqlConfig): LibsqlClient {
    const client = super.createClient(config);
    const transaction = transactionOn(client);
    // The client's own methods read its private fields: called on it, not on the proxy.
    return new Proxy(client, {
      get(target, property) {
        if (property === "transaction") return transaction;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
