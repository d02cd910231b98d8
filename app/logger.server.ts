import { type DestinationStream, type Logger, pino } from "pino";

// The app's one logger (issue 22, item 7; docs/decisions/0017-one-logger.md). Every line is one
// JSON object on stdout with the context it was logged in: `shop`, `job` (and `jobId`), and the
// error `reference` a merchant was shown. Child loggers carry that context:
//
//   const log = logFor({ shop, job: "auto-draft", jobId });
//   log.warn({ err }, "auto-draft failed, retrying");
//
// Secrets never reach a line by key: `redact` below replaces them wherever they sit in the
// logged object (up to two levels down, headers included). A secret pasted into a message
// string is not caught by key, which is why `logMessage`s never quote one (app/utils/app-error.ts).

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

const keyPath = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`);

/** pino `redact` paths: each secret key at the top, one and two levels down (`req.headers.authorization`). */
export const REDACT_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => {
  const path = keyPath(key);
  return [path.startsWith(".") ? path.slice(1) : path, `*${path}`, `*.*${path}`];
});

export const REDACTED = "[redacted]";

const LEVEL_NAMES: Record<number, string> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/** One logger with the app's options (levels as names, ISO times, redaction) on `destination` (default stdout). */
export function createLogger(destination?: DestinationStream): Logger {
  const options = {
    level: "info",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
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
