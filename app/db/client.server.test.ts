import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import type { PrismaClient } from "@prisma/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { ROOT, workerDatabasePath } from "../../test/setup/database";
import { createPrismaClient } from "./client.server";

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
