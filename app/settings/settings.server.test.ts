import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";

import { createEmulators, SHIPPING_BASE_URL } from "../../test/helpers/labels";
import { openSecret, sealSecret } from "./secret-box.server";
import { DEFAULT_LABEL_SETTINGS } from "./settings";
import {
  createShippingClientForShop,
  getSettingsView,
  getShopSettings,
  saveShopSettings,
  setShippingApiKey,
} from "./settings.server";

const SHOP = "settings-shop.myshopify.com";
const API_KEY = "sk_live_demo";
const OTHER_KEY = "ab".repeat(32);

describe("shop settings", () => {
  it("returns the defaults for a shop that saved nothing", async () => {
    expect(await getShopSettings(db, SHOP)).toEqual(DEFAULT_LABEL_SETTINGS);
  });

  it("saves a partial change and keeps the rest", async () => {
    const saved = await saveShopSettings(db, SHOP, { notifyCustomer: false, box: { maxWeight: 30 } });
    expect(saved.ok).toBe(true);
    const settings = await getShopSettings(db, SHOP);
    expect(settings.notifyCustomer).toBe(false);
    expect(settings.box).toEqual({ ...DEFAULT_LABEL_SETTINGS.box, maxWeight: 30 });
    expect(settings.labelFormat).toBe("pdf");
  });

  it("refuses invalid settings without saving them", async () => {
    const saved = await saveShopSettings(db, SHOP, { labelFormat: "gif" as "pdf" });
    expect(saved.ok).toBe(false);
    expect(await db.shopSettings.count()).toBe(0);
  });

  it("stores the API key encrypted: the column holds no trace of the plaintext", async () => {
    const result = await setShippingApiKey(db, SHOP, API_KEY);
    expect(result).toEqual({ ok: true, value: { hint: "••••demo" } });
    const row = await db.shopSettings.findUnique({ where: { shop: SHOP } });
    expect(row?.apiKeyCiphertext).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    expect(row?.mode).toBe("live");
  });

  it("refuses what is not a key (spaces, a line break, accented letters, a megabyte) and stores nothing", async () => {
    for (const apiKey of [
      "sk_live_with spaces",
      "sk_live_abc\r\nX-Injected: 1",
      "sk_live_ünïcödé",
      `sk_live_${"x".repeat(600)}`,
    ]) {
      const result = await setShippingApiKey(db, SHOP, apiKey);
      expect(result.ok ? null : result.error.code, apiKey.slice(0, 20)).toBe("INVALID_SETTINGS");
      expect(JSON.stringify(result)).not.toContain(apiKey.slice(0, 12));
    }
    expect(await db.shopSettings.count()).toBe(0);
  });

  it("gives loader data only a masked hint, never the key", async () => {
    await setShippingApiKey(db, SHOP, API_KEY);
    const view = await getSettingsView(db, SHOP);
    expect(view.apiKey).toEqual({ configured: true, hint: "••••demo" });
    const serialized = JSON.stringify(view);
    expect(serialized).not.toContain(API_KEY);
    expect(serialized).not.toMatch(/ciphertext|authTag|apiKeyIv/i);
  });

  it("never writes the key to a log line while storing it and using it for a label call", async () => {
    const spies = (["log", "info", "warn", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const logged: string[] = [];
    await setShippingApiKey(db, SHOP, API_KEY);
    const { shipping } = createEmulators();
    // A failing call makes the client log; its log must not carry the key either.
    const client = await createShippingClientForShop(db, SHOP, {
      baseUrl: SHIPPING_BASE_URL,
      fetch: shipping.fetch,
      log: (entry) => logged.push(JSON.stringify(entry)),
    });
    expect(client.ok).toBe(true);
    if (!client.ok) return;
    const label = await client.value.getLabel("lbl_missing");
    expect(label.ok).toBe(false);
    const consoleLines = [...spies, errors].flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(" ")));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of [...logged, ...consoleLines]) expect(line).not.toContain(API_KEY);
  });

  it("builds a client that authenticates with the decrypted key", async () => {
    await setShippingApiKey(db, SHOP, API_KEY);
    const { shipping } = createEmulators();
    const client = await createShippingClientForShop(db, SHOP, { baseUrl: SHIPPING_BASE_URL, fetch: shipping.fetch });
    if (!client.ok) throw new Error(client.error.logMessage);
    const result = await client.value.getLabel("lbl_unknown");
    // 404, not 401: the key was accepted.
    expect(result.ok ? null : result.error.code).toBe("NOT_FOUND");
  });

  it("reports a missing key instead of building a client", async () => {
    const client = await createShippingClientForShop(db, SHOP, { baseUrl: SHIPPING_BASE_URL });
    expect(client.ok ? null : client.error.code).toBe("API_KEY_MISSING");
  });

  it("refuses to decrypt with another key or tampered data", () => {
    const sealed = sealSecret(API_KEY, "0f".repeat(32));
    if (!sealed.ok) throw new Error("seal failed");
    expect(openSecret(sealed.value, "0f".repeat(32))).toEqual({ ok: true, value: API_KEY });
    expect(openSecret(sealed.value, OTHER_KEY).ok).toBe(false);
    const tampered = { ...sealed.value, ciphertext: Buffer.from("x".repeat(12)).toString("base64") };
    expect(openSecret(tampered, "0f".repeat(32)).ok).toBe(false);
  });

  it("uses a fresh IV for every encryption", () => {
    const a = sealSecret(API_KEY, "0f".repeat(32));
    const b = sealSecret(API_KEY, "0f".repeat(32));
    expect(a.ok && b.ok && a.value.iv !== b.value.iv && a.value.ciphertext !== b.value.ciphertext).toBe(true);
  });
});
