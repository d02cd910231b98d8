import { describeService } from "~/shipping/services";

// Rates as a merchant compares them (issue 25 §2): cheapest first, the cheapest and the fastest
// marked, the carrier written once, "1 day" and "3 days" with the day they should arrive. Pure:
// the order page renders it.

type RankableRate = {
  readonly rate_id: string;
  readonly carrier: string;
  readonly service: string;
  readonly amount: string;
  readonly delivery_days?: number | null;
  readonly ship_date: string;
};

export type RankedRate<R extends RankableRate> = {
  readonly rate: R;
  /** "UPS Ground", never "UPS UPS Ground". */
  readonly name: string;
  /** "3 days · by Thu, Dec 3"; null when the carrier gives no estimate. */
  readonly delivery: string | null;
  readonly cheapest: boolean;
  readonly fastest: boolean;
};

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** The date `days` business days after `shipDate` (YYYY-MM-DD): carriers do not deliver at weekends. */
export function estimateArrival(shipDate: string, days: number): Date | null {
  const date = new Date(`${shipDate}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return date;
}

const ARRIVAL = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

export function describeDelivery(days: number | null | undefined, shipDate: string): string | null {
  if (days == null) return null;
  const arrival = estimateArrival(shipDate, days);
  const span = `${days} ${days === 1 ? "day" : "days"}`;
  return arrival ? `${span} · by ${ARRIVAL.format(arrival)}` : span;
}

/** Cheapest first (then the fastest of equal price); one mark each for the cheapest and the fastest. */
export function rankRates<R extends RankableRate>(rates: readonly R[]): RankedRate<R>[] {
  const sorted = [...rates].sort(
    (a, b) =>
      cents(a.amount) - cents(b.amount) ||
      (a.delivery_days ?? Number.POSITIVE_INFINITY) - (b.delivery_days ?? Number.POSITIVE_INFINITY),
  );
  const cheapest = sorted[0]?.rate_id;
  const withDays = sorted.filter((r) => r.delivery_days != null);
  // The quickest, and of those the cheapest; no mark when it is the cheapest too, or nothing says.
  const fastest = [...withDays].sort(
    (a, b) => (a.delivery_days ?? 0) - (b.delivery_days ?? 0) || cents(a.amount) - cents(b.amount),
  )[0]?.rate_id;
  return sorted.map((rate) => ({
    rate,
    name: describeService({ carrier: rate.carrier, service: rate.service }),
    delivery: describeDelivery(rate.delivery_days, rate.ship_date),
    cheapest: rate.rate_id === cheapest,
    fastest: sorted.length > 1 && rate.rate_id === fastest && fastest !== cheapest,
  }));
}
