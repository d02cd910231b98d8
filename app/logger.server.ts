import { type DestinationStream, type Logger, pino } from "pino";

// The app's one logger (issue 22, item 7; docs/decisions/0017-one-logger.md). Every line is one
// JSON object on stdout with the context it was logged in: `shop`, `job` (and `jobId`), and the
// error `reference` a merchant was shown. Child loggers carry that context:
//
//   const log = logFor({ shop, job: "auto-draft", jobId });
//   log.warn({ err }, "auto-draft failed, retrying");
//
// Secrets never reach a line, twice over:
// - by key: a value under a secret key (SECRET_KEYS) is replaced at any depth of the logged
//   object, its bindings and a logged error's own properties (`redactSecretKeys`);
// - by shape: the finished line is scrubbed of what looks like a secret wherever it sits, in the
//   message, a string field or an error's stack (`scrubSecrets`): `Bearer …`, the shipping
//   service's `sk_live_…` keys, Shopify's `shpat_…` tokens, `whsec_…` secrets, JWTs, and
//   credentials in a URL's query (`id_token=…`). `logMessage`s still never quote one
//   (app/utils/app-error.ts): the scrubber is the net, not the rule.
// The Shopify library's own lines come through here too (`logShopifyLibraryLine`).

export type { Logger };

/** The context a line can carry; anything else goes in the line's own object. */
export type LogContext = {
  readonly shop?: string;
  /** A job's name (`auto-draft`), with its id as `jobId`. */
  readonly job?: string;
  readonly jobId?: string;
  /** The `ERR-…` reference a merchant was shown for this problem. */
  readonly reference?: string;
  readonly [key: string]: unknown;
};

// Keys that hold secrets wherever they appear: Shopify tokens, the shipping service's API key
// (as the settings form and the client name it), its webhook secret, our own encryption key,
// and HTTP credentials.
const SECRET_KEYS = [
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "idToken",
  "id_token",
  "sessionToken",
  "session_token",
  "subject_token",
  "apiKey",
  "api_key",
  "apiSecret",
  "api_secret",
  "apiSecretKey",
  "shippingApiKey",
  "secret",
  "webhookSecret",
  "encryptionKey",
  "password",
  "token",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "x-api-key",
  "X-Api-Key",
  "X-API-Key",
  "x-shopify-access-token",
  "X-Shopify-Access-Token",
] as const;

export const REDACTED = "[redacted]";

const SECRET_KEY_SET: ReadonlySet<string> = new Set(SECRET_KEYS.map((key) => key.toLowerCase()));
// Deeper than any line we log; past it a value is dropped rather than walked (or a cycle followed).
const MAX_DEPTH = 12;

/** Whether a key names a secret, however it is cased (`authorization`, `Authorization`). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY_SET.has(key.toLowerCase());
}

const isErrorLike = (value: object): value is Error =>
  value instanceof Error || typeof (value as { message?: unknown }).message === "string";

/**
 * A copy of `value` with every value under a secret key replaced, at any depth. An error inside
 * it becomes its pino serialization (type, message, stack and own properties such as a client
 * error's `response`), walked the same way. Values with their own `toJSON` (dates, URLs) are left
 * whole: they become strings, which the line's scrubber reads.
 */
export function redactSecretKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => redactSecretKeys(item, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  const source = value instanceof Error ? (pino.stdSerializers.err(value) as object) : value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(source)) {
    copy[key] = isSecretKey(key) ? REDACTED : redactSecretKeys(item, depth + 1);
  }
  return copy;
}

// What a secret looks like inside a string. Each keeps its label (`Bearer `, `id_token=`) and
// replaces only the secret, with no quote or backslash, so a JSON line stays JSON.
const SECRET_SHAPES: readonly (readonly [RegExp, string])[] = [
  // HTTP credentials: `Authorization: Bearer <token>` (not "Basic": it is also a word in service names).
  [/\b(Bearer)\s+[\w.~+/=-]{6,}/gi, `$1 ${REDACTED}`],
  // Credentials in a URL's query or a form body: `?id_token=<jwt>`, `&access_token=…`.
  [
    /([?&;](?:id_token|session_token|access_token|refresh_token|subject_token|token|api_key|apikey|secret|password)=)[^&\s"'#\\]+/gi,
    `$1${REDACTED}`,
  ],
  // The shipping service's API keys.
  [/\b[sr]k_(?:live|test)_[A-Za-z0-9]+/g, REDACTED],
  // Shopify's tokens and secrets: admin, custom and private app tokens, refresh tokens, app secrets.
  [/\bshp(?:at|ca|pa|rt|ss|tka)_[A-Za-z0-9]+/g, REDACTED],
  // The shipping service's event-signing secrets.
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, REDACTED],
  // A JWT anywhere (Shopify's session and id tokens): three base64url parts, the first a JSON header.
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, REDACTED],
];

/** `text` with every secret-shaped part replaced: applied to each finished line, so to every string in it. */
export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const [shape, replacement] of SECRET_SHAPES) scrubbed = scrubbed.replace(shape, replacement);
  return scrubbed;
}

/** pino's error serializer, then the secret keys of what it kept (an error's `response.headers`). */
function serializeError(value: unknown): unknown {
  return value !== null && typeof value === "object" && isErrorLike(value)
    ? redactSecretKeys(pino.stdSerializers.err(value))
    : redactSecretKeys(value);
}

const LEVEL_NAMES: Record<number, string> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/** One logger with the app's options (levels as names, ISO times, secrets kept out) on `destination` (default stdout). */
export function createLogger(destination?: DestinationStream): Logger {
  const options = {
    level: "info",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label: string) => ({ level: label }),
      bindings: (bindings: Record<string, unknown>) => redactSecretKeys(bindings) as Record<string, unknown>,
      // `err` and `error` are left to their serializer (below), which keeps an error's type.
      log: (object: Record<string, unknown>) => {
        const copy: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(object)) {
          if (isSecretKey(key)) copy[key] = REDACTED;
          else copy[key] = key === "err" || key === "error" ? value : redactSecretKeys(value, 1);
        }
        return copy;
      },
    },
    serializers: { err: serializeError, error: serializeError },
    hooks: { streamWrite: scrubSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Under vitest: quiet, but observable. info and below go nowhere; a warning or an error is
 * handed to `console.warn` / `console.error` as one line (message, then its context as JSON),
 * already redacted, so test/setup/setup-test-env.ts fails a test that logs one it did not
 * expect, and a test that expects one says so by spying on the console method.
 */
export const consoleDestination: DestinationStream = {
  write(line: string) {
    const record = JSON.parse(line) as Record<string, unknown>;
    const { level, time: _time, msg, err, error, ...context } = record;
    const label = typeof level === "number" ? (LEVEL_NAMES[level] ?? "info") : String(level);
    if (label !== "warn" && label !== "error" && label !== "fatal") return;
    const thrown = err ?? error;
    if (thrown && typeof thrown === "object") {
      const { type, message } = thrown as { type?: unknown; message?: unknown };
      context.err = `${String(type ?? "Error")}: ${String(message ?? "")}`;
    } else if (thrown !== undefined) {
      context.err = thrown;
    }
    const text = `${String(msg ?? "")}${Object.keys(context).length ? ` ${JSON.stringify(context)}` : ""}`;
    if (label === "warn") console.warn(text);
    else console.error(text);
  },
};

export const logger: Logger = createLogger(process.env.NODE_ENV === "test" ? consoleDestination : undefined);

/** A child of the app's logger whose every line carries `context` (shop, job, reference). */
export function logFor(context: LogContext): Logger {
  return logger.child(context);
}

// The Shopify library's severities (LogSeverity in @shopify/shopify-api: Error 0, Warning 1,
// Info 2, Debug 3), as numbers so the worker need not load the library to log.
const SHOPIFY_LEVELS = ["error", "warn", "info", "debug"] as const;

/**
 * The `logger.log` hook of shopifyApp (app/shopify.server.ts): the library's line, which it
 * formats as `[shopify-app/INFO] Authenticating admin request | {shop: a.myshopify.com}`, becomes
 * one of ours at the matching level, with `lib` (the library's package) and `shop` as fields.
 * Which severities reach it is still the library's `logger.level`.
 */
export function logShopifyLibraryLine(severity: number, line: string, log: Logger = logger): void {
  const level = SHOPIFY_LEVELS[severity] ?? "info";
  const prefix = /^(?:\[[^\]]*\] )*?\[([\w@/.-]+?)\/(?:DEBUG|INFO|WARNING|ERROR)\] /.exec(line);
  const message = prefix ? line.slice(prefix[0].length) : line;
  const shop = /\bshop: ([\w.-]+\.myshopify\.com)\b/.exec(message)?.[1];
  log[level]({ lib: prefix?.[1] ?? "shopify", ...(shop ? { shop } : {}) }, message);
}
