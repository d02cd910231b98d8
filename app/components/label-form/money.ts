/** Integer minor units as the merchant reads them, e.g. 1840 USD → "$18.40". */
export function formatCents(cents: number | null | undefined, currency = "USD"): string {
  if (cents === null || cents === undefined) return "—";
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}

/** A wire amount ("18.40") as the merchant reads it. */
export function formatAmount(amount: string, currency = "USD"): string {
  const value = Number(amount);
  return Number.isFinite(value)
    ? new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value)
    : amount;
}
