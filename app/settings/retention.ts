import { z } from "zod";

// How long the ship-to details of a finished label are kept (docs/protected-customer-data.md).
// Pure, for the form and the server alike.

export const DEFAULT_SHIP_TO_RETENTION_DAYS = 90;
// At least a day, so a slip of the keyboard never erases an address the same hour; at most ten
// years, as long as any tax or customs record would ask for.
export const MIN_SHIP_TO_RETENTION_DAYS = 1;
export const MAX_SHIP_TO_RETENTION_DAYS = 3650;

const RANGE_MESSAGE = `Keep ship-to details for a whole number of days from ${MIN_SHIP_TO_RETENTION_DAYS} to ${MAX_SHIP_TO_RETENTION_DAYS}`;

export const ShipToRetentionDaysSchema = z
  .number({ error: RANGE_MESSAGE })
  .int(RANGE_MESSAGE)
  .min(MIN_SHIP_TO_RETENTION_DAYS, RANGE_MESSAGE)
  .max(MAX_SHIP_TO_RETENTION_DAYS, RANGE_MESSAGE);

/** The retention form: the number of days as typed. */
export const RetentionFormSchema = z.object({
  shipToRetentionDays: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : undefined),
    ShipToRetentionDaysSchema,
  ),
});
export type RetentionForm = z.infer<typeof RetentionFormSchema>;
