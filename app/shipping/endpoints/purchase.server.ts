// POST /v1/labels/{id}/purchase: buys a draft, never twice. Kept apart from the other label
// calls because it spends money: a lost answer is reconciled by reading the label back, and
// only an answer that proves nothing was bought is reported as a plain refusal.

import { err, ok, type Result } from "~/utils/result";

import {
  CONTRACT_ERROR_CODES,
  createShippingError,
  type ShippingError,
  SPEC_ERROR_CODES,
  withOutcomeUnknown,
} from "../errors";
import { LabelRecordSchema, type PurchasedLabel, PurchasedLabelSchema } from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { describeZodIssues } from "../transport-outcome.server";
import { getLabel } from "./labels.server";

export type PurchaseOutcome = PurchasedLabel & {
  /** The label was found already bought (409, or read back after a lost response): charged once. */
  alreadyPurchased: boolean;
};

/**
 * A label record as a purchase: null while it is a draft, an error when it is neither or is
 * another label's record (a body we cannot trust is no evidence either way).
 */
function asPurchase(labelId: string, record: unknown): Result<PurchaseOutcome | null, ShippingError> {
  const parsed = LabelRecordSchema.safeParse(record);
  if (parsed.success && parsed.data.id !== labelId) {
    return err(
      createShippingError({
        code: "INVALID_RESPONSE",
        status: 200,
        logMessage: `purchaseLabel: asked about ${labelId}, the service answered with ${parsed.data.id}`,
      }),
    );
  }
  if (parsed.success && parsed.data.status === "draft") return ok(null);
  const purchased = PurchasedLabelSchema.safeParse(record);
  if (!purchased.success) {
    return err(
      createShippingError({
        code: "INVALID_RESPONSE",
        status: 200,
        fields: describeZodIssues(purchased.error.issues),
        logMessage: `purchaseLabel: label ${labelId} is ${parsed.success ? parsed.data.status : "unreadable"} and carries no purchased label data`,
      }),
    );
  }
  return ok({ ...purchased.data, alreadyPurchased: true });
}

async function readPurchasedLabel(
  transport: ShippingTransport,
  labelId: string,
  deadline: number,
): Promise<Result<PurchaseOutcome | null, ShippingError>> {
  const record = await getLabel(transport, labelId, { deadline });
  if (!record.ok) return record;
  return asPurchase(labelId, record.value);
}

export async function purchaseLabel(
  transport: ShippingTransport,
  labelId: string,
  callOptions?: CallOptions,
): Promise<Result<PurchaseOutcome, ShippingError>> {
  const { log, maxRetries } = transport;
  const path = `/v1/labels/${encodeURIComponent(labelId)}/purchase`;
  // One deadline for every purchase attempt and read-back below.
  const deadline = transport.deadlineOf(callOptions);
  // Once an attempt may have been charged, every later failure in this call stays "maybe
  // charged": a read-back showing a draft only says that request has not landed *yet*, so a
  // refusal of a later attempt says nothing about it.
  let maybeCharged = false;
  for (let round = 0; ; round++) {
    const result = await transport.call({
      operation: "purchaseLabel",
      method: "POST",
      path,
      body: {},
      policy: "purchase",
      parse: (body) => PurchasedLabelSchema.safeParse(body),
      deadline,
      ...(callOptions?.beforeSend ? { beforeSend: callOptions.beforeSend } : {}),
    });
    if (result.ok) return ok({ ...result.value, alreadyPurchased: false });
    const error = result.error;
    // Withdrawn by the caller before it left: this attempt bought nothing, but an earlier one of
    // this call may have, so that stays unknown.
    if (error.code === "WITHHELD") return err(maybeCharged ? withOutcomeUnknown(error) : error);
    if (error.status === 409) return recoverAlreadyPurchased(transport, labelId, error, deadline);
    const unknown = maybeCharged || !isDefiniteRefusal(error);
    if (!unknown) return err(error);
    maybeCharged = true;
    if (round >= maxRetries) return err(withOutcomeUnknown(error));
    // The purchase may have gone through: read the label instead of buying blindly again.
    const readBack = await readPurchasedLabel(transport, labelId, deadline);
    if (!readBack.ok) {
      return err(
        withOutcomeUnknown(error, `${error.logMessage}; reading the label back failed: ${readBack.error.logMessage}`),
      );
    }
    if (readBack.value !== null) {
      log({
        level: "info",
        message: `purchaseLabel: ${labelId} was bought although the answer was lost`,
        code: error.code,
      });
      return ok(readBack.value);
    }
    // Still a draft (so far): buying again cannot double-charge, since the service charges a
    // label once and answers a repeat with 409.
    log({ level: "warn", message: `purchaseLabel: ${labelId} is still a draft after ${error.code}; trying again` });
  }
}

/**
 * 409 ALREADY_PURCHASED is a purchase, never an error: the body carries the bought label.
 * Only when that body is unusable is the label read back, and if that fails too the outcome
 * stays unknown (it was bought, by someone), never a refusal.
 */
async function recoverAlreadyPurchased(
  transport: ShippingTransport,
  labelId: string,
  conflict: ShippingError,
  deadline: number,
): Promise<Result<PurchaseOutcome, ShippingError>> {
  if (conflict.conflictLabel !== undefined) {
    const fromBody = asPurchase(labelId, conflict.conflictLabel);
    if (fromBody.ok && fromBody.value !== null) return ok(fromBody.value);
  }
  const readBack = await readPurchasedLabel(transport, labelId, deadline);
  if (readBack.ok && readBack.value !== null) return ok(readBack.value);
  const why = readBack.ok ? "it reads back as a draft" : `reading it back failed: ${readBack.error.logMessage}`;
  return err(
    createShippingError({
      code: readBack.ok ? "UNEXPECTED_ERROR" : readBack.error.code,
      status: 409,
      requestId: conflict.requestId,
      outcomeUnknown: true,
      logMessage: `purchaseLabel: 409 ALREADY_PURCHASED for ${labelId} without a usable label; ${why}`,
    }),
  );
}

/**
 * For a purchase (and a void), the answers that prove the service did not act: a refusal in the
 * contract's own words (a known code from a readable error body), a 429 it never processed,
 * our own refusal to send, or a deadline that passed before anything was sent. Anything else
 * (a 5xx, a proxy's page, an unknown code, a lost answer) may hide a purchase.
 */
export function isDefiniteRefusal(error: ShippingError): boolean {
  if (error.outcomeUnknown) return false;
  if (error.code === "INVALID_REQUEST" || error.code === "WITHHELD") return true;
  if (error.code === "TIMEOUT") return error.status === null && error.logMessage.includes("not sent");
  const known = (SPEC_ERROR_CODES as readonly string[]).concat(CONTRACT_ERROR_CODES);
  return error.serviceCode !== null && known.includes(error.serviceCode) && error.status !== null && error.status < 500;
}
