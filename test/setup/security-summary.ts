import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { ROOT } from "./database";

// The security suite's summary line (test/security/). Its tests run in vitest's workers, in
// parallel; each appends what it checked to a file of its own under one folder per run (named by
// SECURITY_RESULTS_DIR, set here before the workers start), and the teardown adds them up once
// every file has run and prints:
//   RESULT security isolation_checks=<n> auth_checks=<n> secret_checks=<n> privacy_checks=<n> fuzz_cases=<n> failures=<n>
// A run without security tests (one file, say) prints nothing.

export const SECURITY_RESULTS_VARIABLE = "SECURITY_RESULTS_DIR";

type Entry = { kind: string; ok: boolean; count?: number; name?: string };

export function summarize(entries: readonly Entry[]) {
  const total = (kind: string) => entries.filter((e) => e.kind === kind).reduce((sum, e) => sum + (e.count ?? 1), 0);
  const failed = entries.filter((e) => !e.ok);
  return {
    line:
      `RESULT security isolation_checks=${total("isolation")} auth_checks=${total("auth")} ` +
      `secret_checks=${total("secret")} privacy_checks=${total("privacy")} fuzz_cases=${total("fuzz")} ` +
      `failures=${failed.length}`,
    failed,
  };
}

export default function securitySummary() {
  mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test/.tmp", "security-"));
  process.env[SECURITY_RESULTS_VARIABLE] = dir;
  return () => {
    const entries: Entry[] = [];
    for (const file of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        if (line.trim()) entries.push(JSON.parse(line) as Entry);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    if (entries.length === 0) return;
    const { line, failed } = summarize(entries);
    for (const entry of failed) console.log(`security check failed: [${entry.kind}] ${entry.name ?? "(unnamed)"}`);
    console.log(line);
  };
}
