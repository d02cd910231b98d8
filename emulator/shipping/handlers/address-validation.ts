// POST /v1/addresses/validate and /verify: the request checks, sandbox mocks, the result cache
// and billing around the validator in ../address-validation.ts.

import { formatCents } from "../config";
import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { ProblemList, readOptionalString, readRequiredString } from "../validation";
import { authenticate, parseBody } from "./request-steps";
import { isError, respondError, respondJson, respondProblems } from "./responses";

const VALIDATION_CACHE_MAX = 10_000;

export function handleValidateAddress(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const auth = authenticate(core, ctx);
  if (isError(auth)) return auth;
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const problems = new ProblemList();
  const street1 = readRequiredString(body, "street1", "", problems);
  const street2 = readOptionalString(body, "street2", "", problems);
  const city = readRequiredString(body, "city", "", problems);
  const state = readRequiredString(body, "state", "", problems);
  const zip = readRequiredString(body, "zip", "", problems);
  const country = readOptionalString(body, "country", "", problems) ?? "US";
  if (state !== "" && !/^[A-Za-z]{2}$/.test(state.trim())) problems.add("state", "must be a two-letter state code");
  if (zip !== "" && !/^\d{5}(-?\d{4})?$/.test(zip.trim())) problems.add("zip", "must be a 5-digit ZIP or ZIP+4");
  if (country.toUpperCase() !== "US") problems.add("country", "only US addresses can be validated");
  if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  const input = { street1, street2, city, state, zip: zip.trim() };
  if (auth.sandbox) {
    return respondJson(ctx.requestId, 200, {
      ...core.validator.mock(input),
      billed: "0.00",
      mocked: true,
      cached: false,
    });
  }
  if (auth.org.balanceCents < core.validationPriceCents) {
    return respondError(ctx.requestId, 402, "INSUFFICIENT_BALANCE", "The balance does not cover address validation");
  }
  const cacheKey = JSON.stringify([street1, street2, city, state, zip].map((s) => (s ?? "").trim().toUpperCase()));
  const cachedResult = core.validationCache.get(cacheKey);
  const result = cachedResult ?? core.validator.validate(input);
  if (cachedResult === undefined) {
    if (core.validationCache.size >= VALIDATION_CACHE_MAX) core.validationCache.clear();
    core.validationCache.set(cacheKey, result);
  }
  // Billed on every call, cached or not. Nothing about the address is saved.
  auth.org.balanceCents -= core.validationPriceCents;
  auth.org.validationsBilled += 1;
  return respondJson(ctx.requestId, 200, {
    ...result,
    billed: formatCents(core.validationPriceCents),
    mocked: false,
    cached: cachedResult !== undefined,
  });
}
