// Money is kept as integer minor units plus a currency; this is the one place it becomes text.

/** 1234 USD → "$12.34"; null → "—" (not known yet). */
export function formatMinorUnits(cents: number | null, currency: string): string {
  if (cents === null) return "—";
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}
