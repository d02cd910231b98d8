import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import type { PrismaClient } from "@prisma/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ROOT, workerDatabasePath } from "../../test/setup/database";
import { createPrismaClient, isConnectionLost, retryWhileConnectionLost } from "./client.server";

// A migrated SQLite file of the test's own, opened as the app opens its database.

let dir: string;
const clients: PrismaClient[] = [];

function open(options: { wal?: boolean }): PrismaClient {
  const client = createPrismaClient(`file:${join(dir, "app.sqlite")}`, options);
  clients.push(client);
  return client;
}

const journalMode = async (client: PrismaClient) =>
  (await client.$queryRawUnsafe<Array<{ journal_mode: string }>>("PRAGMA journal_mode"))[0]?.journal_mode;

beforeEach(() => {
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  dir = mkdtempSync(join(ROOT, "test/.tmp/db-client-"));
  copyFileSync(workerDatabasePath(), join(dir, "app.sqlite"));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.$disconnect()));
  rmSync(dir, { recursive: true, force: true });
});

describe("createPrismaClient on SQLite", () => {
  it("puts the file in WAL mode when asked, and it stays so for the next client", async () => {
    const first = open({ wal: true });
    expect(await journalMode(first)).toBe("wal");
    await first.$disconnect();
    expect(await journalMode(open({ wal: false }))).toBe("wal");
  });

  it("keeps the rollback journal when WAL is off, as tests ask", async () => {
    expect(await journalMode(open({ wal: false }))).toBe("delete");
  });
});

describe("a lost database connection", () => {
  const terminated = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

  it("is told from a refused statement, through Prisma's wrapping too", () => {
    expect(isConnectionLost(terminated)).toBe(true);
    expect(isConnectionLost(new Error("Invalid invocation", { cause: terminated }))).toBe(true);
    expect(
      isConnectionLost(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isConnectionLost(new Error("the database system is starting up"))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error("duplicate key value"), { code: "23505" }))).toBe(false);
    expect(isConnectionLost(null)).toBe(false);
  });

  it("is waited out by a write that must be recorded, a few times and bounded", async () => {
    const sleep = vi.fn(async () => {});
    const write = vi.fn().mockRejectedValueOnce(terminated).mockRejectedValueOnce(terminated).mockResolvedValue(true);
    expect(await retryWhileConnectionLost(write, { sleep })).toBe(true);
    expect(write).toHaveBeenCalledTimes(3);

    const never = vi.fn().mockRejectedValue(terminated);
    await expect(retryWhileConnectionLost(never, { sleep, withinMs: 1_000 })).rejects.toBe(terminated);
    expect(never.mock.calls.length).toBeLessThan(5);

    const refused = vi.fn().mockRejectedValue(new Error("check constraint"));
    await expect(retryWhileConnectionLost(refused, { sleep })).rejects.toThrow("check constraint");
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
