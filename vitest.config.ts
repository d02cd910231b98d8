import { availableParallelism } from "node:os";

import tsconfigPaths from "vite-tsconfig-paths";
import { configDefaults, defineConfig } from "vitest/config";

// Tests run without the React Router plugin: loaders and actions are called as plain functions.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    include: ["app/**/*.test.{ts,tsx}", "emulator/**/*.test.ts", "server/**/*.test.ts", "test/**/*.test.{ts,tsx}"],
    // PostgreSQL's own tests run under `npm run test:postgres` (vitest.postgres.config.ts).
    exclude: [...configDefaults.exclude, "test/postgresql/**"],
    // The second prints the security suite's RESULT line once every file has run (test/security/).
    globalSetup: ["./test/setup/global-setup.ts", "./test/setup/security-summary.ts"],
    setupFiles: ["./test/setup/setup-test-env.ts"],
    // Vitest runs one file at a time less than the cores (one, on CI's two): most of a file's time
    // is waiting on its database or emulators, so two at once on two cores is faster than one.
    // Each worker has its own database. The suite's idle figures are in the README ("Testing").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker imports the app's modules once for all its files, not once a file: that import was
    // over a third of the suite's CPU time (ADR 26). Tests share no module state they rely on: each
    // starts from a fresh database copy and fresh mocks (below), and the setup stops what a file
    // started (test/setup/setup-test-env.ts).
    isolate: false,
    // Every test starts from fresh mocks: spies put back on their objects (restoreMocks) and every
    // vi.fn() emptied of calls and back to the implementation it was made with (mockReset). Vitest 3's
    // restoreMocks did both; vitest 4's restores only vi.spyOn spies.
    restoreMocks: true,
    mockReset: true,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
