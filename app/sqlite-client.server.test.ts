import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { ROOT } from "../test/setup/database";
import { SqliteClient } from "./sqlite-client.server";

// Two clients on one file stand for the web process and the worker: each has its own
// connection, and SQLite's lock between them is the one two processes meet.

let dir: string;
let clients: SqliteClient[];

function open(options: { busyTimeoutMs?: number } = {}): SqliteClient {
  const client = SqliteClient.fromUrl(`file:${join(dir, "db.sqlite")}`, { wal: true, ...options });
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = async (client: SqliteClient) => (await client.execute("SELECT count(*) AS n FROM item")).rows[0]?.n;

beforeEach(async () => {
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  dir = mkdtempSync(join(ROOT, "test/.tmp/sqlite-client-"));
  clients = [];
  await open().execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB)");
});

afterEach(() => {
  for (const client of clients) client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteClient", () => {
  it("answers rows by index and by column name, integers as numbers and blobs as bytes", async () => {
    const client = open();
    const inserted = await client.execute({
      sql: "INSERT INTO item (name, data) VALUES (?, ?)",
      args: ["a", new Uint8Array([1, 2]).buffer],
    });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(1n);
    const { columns, rows } = await client.execute({
      sql: "SELECT id, name, data FROM item WHERE name = ?",
      args: ["a"],
    });
    expect(columns).toEqual(["id", "name", "data"]);
    const row = rows[0];
    expect([row?.[0], row?.[1], row?.id, row?.name]).toEqual([1, "a", 1, "a"]);
    expect(new Uint8Array(row?.data as ArrayBuffer)).toEqual(new Uint8Array([1, 2]));
  });

  it("puts the file in WAL mode when asked", async () => {
    const { rows } = await open().execute("PRAGMA journal_mode");
    expect(rows[0]?.[0]).toBe("wal");
  });

  it("waits for another connection's write lock, and commits its own transactions afterwards", async () => {
    const web = open();
    const worker = open();
    const holding = await worker.transaction("write");
    await holding.execute("INSERT INTO item (name) VALUES ('worker')");

    // Refused while the worker holds the lock: waits, then writes.
    const waiting = web.execute("INSERT INTO item (name) VALUES ('web')");
    await sleep(60);
    await holding.commit();
    await waiting;

    // The refused statement must not be left in progress: that would fail this COMMIT
    // ("cannot commit transaction - SQL statements in progress") and keep the lock.
    const next = await web.transaction("deferred");
    await next.execute("INSERT INTO item (name) VALUES ('web again')");
    await next.commit();
    expect(await count(worker)).toBe(3);
    // And the lock is free for the other connection.
    await worker.execute("INSERT INTO item (name) VALUES ('worker again')");
    expect(await count(web)).toBe(4);
  });

  it("takes the write lock when a transaction begins, so one that reads and then writes cannot be refused midway", async () => {
    const web = open();
    const worker = open();
    const reading = await web.transaction("deferred");
    expect((await reading.execute("SELECT count(*) AS n FROM item")).rows[0]?.n).toBe(0);
    // The worker's write waits for the transaction instead of committing under its read.
    const workerWrite = worker.execute("INSERT INTO item (name) VALUES ('worker')");
    await sleep(30);
    await reading.execute("INSERT INTO item (name) VALUES ('web')");
    await reading.commit();
    await workerWrite;
    expect(await count(web)).toBe(2);
  });

  it("gives a connection up after its busy timeout, and the next query opens a working one", async () => {
    const web = open({ busyTimeoutMs: 50 });
    const worker = open();
    const holding = await worker.transaction("write");
    await holding.execute("INSERT INTO item (name) VALUES ('worker')");
    await expect(web.execute("INSERT INTO item (name) VALUES ('web')")).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    await holding.commit();

    const next = await web.transaction("write");
    await next.execute("INSERT INTO item (name) VALUES ('web')");
    await next.commit();
    expect(await count(worker)).toBe(2);
  });

  it("rolls a batch back when one of its statements fails", async () => {
    const client = open();
    await expect(
      client.batch(["INSERT INTO item (name) VALUES ('a')", "INSERT INTO item (name) VALUES (NULL)"], "write"),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect(await count(client)).toBe(0);
    await client.batch(["INSERT INTO item (name) VALUES ('a')"], "write");
    expect(await count(client)).toBe(1);
  });
});
