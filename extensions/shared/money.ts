import type { ExtensionMoney } from "../../app/extension-api/contract";

/**
 * "$8.40" for { cents: 840, currency: "USD" }. The app counts every amount in hundredths of the
 * currency unit (the shipping service's decimal amounts × 100), whatever the currency.
 */
export function formatMoney(money: ExtensionMoney, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency: money.currency }).format(money.cents / 100);
}
