import { z } from "zod";

// Every variable the server reads, parsed once at boot. A bad value stops the server with a
// message that names the variable and says what it should look like.
const nonEmpty = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required (${what})` : undefined) })
    .trim()
    .min(1, `must not be empty (${what})`);

const httpUrl = (what: string) =>
  nonEmpty(what).refine((value) => /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value), {
    error: `must be an absolute http(s) URL (${what})`,
  });

const optionalUrl = (what: string) =>
  z
    .string()
    .trim()
    .refine((value) => /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value), {
      error: `must be an absolute http(s) URL (${what})`,
    })
    .optional();

export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    SHOPIFY_API_KEY: nonEmpty("the app's client id from the Partner Dashboard"),
    SHOPIFY_API_SECRET: nonEmpty("the app's client secret from the Partner Dashboard"),
    SHOPIFY_APP_URL: httpUrl("the public URL of this app, e.g. https://example.trycloudflare.com"),
    SCOPES: nonEmpty("comma-separated access scopes, e.g. read_orders,read_products").transform((value) =>
      value
        .split(",")
        .map((scope) => scope.trim())
        .filter(Boolean),
    ),
    DATABASE_URL: nonEmpty("a SQLite file URL such as file:prisma/dev.sqlite, or a postgresql:// URL").default(
      "file:prisma/dev.sqlite",
    ),
    // On PostgreSQL (pg-boss): how often a job whose worker stopped answering is looked for, so
    // it runs again once its lease ended (docs/deploying.md). With 20 s leases, 10 s keeps a dead
    // worker's takeover under a minute (ADR 7's addendum).
    PG_BOSS_SUPERVISE_SECONDS: z.coerce
      .number({ error: "must be a number of seconds" })
      .int({ error: "must be whole seconds" })
      .min(1, { error: "must be at least 1 second" })
      .max(3600, { error: "must be at most 3600 seconds" })
      .default(10),
    SHIPPING_API_BASE_URL: httpUrl("the shipping service base URL, e.g. http://127.0.0.1:4010").default(
      "http://127.0.0.1:4010",
    ),
    // Shipping API keys are stored encrypted with this key (AES-256-GCM needs exactly 32 bytes), and
    // customers' ship-to details with keys derived from it (app/settings/personal-data-box.server.ts).
    APP_ENCRYPTION_KEY: nonEmpty("32 random bytes as 64 hex characters: openssl rand -hex 32").refine(
      (value) => /^[0-9a-fA-F]{64}$/.test(value),
      { error: "must be 64 hex characters (32 bytes): generate one with `openssl rand -hex 32`" },
    ),
    // Hosts that differ outside Shopify's own admin (the offline demo): where App Bridge is
    // loaded from (the library reads this variable too), and an extra admin origin allowed to
    // frame the app. Refused in production (below): there they are Shopify's CDN and admin.
    APP_BRIDGE_URL: optionalUrl("where the App Bridge script is served, e.g. http://127.0.0.1:4545/app-bridge.js"),
    SHOPIFY_ADMIN_ORIGIN: optionalUrl("an admin origin allowed to embed the app, e.g. http://127.0.0.1:4545"),
    // `npm run demo` sets it: every page says the store and services are emulated.
    DEMO_MODE: z
      .enum(["0", "1", "false", "true"], { error: "must be 1 or 0" })
      .optional()
      .transform((value) => value === "1" || value === "true"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    // The demo's switch and its two hosts: in production App Bridge comes from Shopify's CDN and
    // only Shopify's admin may frame the app, so either set there is a leftover from the demo
    // that would load a script from, or let the app be framed by, an origin Shopify does not own.
    const demoOnly = {
      DEMO_MODE: env.DEMO_MODE,
      APP_BRIDGE_URL: env.APP_BRIDGE_URL !== undefined,
      SHOPIFY_ADMIN_ORIGIN: env.SHOPIFY_ADMIN_ORIGIN !== undefined,
    };
    for (const [variable, isSet] of Object.entries(demoOnly)) {
      if (!isSet) continue;
      ctx.addIssue({
        code: "custom",
        path: [variable],
        message: "is refused when NODE_ENV=production: it is for the demo, which runs against emulated services only",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(readonly problems: Array<{ variable: string; message: string }>) {
    super(
      `Invalid environment configuration:\n${problems.map((p) => `  ${p.variable} ${p.message}`).join("\n")}\n` +
        "See .env.example for every variable and what it should look like.",
    );
    this.name = "EnvError";
  }
}

// Empty strings in a .env file mean "not set", so defaults apply instead of failing min(1).
function dropEmpty(source: Record<string, string | undefined>): Record<string, string> {
  const entries = Object.entries(source).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
  );
  return Object.fromEntries(entries);
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(dropEmpty(source));
  if (result.success) return result.data;
  throw new EnvError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? "(environment)"),
      message: issue.message,
    })),
  );
}

let cached: Env | undefined;

/** The parsed environment; parsed on first use (boot) and then reused. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
