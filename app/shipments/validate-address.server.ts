import type { PrismaClient } from "@prisma/client";

import { recordAudit } from "~/labels/audit.server";
import { fromShippingError, type LabelError } from "~/labels/label-errors";
import type { ShippingClient } from "~/shipping/client.server";
import {
  type AddressValidationRequest,
  type AddressValidationResult,
  AddressValidationResultSchema,
} from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import { err, ok, type Result } from "~/utils/result";

// Address validation is billed per call (live keys), so every call is recorded in the audit
// trail, whatever its outcome, and the client never retries it on its own. The service bills a
// repeated lookup like a fresh one, so the first answer for an address is kept per shop and
// reused: the same address is never paid for twice.

export type ValidateAddressDeps = { db: PrismaClient; shop: string; shipping: Pick<ShippingClient, "validateAddress"> };

export type ValidatedAddress = {
  readonly result: AddressValidationResult;
  /** True when the answer is a stored one: nothing was called, nothing billed. */
  readonly reused: boolean;
  /** What the call that produced this answer was billed, in cents (0 in sandbox). */
  readonly billedCents: number;
  readonly validatedAt: Date;
};

const squash = (value: string | null | undefined) =>
  (value ?? "").trim().toUpperCase().replace(/[.,#]/g, " ").replace(/\s+/g, " ").trim();

/** One key per address however it is typed: case, punctuation, spacing and ZIP+4 do not matter. */
export function toAddressKey(address: AddressValidationRequest): string {
  const zip5 = address.zip.replace(/\D/g, "").slice(0, 5);
  return [address.street1, address.street2, address.city, address.state, zip5, address.country ?? "US"]
    .map(squash)
    .join("|");
}

/** The stored answer for an address, if it was validated before; never calls the service. */
export async function findAddressValidation(
  db: PrismaClient,
  shop: string,
  address: AddressValidationRequest,
): Promise<ValidatedAddress | null> {
  const row = await db.addressValidation.findUnique({
    where: { shop_addressKey: { shop, addressKey: toAddressKey(address) } },
  });
  if (!row) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(row.result);
  } catch {
    return null;
  }
  const parsed = AddressValidationResultSchema.safeParse(stored);
  // A row that no longer parses is treated as absent; the next validation replaces it.
  if (!parsed.success) return null;
  return { result: parsed.data, reused: true, billedCents: row.billedCents, validatedAt: row.createdAt };
}

export async function validateShipToAddress(
  deps: ValidateAddressDeps,
  input: { orderGid: string | null; labelId?: string | null; address: AddressValidationRequest },
): Promise<Result<ValidatedAddress, LabelError>> {
  const known = await findAddressValidation(deps.db, deps.shop, input.address);
  if (known) return ok(known);

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
  const billedCents = parseAmountCents(result.value.billed) ?? 0;
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
  const addressKey = toAddressKey(input.address);
  // Two tabs validating the same address at once both paid; the first answer stored wins.
  const row = await deps.db.addressValidation.upsert({
    where: { shop_addressKey: { shop: deps.shop, addressKey } },
    create: {
      shop: deps.shop,
      addressKey,
      result: JSON.stringify(result.value),
      billedCents,
      requestId: result.value.request_id ?? null,
    },
    update: {},
  });
  return ok({ result: result.value, reused: false, billedCents, validatedAt: row.createdAt });
}
