import type { PrismaClient } from "@prisma/client";

import type { ShippingClient } from "~/shipping/client.server";
import { type AddressValidationRequest, type AddressValidationResult, parseAmountCents } from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { fromShippingError, type LabelError } from "./label-errors";

// Address validation is billed per call (live keys), so every call is recorded in the audit
// trail, whatever its outcome, and the client never retries it on its own.

export type ValidateAddressDeps = { db: PrismaClient; shop: string; shipping: Pick<ShippingClient, "validateAddress"> };

export async function validateShipToAddress(
  deps: ValidateAddressDeps,
  input: { orderGid: string | null; labelId?: string | null; address: AddressValidationRequest },
): Promise<Result<AddressValidationResult, LabelError>> {
  const result = await deps.shipping.validateAddress(input.address);
  if (!result.ok) {
    await recordAudit(deps.db, {
      shop: deps.shop,
      action: "validate",
      outcome: result.error.outcomeUnknown ? "unknown" : "error",
      orderGid: input.orderGid,
      labelId: input.labelId ?? null,
      requestId: result.error.requestId,
      detail: `${result.error.code}: ${result.error.logMessage}`,
    });
    return err(fromShippingError("validateAddress", result.error));
  }
  await recordAudit(deps.db, {
    shop: deps.shop,
    action: "validate",
    outcome: "ok",
    orderGid: input.orderGid,
    labelId: input.labelId ?? null,
    amountCents: parseAmountCents(result.value.billed),
    requestId: result.value.request_id ?? null,
    detail: result.value.mocked ? "sandbox (mocked, free)" : null,
  });
  return ok(result.value);
}
