import { expect, it, vi } from "vitest";

import { logFor, logger } from "~/logger.server";

// The set-up (test/setup/setup-test-env.ts) turns an unexpected console.error or console.warn
// into a failure, and the app's logger hands its warnings and errors to those two in tests.
it.fails("fails a test that calls console.error unexpectedly", () => {
  console.error("an error nobody expected");
});

it.fails("fails a test that calls console.warn unexpectedly", () => {
  console.warn("a warning nobody expected");
});

it.fails("fails a test whose code logs a warning through the app's logger unexpectedly", () => {
  logFor({ shop: "test-shop.myshopify.com" }).warn("a warning nobody expected");
});

it.fails("fails a test whose code logs an error through the app's logger unexpectedly", () => {
  logger.error({ err: new Error("boom") }, "an error nobody expected");
});

it("lets a test that expects an error spy on console.error itself", () => {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  console.error("expected");
  expect(spy).toHaveBeenCalledWith("expected");
});

it("lets a test that expects a logged warning see it, with its context, by spying on console.warn", () => {
  const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
  logFor({ shop: "test-shop.myshopify.com", job: "auto-draft", reference: "ERR-ABC123" }).warn("expected");
  expect(spy).toHaveBeenCalledTimes(1);
  expect(spy).toHaveBeenCalledWith(
    'expected {"shop":"test-shop.myshopify.com","job":"auto-draft","reference":"ERR-ABC123"}',
  );
});

it("keeps info lines out of a test's output", () => {
  const spies = (["log", "info", "warn", "error"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => {}),
  );
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  logger.info("routine");
  for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  expect(write).not.toHaveBeenCalled();
});
