import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const TMP_DIR = join(ROOT, "test/.tmp");
export const BASE_DATABASE = join(TMP_DIR, "base.sqlite");

/** Migrates an empty database once per run; every test then starts from a copy of it. */
export function createBaseDatabase(): void {
  mkdirSync(TMP_DIR, { recursive: true });
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${BASE_DATABASE}${suffix}`, { force: true });
  execFileSync(join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${BASE_DATABASE}` },
    stdio: "pipe",
  });
}

export function workerDatabasePath(): string {
  return join(TMP_DIR, `worker-${process.env.VITEST_POOL_ID ?? "0"}.sqlite`);
}

/** Replaces the worker's database file with a fresh copy of the migrated base. */
export function resetWorkerDatabase(path: string): void {
  if (!existsSync(BASE_DATABASE)) throw new Error(`${BASE_DATABASE} is missing: the vitest global setup did not run`);
  for (const suffix of ["-journal", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(BASE_DATABASE, path);
}
