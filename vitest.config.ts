import tsconfigPaths from "vite-tsconfig-paths";
import { configDefaults, defineConfig } from "vitest/config";

// Tests run without the Remix plugin: loaders and actions are called as plain functions.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    include: ["app/**/*.test.{ts,tsx}", "emulator/**/*.test.ts", "test/**/*.test.{ts,tsx}"],
    // PostgreSQL's own tests run under `npm run test:postgres` (vitest.postgres.config.ts).
    exclude: [...configDefaults.exclude, "test/postgresql/**"],
    // The second prints the security suite's RESULT line once every file has run (test/security/).
    globalSetup: ["./test/setup/global-setup.ts", "./test/setup/security-summary.ts"],
    setupFiles: ["./test/setup/setup-test-env.ts"],
    restoreMocks: true,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
