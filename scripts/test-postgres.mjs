// npm run test:postgres — the database-backed suites (labels, jobs, webhooks, routes with bulk
// runs and the extensions' API, the PostgreSQL migrations) on PostgreSQL. TEST_POSTGRES_URL
// names a server to use (an admin URL, e.g. postgresql://postgres@127.0.0.1:5432/postgres; each
// run creates and drops its own databases there). Without it, a throwaway cluster is started on
// loopback from the machine's PostgreSQL binaries (`apt-get install postgresql`) and removed after.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { startThrowawayCluster } from "./postgres-cluster.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const POSTGRES_SUITES = [
  "app/labels",
  "app/shipments",
  "app/auto-draft",
  "app/bulk",
  "app/settings",
  "app/screens",
  "app/jobs",
  "app/queue",
  "app/webhooks",
  "app/routes",
  "test/postgresql",
];

const cluster = process.env.TEST_POSTGRES_URL ? null : await startThrowawayCluster();
const url = process.env.TEST_POSTGRES_URL || cluster?.url;
console.log(`test:postgres: ${cluster ? `throwaway cluster at ${url}` : `server ${url}`}`);
let status = 1;
try {
  const vitest = spawnSync(
    join(root, "node_modules/.bin/vitest"),
    ["run", "--config", "vitest.postgres.config.ts", ...POSTGRES_SUITES, ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit", env: { ...process.env, TEST_POSTGRES_URL: url } },
  );
  status = vitest.status ?? 1;
} finally {
  cluster?.stop();
}
process.exit(status);
