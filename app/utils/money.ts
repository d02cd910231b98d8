// Money is kept as integer minor units plus a currency; this is the one place it becomes text.

/** 1234 USD → "$12.34"; null or missing → "—" (not known yet). */
export function formatMinorUnits(cents: number | null | undefined, currency = "USD"): string {
  if (cents === null || cents === undefined) return "—";
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}

/** A wire amount ("18.40") as the merchant reads it; an unreadable one as it came. */
export function formatAmount(amount: string, currency = "USD"): string {
  const value = Number(amount);
  return Number.isFinite(value)
    ? new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value)
    : amount;
}
