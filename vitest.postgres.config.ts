import { defineConfig } from "vitest/config";

import base from "./vitest.config";

// `npm run test:postgres` (scripts/test-postgres.mjs): the suites that run on PostgreSQL, and the
// tests only PostgreSQL runs (test/postgresql/, left out of `npm test`, which has no server).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["app/**/*.test.{ts,tsx}", "test/postgresql/**/*.test.ts"],
    // A file's own process per file here: a file's connections (its pools, its pg-boss, the
    // processes it started) end with it, so the next file's TRUNCATE never waits on their locks.
    isolate: true,
    // The Job table is SQLite's queue; PostgreSQL's is pg-boss (ADR 26), whose tests are in test/postgresql/.
    exclude: ["**/node_modules/**", "app/queue/prisma-job-queue.*.test.ts"],
  },
});
