import { z } from "zod";

// A label's options (insurance, signature, hazmat) in the merchant's words, for the order page's
// read-only fields and the bought label alike. Pure: the browser loads it too.

const DraftedOptionsSchema = z.object({
  options: z
    .object({
      insurance: z.object({ amount: z.string() }).optional(),
      signature: z.enum(["standard", "adult"]).optional(),
      hazmat: z.string().optional(),
    })
    .optional(),
});

/** "Insured for $250.00", "Adult signature", "Lithium batteries (ground)": what the label carries. */
export function describeOptions(request: unknown): string[] {
  const parsed = DraftedOptionsSchema.safeParse(request);
  const options = parsed.success ? parsed.data.options : undefined;
  if (!options) return [];
  return [
    ...(options.insurance ? [`Insured for $${options.insurance.amount}`] : []),
    ...(options.signature === "adult" ? ["Adult signature"] : options.signature === "standard" ? ["Signature"] : []),
    ...(options.hazmat === "lithium_batteries" ? ["Lithium batteries (ground)"] : []),
  ];
}
