import { describe, expect, it } from "vitest";

import { TEST_ENV } from "../test/setup/test-env";
import { type Env, EnvError, parseEnv } from "./env.server";

const valid = { ...TEST_ENV } as Record<string, string | undefined>;

describe("environment parsing", () => {
  it("accepts a complete environment and applies defaults", () => {
    const env = parseEnv({ ...valid, DATABASE_URL: undefined });
    expect(env.DATABASE_URL).toBe("file:prisma/dev.sqlite");
    expect(env.SCOPES).toContain("read_orders");
  });

  it.each(["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SCOPES", "APP_ENCRYPTION_KEY"])(
    "fails with the name of a missing %s in the message",
    (name) => {
      const source = { ...valid, [name]: undefined };
      expect(() => parseEnv(source)).toThrow(EnvError);
      expect(() => parseEnv(source)).toThrow(new RegExp(`${name} is required`));
    },
  );

  it("names a malformed variable and says what it should look like", () => {
    expect(() => parseEnv({ ...valid, SHOPIFY_APP_URL: "not a url" })).toThrow(
      /SHOPIFY_APP_URL must be an absolute http\(s\) URL/,
    );
    expect(() => parseEnv({ ...valid, APP_ENCRYPTION_KEY: "short" })).toThrow(
      /APP_ENCRYPTION_KEY must be 64 hex characters/,
    );
  });

  it("reports every bad variable at once", () => {
    try {
      parseEnv({});
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const variables = (error as EnvError).problems.map((p) => p.variable);
      expect(variables).toEqual(expect.arrayContaining(["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL"]));
    }
  });

  it("refuses the demo switch in production, and takes it in development", () => {
    expect(() => parseEnv({ ...valid, NODE_ENV: "production", DEMO_MODE: "1" })).toThrow(
      /DEMO_MODE is refused when NODE_ENV=production/,
    );
    expect(parseEnv({ ...valid, NODE_ENV: "development", DEMO_MODE: "1" }).DEMO_MODE).toBe(true);
    expect(parseEnv({ ...valid, NODE_ENV: "production" }).DEMO_MODE).toBe(false);
  });

  it.each([
    ["APP_BRIDGE_URL", "http://127.0.0.1:4545/app-bridge.js"],
    ["SHOPIFY_ADMIN_ORIGIN", "http://127.0.0.1:4545"],
  ])("refuses the demo's %s in production, and takes it in development", (name, value) => {
    expect(() => parseEnv({ ...valid, NODE_ENV: "production", [name]: value })).toThrow(
      new RegExp(`${name} is refused when NODE_ENV=production`),
    );
    expect(parseEnv({ ...valid, NODE_ENV: "development", [name]: value })[name as keyof Env]).toBe(value);
    // An empty value in a .env file means "not set", so production boots.
    expect(parseEnv({ ...valid, NODE_ENV: "production", [name]: "" })[name as keyof Env]).toBeUndefined();
  });
});
