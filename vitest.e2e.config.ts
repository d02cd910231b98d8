import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Browser tests: Debian's Chromium driven by playwright-core against `npm run demo`'s
// processes, started once for the run (e2e/support/global-setup.ts). One file at a time: they
// share the demo's store and database.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["./e2e/support/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
