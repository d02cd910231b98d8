import type { Carrier } from "./schemas";

// The services table is a contract choice (contract.md "Services"); the spec does not list them.
export type ServiceScope = "domestic" | "international" | "ca_mx";
export type ServiceInfo = { carrier: Carrier; service: string; serviceCode: string; scope: ServiceScope };

export const SERVICES: readonly ServiceInfo[] = [
  { carrier: "USPS", service: "Ground Advantage", serviceCode: "svc_usps_ground_advantage", scope: "domestic" },
  { carrier: "USPS", service: "Priority Mail", serviceCode: "svc_usps_priority", scope: "domestic" },
  { carrier: "USPS", service: "Priority Mail Express", serviceCode: "svc_usps_priority_express", scope: "domestic" },
  {
    carrier: "USPS",
    service: "Priority Mail International",
    serviceCode: "svc_usps_priority_intl",
    scope: "international",
  },
  { carrier: "UPS", service: "UPS Ground", serviceCode: "svc_ups_ground", scope: "domestic" },
  { carrier: "UPS", service: "UPS 2nd Day Air", serviceCode: "svc_ups_2nd_day_air", scope: "domestic" },
  { carrier: "UPS", service: "UPS Next Day Air", serviceCode: "svc_ups_next_day_air", scope: "domestic" },
  { carrier: "UPS", service: "UPS Standard", serviceCode: "svc_ups_standard", scope: "ca_mx" },
  { carrier: "UPS", service: "UPS Worldwide Saver", serviceCode: "svc_ups_worldwide_saver", scope: "international" },
  { carrier: "FEDEX", service: "FedEx Ground", serviceCode: "svc_fedex_ground", scope: "domestic" },
  { carrier: "FEDEX", service: "FedEx 2Day", serviceCode: "svc_fedex_2day", scope: "domestic" },
  {
    carrier: "FEDEX",
    service: "FedEx International Priority",
    serviceCode: "svc_fedex_intl_priority",
    scope: "international",
  },
  {
    carrier: "DHL",
    service: "DHL Express Worldwide",
    serviceCode: "svc_dhl_express_worldwide",
    scope: "international",
  },
];

export const MULTI_PIECE_SERVICE_CODE = "svc_ups_ground";

/** contract.md "Label options": lithium batteries go by these only; every other service flies. */
export const GROUND_SERVICE_CODES: readonly string[] = [
  "svc_usps_ground_advantage",
  "svc_ups_ground",
  "svc_fedex_ground",
];
/** contract.md "Label options": services that offer no signature confirmation. */
export const NO_SIGNATURE_SERVICE_CODES: readonly string[] = ["svc_dhl_express_worldwide"];

export function findServiceByCode(serviceCode: string): ServiceInfo | undefined {
  return SERVICES.find((s) => s.serviceCode === serviceCode);
}

/** How a merchant reads a service: "USPS Priority Mail", "UPS Ground" (not "UPS UPS Ground"). */
export function describeService(info: { carrier: string | null; service: string | null }): string {
  const carrier = info.carrier ?? "";
  const service = info.service ?? "";
  if (!service) return carrier;
  return !carrier || service.toUpperCase().startsWith(carrier.toUpperCase()) ? service : `${carrier} ${service}`;
}

export function findServiceByName(carrier: string, service: string): ServiceInfo | undefined {
  const wanted = service.trim().toLowerCase();
  return SERVICES.find((s) => s.carrier === carrier && s.service.toLowerCase() === wanted);
}

/** The carrier a `svc_<carrier>_<service>` code names, known service or not. */
export function carrierOfServiceCode(serviceCode: string): string | null {
  const match = /^svc_([a-z]+)_/.exec(serviceCode);
  return match?.[1] ? match[1].toUpperCase() : null;
}

export function isServiceOfferedOnRoute(info: ServiceInfo, fromCountry: string, toCountry: string): boolean {
  if (fromCountry === toCountry) return fromCountry === "US" && info.scope === "domestic";
  if (info.scope === "domestic") return false;
  if (info.scope === "ca_mx") {
    const pair = [fromCountry, toCountry];
    return pair.includes("US") && (pair.includes("CA") || pair.includes("MX"));
  }
  return fromCountry !== toCountry;
}
