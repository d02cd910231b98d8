// POST /v1/rates: quotes for every service between the two addresses, each stored as a rate a
// label can be created from until it expires.

import { formatCents } from "../config";
import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { findUnsupportedOptions, parseLabelOptions, toOptionsKey } from "../options";
import { isServiceAvailable, SERVICES } from "../pricing";
import type { RateRecord } from "../state";
import {
  parseAddress,
  parseCarrier,
  parseParcels,
  ProblemList,
  readOptionalString,
  readQuoteShipDate,
} from "../validation";
import { authenticate, parseBody } from "./request-steps";
import {
  isError,
  respondBothParcels,
  respondCarrierAccountNotFound,
  respondError,
  respondJson,
  respondProblems,
} from "./responses";
import { classifyResidential, isNegotiated, priceFor } from "./shipment-pricing";

export function handleRates(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const problems = new ProblemList();
  const parcels = parseParcels(body, problems);
  if (parcels.kind === "both") return respondBothParcels(ctx.requestId);
  const parsedOptions = parseLabelOptions(body.options);
  if (parsedOptions.kind === "invalid")
    return respondProblems(ctx.requestId, "VALIDATION_ERROR", parsedOptions.problems);
  const { options } = parsedOptions;
  const ignoredWarnings: Record<string, string> = {};
  const from = parseAddress(body.from_address, "from_address", problems, ignoredWarnings);
  const to = parseAddress(body.to_address, "to_address", problems, ignoredWarnings);
  const carrier = parseCarrier(body, problems);
  const carrierAccountId = readOptionalString(body, "carrier_account_id", "", problems);
  const shipDate = readQuoteShipDate(body, problems) ?? core.today();
  if (!problems.isEmpty || from === null || to === null)
    return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  if (core.config.blocked_destinations.countries.includes(to.country)) {
    return respondError(ctx.requestId, 400, "ADDRESS_BLOCKED", `Shipping to ${to.country} is blocked`, [
      { field: "to_address.country", message: "destination is on the block list" },
    ]);
  }
  if (carrierAccountId !== null && !auth.org.carrierAccounts.has(carrierAccountId)) {
    return respondCarrierAccountNotFound(ctx.requestId);
  }
  const quotedAt = core.now().getTime();
  const expiresAtMs = quotedAt + core.config.limits.rate_ttl_seconds * 1000;
  const rates = SERVICES.filter(
    (s) =>
      isServiceAvailable(s, from.country, to.country) &&
      (carrier === null || s.carrier === carrier) &&
      (!parcels.multiPiece || s.multiPiece) &&
      // A service that cannot carry the options is left out, not quoted.
      findUnsupportedOptions(s, options).length === 0,
  ).map((service) => {
    const rate: RateRecord = {
      id: core.state.nextId("rate"),
      orgId: auth.org.id,
      service,
      amountCents: priceFor(
        core,
        service,
        from,
        to,
        parcels.parcels,
        shipDate,
        isNegotiated(auth.org, carrierAccountId, service.carrier),
        options,
      ),
      shipDate,
      expiresAtMs,
      optionsKey: toOptionsKey(options),
    };
    core.state.storeRate(rate);
    return {
      rate_id: rate.id,
      service_code: service.serviceCode,
      carrier: service.carrier,
      service: service.service,
      amount: formatCents(rate.amountCents),
      currency: "USD",
      delivery_days: service.deliveryDays,
      ship_date: shipDate,
      expires_at: new Date(expiresAtMs).toISOString(),
    };
  });
  // Validation inside rates is free: nothing is billed or counted here.
  const deliverable =
    to.country !== "US" ||
    core.validator.validate({
      street1: to.street1,
      street2: to.street2,
      city: to.city,
      state: to.state ?? "",
      zip: to.zip,
    }).dpv.deliverable;
  return respondJson(ctx.requestId, 200, {
    rates,
    address_validation: { to_address: { residential: classifyResidential(core, to), deliverable } },
  });
}
