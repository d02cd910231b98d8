// Pricing over the emulator's state: what the rates and the purchase of a draft charge, with the
// residential classification and the organization's own carrier accounts taken into account.

import type { ShippingCore } from "../core";
import { type LabelOptions, priceOptionsCents } from "../options";
import { type Carrier, priceShipment, type PricingInput, type ServiceDefinition, toInches, toOunces } from "../pricing";
import type { LabelRecord, OrganizationState } from "../state";
import type { Address, Parcel } from "../validation";

function toParcelsForPricing(parcels: readonly Parcel[]): PricingInput["parcels"] {
  return parcels.map((p) => ({
    weightOz: toOunces(p.weight, p.weight_unit),
    lengthIn: toInches(p.length, p.dimension_unit),
    widthIn: toInches(p.width, p.dimension_unit),
    heightIn: toInches(p.height, p.dimension_unit),
  }));
}

/** Residential unless the caller says otherwise, there is a company, or the address is known commercial. */
export function classifyResidential(core: ShippingCore, address: Address): boolean {
  if (address.residential !== null) return address.residential;
  if (address.company !== null && address.company.trim() !== "") return false;
  return !(address.country === "US" && core.validator.isKnownCommercial(address.street1, address.zip));
}

export function priceFor(
  core: ShippingCore,
  service: ServiceDefinition,
  from: Address,
  to: Address,
  parcels: readonly Parcel[],
  shipDate: string,
  negotiated: boolean,
  options: LabelOptions,
): number {
  // Options are flat or value-based: added after any negotiated discount, which is the carrier's.
  const optionsCents = priceOptionsCents(options);
  return (
    optionsCents +
    priceShipment({
      service,
      parcels: toParcelsForPricing(parcels),
      fromZip: from.zip,
      toZip: to.zip,
      fromCountry: from.country,
      toCountry: to.country,
      residential: classifyResidential(core, to),
      shipDate,
      negotiated,
    })
  );
}

export function isNegotiated(org: OrganizationState, carrierAccountId: string | null, carrier: Carrier): boolean {
  return carrierAccountId !== null && org.carrierAccounts.get(carrierAccountId) === carrier;
}

/** A draft's price on a ship date, its options included (the purchase's re-pricing). */
export function priceLabel(core: ShippingCore, label: LabelRecord, shipDate: string, negotiated: boolean): number {
  return priceFor(core, label.service, label.from, label.to, label.parcels, shipDate, negotiated, label.labelOptions);
}
