// POST /v1/addresses/validate: billed per call, so it is never retried.

import { err, type Result } from "~/utils/result";

import type { ShippingError } from "../errors";
import {
  type AddressValidationRequest,
  AddressValidationRequestSchema,
  type AddressValidationResult,
  AddressValidationResultSchema,
} from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { describeZodIssues, invalidRequest } from "../transport-outcome.server";

export async function validateAddress(
  transport: ShippingTransport,
  request: AddressValidationRequest,
  callOptions?: CallOptions,
): Promise<Result<AddressValidationResult, ShippingError>> {
  const parsed = AddressValidationRequestSchema.safeParse(request);
  if (!parsed.success) return err(invalidRequest("validateAddress", describeZodIssues(parsed.error.issues)));
  return transport.call({
    operation: "validateAddress",
    method: "POST",
    path: "/v1/addresses/validate",
    body: parsed.data,
    policy: "never",
    parse: (b) => AddressValidationResultSchema.safeParse(b),
    deadline: transport.deadlineOf(callOptions),
  });
}
