import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

// Acceptance for issue 10: background work runs as jobs in a worker, never on a timer of a web
// process. Only the worker's own modules may start one: `npm run worker` (scripts/worker.ts) on
// PostgreSQL, and on SQLite the app process through in-process-worker.server.ts (ADR 19), which
// starts nothing on PostgreSQL (in-process-worker.server.test.ts).
const WORKER_ONLY = new Set([
  "queue/job-worker.server.ts",
  "queue/worker-process.server.ts",
  "jobs/worker-jobs.server.ts",
  "jobs/in-process-worker.server.ts",
]);
// A React effect's timer runs in the merchant's browser, never in the web process.
const BROWSER_ONLY = new Set(["components/shared/use-polling.ts"]);

describe("the web process", () => {
  it("starts no background timers and no job worker anywhere in app/ but the worker's own modules", () => {
    const root = join(__dirname, "..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== "types") walk(path);
          continue;
        }
        const file = relative(root, path);
        if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name) || WORKER_ONLY.has(file) || BROWSER_ONLY.has(file))
          continue;
        const source = readFileSync(path, "utf8");
        if (/\bsetInterval\(|\.createWorker\(|runWorkerProcess\(|worker-jobs\.server/.test(source))
          offenders.push(file);
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
