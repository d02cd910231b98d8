import { appendFileSync } from "node:fs";
import { join } from "node:path";

import { beforeEach } from "vitest";

import { SECURITY_RESULTS_VARIABLE } from "../../setup/security-summary";

// Every check of the security suite is counted, pass or fail, for its RESULT line
// (test/setup/security-summary.ts). A check that fails is recorded as a failure and its error
// kept; a test fails at its end with every failed check of it listed, so one broken route does
// not hide what the others did. A test that fails outside any check (its set-up) is one failure.

export type CheckKind = "isolation" | "auth" | "secret" | "privacy" | "fuzz";

const file = () => {
  const dir = process.env[SECURITY_RESULTS_VARIABLE];
  return dir ? join(dir, `${process.pid}-${process.env.VITEST_POOL_ID ?? "0"}.jsonl`) : null;
};

function record(entry: { kind: CheckKind | "test"; ok: boolean; count?: number; name?: string }): void {
  const path = file();
  // Without the summary's global setup (another config), checks still run; nothing is counted.
  if (path) appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

let failedChecksInTest = 0;

/** Call once per security test file: counts a test that failed outside its checks. */
export function recordChecksOfThisFile(): void {
  beforeEach(({ onTestFailed, task }) => {
    failedChecksInTest = 0;
    onTestFailed(() => {
      if (failedChecksInTest === 0) record({ kind: "test", ok: false, name: task.name });
    });
  });
}

export type Checks = {
  /** Runs one check and records it; its failure is kept and reported by `assertAllPassed`. */
  run(kind: CheckKind, name: string, check: () => unknown): Promise<void>;
  /** Records `count` fuzz cases that ran, and a failure when `error` is set. */
  fuzz(name: string, count: number, error?: unknown): void;
  /** Throws once with every failed check of this list. */
  assertAllPassed(): void;
  readonly count: number;
};

/** An error's message, and its cause's (fast-check puts the property's own error there). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\n  caused by: ${error.cause.message}` : "";
  return `${error.message.split("\n")[0]}${cause}`;
}

export function createChecks(): Checks {
  const failures: { name: string; error: unknown }[] = [];
  let count = 0;
  return {
    async run(kind, name, check) {
      count += 1;
      try {
        await check();
        record({ kind, ok: true });
      } catch (error) {
        failedChecksInTest += 1;
        record({ kind, ok: false, name });
        failures.push({ name, error });
      }
    },
    fuzz(name, cases, error) {
      count += 1;
      record({ kind: "fuzz", ok: error === undefined, count: cases, name });
      if (error !== undefined) {
        failedChecksInTest += 1;
        failures.push({ name, error });
      }
    },
    assertAllPassed() {
      if (failures.length === 0) return;
      const detail = failures.map(({ name, error }) => `- ${name}: ${describe(error)}`).join("\n");
      throw new Error(`${failures.length} security check(s) failed:\n${detail}`);
    },
    get count() {
      return count;
    },
  };
}
