import type { PrismaClient } from "@prisma/client";

import { AUTO_DRAFT_SERVICE_OPTIONS } from "~/auto-draft/auto-draft-rules";
import {
  type AutoDraftSettings,
  getAutoDraftSettings,
  shipFromCountryOf,
} from "~/auto-draft/auto-draft-settings.server";
import { getShipToRetentionDays } from "~/settings/retention-settings.server";
import { type BoxPreset, getAddressValidationPriceCents } from "~/settings/settings";
import { getSettingsWithPresets, type SettingsView } from "~/settings/settings.server";
import { type EventsConnection, getEventsConnection } from "~/settings/shipping-event-endpoint.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { getShopAndLocations } from "~/shopify/shop";
import { reportError } from "~/utils/error-report.server";

// The Settings screen's read model: everything the page shows, never the API key itself.

export type ShipFromOption = { id: string; name: string; address: string };

export type SettingsScreen = {
  settings: SettingsView;
  presets: BoxPreset[];
  locations: ShipFromOption[];
  /** Why the location list is missing or incomplete, for a banner; the rest of the page still works. */
  locationsProblem: string | null;
  /** What one address validation costs with the saved key (0 on sandbox). */
  validationPriceCents: number;
  autoDraft: AutoDraftSettings;
  autoDraftServices: typeof AUTO_DRAFT_SERVICE_OPTIONS;
  /** The country labels ship from, which decides what each service can reach; null when Shopify failed. */
  shipFromCountry: string | null;
  /** The shop's currency, in which rules' order values are given; null when Shopify failed. */
  currencyCode: string | null;
  /** Whether the shipping service sends this shop its events (purchases elsewhere, tracking). */
  events: EventsConnection;
  /** Days a delivered or voided label keeps its ship-to details (docs/protected-customer-data.md). */
  shipToRetentionDays: number;
};

export async function loadSettingsScreen(deps: {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
}): Promise<SettingsScreen> {
  const [{ settings, presets }, autoDraft, events, found, shipToRetentionDays] = await Promise.all([
    getSettingsWithPresets(deps.db, deps.shop),
    getAutoDraftSettings(deps.db, deps.shop),
    getEventsConnection(deps.db, deps.shop),
    getShopAndLocations(deps.admin),
    getShipToRetentionDays(deps.db, deps.shop),
  ]);
  let locations: ShipFromOption[] = [];
  let locationsProblem: string | null = null;
  let shipFromCountry: string | null = null;
  if (found.ok) {
    // From the answer the screen already has: one Shopify call.
    shipFromCountry = shipFromCountryOf(found.value, settings.shipFromLocationGid);
    locations = found.value.locations.map((l) => ({
      id: l.id,
      name: l.name,
      address: [l.address.address1, l.address.city, l.address.provinceCode, l.address.countryCode]
        .filter(Boolean)
        .join(", "),
    }));
    const truncated = found.value.problems.find((p) => p.code === "TRUNCATED");
    if (truncated) locationsProblem = truncated.message;
  } else {
    // Settings must stay usable when Shopify hiccups: only the location picker is affected.
    const { reference } = reportError(found.error, { level: "warn" });
    locationsProblem = `Your locations could not be loaded, so the ship-from location cannot be changed right now. Reload the page to try again. (Reference: ${reference})`;
  }
  return {
    settings,
    presets,
    locations,
    locationsProblem,
    validationPriceCents: getAddressValidationPriceCents(settings.mode),
    autoDraft,
    autoDraftServices: AUTO_DRAFT_SERVICE_OPTIONS,
    shipFromCountry,
    currencyCode: found.ok ? found.value.shop.currencyCode : null,
    events,
    shipToRetentionDays,
  };
}
