import type { ExtensionMoney } from "../../app/labels/extension-contract";

/**
 * "$8.40" for { cents: 840, currency: "USD" }. `cents` are the currency's minor units, so the
 * divisor follows the currency's own decimals (0 for JPY, 3 for KWD).
 */
export function formatMoney(money: ExtensionMoney, locale?: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency: money.currency });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.cents / 10 ** decimals);
}
