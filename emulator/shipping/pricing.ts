// Deterministic pricing: a pure function of the shipment, the service, the ship date and the
// account, in integer cents. The date term exists so that a different ship_date re-prices.

export type Carrier = "USPS" | "FEDEX" | "UPS" | "DHL";
export const CARRIERS: readonly Carrier[] = ["USPS", "FEDEX", "UPS", "DHL"];

type Coverage = "domestic" | "north_america" | "international";

export interface ServiceDefinition {
  carrier: Carrier;
  service: string;
  serviceCode: string;
  coverage: Coverage;
  baseCents: number;
  perLbCents: number;
  perZoneCents: number;
  deliveryDays: number;
  multiPiece: boolean;
}

function defineService(
  carrier: Carrier,
  service: string,
  serviceCode: string,
  coverage: Coverage,
  baseCents: number,
  perLbCents: number,
  perZoneCents: number,
  deliveryDays: number,
  multiPiece = false,
): ServiceDefinition {
  return { carrier, service, serviceCode, coverage, baseCents, perLbCents, perZoneCents, deliveryDays, multiPiece };
}

/** The services table of contract.md, exactly. */
// prettier-ignore
export const SERVICES: readonly ServiceDefinition[] = [
  defineService("USPS", "Ground Advantage", "svc_usps_ground_advantage", "domestic", 495, 85, 40, 5),
  defineService("USPS", "Priority Mail", "svc_usps_priority", "domestic", 850, 110, 60, 3),
  defineService("USPS", "Priority Mail Express", "svc_usps_priority_express", "domestic", 2850, 180, 120, 1),
  defineService("USPS", "Priority Mail International", "svc_usps_priority_intl", "international", 4200, 350, 150, 8),
  defineService("UPS", "UPS Ground", "svc_ups_ground", "domestic", 1050, 95, 55, 4, true),
  defineService("UPS", "UPS 2nd Day Air", "svc_ups_2nd_day_air", "domestic", 2100, 190, 110, 2),
  defineService("UPS", "UPS Next Day Air", "svc_ups_next_day_air", "domestic", 4500, 300, 200, 1),
  defineService("UPS", "UPS Standard", "svc_ups_standard", "north_america", 2400, 200, 120, 5),
  defineService("UPS", "UPS Worldwide Saver", "svc_ups_worldwide_saver", "international", 6500, 450, 180, 3),
  defineService("FEDEX", "FedEx Ground", "svc_fedex_ground", "domestic", 1020, 92, 54, 4),
  defineService("FEDEX", "FedEx 2Day", "svc_fedex_2day", "domestic", 2050, 185, 105, 2),
  defineService("FEDEX", "FedEx International Priority", "svc_fedex_intl_priority", "international", 6200, 430, 175, 3),
  defineService("DHL", "DHL Express Worldwide", "svc_dhl_express_worldwide", "international", 5900, 420, 170, 3),
];

const SERVICES_BY_CODE = new Map(SERVICES.map((s) => [s.serviceCode, s]));

export function findServiceByCode(code: string): ServiceDefinition | undefined {
  return SERVICES_BY_CODE.get(code);
}

/** Service names are matched case-insensitively; the carrier narrows the search when known. */
export function findServiceByName(name: string, carrier?: Carrier): ServiceDefinition | undefined {
  const wanted = name.trim().toLowerCase();
  return SERVICES.find((s) => s.service.toLowerCase() === wanted && (carrier === undefined || s.carrier === carrier));
}

/** Which services can carry a shipment between these two countries. */
export function isServiceAvailable(service: ServiceDefinition, fromCountry: string, toCountry: string): boolean {
  if (fromCountry === toCountry) return fromCountry === "US" && service.coverage === "domestic";
  if (service.coverage === "international") return true;
  if (service.coverage === "north_america") {
    const pair = [fromCountry, toCountry];
    return pair.includes("US") && (pair.includes("CA") || pair.includes("MX"));
  }
  return false;
}

export interface PricedParcel {
  weightOz: number;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

export interface PricingInput {
  service: ServiceDefinition;
  parcels: readonly PricedParcel[];
  fromZip: string;
  toZip: string;
  fromCountry: string;
  toCountry: string;
  residential: boolean;
  shipDate: string;
  /** A customer-owned account of the service's carrier gets negotiated rates. */
  negotiated: boolean;
}

const WEIGHT_TO_OZ: Record<string, number> = { oz: 1, lb: 16, g: 0.03527396195, kg: 35.27396195 };
const LENGTH_TO_IN: Record<string, number> = { in: 1, cm: 0.3937007874 };

export function toOunces(weight: number, unit: string): number {
  return weight * (WEIGHT_TO_OZ[unit] ?? 1);
}

export function toInches(length: number, unit: string): number {
  return length * (LENGTH_TO_IN[unit] ?? 1);
}

/** Zone 1-8 from the distance between 3-digit ZIP prefixes; 9 for Canada/Mexico, 10 elsewhere. */
export function computeZone(fromZip: string, toZip: string, fromCountry: string, toCountry: string): number {
  if (fromCountry !== toCountry) {
    const other = fromCountry === "US" ? toCountry : fromCountry;
    return other === "CA" || other === "MX" ? 9 : 10;
  }
  const a = Number.parseInt(fromZip.slice(0, 3), 10);
  const b = Number.parseInt(toZip.slice(0, 3), 10);
  if (Number.isNaN(a) || Number.isNaN(b)) return 5;
  return 1 + Math.min(7, Math.floor(Math.abs(a - b) / 125));
}

const RESIDENTIAL_SURCHARGE_CENTS: Record<Carrier, number> = { USPS: 0, UPS: 480, FEDEX: 465, DHL: 0 };

/** Days since 1970-01-01 for a YYYY-MM-DD date. */
export function toEpochDay(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

/** The price of the whole shipment (every box) in cents. */
export function priceShipment(input: PricingInput): number {
  const { service } = input;
  const zone = computeZone(input.fromZip, input.toZip, input.fromCountry, input.toCountry);
  let total = 0;
  for (const parcel of input.parcels) {
    // Billable weight: the greater of actual and dimensional weight (divisor 139), whole pounds.
    const actualLb = parcel.weightOz / 16;
    const dimensionalLb = (parcel.lengthIn * parcel.widthIn * parcel.heightIn) / 139;
    const billableLb = Math.max(1, Math.ceil(Math.max(actualLb, dimensionalLb) - 1e-9));
    total += service.baseCents + billableLb * service.perLbCents + zone * service.perZoneCents;
    if (input.residential) total += RESIDENTIAL_SURCHARGE_CENTS[service.carrier];
  }
  // Fuel index by ship date: 0-2.88 USD, different for any two dates less than 97 days apart.
  total += (toEpochDay(input.shipDate) % 97) * 3;
  if (input.negotiated) total = Math.round(total * 0.88);
  return total;
}
