// The quote the rate came from and the ship date: one date, a real one, the quote's own, and a
// quote that has not expired, so the label is charged what the rate said.

import type { LabelRequestInput, PreflightContext } from "../preflight";
import { isBlank, type ProblemList } from "./problem-list";

export function checkQuoteAndShipDate(
  problems: ProblemList,
  request: LabelRequestInput,
  context: PreflightContext,
): void {
  const optionsShipDate = request.options?.["ship_date"];
  const topShipDate = isBlank(request.ship_date) ? null : String(request.ship_date);
  const nestedShipDate = typeof optionsShipDate === "string" && optionsShipDate.trim() !== "" ? optionsShipDate : null;
  if (topShipDate !== null && nestedShipDate !== null && topShipDate !== nestedShipDate) {
    problems.block("options.ship_date", "SHIP_DATE_CONFLICT", "Two different ship dates were given; keep one.");
  }
  const shipDate = topShipDate ?? nestedShipDate;
  if (shipDate !== null && !isCalendarDate(shipDate)) {
    problems.block("ship_date", "SHIP_DATE_INVALID", "Ship date must be written YYYY-MM-DD.");
  }
  const quote = context.quote;
  if (!quote || isBlank(request.rate_id)) return;
  if (request.rate_id !== quote.rate_id) {
    problems.block("rate_id", "QUOTE_MISMATCH", "The rate sent is not the quote shown; re-quote and choose again.");
  }
  if (shipDate !== null && shipDate !== quote.ship_date) {
    problems.block(
      topShipDate !== null ? "ship_date" : "options.ship_date",
      "SHIP_DATE_DIFFERS_FROM_QUOTE",
      `The ship date ${shipDate} differs from the quote's ${quote.ship_date}: the label would be re-priced and the charge would not match the rate. Re-quote for ${shipDate}.`,
      "Re-quote",
    );
  }
  const now = context.now ?? new Date();
  const expiresAt = Date.parse(quote.expires_at);
  if (!Number.isNaN(expiresAt) && now.getTime() >= expiresAt) {
    problems.block("rate_id", "QUOTE_EXPIRED", "The quote has expired. Re-quote and choose a rate again.", "Re-quote");
  }
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}
