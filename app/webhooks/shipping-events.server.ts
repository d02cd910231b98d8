import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { enqueueShippingEvent } from "~/jobs/shipping-event-jobs.server";
import { findEventEndpoint } from "~/settings/shipping-event-endpoint.server";
import { verifyShippingSignature } from "~/shipping/event-signature";
import { isUniqueViolation } from "~/utils/prisma-errors";

// Receiving the shipping service's events (contract.md, "Events"): the endpoint key names the
// shop, the signature over the raw body proves the sender (and a timestamp within five minutes
// refuses replays) before anything is parsed or stored. Then the event id is recorded and a job
// enqueued in one transaction: a repeat is acknowledged and does nothing. No outbound call here.

export type ReceiveOutcome =
  | { status: 200; result: "enqueued" | "duplicate" | "ignored"; detail?: string }
  | { status: 401; reason: string }
  | { status: 404 };

// Only what the queue needs to find the event again; the job parses the rest.
const EnvelopeSchema = z.object({ id: z.string().min(1).max(200), type: z.string().min(1).max(100) }).loose();

export async function receiveShippingEvent(
  db: PrismaClient,
  input: { endpointKey: string; signature: string | null; rawBody: string; now?: Date },
): Promise<ReceiveOutcome> {
  const endpoint = await findEventEndpoint(db, input.endpointKey);
  if (!endpoint) return { status: 404 };
  const verified = verifyShippingSignature({
    header: input.signature,
    rawBody: input.rawBody,
    secret: endpoint.secret,
    nowMs: (input.now ?? new Date()).getTime(),
  });
  if (!verified.ok) return { status: 401, reason: verified.reason };

  let body: unknown;
  try {
    body = JSON.parse(input.rawBody);
  } catch {
    return { status: 200, result: "ignored", detail: "signed body is not JSON" };
  }
  const envelope = EnvelopeSchema.safeParse(body);
  // Signed by the service but not an event we can read: a redelivery would not make it one.
  if (!envelope.success) return { status: 200, result: "ignored", detail: "signed body is not an event" };
  const { shop } = endpoint;
  const labelIdOf = (data: unknown): string | null => {
    if (!data || typeof data !== "object") return null;
    const d = data as { label_id?: unknown; label?: { id?: unknown } };
    const id = typeof d.label_id === "string" ? d.label_id : d.label?.id;
    return typeof id === "string" ? id : null;
  };
  try {
    await db.$transaction(async (tx) => {
      await tx.shippingEvent.create({
        data: {
          shop,
          eventId: envelope.data.id,
          type: envelope.data.type,
          serviceLabelId: labelIdOf(envelope.data.data),
        },
      });
      await enqueueShippingEvent(tx, shop, { eventId: envelope.data.id, event: body });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { status: 200, result: "duplicate" };
    throw error;
  }
  return { status: 200, result: "enqueued" };
}
