import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import {
  applyLabelPurchased,
  applyTrackingUpdate,
  type EventOutcome,
  type ShippingEventDeps,
} from "~/labels/shipping-events.server";
import { applyVoidDecision } from "~/labels/void-label.server";
import { openPersonal, sealPersonal } from "~/settings/personal-data-box.server";
import { ShippingEventSchema } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";

import type { JobDefinition, JobKind } from "../queue/job-queue";
import { enqueueJob } from "../queue/queue.server";
import { defineShopJob } from "./define-shop-job.server";
import { NotYetJobError } from "./job-outcome";
import type { OrderChangeJobDeps } from "./order-change-jobs.server";

// The `shipping-event` job: one event of the shipping service, applied by the worker. Events come
// in any order: a tracking update before its purchase, or before the Shopify fulfillment exists,
// fails the attempt and is retried with backoff until it can be applied. Any other failure is
// retried or dead by the one mapping (job-outcome.ts): Shopify down is retried, Shopify saying
// the fulfillment is gone is not.

// The event rides in the job's payload sealed (ADR 28): a purchase's label record carries the
// ship-to address, and a parcel's scan location the recipient's town; queued or finished, a job's
// row (or pg-boss's) never holds them in clear. A payload from before is read as it is.
export const ShippingEventPayloadSchema = z.object({ eventId: z.string().min(1), event: z.unknown() });
export type ShippingEventPayload = z.infer<typeof ShippingEventPayloadSchema>;

/** The event a payload carries: opened when sealed; undefined when it does not open. */
function eventOf(payload: ShippingEventPayload): unknown {
  if (typeof payload.event !== "string") return payload.event;
  const opened = openPersonal(payload.event);
  if (!opened.ok) return undefined;
  try {
    return JSON.parse(opened.value) as unknown;
  } catch {
    return undefined;
  }
}

// Twelve tries over about five hours: the purchase event the update waits for is retried by the
// service for twelve hours, but usually lands within minutes.
export const SHIPPING_EVENT_JOB: JobKind<ShippingEventPayload> = {
  name: "shipping-event",
  payloadSchema: ShippingEventPayloadSchema,
  maxAttempts: 12,
};

export function enqueueShippingEvent(tx: Prisma.TransactionClient, shop: string, payload: ShippingEventPayload) {
  const sealed = { eventId: payload.eventId, event: sealPersonal(JSON.stringify(payload.event)) };
  return enqueueJob(tx, SHIPPING_EVENT_JOB, shop, sealed, { dedupeKey: payload.eventId });
}

async function markEvent(db: PrismaClient, shop: string, eventId: string, outcome: EventOutcome) {
  await db.shippingEvent.updateMany({
    where: { shop, eventId },
    data: { outcome: outcome.outcome, detail: outcome.detail.slice(0, 500) },
  });
}

export function createShippingEventJob(
  deps: OrderChangeJobDeps & {
    now?: () => Date;
    /** Default: 15 s doubling to an hour. */
    backoff?: { baseMs: number; maxMs: number };
  },
): JobDefinition<ShippingEventPayload> {
  const clock = deps.now ? { now: deps.now } : {};
  return defineShopJob(deps, {
    ...SHIPPING_EVENT_JOB,
    // A bulk run's purchases each bring an event: that shop's events take at most two slots, and
    // other shops' events the rest (ADR 21).
    concurrency: 4,
    perShopConcurrency: 2,
    maxRunMs: 3 * 60_000,
    backoff: deps.backoff ?? { baseMs: 15_000, maxMs: 60 * 60_000 },
    run: async (payload, context, { clients, log }) => {
      const parsed = ShippingEventSchema.safeParse(eventOf(payload));
      if (!parsed.success) {
        await markEvent(deps.db, context.shop, payload.eventId, {
          outcome: "recorded",
          detail: `not an event this app reads: ${parsed.error.issues[0]?.message ?? "invalid"}`,
        });
        return;
      }
      const eventDeps: ShippingEventDeps = { ...(await clients()), ...clock };
      const event = parsed.data;
      if (event.type === "label.voided" || event.type === "label.void_rejected") {
        // The carrier's decision on a void (ADR 22): recorded once, whoever brings it first.
        const { label } = event.data;
        const decided = await applyVoidDecision(
          eventDeps,
          label.id,
          event.type === "label.voided"
            ? { outcome: "refunded", refundCents: parseAmountCents(label.refund.amount) }
            : { outcome: "rejected", reason: label.refund.reason ?? null },
        );
        if (!decided.ok) return decided;
        await markEvent(deps.db, context.shop, payload.eventId, {
          outcome: decided.value ? "applied" : "recorded",
          detail: decided.value
            ? `${event.type}: label ${decided.value.id} is ${decided.value.status}`
            : `${event.type}: ${label.id} is not a label of this app`,
        });
        return;
      }
      const result =
        event.type === "label.purchased"
          ? await applyLabelPurchased(eventDeps, event)
          : await applyTrackingUpdate(eventDeps, event);
      if (!result.ok) {
        // INVALID_STATE is "not yet" here (shipping-events.server.ts, notYet: the purchase event
        // or the fulfillment comes later), or a draft that moved on while it was discarded: the
        // next attempt reads the label again.
        if (result.error.code === "INVALID_STATE") throw new NotYetJobError(result.error.logMessage);
        return result;
      }
      await markEvent(deps.db, context.shop, payload.eventId, result.value);
      log(`shipping-event ${event.type}: ${result.value.outcome}`, {
        eventId: payload.eventId,
        detail: result.value.detail,
      });
    },
  });
}
