import {
  type Client,
  type InStatement,
  type InValue,
  LibsqlError,
  type ResultSet,
  type Row,
  type Transaction,
  type TransactionMode,
} from "@libsql/client";
import Database from "libsql";

// The SQLite client Prisma's libsql adapter talks to (db.server.ts), in place of @libsql/client's
// local one, which cannot survive two processes writing one file:
// - A statement refused with SQLITE_BUSY stays "in progress" until it is run again or garbage
//   collected; @libsql/client drops it and prepares the next try anew, so every later COMMIT on
//   that connection fails ("cannot commit transaction - SQL statements in progress") while the
//   transaction keeps the write lock: the web process and the worker wedged each other for
//   seconds (tursodatabase/libsql-client-ts#352, libsql-js#237). Here a refused statement is run
//   again itself, after an async pause (SQLite's busy_timeout would block the Node thread, and
//   with it another connection of the same process that holds the lock: tests run two "processes"
//   in one); one that stays refused takes its connection with it.
// - It opened a new connection for every transaction and never closed them. The adapter runs
//   one transaction at a time per client and no query beside it, so one connection serves both.
// - Prisma opens every transaction "deferred": one that reads and then writes cannot take the
//   write lock in WAL mode once another process committed after its read, and no wait helps
//   (SQLITE_BUSY_SNAPSHOT). Transactions take the write lock when they begin instead.

type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection["prepare"]>;
type IntMode = "number" | "bigint" | "string";

export type SqliteClientOptions = {
  /** Puts the file in WAL mode: readers never block a commit, nor a writer them. */
  readonly wal: boolean;
  readonly intMode?: IntMode;
  /** Default DEFAULT_BUSY_TIMEOUT_MS. */
  readonly busyTimeoutMs?: number;
};

/** How long a statement refused by another connection's lock is tried again before its connection is given up. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export function isBusyError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code === "string" && (code === "P1008" || code.startsWith("SQLITE_BUSY"))) return true;
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

// A short, growing, jittered pause before a refused statement runs again. Another process holds
// the write lock for a millisecond or two (WAL, short transactions): longer first pauses only add
// latency, and trying again is cheap.
function pauseAfterBusy(attempt: number): Promise<void> {
  const delay = Math.min(20, attempt) * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, delay));
}

function toLibsqlError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const { code, rawCode } = error as unknown as { code: string; rawCode?: number };
    return new LibsqlError(error.message, code, rawCode, error);
  }
  return error;
}

/** A statement refused for good: its connection must not be used again. */
class ConnectionLost extends Error {
  constructor(override readonly cause: unknown) {
    super("the connection was given up");
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function valueFromSql(value: unknown, intMode: IntMode): unknown {
  if (typeof value === "bigint") {
    if (intMode === "bigint") return value;
    if (intMode === "string") return String(value);
    if (value < MIN_SAFE || value > MAX_SAFE) {
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    }
    return Number(value);
  }
  if (value instanceof Buffer) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

function valueToSql(value: InValue | undefined, intMode: IntMode): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
  }
  if (typeof value === "boolean") return intMode === "bigint" ? BigInt(value ? 1 : 0) : value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

// Rows answer by index and by column name, as @libsql/client's do (the adapter reads by index).
function toRow(values: unknown[], columns: string[], intMode: IntMode): Row {
  const row: Record<string | number, unknown> = {};
  Object.defineProperty(row, "length", { value: values.length });
  values.forEach((raw, i) => {
    const value = valueFromSql(raw, intMode);
    Object.defineProperty(row, i, { value });
    const column = columns[i];
    if (column !== undefined && !Object.hasOwn(row, column)) {
      Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true });
    }
  });
  return row as unknown as Row;
}

function toResultSet(
  columns: string[],
  columnTypes: string[],
  rows: Row[],
  rowsAffected: number,
  lastInsertRowid: bigint | undefined,
): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows, rowsAffected, lastInsertRowid: lastInsertRowid?.toString() }),
  };
}

// Prepared statements kept per connection: Prisma sends a few dozen distinct statements, and
// preparing one costs more than running it. A statement refused earlier is reset when it runs again.
const STATEMENT_CACHE_SIZE = 200;
type Prepared = { readonly statement: Statement; readonly columns: string[] | null; readonly columnTypes: string[] };
const statementCaches = new WeakMap<Connection, Map<string, Prepared>>();

function prepare(connection: Connection, sql: string): Prepared {
  let cache = statementCaches.get(connection);
  if (!cache) {
    cache = new Map();
    statementCaches.set(connection, cache);
  }
  const cached = cache.get(sql);
  if (cached) return cached;
  const statement = connection.prepare(sql);
  statement.safeIntegers(true);
  let prepared: Prepared;
  try {
    statement.raw(true);
    const described = statement.columns() as { name: string; type?: string | null }[];
    prepared = {
      statement,
      columns: described.map((column) => column.name),
      columnTypes: described.map((column) => column.type ?? ""),
    };
  } catch {
    prepared = { statement, columns: null, columnTypes: [] }; // raw() throws for a statement that returns no rows
  }
  if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(sql, prepared);
  return prepared;
}

async function runStatement(
  connection: Connection,
  input: InStatement,
  intMode: IntMode,
  busyTimeoutMs: number,
): Promise<ResultSet> {
  const sql = typeof input === "string" ? input : input.sql;
  const rawArgs = typeof input === "string" ? [] : (input.args ?? []);
  const args = Array.isArray(rawArgs)
    ? rawArgs.map((value) => valueToSql(value, intMode))
    : Object.fromEntries(
        Object.entries(rawArgs).map(([name, value]) => [name.replace(/^[@$:]/, ""), valueToSql(value, intMode)]),
      );

  const deadline = performance.now() + busyTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const { statement, columns, columnTypes } = prepare(connection, sql);
      if (columns) {
        const rows = (statement.all(args) as unknown[][]).map((values) => toRow(values, columns, intMode));
        return toResultSet(columns, columnTypes, rows, 0, undefined);
      }
      const info = statement.run(args) as { changes: number; lastInsertRowid: number | bigint };
      return toResultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (error) {
      if (!isBusyError(error)) throw toLibsqlError(error);
      // The same (cached) statement runs again, and resets first: a new one would leave this one in progress.
      if (performance.now() >= deadline) throw new ConnectionLost(toLibsqlError(error));
      await pauseAfterBusy(attempt);
    }
  }
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  deferred: "BEGIN IMMEDIATE",
  read: "BEGIN DEFERRED",
};

/** A libsql `Client` on one local connection that waits out other processes' locks without wedging. */
export class SqliteClient implements Client {
  closed = false;
  readonly protocol = "file";
  #connection: Connection | null = null;
  #inTransaction = false;

  constructor(
    private readonly path: string,
    private readonly options: SqliteClientOptions,
  ) {}

  /** `file:` URLs (absolute or relative to the working directory) and `:memory:`. */
  static fromUrl(url: string, options: SqliteClientOptions): SqliteClient {
    if (url === ":memory:" || url === "file::memory:") return new SqliteClient(":memory:", options);
    if (!url.startsWith("file:")) throw new LibsqlError(`${url} is not a file: URL`, "URL_SCHEME_NOT_SUPPORTED");
    const path = decodeURIComponent(
      url
        .slice("file:".length)
        .replace(/^\/\/(localhost)?(?=\/)/, "")
        .split("?")[0] ?? "",
    );
    return new SqliteClient(path, options);
  }

  get #intMode(): IntMode {
    return this.options.intMode ?? "number";
  }

  #open(): Connection {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    if (!this.#connection) {
      const connection = new Database(this.path);
      if (this.options.wal && this.path !== ":memory:") connection.prepare("PRAGMA journal_mode = WAL").all(); // it answers a row: exec() refuses it
      this.#connection = connection;
    }
    return this.#connection;
  }

  // A statement left in progress would fail every COMMIT after it: the connection goes, and the
  // next query opens another (an open transaction is rolled back with it).
  #drop(connection: Connection) {
    if (this.#connection === connection) this.#connection = null;
    this.#inTransaction = false;
    try {
      if (connection.inTransaction) connection.exec("ROLLBACK");
    } catch {
      // closing ends the transaction anyway
    }
    try {
      connection.close();
    } catch {
      // already unusable
    }
  }

  /** Runs a statement on the connection; a connection given up is dropped and the cause thrown. */
  async run(connection: Connection, statement: InStatement): Promise<ResultSet> {
    try {
      return await runStatement(
        connection,
        statement,
        this.#intMode,
        this.options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      );
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      this.#drop(connection);
      throw error.cause;
    }
  }

  async execute(statement: InStatement): Promise<ResultSet> {
    return this.run(this.#open(), statement);
  }

  async batch(statements: InStatement[], mode: TransactionMode = "deferred"): Promise<ResultSet[]> {
    const transaction = await this.transaction(mode);
    try {
      const results: ResultSet[] = [];
      for (const statement of statements) results.push(await transaction.execute(statement));
      await transaction.commit();
      return results;
    } finally {
      transaction.close();
    }
  }

  async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    if (this.#inTransaction) {
      throw new LibsqlError("A transaction is already open on this client", "TRANSACTION_ALREADY_OPEN");
    }
    const connection = this.#open();
    await this.run(connection, BEGIN[mode]);
    this.#inTransaction = true;
    return new SqliteTransaction(this, connection, () => {
      this.#inTransaction = false;
    });
  }

  async executeMultiple(sql: string): Promise<void> {
    const connection = this.#open();
    try {
      connection.exec(sql);
    } catch (error) {
      throw toLibsqlError(error);
    } finally {
      if (connection.inTransaction) connection.exec("ROLLBACK");
    }
  }

  async sync(): Promise<never> {
    throw new LibsqlError("sync() is for embedded replicas", "SYNC_NOT_SUPPORTED");
  }

  close(): void {
    this.closed = true;
    this.#connection?.close();
    this.#connection = null;
  }
}

class SqliteTransaction implements Transaction {
  #ended = false;

  constructor(
    private readonly client: SqliteClient,
    private readonly connection: Connection,
    private readonly onEnd: () => void,
  ) {}

  get closed(): boolean {
    return this.#ended || !this.connection.open || !this.connection.inTransaction;
  }

  #end() {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd();
  }

  #checkOpen() {
    if (this.closed) {
      this.#end();
      throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    }
  }

  async execute(statement: InStatement): Promise<ResultSet> {
    this.#checkOpen();
    return this.client.run(this.connection, statement);
  }

  async batch(statements: InStatement[]): Promise<ResultSet[]> {
    const results: ResultSet[] = [];
    for (const statement of statements) results.push(await this.execute(statement));
    return results;
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#checkOpen();
    try {
      this.connection.exec(sql);
    } catch (error) {
      throw toLibsqlError(error);
    }
  }

  async commit(): Promise<void> {
    this.#checkOpen();
    try {
      await this.client.run(this.connection, "COMMIT");
    } catch (error) {
      // Not committed: roll back, or the connection would keep the write lock.
      if (this.connection.open && this.connection.inTransaction) {
        try {
          this.connection.exec("ROLLBACK");
        } catch {
          // the connection was dropped
        }
      }
      throw error;
    } finally {
      this.#end();
    }
  }

  async rollback(): Promise<void> {
    if (this.closed) return this.#end();
    try {
      this.connection.exec("ROLLBACK");
    } catch (error) {
      throw toLibsqlError(error);
    } finally {
      this.#end();
    }
  }

  close(): void {
    if (!this.closed) {
      try {
        this.connection.exec("ROLLBACK");
      } catch {
        // nothing to roll back
      }
    }
    this.#end();
  }
}
