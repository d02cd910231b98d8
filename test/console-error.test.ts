import { expect, it, vi } from "vitest";

// The set-up (test/setup/setup-test-env.ts) turns an unexpected console.error into a failure.
it.fails("fails a test that calls console.error unexpectedly", () => {
  console.error("an error nobody expected");
});

it("lets a test that expects an error spy on console.error itself", () => {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  console.error("expected");
  expect(spy).toHaveBeenCalledWith("expected");
});
