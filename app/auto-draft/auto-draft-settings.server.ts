import type { PrismaClient } from "@prisma/client";

import { getShopSettings, listBoxPresets, type SettingsError, settingsError } from "~/settings/settings.server";
import { chooseShipFrom } from "~/settings/ship-from";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";
import { formatFieldPath } from "~/utils/field-path";
import { err, ok, type Result } from "~/utils/result";
import { parseStoredJson } from "~/utils/stored-json";

import { type AutoDraftRule, AutoDraftRulesSchema, checkAutoDraftRules } from "./auto-draft-rules";

// The auto-draft switch and rules of a shop (ShopSettings.autoDraft, .autoDraftRules).

export type AutoDraftSettings = { enabled: boolean; rules: AutoDraftRule[] };

export async function getAutoDraftSettings(db: PrismaClient, shop: string): Promise<AutoDraftSettings> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { autoDraft: true, autoDraftRules: true } });
  if (!row) return { enabled: false, rules: [] };
  // A list that no longer parses drafts with the fallback (cheapest, default box).
  return { enabled: row.autoDraft, rules: parseStoredJson(row.autoDraftRules, AutoDraftRulesSchema, []) };
}

/** The ship-from country rules are judged against: the location labels ship from, else the store's. */
export function shipFromCountryOf(
  found: Pick<ShopifyShopAndLocations, "shop" | "locations">,
  shipFromLocationGid: string | null,
): string {
  const location = chooseShipFrom(found.locations, shipFromLocationGid);
  return location?.address.countryCode ?? found.shop.address.countryCode ?? "US";
}

export async function getShipFromCountry(deps: {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
}): Promise<Result<string, ShopifyError>> {
  const [found, settings] = await Promise.all([getShopAndLocations(deps.admin), getShopSettings(deps.db, deps.shop)]);
  if (!found.ok) return found;
  return ok(shipFromCountryOf(found.value, settings.shipFromLocationGid));
}

/**
 * Saves the switch and the rules, refusing the whole list when any rule has a problem (each named
 * at its field, `rules[i].field`): a half-saved list would draft in an order nobody chose.
 */
export async function saveAutoDraftSettings(
  deps: { db: PrismaClient; shop: string; admin: AdminGraphqlClient },
  input: { enabled: boolean; rules: unknown },
): Promise<Result<AutoDraftSettings, SettingsError | ShopifyError>> {
  const parsed = AutoDraftRulesSchema.safeParse(input.rules);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({
      path: formatFieldPath(["rules", ...i.path]),
      message: i.message,
    }));
    return err(invalid(fields));
  }
  const rules = parsed.data;
  if (rules.length > 0) {
    const [fromCountry, presets] = await Promise.all([getShipFromCountry(deps), listBoxPresets(deps.db, deps.shop)]);
    if (!fromCountry.ok) return fromCountry;
    const problems = checkAutoDraftRules(rules, {
      fromCountry: fromCountry.value,
      boxPresetIds: presets.map((p) => p.id),
    });
    if (problems.length > 0) return err(invalid(problems));
  }
  const data = { autoDraft: input.enabled, autoDraftRules: JSON.stringify(rules) };
  await deps.db.shopSettings.upsert({ where: { shop: deps.shop }, create: { shop: deps.shop, ...data }, update: data });
  return ok({ enabled: input.enabled, rules });
}

function invalid(fields: { path: string; message: string }[]) {
  return settingsError(
    "INVALID_SETTINGS",
    fields.length === 1 ? (fields[0]?.message ?? "Check the rules.") : "Some rules need fixing.",
    `saveAutoDraftSettings: invalid ${fields.map((f) => f.path).join(", ")}`,
    fields,
  );
}
