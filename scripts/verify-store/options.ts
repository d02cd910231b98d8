import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { CHECK_NAMES, type CheckName } from "./verdict";

// Flags win over environment variables. Secrets are best passed in the environment (flags show
// in `ps` and shell history); docs/verifying-on-a-store.md says where each one comes from.

export interface VerifyStoreOptions {
  readonly shop: string;
  /** Where the store's Admin API and OAuth answer: https://<shop>, or an emulator. */
  readonly adminOrigin: string;
  readonly apiKey: string | null;
  readonly apiSecret: string | null;
  readonly adminToken: string | null;
  readonly checks: readonly CheckName[];
  readonly staffScope: {
    /** A session token of a staff member without "Fulfill and ship orders". */
    readonly restrictedSessionToken: string | null;
    /** Or the JSON answer of an online token exchange already made for that staff member. */
    readonly restrictedTokenResponse: unknown;
    /** Optional: a session token of a staff member who has the permission (a control). */
    readonly permittedSessionToken: string | null;
  };
  readonly printAuth: {
    /** Port for the recording listener (0 = any free port); null = no listener. */
    readonly listenPort: number | null;
    readonly listenHost: string;
    /** The app, when the listener sits in front of it; null = the listener answers itself. */
    readonly upstream: string | null;
    readonly waitSeconds: number;
  };
  readonly carrierTracking: {
    readonly fulfillmentId: string | null;
    /** The app posted no events on that fulfillment: every event on it is Shopify's own. */
    readonly noAppEvents: boolean;
    readonly orderId: string | null;
    readonly carrier: string | null;
    readonly trackingNumber: string | null;
    readonly allowWrites: boolean;
    /** How long Shopify gets to add events of its own before silence counts as "it does not". */
    readonly settleHours: number;
  };
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage: npx tsx scripts/verify-store.ts --shop <store>.myshopify.com [options]

Checks (all by default; --check staff-scope,print-auth,carrier-tracking picks some):
  staff-scope       online token's associated_user_scope for a staff member without
                    "Fulfill and ship orders" (ADR 13)
  print-auth        does the print action's src request carry a bearer token (ADR 12)
  carrier-tracking  does Shopify add tracking events of its own next to the app's (ADR 9)

Store and app (flag or environment variable):
  --shop                     SHOPIFY_SHOP
  --api-key, --api-secret    SHOPIFY_API_KEY, SHOPIFY_API_SECRET (shopify app env show)
  --admin-token              SHOPIFY_ADMIN_TOKEN (an Admin API token for the store)
  --admin-origin             VERIFY_ADMIN_ORIGIN (default https://<shop>; an emulator's URL in tests)

staff-scope:
  --restricted-session-token VERIFY_RESTRICTED_SESSION_TOKEN  (valid 60 s: copy it, run at once)
  --online-token-response    a JSON file: an online token exchange's answer for that staff member
  --permitted-session-token  VERIFY_PERMITTED_SESSION_TOKEN   (optional control)

print-auth:
  --print-listen <port>      start the recording listener (0 = any free port)
  --print-host <host>        default 127.0.0.1
  --print-upstream <url>     forward every request to the app (the listener sits in front of it)
  --print-wait <seconds>     default 300

carrier-tracking:
  --fulfillment <id>         read a fulfillment's tracking events
  --no-app-events            the app posted no events on that fulfillment
  --order <id> --carrier <name> --tracking-number <n> --allow-writes
                             create a fulfillment on that test order (writes to the store)
  --settle-hours <n>         default 24
`;

const positiveNumber = (raw: string, name: string, allowZero = false): number => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) throw new UsageError(`${name} must be a number`);
  return n;
};

/** Reads flags and environment; throws UsageError for what cannot run at all. */
export function parseVerifyStoreOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): VerifyStoreOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        shop: { type: "string" },
        "admin-origin": { type: "string" },
        "api-key": { type: "string" },
        "api-secret": { type: "string" },
        "admin-token": { type: "string" },
        check: { type: "string" },
        "restricted-session-token": { type: "string" },
        "online-token-response": { type: "string" },
        "permitted-session-token": { type: "string" },
        "print-listen": { type: "string" },
        "print-host": { type: "string" },
        "print-upstream": { type: "string" },
        "print-wait": { type: "string" },
        fulfillment: { type: "string" },
        "no-app-events": { type: "boolean" },
        order: { type: "string" },
        carrier: { type: "string" },
        "tracking-number": { type: "string" },
        "allow-writes": { type: "boolean" },
        "settle-hours": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) throw new UsageError("");
  const pick = (flag: string | undefined, name: string) => {
    const v = flag ?? env[name];
    return v === undefined || v.trim() === "" ? null : v.trim();
  };

  const shop = pick(values.shop, "SHOPIFY_SHOP");
  if (!shop) throw new UsageError("--shop (or SHOPIFY_SHOP) is required, e.g. my-dev-store.myshopify.com");
  if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i.test(shop)) {
    throw new UsageError(`--shop must be the store's myshopify.com domain, not ${shop}`);
  }
  const adminOrigin = (pick(values["admin-origin"], "VERIFY_ADMIN_ORIGIN") ?? `https://${shop}`).replace(/\/$/, "");

  let checks: CheckName[] = [...CHECK_NAMES];
  if (values.check) {
    const asked = values.check.split(",").map((c) => c.trim());
    const unknown = asked.filter((c) => !(CHECK_NAMES as readonly string[]).includes(c));
    if (unknown.length) throw new UsageError(`unknown check ${unknown.join(", ")}; known: ${CHECK_NAMES.join(", ")}`);
    checks = CHECK_NAMES.filter((c) => asked.includes(c));
  }

  let restrictedTokenResponse: unknown = null;
  if (values["online-token-response"]) {
    try {
      restrictedTokenResponse = JSON.parse(readFileSync(values["online-token-response"], "utf8"));
    } catch (error) {
      throw new UsageError(
        `--online-token-response: cannot read ${values["online-token-response"]} as JSON (${String(error)})`,
      );
    }
  }

  const upstream = values["print-upstream"] ?? null;
  if (upstream !== null && !/^https?:\/\//.test(upstream)) throw new UsageError("--print-upstream must be a URL");
  const orderId = values.order ?? null;
  const carrier = values.carrier ?? null;
  const trackingNumber = values["tracking-number"] ?? null;
  if (orderId && (!carrier || !trackingNumber)) {
    throw new UsageError("--order needs --carrier and --tracking-number (a real parcel's number)");
  }

  return {
    shop,
    adminOrigin,
    apiKey: pick(values["api-key"], "SHOPIFY_API_KEY"),
    apiSecret: pick(values["api-secret"], "SHOPIFY_API_SECRET"),
    adminToken: pick(values["admin-token"], "SHOPIFY_ADMIN_TOKEN"),
    checks,
    staffScope: {
      restrictedSessionToken: pick(values["restricted-session-token"], "VERIFY_RESTRICTED_SESSION_TOKEN"),
      restrictedTokenResponse,
      permittedSessionToken: pick(values["permitted-session-token"], "VERIFY_PERMITTED_SESSION_TOKEN"),
    },
    printAuth: {
      listenPort:
        values["print-listen"] === undefined ? null : positiveNumber(values["print-listen"], "--print-listen", true),
      listenHost: values["print-host"] ?? "127.0.0.1",
      upstream: upstream?.replace(/\/$/, "") ?? null,
      waitSeconds: values["print-wait"] === undefined ? 300 : positiveNumber(values["print-wait"], "--print-wait"),
    },
    carrierTracking: {
      fulfillmentId: values.fulfillment ?? null,
      noAppEvents: values["no-app-events"] === true,
      orderId,
      carrier,
      trackingNumber,
      allowWrites: values["allow-writes"] === true,
      settleHours:
        values["settle-hours"] === undefined ? 24 : positiveNumber(values["settle-hours"], "--settle-hours", true),
    },
  };
}
