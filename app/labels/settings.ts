import { z } from "zod";

import { LABEL_FORMATS, LABEL_SIZES } from "~/shipping/schemas";

// A shop's label settings as the use cases and screens see them. Pure (no secrets, no node
// imports): the API key lives only in settings.server.ts, encrypted.

export const MODES = ["sandbox", "live"] as const;
// never: only when the merchant asks; on_request: offered on the label page; auto_new: every new
// ship-to address is validated (billed once per address, then reused).
export const ADDRESS_VALIDATION_POLICIES = ["never", "on_request", "auto_new"] as const;
export const BOX_WEIGHT_UNITS = ["oz", "lb", "g", "kg"] as const;
export const BOX_DIMENSION_UNITS = ["in", "cm"] as const;

export type BoxWeightUnit = (typeof BOX_WEIGHT_UNITS)[number];
export type BoxDimensionUnit = (typeof BOX_DIMENSION_UNITS)[number];

export const DefaultBoxSchema = z.object({
  length: z.number().positive(),
  width: z.number().positive(),
  height: z.number().positive(),
  dimensionUnit: z.enum(BOX_DIMENSION_UNITS),
  // The most one box may weigh, packaging included; heavier shipments are split into several boxes.
  maxWeight: z.number().positive(),
  weightUnit: z.enum(BOX_WEIGHT_UNITS),
  // The empty box's own weight, added to every box.
  tareWeight: z.number().min(0),
});
export type DefaultBox = z.infer<typeof DefaultBoxSchema>;

export const LabelSettingsSchema = z.object({
  mode: z.enum(MODES),
  box: DefaultBoxSchema,
  labelFormat: z.enum(LABEL_FORMATS),
  labelSize: z.enum(LABEL_SIZES),
  notifyCustomer: z.boolean(),
  autoDraft: z.boolean(),
  addressValidationPolicy: z.enum(ADDRESS_VALIDATION_POLICIES),
});
export type LabelSettings = z.infer<typeof LabelSettingsSchema>;

/** What a settings form may change; the API key is set separately (setShippingApiKey). */
export const LabelSettingsInputSchema = LabelSettingsSchema.partial().extend({
  box: DefaultBoxSchema.partial().optional(),
});
export type LabelSettingsInput = z.infer<typeof LabelSettingsInputSchema>;

export const DEFAULT_LABEL_SETTINGS: LabelSettings = {
  mode: "sandbox",
  box: { length: 12, width: 10, height: 6, dimensionUnit: "in", maxWeight: 50, weightUnit: "lb", tareWeight: 0 },
  labelFormat: "pdf",
  labelSize: "4x6",
  notifyCustomer: true,
  autoDraft: false,
  addressValidationPolicy: "on_request",
};

/** A box the shop packs into; the default one is what prefill packs with (`LabelSettings.box`). */
export const BoxPresetSchema = DefaultBoxSchema.extend({
  name: z.string().trim().min(1, "Name the box").max(60),
  isDefault: z.boolean(),
});
export type BoxPreset = z.infer<typeof BoxPresetSchema> & { id: string };
