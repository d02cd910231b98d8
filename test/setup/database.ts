import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TMP_DIR = join(ROOT, "test/.tmp");
// Set by the global setup for the workers of one vitest run: runs started side by side (watch
// mode, an editor, CI) each get their own folder and never swap databases under each other.
const RUN_DIR_VARIABLE = "TEST_DATABASE_RUN_DIR";

/** Migrates an empty database once per run; every test then starts from a copy of it. */
export function createBaseDatabase(): { runDir: string; remove: () => void } {
  mkdirSync(TMP_DIR, { recursive: true });
  const runDir = mkdtempSync(join(TMP_DIR, "run-"));
  execFileSync(join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${join(runDir, "base.sqlite")}` },
    stdio: "pipe",
  });
  process.env[RUN_DIR_VARIABLE] = runDir;
  return { runDir, remove: () => rmSync(runDir, { recursive: true, force: true }) };
}

function runDir(): string {
  const dir = process.env[RUN_DIR_VARIABLE];
  if (!dir) throw new Error(`${RUN_DIR_VARIABLE} is not set: the vitest global setup did not run`);
  return dir;
}

export function workerDatabasePath(): string {
  return join(runDir(), `worker-${process.env.VITEST_POOL_ID ?? "0"}.sqlite`);
}

/** Replaces the worker's database file with a fresh copy of the migrated base. */
export function resetWorkerDatabase(path: string): void {
  for (const suffix of ["-journal", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(join(runDir(), "base.sqlite"), path);
}
