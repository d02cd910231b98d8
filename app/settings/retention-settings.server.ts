import type { PrismaClient } from "@prisma/client";

import { err, ok, type Result } from "~/utils/result";

import { DEFAULT_SHIP_TO_RETENTION_DAYS, type RetentionForm, ShipToRetentionDaysSchema } from "./retention";
import { type SettingsError, settingsError } from "./settings.server";

// The shop's retention setting: how many days a delivered, voided or failed label keeps its ship-to
// details (a bought label never delivered keeps them twice as long; app/privacy/ship-to-retention).

export async function getShipToRetentionDays(db: Pick<PrismaClient, "shopSettings">, shop: string): Promise<number> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { shipToRetentionDays: true } });
  const parsed = ShipToRetentionDaysSchema.safeParse(row?.shipToRetentionDays);
  // Written only through the validated save below; a shop that saved nothing has the default.
  return parsed.success ? parsed.data : DEFAULT_SHIP_TO_RETENTION_DAYS;
}

export async function saveShipToRetentionDays(
  db: PrismaClient,
  shop: string,
  form: RetentionForm,
): Promise<Result<{ shipToRetentionDays: number }, SettingsError>> {
  const parsed = ShipToRetentionDaysSchema.safeParse(form.shipToRetentionDays);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Enter a number of days";
    return err(
      settingsError("INVALID_SETTINGS", message, "saveShipToRetentionDays: out of range", [
        { path: "shipToRetentionDays", message },
      ]),
    );
  }
  const data = { shipToRetentionDays: parsed.data };
  await db.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return ok(data);
}
