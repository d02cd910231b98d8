import { z } from "zod";

import { describeLabelOptions, type LabelOptions } from "./label-options";

// A drafted label's options read back from its stored request (the app's own JSON, checked all
// the same: a request drafted before options existed has none).

export const LabelOptionsSchema = z.object({
  insurance: z.object({ amount: z.string() }).optional(),
  signature: z.enum(["standard", "adult"]).optional(),
  hazmat: z.string().optional(),
}) satisfies z.ZodType<LabelOptions>;

const DraftedOptionsSchema = z.object({ options: LabelOptionsSchema.optional() });

/** The options a drafted request carries; {} for none or an unreadable request. */
export function optionsOf(request: unknown): LabelOptions {
  const parsed = DraftedOptionsSchema.safeParse(request);
  return (parsed.success ? parsed.data.options : undefined) ?? {};
}

/** The options of a drafted request, described. */
export const describeOptions = (request: unknown): string[] => describeLabelOptions(optionsOf(request));
