import { expect, test } from "vitest";

// Shopify's libraries need Node 22+; the project pins Node 24 as a devDependency so npm scripts run
// under it even where the system Node is older.
test("the test suite runs under the project's pinned Node 24", () => {
  expect(process.versions.node.split(".")[0]).toBe("24");
});
