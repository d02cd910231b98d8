// POST /v1/labels/{id}/void: asks the carrier to void a bought label and refund it (contract.md).
// Beside purchase.server.ts because it moves money too, but simpler: the service answers a
// repeat with the same record and never refunds twice, so the call may be repeated freely, and
// an answer lost on the way is settled by reading the label back.

import { err, ok, type Result } from "~/utils/result";

import { createShippingError, type ShippingError, withOutcomeUnknown } from "../errors";
import { type Refund, type VoidedLabel, VoidedLabelSchema } from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { parseAmountCents } from "../vocabulary";
import { getLabel } from "./labels.server";
import { isDefiniteRefusal } from "./purchase.server";

/** A void the service has accepted: pending until the carrier decides, or already refunded. */
export type LabelVoid = {
  labelId: string;
  /** `void_pending` until the carrier decides (label.voided / label.void_rejected say how); `voided` once refunded. */
  status: VoidedLabel["status"];
  refund: Refund;
  /** The refund in integer cents; null when the service sent an amount we cannot read. */
  refundCents: number | null;
  /** The label record as the service returned it. */
  label: VoidedLabel;
  /** What the merchant is told. */
  message: string;
};

function describeVoid(label: VoidedLabel): LabelVoid {
  const { refund } = label;
  const amount = `${refund.amount} ${refund.currency}`;
  const message =
    label.status === "voided"
      ? `Refunded: ${amount} was credited back to your shipping balance.`
      : `Refund pending: the carrier is reviewing the void; ${amount} will be credited back to your shipping balance once it confirms.`;
  return {
    labelId: label.id,
    status: label.status,
    refund,
    refundCents: parseAmountCents(refund.amount),
    label,
    message,
  };
}

/** A label record read back: the void, when the service holds one for this label, else null. */
function asVoid(labelId: string, record: unknown): LabelVoid | null {
  const parsed = VoidedLabelSchema.safeParse(record);
  return parsed.success && parsed.data.id === labelId ? describeVoid(parsed.data) : null;
}

/**
 * Voids a bought label. Ok: the void is pending or done (a repeat ask answers the same, never a
 * second refund). NOT_VOIDABLE carries `voidRefusal` (draft, scanned, too_old) and a message for
 * each; NOT_FOUND says there is no such label on this key. An error with `outcomeUnknown` may
 * have been recorded: asking again is safe and tells.
 */
export async function voidLabel(
  transport: ShippingTransport,
  labelId: string,
  callOptions?: CallOptions,
): Promise<Result<LabelVoid, ShippingError>> {
  const deadline = transport.deadlineOf(callOptions);
  const result = await transport.call({
    operation: "voidLabel",
    method: "POST",
    path: `/v1/labels/${encodeURIComponent(labelId)}/void`,
    body: {},
    // Repeating a void is harmless by contract, so transient failures are retried like a read.
    policy: "safe",
    parse: (body) => VoidedLabelSchema.safeParse(body),
    deadline,
    ...(callOptions?.beforeSend ? { beforeSend: callOptions.beforeSend } : {}),
  });
  if (result.ok) {
    if (result.value.id === labelId) return ok(describeVoid(result.value));
    return err(
      createShippingError({
        code: "INVALID_RESPONSE",
        status: 200,
        requestId: result.value.request_id ?? null,
        outcomeUnknown: true,
        logMessage: `voidLabel: asked to void ${labelId}, the service answered with ${result.value.id}`,
      }),
    );
  }
  const error = result.error;
  if (error.code === "NOT_FOUND") {
    return err({
      ...error,
      message: "The shipping service has no such label for this account, so it cannot be voided.",
    });
  }
  if (isDefiniteRefusal(error)) return err(error);
  // No answer we can trust: the void may have been recorded. The label tells.
  const readBack = await getLabel(transport, labelId, { deadline });
  if (readBack.ok) {
    const found = asVoid(labelId, readBack.value);
    if (found !== null) {
      transport.log({ level: "info", message: `voidLabel: ${labelId} reads back ${found.status}`, code: error.code });
      return ok(found);
    }
  }
  const why = readBack.ok
    ? `the label reads back ${readBack.value.status}`
    : `reading it back failed: ${readBack.error.logMessage}`;
  return err(withOutcomeUnknown(error, `${error.logMessage}; ${why}`));
}
