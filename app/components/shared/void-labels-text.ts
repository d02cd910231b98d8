import { formatMinorUnits } from "~/utils/money";

// The words of "Void labels" over a selection (the Labels list, a bulk run's page): which of the
// chosen labels are voided, what comes back, and why the rest are not. Pure, for the browser.

/** A label the merchant chose to void, as the screen knows it. */
export type VoidCandidate = {
  id: string;
  orderName: string;
  refundCents: number | null;
  currency: string;
  /** Why it cannot be voided now (the use case's own rules); null when it can. */
  blocker: string | null;
};

export const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "$12.34", or "$12.34 + €5.00" for labels bought in more than one currency. */
export function describeRefundTotal(labels: readonly Pick<VoidCandidate, "refundCents" | "currency">[]): string {
  const byCurrency = new Map<string, number>();
  for (const label of labels) {
    byCurrency.set(label.currency, (byCurrency.get(label.currency) ?? 0) + (label.refundCents ?? 0));
  }
  if (byCurrency.size === 0) return formatMinorUnits(0);
  return [...byCurrency].map(([currency, cents]) => formatMinorUnits(cents, currency)).join(" + ");
}

/** The chosen labels split into those the app will ask to void and those it will not (with why). */
export function splitVoidable<T extends VoidCandidate>(labels: readonly T[]) {
  return {
    voidable: labels.filter((l) => l.blocker === null),
    blocked: labels.filter((l): l is T & { blocker: string } => l.blocker !== null),
  };
}

/** The modal's confirm button: names how many and how much, as the order page's does for one. */
export function describeVoidAction(voidable: readonly VoidCandidate[]): string {
  if (voidable.length === 0) return "Void labels";
  const total = describeRefundTotal(voidable);
  return voidable.length === 1
    ? `Void label and refund ${total}`
    : `Void ${voidable.length} labels and refund ${total}`;
}
