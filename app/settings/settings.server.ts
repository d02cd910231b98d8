import type { BoxPreset as BoxPresetRow, PrismaClient, ShopSettings } from "@prisma/client";

import { getEnv } from "~/env.server";
import { createShippingClient, type FetchLike, type RequestSlots, type ShippingClient } from "~/shipping/client.server";
import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import { getShopAndLocations } from "~/shopify/shop";
import type { AppError } from "~/utils/app-error";
import { err, ok, type Result } from "~/utils/result";

import { joinTagList, splitTagList } from "./option-rules";
import { openSecret, sealSecret } from "./secret-box.server";
import {
  type BoxPreset,
  BoxPresetSchema,
  DEFAULT_LABEL_SETTINGS,
  type LabelSettings,
  type LabelSettingsInput,
  LabelSettingsInputSchema,
  LabelSettingsSchema,
  type SettingsForm,
} from "./settings";

// Per-shop settings in the database. The shipping API key is stored only sealed with
// AES-256-GCM; it leaves this module only inside a shipping client, never in a return value
// meant for a route, a log line or an error.

export type SettingsErrorCode =
  // No key saved: the merchant enters one in Settings.
  | "API_KEY_MISSING"
  // The stored key cannot be decrypted (the app's encryption key changed): enter it again.
  | "API_KEY_UNREADABLE"
  // The app cannot encrypt a key right now: a system problem, not the merchant's.
  | "SECRET_STORAGE_FAILED"
  | "INVALID_SETTINGS"
  // The box preset was deleted meanwhile (another tab) or belongs to another shop.
  | "BOX_PRESET_NOT_FOUND"
  // A new key the shipping service refused (401, 403, no organization): not stored.
  | "API_KEY_REFUSED"
  // A new key the service could not be asked about (network, timeout, 5xx): not stored either.
  | "API_KEY_UNVERIFIED";

export interface SettingsError extends AppError<SettingsErrorCode> {
  readonly source: "settings";
}

export function settingsError(
  code: SettingsErrorCode,
  message: string,
  logMessage: string,
  fields: SettingsError["fields"] = [],
): SettingsError {
  return { source: "settings", code, message, logMessage, fields, fixable: code !== "SECRET_STORAGE_FAILED" };
}

/** What a loader may send to the browser: the settings and whether a key is set, never the key. */
export type SettingsView = LabelSettings & { apiKey: { configured: boolean; hint: string | null } };

type Options = { encryptionKey?: string };
const encryptionKeyOf = (options: Options) => options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY;

// The default box has one source at a time. While a shop has no box presets, it is the legacy
// box* columns of ShopSettings (the built-in 12×10×6 in box unless changed); once it has presets,
// it is the default preset, and the box* columns are no longer read or written. Deleting the last
// preset brings the columns back as the fallback, unchanged since the first preset was made.

function toBox(preset: BoxPresetRow) {
  const { length, width, height, dimensionUnit, maxWeight, weightUnit, tareWeight } = preset;
  return { length, width, height, dimensionUnit, maxWeight, weightUnit, tareWeight };
}

// Default first. Exactly one preset is the default whenever any exist; the rest only breaks a
// broken tie, and lists the others oldest first.
const PRESETS_DEFAULT_FIRST = [{ isDefault: "desc" as const }, { createdAt: "asc" as const }];

function findDefaultPresetRow(db: Pick<PrismaClient, "boxPreset">, shop: string) {
  return db.boxPreset.findFirst({ where: { shop }, orderBy: PRESETS_DEFAULT_FIRST });
}

function toLabelSettings(row: ShopSettings | null, defaultPreset: BoxPresetRow | null): LabelSettings {
  if (!row && !defaultPreset) return DEFAULT_LABEL_SETTINGS;
  const legacyBox = row
    ? {
        length: row.boxLength,
        width: row.boxWidth,
        height: row.boxHeight,
        dimensionUnit: row.boxDimensionUnit,
        maxWeight: row.boxMaxWeight,
        weightUnit: row.boxWeightUnit,
        tareWeight: row.boxTareWeight,
      }
    : DEFAULT_LABEL_SETTINGS.box;
  const box = defaultPreset ? toBox(defaultPreset) : legacyBox;
  const parsed = LabelSettingsSchema.safeParse(
    row
      ? {
          mode: row.mode,
          box,
          labelFormat: row.labelFormat,
          labelSize: row.labelSize,
          notifyCustomer: row.notifyCustomer,
          autoDraft: row.autoDraft,
          addressValidationPolicy: row.addressValidationPolicy,
          shipFromLocationGid: row.shipFromLocationGid,
          packingSlips: row.packingSlips,
          packingSlipNote: row.packingSlipNote,
          scanBuysDraft: row.scanBuysDraft,
          autoVoidHeldPurchases: row.autoVoidHeldPurchases,
          optionRules: {
            insureAboveCents: row.insureAboveCents,
            adultSignatureTags: splitTagList(row.adultSignatureTags),
            adultSignatureProductTypes: splitTagList(row.adultSignatureProductTypes),
            lithiumTags: splitTagList(row.lithiumTags),
          },
        }
      : { ...DEFAULT_LABEL_SETTINGS, box },
  );
  // Rows are only written through validated saves; a bad one falls back to safe defaults.
  return parsed.success ? parsed.data : DEFAULT_LABEL_SETTINGS;
}

const listPresetRows = (db: Pick<PrismaClient, "boxPreset">, shop: string) =>
  db.boxPreset.findMany({ where: { shop }, orderBy: PRESETS_DEFAULT_FIRST });

function toBoxPresets(rows: readonly BoxPresetRow[]): BoxPreset[] {
  return rows.flatMap((row) => {
    const parsed = BoxPresetSchema.safeParse(row);
    // Rows are written only through validated saves; one that no longer parses is skipped.
    return parsed.success ? [{ ...parsed.data, id: row.id }] : [];
  });
}

/** The shop's box presets, default first; empty when none were saved (prefill then uses `box`). */
export async function listBoxPresets(db: PrismaClient, shop: string): Promise<BoxPreset[]> {
  return toBoxPresets(await listPresetRows(db, shop));
}

/** The shop's settings row and its default box, the two reads behind both settings shapes. */
function readSettingsRows(db: PrismaClient, shop: string) {
  return Promise.all([db.shopSettings.findUnique({ where: { shop } }), findDefaultPresetRow(db, shop)]);
}

export async function getShopSettings(db: PrismaClient, shop: string): Promise<LabelSettings> {
  const [row, preset] = await readSettingsRows(db, shop);
  return toLabelSettings(row, preset);
}

function toSettingsView(row: ShopSettings | null, defaultPreset: BoxPresetRow | null): SettingsView {
  const configured = Boolean(row?.apiKeyCiphertext);
  return {
    ...toLabelSettings(row, defaultPreset),
    apiKey: { configured, hint: configured && row?.apiKeyHint ? `••••${row.apiKeyHint}` : null },
  };
}

export async function getSettingsView(db: PrismaClient, shop: string): Promise<SettingsView> {
  const [row, preset] = await readSettingsRows(db, shop);
  return toSettingsView(row, preset);
}

/**
 * The settings and the box presets together, in two reads where the two calls above take three:
 * every order page, bulk check and purchase loads both (and each read costs a query compilation).
 */
export async function getSettingsWithPresets(
  db: PrismaClient,
  shop: string,
): Promise<{ settings: SettingsView; presets: BoxPreset[] }> {
  const [row, presetRows] = await Promise.all([
    db.shopSettings.findUnique({ where: { shop } }),
    listPresetRows(db, shop),
  ]);
  return { settings: toSettingsView(row, presetRows[0] ?? null), presets: toBoxPresets(presetRows) };
}

export async function saveShopSettings(
  db: PrismaClient,
  shop: string,
  input: LabelSettingsInput,
): Promise<Result<LabelSettings, SettingsError>> {
  const parsed = LabelSettingsInputSchema.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    return err(
      settingsError(
        "INVALID_SETTINGS",
        "Some settings are invalid.",
        `saveShopSettings: invalid ${fields.map((f) => f.path).join(", ")}`,
        fields,
      ),
    );
  }
  const current = await getShopSettings(db, shop);
  const next: LabelSettings = { ...current, ...parsed.data, box: { ...current.box, ...parsed.data.box } };
  const defaultPreset = await findDefaultPresetRow(db, shop);
  // A box change goes to wherever the default box lives now (see toLabelSettings).
  if (defaultPreset && parsed.data.box) {
    await db.boxPreset.update({ where: { id: defaultPreset.id }, data: next.box });
  }
  const legacyBox = defaultPreset
    ? {}
    : {
        boxLength: next.box.length,
        boxWidth: next.box.width,
        boxHeight: next.box.height,
        boxDimensionUnit: next.box.dimensionUnit,
        boxMaxWeight: next.box.maxWeight,
        boxWeightUnit: next.box.weightUnit,
        boxTareWeight: next.box.tareWeight,
      };
  const data = {
    mode: next.mode,
    ...legacyBox,
    labelFormat: next.labelFormat,
    labelSize: next.labelSize,
    notifyCustomer: next.notifyCustomer,
    autoDraft: next.autoDraft,
    addressValidationPolicy: next.addressValidationPolicy,
    shipFromLocationGid: next.shipFromLocationGid,
    packingSlips: next.packingSlips,
    packingSlipNote: next.packingSlipNote,
    scanBuysDraft: next.scanBuysDraft,
    autoVoidHeldPurchases: next.autoVoidHeldPurchases,
    insureAboveCents: next.optionRules.insureAboveCents,
    adultSignatureTags: joinTagList(next.optionRules.adultSignatureTags),
    adultSignatureProductTypes: joinTagList(next.optionRules.adultSignatureProductTypes),
    lithiumTags: joinTagList(next.optionRules.lithiumTags),
  };
  await db.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return ok(next);
}

const MAX_API_KEY_LENGTH = 512;

/** The key as typed, trimmed and checked to be a token; what is refused is never quoted back. */
export function parseShippingApiKey(apiKey: string): Result<string, SettingsError> {
  const trimmed = apiKey.trim();
  if (trimmed.length < 8) {
    const message = "Enter the full API key from your shipping account.";
    return err(
      settingsError("INVALID_SETTINGS", message, "setShippingApiKey: key too short", [{ path: "apiKey", message }]),
    );
  }
  // A key is a token: printable ASCII, no spaces. Anything else (a pasted paragraph, a line
  // break, accented letters, a megabyte) is not one, and would go out in every request's
  // Authorization header: refused here, and never quoted back.
  if (trimmed.length > MAX_API_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(trimmed)) {
    const message = `That is not an API key: a key has no spaces or accented letters and at most ${MAX_API_KEY_LENGTH} characters. Copy it again from your shipping account.`;
    return err(
      settingsError("INVALID_SETTINGS", message, "setShippingApiKey: not a key (characters or length)", [
        { path: "apiKey", message },
      ]),
    );
  }
  return ok(trimmed);
}

/**
 * Stores the key as given, sealed. It does not ask the shipping service: the Settings screen saves
 * a key only through saveVerifiedShippingApiKey (save-api-key.server.ts), which does.
 */
export async function setShippingApiKey(
  db: PrismaClient,
  shop: string,
  apiKey: string,
  options: Options = {},
): Promise<Result<{ hint: string }, SettingsError>> {
  const parsed = parseShippingApiKey(apiKey);
  if (!parsed.ok) return parsed;
  const trimmed = parsed.value;
  const sealed = sealSecret(trimmed, encryptionKeyOf(options));
  if (!sealed.ok) {
    return err(
      settingsError(
        "SECRET_STORAGE_FAILED",
        "The app cannot store your API key right now. Try again later.",
        `setShippingApiKey: ${sealed.error.logMessage}`,
      ),
    );
  }
  const hint = trimmed.slice(-4);
  // The mode follows the key: sk_test_ keys are sandbox keys (free, mocked validation).
  const mode = trimmed.startsWith("sk_test_") ? "sandbox" : "live";
  const data = {
    apiKeyCiphertext: sealed.value.ciphertext,
    apiKeyIv: sealed.value.iv,
    apiKeyAuthTag: sealed.value.authTag,
    apiKeyVersion: sealed.value.keyVersion,
    apiKeyHint: hint,
    mode,
  };
  await db.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return ok({ hint: `••••${hint}` });
}

export async function clearShippingApiKey(db: PrismaClient, shop: string): Promise<void> {
  await db.shopSettings.updateMany({
    where: { shop },
    data: { apiKeyCiphertext: null, apiKeyIv: null, apiKeyAuthTag: null, apiKeyHint: null },
  });
}

/** Server-only: the decrypted key, for building a shipping client. Never return it to a route. */
async function readShippingApiKey(
  db: PrismaClient,
  shop: string,
  options: Options,
): Promise<Result<string, SettingsError>> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  if (!row?.apiKeyCiphertext || !row.apiKeyIv || !row.apiKeyAuthTag) {
    return err(
      settingsError(
        "API_KEY_MISSING",
        "Enter your shipping API key in Settings first.",
        `no shipping API key for ${shop}`,
      ),
    );
  }
  const opened = openSecret(
    { ciphertext: row.apiKeyCiphertext, iv: row.apiKeyIv, authTag: row.apiKeyAuthTag, keyVersion: row.apiKeyVersion },
    encryptionKeyOf(options),
  );
  if (!opened.ok) {
    return err(
      settingsError(
        "API_KEY_UNREADABLE",
        "The stored API key can no longer be read; enter it again in Settings.",
        `${shop}: ${opened.error.logMessage}`,
      ),
    );
  }
  return ok(opened.value);
}

export async function createShippingClientForShop(
  db: PrismaClient,
  shop: string,
  options: Options & {
    baseUrl?: string;
    fetch?: FetchLike;
    log?: Parameters<typeof createShippingClient>[0]["log"];
    slots?: RequestSlots;
  } = {},
): Promise<Result<ShippingClient, SettingsError>> {
  const apiKey = await readShippingApiKey(db, shop, options);
  if (!apiKey.ok) return apiKey;
  return ok(
    createShippingClient({
      baseUrl: options.baseUrl ?? getEnv().SHIPPING_API_BASE_URL,
      apiKey: apiKey.value,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.slots ? { slots: options.slots } : {}),
    }),
  );
}

// ---------- Box presets ----------
// Invariant: when a shop has any presets, exactly one is the default. Every change that could
// break it (the first preset, a new default, deleting the default) runs in one transaction.

export type BoxPresetInput = Omit<BoxPreset, "id">;

function invalidPreset(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): SettingsError {
  const fields = issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  return settingsError(
    "INVALID_SETTINGS",
    "Check the box's details.",
    `box preset: invalid ${fields.map((f) => f.path).join(", ")}`,
    fields,
  );
}

function presetNotFound(id: string): SettingsError {
  return settingsError(
    "BOX_PRESET_NOT_FOUND",
    "That box no longer exists. Reload the page to see your current boxes.",
    `box preset ${id} not found for this shop`,
  );
}

function toPreset(row: BoxPresetRow): BoxPreset {
  const { id, name, isDefault } = row;
  return { id, name, isDefault, ...(toBox(row) as Omit<BoxPreset, "id" | "name" | "isDefault">) };
}

export async function createBoxPreset(
  db: PrismaClient,
  shop: string,
  input: BoxPresetInput,
): Promise<Result<BoxPreset, SettingsError>> {
  const parsed = BoxPresetSchema.safeParse(input);
  if (!parsed.success) return err(invalidPreset(parsed.error.issues));
  const row = await db.$transaction(async (tx) => {
    const existing = await tx.boxPreset.count({ where: { shop } });
    // The first box becomes the default: prefill must always have exactly one to pack with.
    const isDefault = existing === 0 || parsed.data.isDefault;
    if (isDefault) await tx.boxPreset.updateMany({ where: { shop, isDefault: true }, data: { isDefault: false } });
    return tx.boxPreset.create({ data: { ...parsed.data, isDefault, shop } });
  });
  return ok(toPreset(row));
}

export async function updateBoxPreset(
  db: PrismaClient,
  shop: string,
  id: string,
  input: BoxPresetInput,
): Promise<Result<BoxPreset, SettingsError>> {
  const parsed = BoxPresetSchema.safeParse(input);
  if (!parsed.success) return err(invalidPreset(parsed.error.issues));
  const result = await db.$transaction(async (tx): Promise<Result<BoxPresetRow, SettingsError>> => {
    const current = await tx.boxPreset.findFirst({ where: { id, shop } });
    if (!current) return err(presetNotFound(id));
    if (current.isDefault && !parsed.data.isDefault) {
      // Unticking the default would leave prefill without a box; another box must take over.
      const message = "Make another box the default instead.";
      return err(
        settingsError("INVALID_SETTINGS", message, `box preset ${id}: default unticked`, [
          { path: "isDefault", message },
        ]),
      );
    }
    if (parsed.data.isDefault && !current.isDefault) {
      await tx.boxPreset.updateMany({ where: { shop, isDefault: true }, data: { isDefault: false } });
    }
    return ok(await tx.boxPreset.update({ where: { id }, data: parsed.data }));
  });
  return result.ok ? ok(toPreset(result.value)) : result;
}

export async function makeDefaultBoxPreset(
  db: PrismaClient,
  shop: string,
  id: string,
): Promise<Result<BoxPreset, SettingsError>> {
  const result = await db.$transaction(async (tx): Promise<Result<BoxPresetRow, SettingsError>> => {
    const current = await tx.boxPreset.findFirst({ where: { id, shop } });
    if (!current) return err(presetNotFound(id));
    await tx.boxPreset.updateMany({ where: { shop, isDefault: true }, data: { isDefault: false } });
    return ok(await tx.boxPreset.update({ where: { id }, data: { isDefault: true } }));
  });
  return result.ok ? ok(toPreset(result.value)) : result;
}

/** Deleting the default hands the role to the oldest remaining box; the last one leaves the fallback box. */
export async function deleteBoxPreset(
  db: PrismaClient,
  shop: string,
  id: string,
): Promise<Result<{ deleted: string }, SettingsError>> {
  return db.$transaction(async (tx): Promise<Result<{ deleted: string }, SettingsError>> => {
    const current = await tx.boxPreset.findFirst({ where: { id, shop } });
    if (!current) return err(presetNotFound(id));
    await tx.boxPreset.delete({ where: { id } });
    if (current.isDefault) {
      const next = await tx.boxPreset.findFirst({ where: { shop }, orderBy: { createdAt: "asc" } });
      if (next) await tx.boxPreset.update({ where: { id: next.id }, data: { isDefault: true } });
    }
    return ok({ deleted: id });
  });
}

// ---------- The settings form ----------

/**
 * Saves the general settings form. The ship-from location must be one of the shop's active
 * locations now: a GID from a stale page or a crafted request is refused at its field.
 */
export async function saveGeneralSettings(
  deps: { db: PrismaClient; shop: string; admin: AdminGraphqlClient },
  form: SettingsForm,
): Promise<Result<LabelSettings, SettingsError | ShopifyError>> {
  if (form.shipFromLocationGid !== null) {
    const found = await getShopAndLocations(deps.admin);
    if (!found.ok) return found;
    if (!found.value.locations.some((l) => l.id === form.shipFromLocationGid)) {
      const message = "That location is no longer active. Choose another one.";
      return err(
        settingsError("INVALID_SETTINGS", message, `ship-from ${form.shipFromLocationGid} is not an active location`, [
          { path: "shipFromLocationGid", message },
        ]),
      );
    }
  }
  return saveShopSettings(deps.db, deps.shop, form);
}
