import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { type LabelError, labelError } from "~/labels/label-errors";
import type { CallOptions } from "~/shipping/client.server";
import type { CreateLabelRequest, LabelOptions, Rate, RatesRequest } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { formatMinorUnits } from "~/utils/money";
import { err, ok, type Result } from "~/utils/result";

import type { ReadyQuote } from "./check-shipment";
import { quoteShipment, type QuoteShippingPort } from "./draft-shipment.server";
import { describeLabelOptions } from "./label-options";

// The rates a browser is shown, as the service answered them to the server (issue 40). A page
// posts back the rate it confirmed; what is drafted, and so charged, is this record's price,
// service, date and options, never the post's: a post that differs from it is refused with the
// real price, so the merchant never confirms one amount and pays another. In the database, not
// in memory: on PostgreSQL the post may reach another web process than the quote did.

/** The options a rate was quoted for, as the service compares them (contract.md, "Label options"). */
const QuotedOptionsSchema = z.object({
  insuranceCents: z.number().int(),
  signature: z.string(),
  hazmat: z.string(),
});
type QuotedOptions = z.infer<typeof QuotedOptionsSchema>;

function quotedOptionsOf(options: LabelOptions | undefined): QuotedOptions {
  const insurance = options?.insurance ? parseAmountCents(options.insurance.amount) : null;
  return {
    insuranceCents: insurance ?? 0,
    signature: options?.signature ?? "none",
    hazmat: options?.hazmat ?? "none",
  };
}

const sameOptions = (a: QuotedOptions, b: QuotedOptions) =>
  a.insuranceCents === b.insuranceCents && a.signature === b.signature && a.hazmat === b.hazmat;

function describeQuotedOptions(options: QuotedOptions): string {
  const said = describeLabelOptions({
    ...(options.insuranceCents > 0 ? { insurance: { amount: (options.insuranceCents / 100).toFixed(2) } } : {}),
    ...(options.signature === "standard" || options.signature === "adult" ? { signature: options.signature } : {}),
    hazmat: options.hazmat,
  });
  return said.length > 0 ? said.join(", ").toLowerCase() : "no options";
}

/** A rate as the server received it, with the options it was quoted for. */
export type QuotedRate = { rate: Rate; options: QuotedOptions };

/** Quotes a checked shipment (free) and keeps each rate the service answered, for the draft to use. */
export async function quoteAndRecordRates(
  deps: { db: PrismaClient; shop: string; shipping: QuoteShippingPort; now?: () => Date },
  ready: ReadyQuote,
  call?: CallOptions,
): ReturnType<typeof quoteShipment> {
  const quoted = await quoteShipment(deps.shipping, ready, call);
  if (!quoted.ok) return quoted;
  await recordQuotedRates(deps.db, deps.shop, ready.ratesRequest, quoted.value.rates, deps.now?.() ?? new Date());
  return quoted;
}

async function recordQuotedRates(
  db: PrismaClient,
  shop: string,
  request: RatesRequest,
  rates: readonly Rate[],
  now: Date,
): Promise<void> {
  const options = JSON.stringify(quotedOptionsOf(request.options));
  const rows = rates.flatMap((rate) => {
    const amountCents = parseAmountCents(rate.amount);
    const expiresAt = new Date(rate.expires_at);
    // A rate we cannot price or date is not kept: a draft from it is refused as unknown.
    if (amountCents === null || Number.isNaN(expiresAt.getTime())) return [];
    const row = {
      carrier: rate.carrier,
      service: rate.service,
      serviceCode: rate.service_code,
      amountCents,
      currency: rate.currency,
      shipDate: rate.ship_date,
      options,
      expiresAt,
      quotedAt: now,
    };
    return [
      db.rateQuote.upsert({
        where: { shop_rateId: { shop, rateId: rate.rate_id } },
        create: { shop, rateId: rate.rate_id, ...row },
        update: row,
      }),
    ];
  });
  // Rates expire after a day at the service; their records go with them.
  await db.$transaction([db.rateQuote.deleteMany({ where: { shop, expiresAt: { lt: now } } }), ...rows]);
}

const rateExpired = (operation: string, detail: string) =>
  labelError(
    "QUOTE_MISMATCH",
    "This rate has expired or was not quoted for this shop. Nothing was drafted: get rates again and choose one.",
    `${operation}: ${detail}`,
  );

/**
 * The rate the server quoted under the posted rate's id, when the post agrees with it (amount,
 * currency, carrier, service, ship date); otherwise refused with the real price. Only the id of
 * the post is used: what it says of the price is only checked against the record.
 */
export async function confirmQuotedRate(
  deps: { db: PrismaClient; shop: string },
  posted: Rate,
  now: Date,
): Promise<Result<QuotedRate, LabelError>> {
  const operation = "confirmQuotedRate";
  const row = await deps.db.rateQuote.findUnique({
    where: { shop_rateId: { shop: deps.shop, rateId: posted.rate_id } },
  });
  if (!row) return err(rateExpired(operation, `no quote ${posted.rate_id} on record`));
  if (row.expiresAt.getTime() <= now.getTime()) {
    return err(rateExpired(operation, `quote ${posted.rate_id} expired at ${row.expiresAt.toISOString()}`));
  }
  const options = QuotedOptionsSchema.safeParse(JSON.parse(row.options));
  if (!options.success) return err(rateExpired(operation, `quote ${posted.rate_id} has unreadable options`));
  const rate: Rate = {
    rate_id: row.rateId,
    service_code: row.serviceCode,
    carrier: row.carrier,
    service: row.service,
    amount: (row.amountCents / 100).toFixed(2),
    currency: row.currency,
    ship_date: row.shipDate,
    expires_at: row.expiresAt.toISOString(),
    delivery_days: posted.delivery_days ?? null,
  };
  const differs = [
    parseAmountCents(posted.amount) !== row.amountCents && `amount ${posted.amount}`,
    posted.currency !== row.currency && `currency ${posted.currency}`,
    posted.carrier !== row.carrier && `carrier ${posted.carrier}`,
    posted.service !== row.service && `service ${posted.service}`,
    posted.service_code !== row.serviceCode && `service_code ${posted.service_code}`,
    posted.ship_date !== row.shipDate && `ship_date ${posted.ship_date}`,
  ].filter((d): d is string => typeof d === "string");
  if (differs.length > 0) {
    return err(
      labelError(
        "QUOTE_MISMATCH",
        `The rate sent does not match the quote: ${row.carrier} ${row.service} is ${formatMinorUnits(row.amountCents, row.currency)} for ship date ${row.shipDate}. Nothing was drafted: get rates again and confirm that price.`,
        `${operation}: post of ${posted.rate_id} differs from the quote (${differs.join(", ")})`,
      ),
    );
  }
  return ok({ rate, options: options.data });
}

/**
 * The draft carries the options and ship date the rate was quoted for. The service refuses other
 * options as an unknown rate ("expired"), and another date re-prices the label, so either is
 * refused here, saying what changed.
 */
export function checkQuotedRequest(quoted: QuotedRate, request: CreateLabelRequest): Result<void, LabelError> {
  const operation = "checkQuotedRequest";
  const price = formatMinorUnits(parseAmountCents(quoted.rate.amount), quoted.rate.currency);
  const asked = quotedOptionsOf(request.options);
  if (!sameOptions(asked, quoted.options)) {
    return err(
      labelError(
        "QUOTE_MISMATCH",
        `The options changed since these rates were quoted: the ${quoted.rate.service} rate of ${price} is for ${describeQuotedOptions(quoted.options)}, the label asks for ${describeQuotedOptions(asked)}. Nothing was drafted: get rates again for the new options.`,
        `${operation}: ${quoted.rate.rate_id} quoted for ${JSON.stringify(quoted.options)}, request has ${JSON.stringify(asked)}`,
      ),
    );
  }
  const shipDate = request.ship_date ?? request.options?.ship_date;
  if (shipDate !== undefined && shipDate !== quoted.rate.ship_date) {
    return err(
      labelError(
        "QUOTE_MISMATCH",
        `The ship date changed since these rates were quoted: the ${quoted.rate.service} rate of ${price} is for ${quoted.rate.ship_date}, the label asks for ${shipDate}. Nothing was drafted: get rates again for ${shipDate}.`,
        `${operation}: ${quoted.rate.rate_id} quoted for ${quoted.rate.ship_date}, request has ${shipDate}`,
      ),
    );
  }
  return ok(undefined);
}
