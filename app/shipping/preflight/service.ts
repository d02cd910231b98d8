// Which carrier and service the label will be bought with: from the rate, or named by carrier
// and service, checked against the services table and the route. The result feeds the
// multi-piece, customs and printing checks.

import type { LabelRequestInput, PreflightContext } from "../preflight";
import {
  carrierOfServiceCode,
  findServiceByCode,
  findServiceByName,
  isServiceOfferedOnRoute,
  type ServiceInfo,
} from "../services";
import { CARRIERS } from "../vocabulary";
import { isBlank, isOneOf, type ProblemList } from "./problem-list";

export type ResolvedService = { carrier: string | null; info: ServiceInfo | null };

export function resolveService(
  problems: ProblemList,
  request: LabelRequestInput,
  context: PreflightContext,
  route: { from: string; to: string },
): ResolvedService {
  const quote = context.quote ?? null;
  const carrier = isBlank(request.carrier) ? null : String(request.carrier);
  const service = isBlank(request.service) ? null : String(request.service);
  const serviceCode = isBlank(request.service_code) ? null : String(request.service_code);

  if (carrier !== null && !isOneOf(carrier, CARRIERS)) {
    problems.block("carrier", "CARRIER_INVALID", `Carrier must be one of ${CARRIERS.join(", ")}.`);
  }
  if (service !== null && serviceCode !== null) {
    problems.block(
      "service_code",
      "SERVICE_AND_SERVICE_CODE",
      "Send either the service name or the service code, not both.",
      "Keep the service code from the rate and remove the service name.",
    );
  }

  if (!isBlank(request.rate_id)) {
    const quoteInfo = quote ? (findServiceByCode(quote.service_code) ?? null) : null;
    const overriding = [carrier && "carrier", service && "service", serviceCode && "service_code"].filter(
      (f): f is string => typeof f === "string",
    );
    if (overriding.length > 0 && !context.overrideRate) {
      problems.block(
        overriding[0] ?? "rate_id",
        "RATE_OVERRIDDEN",
        `The chosen rate would be overridden by ${overriding.join(", ")}. Send the rate alone, or choose explicitly to override it.`,
        `Remove ${overriding.join(", ")}.`,
      );
    }
    if (serviceCode !== null && !serviceCode.startsWith("svc_")) {
      // Only svc_ codes exist; anything else names no service and the rate cannot be resolved.
      problems.block("service_code", "SERVICE_UNKNOWN", `${serviceCode} is not a known service code.`);
    }
    if (serviceCode !== null && quote) {
      const codeCarrier = carrierOfServiceCode(serviceCode);
      if (codeCarrier !== null && codeCarrier !== quote.carrier.toUpperCase()) {
        problems.block(
          "service_code",
          "SERVICE_MISMATCH",
          `The service code ${serviceCode} is a ${codeCarrier} service but the chosen rate is ${quote.carrier}. Remove the code or choose a ${codeCarrier} rate.`,
        );
      } else if (codeCarrier !== null && serviceCode !== quote.service_code && context.overrideRate) {
        problems.warn(
          "service_code",
          "SERVICE_CODE_IGNORED",
          `A service code sent with a rate does not change it: the rate's ${quote.service} stands. Re-quote to switch service.`,
        );
      }
    }
    if (!context.overrideRate || (carrier === null && service === null)) {
      return { carrier: quote?.carrier.toUpperCase() ?? null, info: quoteInfo };
    }
    // Explicit override: carrier and/or service name replace the rate's.
    const overrideCarrier = carrier ?? quote?.carrier.toUpperCase() ?? null;
    const name = service ?? quoteInfo?.service ?? null;
    const info = overrideCarrier && name ? (findServiceByName(overrideCarrier, name) ?? null) : null;
    if (overrideCarrier && name && !info) {
      problems.block(
        service !== null ? "service" : "carrier",
        "SERVICE_UNKNOWN",
        `${overrideCarrier} offers no service named "${name}".`,
      );
    }
    checkRoute(problems, info, route, service !== null ? "service" : "carrier");
    return { carrier: overrideCarrier, info };
  }

  // No rate: carrier defaults to USPS, a service must be named.
  const effectiveCarrier = carrier ?? "USPS";
  if (service === null && serviceCode === null) {
    problems.block(
      "service",
      "SERVICE_REQUIRED",
      "Choose a rate, or a carrier and service, for this label.",
      "Get rates and pick one.",
    );
    return { carrier: effectiveCarrier, info: null };
  }
  let info: ServiceInfo | null = null;
  if (serviceCode !== null) {
    info = findServiceByCode(serviceCode) ?? null;
    if (!info) {
      problems.block("service_code", "SERVICE_UNKNOWN", `${serviceCode} is not a known service code.`);
    } else if (info.carrier !== effectiveCarrier) {
      problems.block(
        carrier === null ? "carrier" : "service_code",
        "SERVICE_CARRIER_MISMATCH",
        carrier === null
          ? `${serviceCode} is a ${info.carrier} service but no carrier was given, so USPS would be assumed. Set the carrier to ${info.carrier}.`
          : `${serviceCode} is a ${info.carrier} service, not ${effectiveCarrier}.`,
      );
    }
  } else if (service !== null) {
    info = findServiceByName(effectiveCarrier, service) ?? null;
    if (!info) {
      problems.block(
        "service",
        "SERVICE_UNKNOWN",
        `${effectiveCarrier} offers no service named "${service}"${carrier === null ? " (USPS is assumed when no carrier is given)" : ""}.`,
      );
    }
  }
  checkRoute(problems, info, route, serviceCode !== null ? "service_code" : "service");
  return { carrier: effectiveCarrier, info };
}

function checkRoute(
  problems: ProblemList,
  info: ServiceInfo | null,
  route: { from: string; to: string },
  path: string,
): void {
  if (info && !isServiceOfferedOnRoute(info, route.from, route.to)) {
    problems.block(
      path,
      "SERVICE_NOT_OFFERED_ON_ROUTE",
      `${info.carrier} ${info.service} does not ship from ${route.from} to ${route.to}; no rate could be bought.`,
      "Get rates for this route and pick one.",
    );
  }
}
