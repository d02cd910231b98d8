import { z } from "zod";

import { LABEL_FORMATS, LABEL_SIZES } from "~/shipping/vocabulary";

import { NO_OPTION_RULES, OptionRulesSchema } from "./option-rules";

// A shop's label settings as the use cases and screens see them. Pure (no secrets, no node
// imports): the API key lives only in settings.server.ts, encrypted.

export const MODES = ["sandbox", "live"] as const;
// never: only when the merchant asks; on_request: offered on the label page; auto_new: every new
// ship-to address is validated (billed once per address, then reused).
export const ADDRESS_VALIDATION_POLICIES = ["never", "on_request", "auto_new"] as const;
export const BOX_WEIGHT_UNITS = ["oz", "lb", "g", "kg"] as const;
export const BOX_DIMENSION_UNITS = ["in", "cm"] as const;
// Packing slips in the printed PDF: none, each label followed by its slip, or every slip after
// every label (for merchants who print labels and slips on different stock).
export const PACKING_SLIP_MODES = ["off", "after_each", "after_all"] as const;
export type PackingSlipMode = (typeof PACKING_SLIP_MODES)[number];
export const PACKING_SLIP_NOTE_MAX = 300;

export type BoxWeightUnit = (typeof BOX_WEIGHT_UNITS)[number];
/** The weight units as a select's options, for every form that takes a weight. */
export const WEIGHT_UNIT_OPTIONS = BOX_WEIGHT_UNITS.map((unit) => ({ label: unit, value: unit }));

const LocationGidSchema = z.string().regex(/^gid:\/\/shopify\/Location\/\d+$/, "Choose one of your locations");

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
  // The Shopify location labels ship from when the fulfillment order names none usable; null:
  // the fulfillment order's own location, then the store address.
  shipFromLocationGid: LocationGidSchema.nullable(),
  packingSlips: z.enum(PACKING_SLIP_MODES),
  // Printed at the foot of every packing slip (a thank-you, a returns address); null: none.
  packingSlipNote: z.string().max(PACKING_SLIP_NOTE_MAX).nullable(),
  // Insurance, adult signature and lithium batteries by rule; applied by prefill.
  optionRules: OptionRulesSchema,
  // Scan to ship buys and prints a scanned order's ready draft instead of opening the order.
  scanBuysDraft: z.boolean(),
  // A label bought for a shipment Shopify held or cancelled in the instant of the purchase is
  // voided on its own (audited); off: the merchant is told and voids it in one click.
  autoVoidHeldPurchases: z.boolean(),
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
  shipFromLocationGid: null,
  packingSlips: "off",
  packingSlipNote: null,
  optionRules: NO_OPTION_RULES,
  scanBuysDraft: false,
  autoVoidHeldPurchases: false,
};

/** A box the shop packs into; the default one is what prefill packs with (`LabelSettings.box`). */
export const BoxPresetSchema = DefaultBoxSchema.extend({
  name: z.string().trim().min(1, "Name the box").max(60),
  isDefault: z.boolean(),
});
export type BoxPreset = z.infer<typeof BoxPresetSchema> & { id: string };

// ---------- Forms ----------
// The settings screen posts HTML forms: every value arrives as a string (a checkbox only when
// ticked). These schemas turn a form into the typed inputs above, with messages for the fields.

const checkbox = z.preprocess((value) => value === "on" || value === "true", z.boolean());
const positiveNumber = (what: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : undefined),
    z
      .number({ error: (issue) => (issue.input === undefined ? `Enter the ${what}` : `Enter the ${what} as a number`) })
      .positive(`The ${what} must be more than 0`)
      .max(10_000, `The ${what} is too large`),
  );

/** The general settings form (format, size, notification, address validation, ship-from). */
export const SettingsFormSchema = z.object({
  labelFormat: z.enum(LABEL_FORMATS, { error: "Choose a label format" }),
  labelSize: z.enum(LABEL_SIZES, { error: "Choose a label size" }),
  notifyCustomer: checkbox,
  addressValidationPolicy: z.enum(ADDRESS_VALIDATION_POLICIES, { error: "Choose when addresses are validated" }),
  // "" is the "fulfillment order's location" choice.
  shipFromLocationGid: z.preprocess((value) => (value === "" ? null : value), LocationGidSchema.nullable()),
  // Absent (a form without them): left as saved. An empty note clears it.
  packingSlips: z.enum(PACKING_SLIP_MODES, { error: "Choose when packing slips print" }).optional(),
  scanBuysDraft: z.preprocess(
    (value) => (value === undefined ? undefined : value === "on" || value === "true"),
    z.boolean().optional(),
  ),
  autoVoidHeldPurchases: z.preprocess(
    (value) => (value === undefined ? undefined : value === "on" || value === "true"),
    z.boolean().optional(),
  ),
  packingSlipNote: z.preprocess(
    (value) => (typeof value === "string" ? (value.trim() === "" ? null : value.trim()) : value),
    z
      .string({ error: "Enter the packing slip note as text" })
      .max(PACKING_SLIP_NOTE_MAX, `Keep the packing slip note to ${PACKING_SLIP_NOTE_MAX} characters`)
      .nullable()
      .optional(),
  ),
});
export type SettingsForm = z.infer<typeof SettingsFormSchema>;

/** The box preset form: numbers typed by the merchant, the default flag as a checkbox. */
export const BoxPresetFormSchema = z.object({
  name: z.string().trim().min(1, "Name the box").max(60, "Use at most 60 characters"),
  length: positiveNumber("length"),
  width: positiveNumber("width"),
  height: positiveNumber("height"),
  dimensionUnit: z.enum(BOX_DIMENSION_UNITS, { error: "Choose in or cm" }),
  tareWeight: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : 0),
    z.number({ error: "Enter the empty weight as a number" }).min(0, "The empty weight cannot be negative"),
  ),
  maxWeight: positiveNumber("weight limit"),
  weightUnit: z.enum(BOX_WEIGHT_UNITS, { error: "Choose a weight unit" }),
  isDefault: checkbox,
});
export type BoxPresetForm = z.infer<typeof BoxPresetFormSchema>;

// ---------- Address validation cost ----------

/** The contract's price of one address validation on a live key; sandbox keys are not billed. */
export const ADDRESS_VALIDATION_PRICE_CENTS = 5;

export function getAddressValidationPriceCents(mode: LabelSettings["mode"]): number {
  return mode === "live" ? ADDRESS_VALIDATION_PRICE_CENTS : 0;
}
