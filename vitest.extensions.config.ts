import { defineConfig } from "vitest/config";

// The admin UI extensions' tests: Preact in a DOM, the `shopify` global and fetch mocked by
// @shopify/ui-extensions-tester. Kept apart from the app's suite, which sets up a database.
// JSX goes to Preact through each extension's own tsconfig.json.
export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["extensions/**/*.test.tsx"],
    // The tester imports the extension module itself; inlined, that import goes through Vite.
    server: { deps: { inline: ["@shopify/ui-extensions-tester"] } },
    // Every test starts from fresh mocks, as in vitest.config.ts (which says why both).
    restoreMocks: true,
    mockReset: true,
  },
});
