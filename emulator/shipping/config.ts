import { readFileSync } from "node:fs";

/** The emulator's configuration: the shape of config.json. Money is a decimal string in USD. */
export interface EmulatorConfig {
  seed: number;
  keys: Record<string, { organization: string | null; sandbox?: boolean }>;
  organizations: Record<
    string,
    {
      label_allowance: number;
      balance: string;
      carrier_accounts: Array<{ id: string; carrier: string }>;
    }
  >;
  blocked_destinations: { countries: string[] };
  address_validation: {
    price: string;
    multi_unit_buildings: Array<{ street1: string; zip: string; units?: string[] }>;
    commercial_addresses: Array<{ street1: string; zip: string }>;
  };
  limits: { max_stored_labels: number; max_stored_rates: number; rate_ttl_seconds: number };
  /** How long the carrier takes to decide a void (default 900 s, the contract's 15 minutes). */
  voids?: { decision_seconds: number };
}

const DEFAULT_CONFIG_URL = new URL("./config.json", import.meta.url);

/** Reads the default configuration shipped in the repo (shared by tests, demo and bench). */
export function loadDefaultConfig(): EmulatorConfig {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_URL, "utf8")) as EmulatorConfig;
}

/** "12.34" -> 1234. Throws on a malformed amount: a broken config is a programming error. */
export function parseMoneyToCents(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`Invalid money amount in emulator config: ${amount}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

/** 1234 -> "12.34": the wire format for money. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
