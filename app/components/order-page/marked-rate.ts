import { rankRates } from "~/shipments/rate-ranking";
import type { Rate } from "~/shipping/schemas";

// The rate a volume shipper takes without reading the list (the "C" shortcut): the one the
// customer chose at checkout when a rate carries that name, otherwise the cheapest.

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** The rate whose name or service is what the customer chose at checkout; null when none is. */
export function findCustomerChoice(rates: readonly Rate[], customerChose: string | null): Rate | null {
  if (!customerChose) return null;
  const wanted = normalize(customerChose);
  if (!wanted) return null;
  return (
    rankRates(rates).find(({ rate, name }) => normalize(name) === wanted || normalize(rate.service) === wanted)?.rate ??
    null
  );
}

/** The customer's choice when a rate matches it, else the cheapest; null when there are no rates. */
export function pickMarkedRate(rates: readonly Rate[], customerChose: string | null): Rate | null {
  return findCustomerChoice(rates, customerChose) ?? rankRates(rates)[0]?.rate ?? null;
}
