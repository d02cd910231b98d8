import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Tests run without the Remix plugin: loaders and actions are called as plain functions.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    include: ["app/**/*.test.{ts,tsx}", "emulator/**/*.test.ts", "test/**/*.test.{ts,tsx}"],
    globalSetup: ["./test/setup/global-setup.ts"],
    setupFiles: ["./test/setup/setup-test-env.ts"],
    restoreMocks: true,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
