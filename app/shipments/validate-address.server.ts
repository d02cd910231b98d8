import type { PrismaClient } from "@prisma/client";

import { recordAudit } from "~/labels/audit.server";
import { fromShippingError, type LabelError } from "~/labels/label-errors";
import { recordPersonalDataAccess } from "~/labels/personal-data-access.server";
import { digestPersonal, openPersonal, sealPersonal } from "~/settings/personal-data-box.server";
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
// reused: the same address is never paid for twice. The row is the address itself (ADR 28): its
// key is stored as a keyed digest (found again by the same address, never read back) and the
// answer sealed; rows from before are still found by their clear key until the sweep seals them.

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

/** The key an address's validation is stored under: the digest of its normalized form. */
export const storedAddressKey = (address: AddressValidationRequest): string => digestPersonal(toAddressKey(address));

/** The keys a stored validation of these addresses may have: the digest, or the clear key of a row from before. */
export function storedAddressKeys(addresses: readonly AddressValidationRequest[]): string[] {
  return addresses.flatMap((address) => [storedAddressKey(address), toAddressKey(address)]);
}

/**
 * The stored answer for an address, if it was validated before; never calls the service. The
 * opening is written to the access log for `orderGid`, the order it is shown for.
 */
export async function findAddressValidation(
  db: PrismaClient,
  shop: string,
  address: AddressValidationRequest,
  orderGid: string | null,
): Promise<ValidatedAddress | null> {
  const row = await db.addressValidation.findFirst({
    where: { shop, addressKey: { in: storedAddressKeys([address]) } },
    orderBy: { createdAt: "asc" },
  });
  if (!row) return null;
  const opened = openPersonal(row.result);
  if (!opened.ok) return null;
  await recordPersonalDataAccess(db, { shop, reader: "findAddressValidation", orderGids: orderGid ? [orderGid] : [] });
  let stored: unknown;
  try {
    stored = JSON.parse(opened.value);
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
  const known = await findAddressValidation(deps.db, deps.shop, input.address, input.orderGid);
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
  const addressKey = storedAddressKey(input.address);
  // Two tabs validating the same address at once both paid; the first answer stored wins.
  const row = await deps.db.addressValidation.upsert({
    where: { shop_addressKey: { shop: deps.shop, addressKey } },
    create: {
      shop: deps.shop,
      addressKey,
      result: sealPersonal(JSON.stringify(result.value)),
      billedCents,
      requestId: result.value.request_id ?? null,
    },
    update: {},
  });
  return ok({ result: result.value, reused: false, billedCents, validatedAt: row.createdAt });
}
