// A label's options (insurance, signature, hazmat) in the merchant's words, for the order page,
// the bought label and the bulk review alike. Pure and without a validator: the browser loads
// it too. Reading them from a stored request is drafted-options.server.ts's.

export type LabelOptions = {
  insurance?: { amount: string };
  signature?: "standard" | "adult";
  hazmat?: string;
};

/** "Insured for $250.00", "Adult signature", "Lithium batteries (ground)": what the label carries. */
export function describeLabelOptions(options: LabelOptions): string[] {
  return [
    ...(options.insurance ? [`Insured for $${options.insurance.amount}`] : []),
    ...(options.signature === "adult" ? ["Adult signature"] : options.signature === "standard" ? ["Signature"] : []),
    ...(options.hazmat === "lithium_batteries" ? ["Lithium batteries (ground)"] : []),
  ];
}

/**
 * The options of a request as the order page's form holds it (loosely typed, not yet checked), as
 * a label would carry them: what the Buy confirmation of a rate lists its price as including.
 */
export function formLabelOptions(request: { options?: unknown }): LabelOptions {
  const options = (request.options ?? {}) as {
    insurance?: { amount?: unknown };
    signature?: unknown;
    hazmat?: unknown;
  };
  const amount = options.insurance?.amount;
  return {
    ...(typeof amount === "string" && amount !== "" ? { insurance: { amount } } : {}),
    ...(options.signature === "standard" || options.signature === "adult" ? { signature: options.signature } : {}),
    ...(typeof options.hazmat === "string" ? { hazmat: options.hazmat } : {}),
  };
}

/** "Includes insurance on 3 shipments and an adult signature on 1": what a total pays for beyond postage. */
export function summarizeOptions(all: readonly LabelOptions[]): string | null {
  const count = (keep: (o: LabelOptions) => boolean) => all.filter(keep).length;
  const shipments = (n: number) => `${n} shipment${n === 1 ? "" : "s"}`;
  const parts = [
    [count((o) => o.insurance !== undefined), "insurance"],
    [count((o) => o.signature === "adult"), "an adult signature"],
    [count((o) => o.signature === "standard"), "a signature"],
    [count((o) => o.hazmat === "lithium_batteries"), "lithium batteries (ground only)"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${what} on ${shipments(n)}`);
  if (said.length === 0) return null;
  const last = said.pop();
  return `Includes ${said.length > 0 ? `${said.join(", ")} and ${last}` : last}.`;
}
