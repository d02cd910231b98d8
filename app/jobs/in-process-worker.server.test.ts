import { spawnSync } from "node:child_process";

import type { PrismaClient } from "@prisma/client";
import { afterEach, describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { databaseKindOf } from "~/db/database-kind.server";

import { enqueueTestJob, findJob } from "../../test/helpers/jobs";
import { ROOT } from "../../test/setup/database";
import { TEST_SHOP } from "../../test/setup/test-env";
import { runsWorkerInProcess, startWorkerInProcess } from "./in-process-worker.server";

// ADR 19: one process on SQLite. The app process runs the jobs itself (entry.server.tsx starts
// this once), and `npm run worker` refuses SQLite; on PostgreSQL the app process only enqueues.

const SIGNAL = "SIGUSR2";
const clientOn = (provider: string) => ({ _activeProvider: provider }) as unknown as PrismaClient;
const sqlite = databaseKindOf(db) === "sqlite";

afterEach(() => {
  process.removeAllListeners(SIGNAL);
  globalThis.jobWorkerInProcess = undefined;
});

describe("the job worker in the app process", () => {
  it("runs on SQLite outside tests, never on PostgreSQL, and not under NODE_ENV=test", () => {
    expect(runsWorkerInProcess(clientOn("sqlite"), "production")).toBe(true);
    expect(runsWorkerInProcess(clientOn("sqlite"), "development")).toBe(true);
    expect(runsWorkerInProcess(clientOn("sqlite"), "test")).toBe(false);
    expect(runsWorkerInProcess(clientOn("postgresql"), "production")).toBe(false);
    expect(startWorkerInProcess(db, { nodeEnv: "test" })).toBeNull();
    expect(globalThis.jobWorkerInProcess).toBeUndefined();
  });

  it.runIf(!sqlite)("on PostgreSQL starts nothing: the app process only enqueues", () => {
    expect(startWorkerInProcess(db, { nodeEnv: "production", signals: [SIGNAL] })).toBeNull();
    expect(process.listenerCount(SIGNAL)).toBe(0);
  });

  it.runIf(sqlite)(
    "on SQLite runs the app's jobs once per process, and on SIGTERM stops before the process exits 0",
    async () => {
      const exit = vi.fn();
      const lines: string[] = [];
      const options = {
        nodeEnv: "production",
        signals: [SIGNAL] as NodeJS.Signals[],
        exit,
        log: (l: string) => lines.push(l),
      };
      const running = startWorkerInProcess(db, options);
      expect(running).not.toBeNull();
      // Vite reloads the entry: the same worker, not a second one.
      expect(startWorkerInProcess(db, options)).toBe(running);

      const jobId = await enqueueTestJob(db, TEST_SHOP);
      await expect.poll(async () => (await findJob(db, jobId)).status, { timeout: 15_000, interval: 50 }).toBe("done");

      process.emit(SIGNAL, SIGNAL);
      expect(await running?.stopped).toEqual({ finished: 0, released: 0 });
      expect(exit).toHaveBeenCalledWith(0);
      expect(lines).toContain(`worker: ${SIGNAL}, finishing running jobs`);
    },
  );
});

describe("npm run worker", () => {
  it.runIf(sqlite)("refuses a SQLite database, naming ADR 19", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: ROOT,
      env: process.env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("refused on SQLite");
    expect(run.stderr).toContain("docs/decisions/0019-one-database-story.md");
  });
});
