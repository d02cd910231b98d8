import { afterEach, describe, expect, it, vi } from "vitest";

import { type AutoDraftRuleDraft, createRuleDraft, encodeAutoDraftForm } from "~/auto-draft/auto-draft-form";
import { getAutoDraftSettings } from "~/auto-draft/auto-draft-settings.server";
import {
  createBoxPreset,
  createShippingClientForShop,
  getShopSettings,
  listBoxPresets,
  setShippingApiKey,
} from "~/settings/settings.server";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { PARCEL, US_FROM, US_TO } from "../../../emulator/shipping/test-support";
import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import {
  mockAdminGraphql,
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../../test/helpers/msw";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { createShippingClient } from "../../shipping/client.server";
import { action, loader } from "./route";

const server = setupMockServer();
afterEach(() => server.events.removeAllListeners());

const BROOKLYN = "gid://shopify/Location/71234560001";
const BOX = {
  name: "Small",
  length: "8",
  width: "6",
  height: "4",
  dimensionUnit: "in",
  tareWeight: "0.5",
  maxWeight: "10",
  weightUnit: "lb",
};

function connect() {
  mockTokenExchange();
  routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  const shipping = routeShippingToEmulator(createShippingEmulator());
  // Every request the app sends to the shipping service, to prove what was (not) called.
  const calls: string[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    if (url.origin === TEST_ENV.SHIPPING_API_BASE_URL) calls.push(`${request.method} ${url.pathname}`);
  });
  return { shipping, calls };
}

async function post(fields: Record<string, string>) {
  return callRoute(action, createAdminFormRequest("/app/settings", fields));
}

async function json(result: unknown) {
  expect(result).toBeInstanceOf(Response);
  const response = result as Response;
  return { status: response.status, body: (await response.json()) as { error: { code: string; fields: unknown[] } } };
}

describe("settings loader", () => {
  it("renders for a shop without an API key, with its locations and the built-in box", async () => {
    connect();
    const result = await callRoute(loader, createAdminRequest("/app/settings"));
    expect(result).toMatchObject({
      settings: { apiKey: { configured: false, hint: null }, mode: "sandbox", shipFromLocationGid: null },
      presets: [],
      locationsProblem: null,
      validationPriceCents: 0,
      autoDraft: { enabled: false, rules: [] },
      shipFromCountry: "US",
      currencyCode: "USD",
    });
    const locations = (result as { locations: { id: string; name: string }[] }).locations;
    expect(locations.map((l) => l.name)).toContain("Brooklyn Warehouse");
  });

  it("shows only the key's last four characters and the live price of a validation", async () => {
    connect();
    await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
    const result = await callRoute(loader, createAdminRequest("/app/settings"));
    expect(result).toMatchObject({
      settings: { apiKey: { configured: true, hint: "••••demo" } },
      validationPriceCents: 5,
    });
    expect(JSON.stringify(result)).not.toContain("sk_live_demo");
  });

  it("still renders when Shopify fails, saying the location list is unavailable and quoting a reference", async () => {
    mockTokenExchange();
    mockAdminGraphql({ ShopAndLocationsForLabels: { data: null, errors: [{ message: "Internal error" }] } });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await callRoute(loader, createAdminRequest("/app/settings"));
    expect(result).toMatchObject({ locations: [], settings: { apiKey: { configured: false } } });
    expect((result as { locationsProblem: string }).locationsProblem).toMatch(
      /^Your locations could not be loaded.*\(Reference: ERR-[0-9A-Z]{6}\)$/,
    );
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("answers an unauthenticated request with 401 and reads nothing", async () => {
    const result = await callRoute(loader, createAdminRequest("/app/settings", { expiresIn: -120 }));
    expect((result as Response).status).toBe(401);
  });
});

describe("settings action: API key and test connection", () => {
  it("saves a live key and checks it at once with a free read: connected, live", async () => {
    const { shipping, calls } = connect();
    const result = await post({ intent: "saveApiKey", apiKey: " sk_live_demo " });
    expect(result).toMatchObject({
      ok: true,
      intent: "saveApiKey",
      connection: { status: "connected", mode: "live", keyHint: "••••demo", events: { connected: true } },
    });
    // The free read proves the key; then the shop's event endpoint is registered (and stale ones looked for).
    expect(calls).toEqual([
      "GET /v1/labels/lbl_ship_orders_connection_check",
      "POST /v1/webhook_endpoints",
      "GET /v1/webhook_endpoints",
    ]);
    expect(shipping.charges("org_demo")).toEqual([]);
    expect(shipping.validationsBilled("org_demo")).toBe(0);
  });

  it("keeps the working key when the service refuses a new one, says so, and the next rates call still works", async () => {
    const { calls } = connect();
    await post({ intent: "saveApiKey", apiKey: "sk_live_demo" });
    const endpointBefore = await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    const stored = await db.shopSettings.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    calls.length = 0;

    const { status, body } = await json(await post({ intent: "saveApiKey", apiKey: "sk_live_not_a_real_key" }));
    // One story: a refusal, nothing "saved" or "connected", and which key is still in use.
    expect(status).toBe(422);
    expect(body).toEqual({
      error: {
        code: "API_KEY_REFUSED",
        message:
          "The shipping service refused this key, so it was not saved. Your saved key ending in demo is still in use. Copy the key again from your shipping account (API keys), then save it.",
        fields: [{ path: "apiKey", message: "The shipping service refused this key." }],
      },
    });
    // Only the free check went out with the new key: no endpoint registered with it.
    expect(calls).toEqual(["GET /v1/labels/lbl_ship_orders_connection_check"]);

    const after = await db.shopSettings.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(after).toMatchObject({
      apiKeyCiphertext: stored.apiKeyCiphertext,
      apiKeyHint: "demo",
      mode: "live",
    });
    expect(await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toEqual(endpointBefore);
    const client = await createShippingClientForShop(db, TEST_SHOP);
    if (!client.ok) throw new Error(client.error.logMessage);
    const rates = await client.value.getRates({ from_address: US_FROM, to_address: US_TO, parcel: PARCEL });
    expect(rates.ok && rates.value.rates.length).toBeGreaterThan(0);
  });

  it("does not store a key without an organization, and a shop with no key stays without one", async () => {
    connect();
    const { status, body } = await json(await post({ intent: "saveApiKey", apiKey: "sk_live_noorg" }));
    expect([status, body.error.code]).toEqual([422, "API_KEY_REFUSED"]);
    expect((body.error as unknown as { message: string }).message).toBe(
      "This key is not attached to an organization in your shipping account, so it was not saved. Attach it to an organization in your shipping account, or enter another key.",
    );
    expect(await db.shopSettings.count()).toBe(0);
    expect(await callRoute(loader, createAdminRequest("/app/settings"))).toMatchObject({
      settings: { apiKey: { configured: false } },
    });
  });

  it("keeps the saved key when the service cannot be reached to check a new one, saying so with a reference", async () => {
    const { shipping } = connect();
    await setShippingApiKey(db, TEST_SHOP, "sk_test_demo");
    const stored = await db.shopSettings.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    shipping.setFaults({ failures: [{ endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 5 }] });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});

    const { status, body } = await json(await post({ intent: "saveApiKey", apiKey: "sk_live_demo" }));
    expect([status, body.error.code]).toEqual([422, "API_KEY_UNVERIFIED"]);
    expect((body.error as unknown as { message: string }).message).toMatch(
      /^The shipping service could not be reached to check this key, so it was not saved\. Your saved key ending in demo is still in use\. Try again in a few minutes\. \(Reference: ERR-[0-9A-Z]{6}\)$/,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await db.shopSettings.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({
      apiKeyCiphertext: stored.apiKeyCiphertext,
      mode: "sandbox",
    });
  });

  it("keeps one event endpoint per shop when the key is tested again, replacing the old registration", async () => {
    connect();
    expect(await post({ intent: "saveApiKey", apiKey: "sk_live_demo" })).toMatchObject({
      connection: { events: { connected: true } },
    });
    const first = await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(await post({ intent: "testConnection" })).toMatchObject({ connection: { events: { connected: true } } });
    const second = await db.shippingEventEndpoint.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    // Same URL (the opaque key stays), a new registration and secret; the old one deleted at the service.
    expect(second.url).toBe(first.url);
    expect(second.url).toMatch(/\/webhooks\/shipping\/[A-Za-z0-9_-]{20,}$/);
    expect(second.serviceEndpointId).not.toBe(first.serviceEndpointId);
    expect(second.secretCiphertext).not.toContain("whsec_");
    const listed = await createShippingClient({
      baseUrl: TEST_ENV.SHIPPING_API_BASE_URL,
      apiKey: "sk_live_demo",
    }).listWebhookEndpoints();
    expect(listed.ok && listed.value.map((e) => e.id)).toEqual([second.serviceEndpointId]);
  });

  it("reports a sandbox key as sandbox", async () => {
    connect();
    await setShippingApiKey(db, TEST_SHOP, "sk_test_demo");
    const result = await post({ intent: "testConnection" });
    expect(result).toMatchObject({ connection: { status: "connected", mode: "sandbox" } });
  });

  it("says plainly when the service refuses the key", async () => {
    connect();
    await setShippingApiKey(db, TEST_SHOP, "sk_live_not_a_real_key");
    const result = await post({ intent: "testConnection" });
    expect(result).toMatchObject({
      ok: true,
      connection: {
        status: "failed",
        code: "UNAUTHENTICATED",
        message:
          "The shipping service refused this API key. Copy the key again from your shipping account and save it.",
      },
    });
  });

  it("says the key has no organization when it is valid but unattached", async () => {
    connect();
    await setShippingApiKey(db, TEST_SHOP, "sk_live_noorg");
    const result = await post({ intent: "testConnection" });
    expect(result).toMatchObject({ connection: { status: "failed", code: "NO_ORGANIZATION" } });
    expect((result as { connection: { message: string } }).connection.message).toMatch(
      /not attached to an organization/,
    );
  });

  it("asks for a key when none is saved, without redirecting to the page it is on", async () => {
    const { calls } = connect();
    const result = await post({ intent: "testConnection" });
    expect(result).toMatchObject({ connection: { status: "failed", code: "API_KEY_MISSING" } });
    expect(calls).toEqual([]);
  });

  it("reports an unavailable service with a reference from the log", async () => {
    const { shipping } = connect();
    shipping.setFaults({ failures: [{ endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 5 }] });
    await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await post({ intent: "testConnection" });
    expect(result).toMatchObject({ connection: { status: "failed", code: "SERVICE_UNAVAILABLE" } });
    expect((result as { connection: { message: string } }).connection.message).toMatch(
      /\(Reference: ERR-[0-9A-Z]{6}\)$/,
    );
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("refuses a key that is too short next to its field, and removes a saved key", async () => {
    connect();
    const { status, body } = await json(await post({ intent: "saveApiKey", apiKey: "abc" }));
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      { path: "apiKey", message: "Enter the full API key from your shipping account." },
    ]);
    await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
    expect(await post({ intent: "removeApiKey" })).toMatchObject({ ok: true, intent: "removeApiKey" });
    const view = await callRoute(loader, createAdminRequest("/app/settings"));
    expect(view).toMatchObject({ settings: { apiKey: { configured: false } } });
  });
});

describe("settings action: label settings", () => {
  const valid = {
    intent: "saveSettings",
    labelFormat: "zpl",
    labelSize: "4x8",
    notifyCustomer: "false",
    addressValidationPolicy: "auto_new",
    shipFromLocationGid: BROOKLYN,
  };

  it("saves format, size, notification, validation policy and ship-from location", async () => {
    connect();
    expect(await post(valid)).toMatchObject({ ok: true, intent: "saveSettings" });
    expect(await getShopSettings(db, TEST_SHOP)).toMatchObject({
      labelFormat: "zpl",
      labelSize: "4x8",
      notifyCustomer: false,
      addressValidationPolicy: "auto_new",
      shipFromLocationGid: BROOKLYN,
    });
  });

  it("saves when packing slips print and their note; an empty note clears it, a long one is refused by name", async () => {
    connect();
    expect(await post({ ...valid, packingSlips: "after_all", packingSlipNote: "  Thank you!  " })).toMatchObject({
      ok: true,
    });
    expect(await getShopSettings(db, TEST_SHOP)).toMatchObject({
      packingSlips: "after_all",
      packingSlipNote: "Thank you!",
    });
    const { status, body } = await json(
      await post({ ...valid, packingSlips: "sometimes", packingSlipNote: "x".repeat(301) }),
    );
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      { path: "packingSlips", message: "Choose when packing slips print" },
      { path: "packingSlipNote", message: "Keep the packing slip note to 300 characters" },
    ]);
    expect(await post({ ...valid, packingSlips: "after_each", packingSlipNote: "" })).toMatchObject({ ok: true });
    expect(await getShopSettings(db, TEST_SHOP)).toMatchObject({ packingSlips: "after_each", packingSlipNote: null });
  });

  it("turns buying on scan on and off; a form without the box leaves it as saved", async () => {
    connect();
    expect((await getShopSettings(db, TEST_SHOP)).scanBuysDraft).toBe(false);
    expect(await post({ ...valid, scanBuysDraft: "true" })).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).scanBuysDraft).toBe(true);
    expect(await post(valid)).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).scanBuysDraft).toBe(true);
    expect(await post({ ...valid, scanBuysDraft: "false" })).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).scanBuysDraft).toBe(false);
  });

  it("leaves a label bought for a held order to the merchant unless voiding it on its own is turned on", async () => {
    connect();
    expect((await getShopSettings(db, TEST_SHOP)).autoVoidHeldPurchases).toBe(false);
    expect(await post({ ...valid, autoVoidHeldPurchases: "true" })).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).autoVoidHeldPurchases).toBe(true);
    expect(await post(valid)).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).autoVoidHeldPurchases).toBe(true);
    expect(await post({ ...valid, autoVoidHeldPurchases: "false" })).toMatchObject({ ok: true });
    expect((await getShopSettings(db, TEST_SHOP)).autoVoidHeldPurchases).toBe(false);
  });

  it("puts each invalid value's message next to its field and saves nothing", async () => {
    connect();
    const { status, body } = await json(
      await post({ ...valid, labelFormat: "gif", addressValidationPolicy: "always", shipFromLocationGid: "Brooklyn" }),
    );
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      { path: "labelFormat", message: "Choose a label format" },
      { path: "addressValidationPolicy", message: "Choose when addresses are validated" },
      { path: "shipFromLocationGid", message: "Choose one of your locations" },
    ]);
    expect(await db.shopSettings.count()).toBe(0);
  });

  it("refuses a location that is not one of the shop's active locations", async () => {
    connect();
    const { status, body } = await json(await post({ ...valid, shipFromLocationGid: "gid://shopify/Location/999" }));
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      { path: "shipFromLocationGid", message: "That location is no longer active. Choose another one." },
    ]);
  });

  it("answers an unknown intent with 400", async () => {
    connect();
    const { status } = await json(await post({ intent: "dropTables" }));
    expect(status).toBe(400);
  });
});

describe("settings action: how long ship-to details are kept", () => {
  it("shows 90 days for a shop that chose nothing, and saves the number of days the merchant enters", async () => {
    connect();
    expect(await callRoute(loader, createAdminRequest("/app/settings"))).toMatchObject({ shipToRetentionDays: 90 });
    expect(await post({ intent: "saveRetention", shipToRetentionDays: " 30 " })).toMatchObject({
      ok: true,
      intent: "saveRetention",
      message: "Ship-to details are kept for 30 days",
    });
    expect(await callRoute(loader, createAdminRequest("/app/settings"))).toMatchObject({ shipToRetentionDays: 30 });
  });

  it("refuses a number of days that is not a whole number from 1 to 3650, next to its field, and saves nothing", async () => {
    connect();
    const message = "Keep ship-to details for a whole number of days from 1 to 3650";
    for (const days of ["0", "-5", "2.5", "3651", "ninety", ""]) {
      const { status, body } = await json(await post({ intent: "saveRetention", shipToRetentionDays: days }));
      expect([status, body.error.fields], days).toEqual([422, [{ path: "shipToRetentionDays", message }]]);
    }
    expect(await db.shopSettings.count()).toBe(0);
  });
});

describe("settings action: option rules", () => {
  it("saves the rules as typed, shows them on the page, and turns insurance off with an empty amount", async () => {
    connect();
    expect(
      await post({
        intent: "saveOptionRules",
        insureAbove: "200",
        adultSignatureTags: "wine, 21+ ",
        adultSignatureProductTypes: "Spirits",
        lithiumTags: "",
      }),
    ).toMatchObject({ ok: true, intent: "saveOptionRules", message: "Option rules saved" });
    const rules = {
      insureAboveCents: 20_000,
      adultSignatureTags: ["wine", "21+"],
      adultSignatureProductTypes: ["Spirits"],
      lithiumTags: [],
    };
    expect((await getShopSettings(db, TEST_SHOP)).optionRules).toEqual(rules);
    expect(await callRoute(loader, createAdminRequest("/app/settings"))).toMatchObject({
      settings: { optionRules: rules },
    });
    await post({ intent: "saveOptionRules", insureAbove: "", adultSignatureTags: "", adultSignatureProductTypes: "" });
    expect((await getShopSettings(db, TEST_SHOP)).optionRules).toEqual({
      insureAboveCents: null,
      adultSignatureTags: [],
      adultSignatureProductTypes: [],
      lithiumTags: [],
    });
  });

  it("refuses an amount the carriers cannot insure, next to its field, and saves nothing", async () => {
    connect();
    for (const [amount, message] of [
      ["9000", "Carriers insure at most $5000.00"],
      ["-1", "The amount cannot be negative"],
      ["lots", "Enter the amount as a number, in USD"],
    ]) {
      const { status, body } = await json(await post({ intent: "saveOptionRules", insureAbove: amount ?? "" }));
      expect([status, body.error.fields], amount).toEqual([422, [{ path: "insureAbove", message }]]);
    }
    expect(await db.shopSettings.count()).toBe(0);
  });
});

describe("settings action: box presets", () => {
  it("adds a first box as the default, edits it, adds a second and makes it the default", async () => {
    connect();
    expect(await post({ intent: "createBox", ...BOX })).toMatchObject({ ok: true, message: 'Box "Small" added' });
    const [small] = await listBoxPresets(db, TEST_SHOP);
    expect(small).toMatchObject({ name: "Small", tareWeight: 0.5, isDefault: true });
    if (!small) return;
    await post({ intent: "updateBox", id: small.id, ...BOX, maxWeight: "12", isDefault: "true" });
    await post({ intent: "createBox", ...BOX, name: "Large", length: "20" });
    const large = (await listBoxPresets(db, TEST_SHOP)).find((p) => p.name === "Large");
    await post({ intent: "makeDefaultBox", id: large?.id ?? "" });
    expect((await listBoxPresets(db, TEST_SHOP)).map((p) => [p.name, p.maxWeight, p.isDefault])).toEqual([
      ["Large", 10, true],
      ["Small", 12, false],
    ]);
    expect((await getShopSettings(db, TEST_SHOP)).box.length).toBe(20);
  });

  it("puts each invalid dimension's message next to its field", async () => {
    connect();
    const { status, body } = await json(
      await post({ intent: "createBox", ...BOX, name: "", width: "wide", height: "-2" }),
    );
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      { path: "name", message: "Name the box" },
      { path: "width", message: "Enter the width as a number" },
      { path: "height", message: "The height must be more than 0" },
    ]);
    expect(await db.boxPreset.count()).toBe(0);
  });

  it("deletes a box, and refuses to touch another shop's box", async () => {
    connect();
    const theirs = await createBoxPreset(db, "other-shop.myshopify.com", {
      name: "Theirs",
      length: 1,
      width: 1,
      height: 1,
      dimensionUnit: "in",
      tareWeight: 0,
      maxWeight: 1,
      weightUnit: "lb",
      isDefault: true,
    });
    if (!theirs.ok) throw new Error(theirs.error.logMessage);
    const { status, body } = await json(await post({ intent: "deleteBox", id: theirs.value.id }));
    expect([status, body.error.code]).toEqual([422, "BOX_PRESET_NOT_FOUND"]);
    expect(await db.boxPreset.count()).toBe(1);

    await post({ intent: "createBox", ...BOX });
    const [mine] = await listBoxPresets(db, TEST_SHOP);
    expect(await post({ intent: "deleteBox", id: mine?.id ?? "" })).toMatchObject({ ok: true, intent: "deleteBox" });
    expect(await listBoxPresets(db, TEST_SHOP)).toEqual([]);
  });
});

describe("settings action: automatic drafts", () => {
  const rule = (overrides: Partial<AutoDraftRuleDraft>): AutoDraftRuleDraft => ({ ...createRuleDraft(), ...overrides });
  const dhlAbroad = rule({ destination: "international", choice: "service", serviceCode: "svc_dhl_express_worldwide" });

  it("saves the switch and the rules in their order, and the screen reads them back", async () => {
    connect();
    await post({ intent: "createBox", ...BOX });
    const [small] = await listBoxPresets(db, TEST_SHOP);
    const rules = [
      { ...dhlAbroad, boxPresetId: small?.id ?? "" },
      rule({ destination: "domestic", maxWeight: "2", maxOrderValue: "150" }),
      rule({ destination: "countries", countries: "ca, mx", choice: "service", serviceCode: "svc_ups_standard" }),
    ];
    expect(await post(encodeAutoDraftForm(true, rules))).toMatchObject({
      ok: true,
      intent: "saveAutoDraft",
      message: "Automatic drafts are on",
    });

    const saved = await getAutoDraftSettings(db, TEST_SHOP);
    expect(saved.enabled).toBe(true);
    expect(saved.rules).toMatchObject([
      { destination: "international", serviceCode: "svc_dhl_express_worldwide", boxPresetId: small?.id },
      { destination: "domestic", maxWeight: 2, maxOrderValue: 150, choice: "cheapest", serviceCode: null },
      { destination: "countries", countries: ["CA", "MX"], serviceCode: "svc_ups_standard" },
    ]);
    expect(new Set(saved.rules.map((r) => r.id)).size).toBe(3);
    const screen = await callRoute(loader, createAdminRequest("/app/settings"));
    expect(screen).toMatchObject({ autoDraft: saved });
  });

  it("turns automatic drafts off and on again, keeping the rules and their ids", async () => {
    connect();
    await post(encodeAutoDraftForm(true, [dhlAbroad]));
    const [first] = (await getAutoDraftSettings(db, TEST_SHOP)).rules;
    const kept = { ...dhlAbroad, id: first?.id ?? "" };

    expect(await post(encodeAutoDraftForm(false, [kept]))).toMatchObject({ message: "Automatic drafts are off" });
    expect(await getAutoDraftSettings(db, TEST_SHOP)).toEqual({ enabled: false, rules: [first] });
    await post({ ...encodeAutoDraftForm(true, [kept]), autoDraftEnabled: "on" });
    expect(await getAutoDraftSettings(db, TEST_SHOP)).toEqual({ enabled: true, rules: [first] });
  });

  it("refuses a service that cannot reach the rule's destination, at that rule's service, and saves nothing", async () => {
    connect();
    const upsAbroad = rule({ destination: "international", choice: "service", serviceCode: "svc_ups_ground" });
    const { status, body } = await json(await post(encodeAutoDraftForm(true, [upsAbroad, dhlAbroad])));
    expect(status).toBe(422);
    expect(body.error.fields).toEqual([
      {
        path: "rules[0].serviceCode",
        message:
          "UPS Ground cannot ship every international order from US. Choose another service or narrow the destination.",
      },
    ]);
    expect(await getAutoDraftSettings(db, TEST_SHOP)).toEqual({ enabled: false, rules: [] });
  });

  it("answers a stale or crafted post with 422 naming the field, never a 500", async () => {
    connect();
    const refused = async (fields: Record<string, string>) => {
      const { status, body } = await json(await post(fields));
      return { status, fields: body.error.fields };
    };
    expect(await refused({ intent: "saveAutoDraft", autoDraftEnabled: "true", rules: "{not json" })).toEqual({
      status: 422,
      fields: [{ path: "rules", message: "The rules could not be read. Reload the page and try again." }],
    });
    expect(await refused({ intent: "saveAutoDraft" })).toMatchObject({ status: 422, fields: [{ path: "rules" }] });
    const crafted = JSON.stringify([{ ...dhlAbroad }, { ...dhlAbroad, destination: "moon", minWeight: "heavy" }]);
    expect(await refused({ intent: "saveAutoDraft", autoDraftEnabled: "true", rules: crafted })).toEqual({
      status: 422,
      fields: [
        { path: "rules[1].destination", message: "Choose where the order ships" },
        { path: "rules[1].minWeight", message: "Enter the lowest weight as a number, or leave it blank" },
      ],
    });
    // A deleted box is the server's to notice: the form cannot know the shop's boxes.
    expect(await refused(encodeAutoDraftForm(true, [{ ...dhlAbroad, boxPresetId: "box_gone" }]))).toEqual({
      status: 422,
      fields: [{ path: "rules[0].boxPresetId", message: "This box was deleted. Choose another box." }],
    });
    expect(await getAutoDraftSettings(db, TEST_SHOP)).toEqual({ enabled: false, rules: [] });
  });
});
