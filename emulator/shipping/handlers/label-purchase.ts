// POST /v1/labels/{id}/purchase and the purchase path the dashboard control shares: the checks,
// the charge, tracking numbers, and the label.purchased event.

import { formatCents } from "../config";
import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { makeDigits, makeHexToken } from "../ids";
import type { Carrier, ServiceDefinition } from "../pricing";
import type { LabelRecord, OrganizationState } from "../state";
import { toWire } from "./label-record";
import { findLabel } from "./labels";
import { authenticate } from "./request-steps";
import { isError, respondError, respondJson } from "./responses";
import { isNegotiated, priceLabel } from "./shipment-pricing";
import { emitEvent } from "./webhook-endpoints";

const EXPORT_DECLARATION_THRESHOLD_USD = 2500;

function makeTrackingNumber(seed: number, carrier: Carrier, key: string): string {
  switch (carrier) {
    case "UPS":
      return `1Z${makeHexToken(seed, `ups|${key}`, 1).slice(0, 6).toUpperCase()}03${makeDigits(seed, key, 8)}`;
    case "USPS":
      return `9400${makeDigits(seed, key, 18)}`;
    case "FEDEX":
      return makeDigits(seed, key, 12);
    case "DHL":
      return makeDigits(seed, key, 10);
  }
}

export function handlePurchase(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const label = findLabel(core, ctx, auth.org);
  if (isError(label)) return label;
  return purchaseDraft(core, ctx, auth.org, label);
}

/** One purchase path for the API and the dashboard (control endpoint): same rules, same event. */
export function purchaseDraft(
  core: ShippingCore,
  ctx: RequestContext,
  org: OrganizationState,
  label: LabelRecord,
): CoreResponse {
  if (label.status !== "draft") {
    return respondError(ctx.requestId, 409, "ALREADY_PURCHASED", `Label ${label.id} is already purchased`, undefined, {
      label: toWire(core, label, ctx),
    });
  }
  const international = label.from.country !== label.to.country;
  if (international && label.customs === null) {
    return respondError(
      ctx.requestId,
      400,
      "CUSTOMS_REQUIRED",
      "customs is required when sender and recipient countries differ",
      [{ field: "customs", message: "is required for international shipments" }],
    );
  }
  if (
    international &&
    label.carrier === "USPS" &&
    label.customs !== null &&
    label.customs.value > EXPORT_DECLARATION_THRESHOLD_USD &&
    (label.customs.eel_pfc ?? "").trim() === ""
  ) {
    return respondError(
      ctx.requestId,
      400,
      "EXPORT_DECLARATION_REQUIRED",
      "USPS requires customs.eel_pfc (AES ITN) above 2,500 USD declared value",
      [{ field: "customs.eel_pfc", message: "is required when the declared value exceeds 2500 USD" }],
    );
  }

  let rate: { id: string; service: ServiceDefinition; amountCents: number };
  let chargedCents: number;
  if (label.rate !== null) {
    const shipDate = label.shipDate ?? label.rate.shipDate;
    rate = { id: label.rate.id, service: label.rate.service, amountCents: label.rate.amountCents };
    // A ship date other than the quote date re-prices: the charge no longer matches the rate.
    chargedCents =
      shipDate === label.rate.shipDate
        ? label.rate.amountCents
        : priceLabel(core, label, shipDate, isNegotiated(org, label.carrierAccountId, label.carrier));
  } else {
    // carrier + service drafts: the cheapest matching rate now (retail or the own account's).
    const shipDate = label.shipDate ?? core.today();
    const retail = priceLabel(core, label, shipDate, false);
    const own = isNegotiated(org, label.carrierAccountId, label.carrier)
      ? priceLabel(core, label, shipDate, true)
      : retail;
    chargedCents = Math.min(retail, own);
    rate = { id: core.state.nextId("rate"), service: label.service, amountCents: chargedCents };
  }
  if (org.balanceCents < chargedCents) {
    return respondError(
      ctx.requestId,
      402,
      "INSUFFICIENT_BALANCE",
      `Balance ${formatCents(org.balanceCents)} USD is below the charge ${formatCents(chargedCents)} USD`,
    );
  }
  org.balanceCents -= chargedCents;
  org.charges.push({ labelId: label.id, amountCents: chargedCents });
  label.status = "purchased";
  label.purchase = {
    rate,
    chargedCents,
    trackingNumbers: label.parcels.map((_, i) =>
      makeTrackingNumber(core.config.seed, label.carrier, `${label.id}|${i + 1}`),
    ),
    purchasedAt: core.now().toISOString(),
    scanned: false,
  };
  const record = toWire(core, label, ctx);
  // Emitted as soon as the charge is made: a response lost afterwards does not unmake the purchase.
  emitEvent(core, org.id, "label.purchased", { label: record });
  return respondJson(ctx.requestId, 200, record);
}
