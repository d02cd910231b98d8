import { describe, expect, it } from "vitest";

import db from "~/db.server";

import { DEFAULT_LABEL_SETTINGS } from "./settings";
import {
  createBoxPreset,
  deleteBoxPreset,
  getSettingsView,
  getSettingsWithPresets,
  getShopSettings,
  listBoxPresets,
  makeDefaultBoxPreset,
  saveShopSettings,
  updateBoxPreset,
} from "./settings.server";

const SHOP = "presets-shop.myshopify.com";
const SMALL = {
  name: "Small",
  length: 8,
  width: 6,
  height: 4,
  dimensionUnit: "in",
  tareWeight: 4,
  maxWeight: 10,
  weightUnit: "lb",
  isDefault: false,
} as const;
const LARGE = { ...SMALL, name: "Large", length: 20, width: 16, height: 12, maxWeight: 40 } as const;

async function create(input: typeof SMALL | typeof LARGE, shop = SHOP) {
  const result = await createBoxPreset(db, shop, input);
  if (!result.ok) throw new Error(result.error.logMessage);
  return result.value;
}

describe("box presets", () => {
  it("packs with the legacy default box while the shop has no presets", async () => {
    await saveShopSettings(db, SHOP, { box: { maxWeight: 30 } });
    expect((await getShopSettings(db, SHOP)).box).toEqual({ ...DEFAULT_LABEL_SETTINGS.box, maxWeight: 30 });
  });

  it("makes the first box the default, and prefill's box follows it", async () => {
    const small = await create(SMALL);
    expect(small.isDefault).toBe(true);
    const { name: _name, isDefault: _isDefault, ...box } = SMALL;
    expect((await getShopSettings(db, SHOP)).box).toEqual(box);
  });

  it("keeps exactly one default when another box is made the default", async () => {
    await create(SMALL);
    const large = await create(LARGE);
    expect(large.isDefault).toBe(false);
    await makeDefaultBoxPreset(db, SHOP, large.id);
    const presets = await listBoxPresets(db, SHOP);
    expect(presets.map((p) => [p.name, p.isDefault])).toEqual([
      ["Large", true],
      ["Small", false],
    ]);
    expect((await getShopSettings(db, SHOP)).box.length).toBe(20);
  });

  it("reads the settings and the presets together as it reads them apart, the default box included", async () => {
    const none = await getSettingsWithPresets(db, SHOP);
    expect(none).toEqual({ settings: await getSettingsView(db, SHOP), presets: [] });
    await create(SMALL);
    const large = await create(LARGE);
    await makeDefaultBoxPreset(db, SHOP, large.id);
    const together = await getSettingsWithPresets(db, SHOP);
    expect(together.settings).toEqual(await getSettingsView(db, SHOP));
    expect(together.settings.box.length).toBe(20);
    expect(together.presets).toEqual(await listBoxPresets(db, SHOP));
  });

  it("writes a box change from the settings input to the default preset, not to the retired columns", async () => {
    await create(SMALL);
    await saveShopSettings(db, SHOP, { box: { maxWeight: 12 } });
    expect((await listBoxPresets(db, SHOP))[0]?.maxWeight).toBe(12);
    const row = await db.shopSettings.findUnique({ where: { shop: SHOP } });
    expect(row?.boxMaxWeight).toBe(DEFAULT_LABEL_SETTINGS.box.maxWeight);
  });

  it("refuses to untick the default box, naming the field", async () => {
    const small = await create(SMALL);
    const result = await updateBoxPreset(db, SHOP, small.id, { ...SMALL, isDefault: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fields).toEqual([{ path: "isDefault", message: "Make another box the default instead." }]);
  });

  it("hands the default to the oldest remaining box when the default is deleted, and falls back after the last", async () => {
    const small = await create(SMALL);
    const large = await create(LARGE);
    await deleteBoxPreset(db, SHOP, small.id);
    expect((await listBoxPresets(db, SHOP)).map((p) => [p.id, p.isDefault])).toEqual([[large.id, true]]);
    await deleteBoxPreset(db, SHOP, large.id);
    expect((await getShopSettings(db, SHOP)).box).toEqual(DEFAULT_LABEL_SETTINGS.box);
  });

  it("refuses an invalid box with a message per field", async () => {
    const result = await createBoxPreset(db, SHOP, { ...SMALL, name: " ", length: -1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fields.map((f) => f.path).sort()).toEqual(["length", "name"]);
    expect(await db.boxPreset.count()).toBe(0);
  });

  it("never lets one shop change or delete another shop's box", async () => {
    const theirs = await create(SMALL, "other-shop.myshopify.com");
    const updated = await updateBoxPreset(db, SHOP, theirs.id, { ...LARGE, isDefault: true });
    const deleted = await deleteBoxPreset(db, SHOP, theirs.id);
    expect([updated.ok, deleted.ok]).toEqual([false, false]);
    expect(deleted.ok ? null : deleted.error.code).toBe("BOX_PRESET_NOT_FOUND");
    expect((await listBoxPresets(db, "other-shop.myshopify.com"))[0]?.name).toBe("Small");
  });
});
