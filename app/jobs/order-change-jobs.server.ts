import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { draftFulfillmentOrderAutomatically } from "~/auto-draft/auto-draft.server";
import { recheckLabels } from "~/auto-draft/stale-labels.server";
import type { ShippingClient } from "~/shipping/client.server";
import { type FulfillmentOrderGid, type OrderGid, parseFulfillmentOrderGid, parseOrderGid } from "~/shopify/ids";

import type { EnqueueResult, JobDefinition, JobKind } from "../queue/job-queue";
import { enqueueJob, enqueueJobs, type TransactionConnection } from "../queue/queue.server";
import { defineShopJob, type ShopJobDeps } from "./define-shop-job.server";
import { NotYetJobError } from "./job-outcome";

// The jobs behind the order webhooks: `auto-draft` (a fulfillment order ready to ship gets a draft
// by the shop's rules) and `recheck-labels` (after a cancellation, move, merge, split or address
// change, the order's labels are checked against Shopify). Webhook routes enqueue them inside the
// delivery's own transaction (see app/webhooks/), and only the worker runs them.

const FulfillmentOrderGidSchema = z
  .string()
  .transform((value, ctx) => parseFulfillmentOrderGid(value) ?? (ctx.addIssue({ code: "custom" }), z.NEVER));
const OrderGidSchema = z
  .string()
  .transform((value, ctx) => parseOrderGid(value) ?? (ctx.addIssue({ code: "custom" }), z.NEVER));

export const AutoDraftPayloadSchema = z.object({
  fulfillmentOrderGid: FulfillmentOrderGidSchema,
  /** The webhook topic (or "recheck") that asked for it, for the logs. */
  trigger: z.string(),
});
export type AutoDraftPayload = z.infer<typeof AutoDraftPayloadSchema>;

export const RecheckLabelsPayloadSchema = z.object({
  orderGids: z.array(OrderGidSchema),
  fulfillmentOrderGids: z.array(FulfillmentOrderGidSchema),
  trigger: z.string(),
});
export type RecheckLabelsPayload = z.infer<typeof RecheckLabelsPayloadSchema>;

// Shopify may be throttled or the shipping service down for a while: eight tries over about
// 40 minutes before the job is dead (and shown, with a Retry, on the Activity screen).
export const AUTO_DRAFT_JOB: JobKind<AutoDraftPayload> = {
  name: "auto-draft",
  payloadSchema: AutoDraftPayloadSchema,
  maxAttempts: 8,
};
export const RECHECK_LABELS_JOB: JobKind<RecheckLabelsPayload> = {
  name: "recheck-labels",
  payloadSchema: RecheckLabelsPayloadSchema,
  maxAttempts: 8,
};
const BACKOFF = { baseMs: 20_000, maxMs: 20 * 60_000 };

export async function enqueueAutoDraft(
  tx: Prisma.TransactionClient,
  shop: string,
  fulfillmentOrderGid: FulfillmentOrderGid,
  trigger: string,
) {
  return (await enqueueAutoDrafts(tx, [{ shop, fulfillmentOrderGid, trigger }]))[0] as EnqueueResult;
}

// After a lost draft answer the shipment is held a quiet while; the running job ends and a later
// one (a key of its own: the running job holds the fulfillment order's) drafts it then.
function enqueueAutoDraftAt(db: PrismaClient, shop: string, fulfillmentOrderGid: FulfillmentOrderGid, runAt: Date) {
  return enqueueJob(
    db,
    AUTO_DRAFT_JOB,
    shop,
    { fulfillmentOrderGid, trigger: "after-lost-answer" },
    { dedupeKey: `${fulfillmentOrderGid}#held`, runAt },
  );
}

/**
 * One auto-draft per fulfillment order at a time: a repeat while one is queued or running is the
 * same job. On a `pg` connection (ADR 25) the drafts go out in one insert.
 */
export function enqueueAutoDrafts(
  connection: TransactionConnection,
  drafts: readonly { shop: string; fulfillmentOrderGid: FulfillmentOrderGid; trigger: string }[],
) {
  return enqueueJobs(
    connection,
    AUTO_DRAFT_JOB,
    drafts.map(({ shop, fulfillmentOrderGid, trigger }) => ({
      shop,
      payload: { fulfillmentOrderGid, trigger },
      options: { dedupeKey: fulfillmentOrderGid },
    })),
  );
}

// No de-duplication: two re-checks of one order carry different news, and a re-check is safe to
// run twice (discarding a voided draft or flagging a flagged label changes nothing).
export function enqueueRecheckLabels(
  tx: Prisma.TransactionClient,
  shop: string,
  input: { orderGids?: readonly OrderGid[]; fulfillmentOrderGids?: readonly FulfillmentOrderGid[]; trigger: string },
) {
  return enqueueJob(tx, RECHECK_LABELS_JOB, shop, {
    orderGids: [...(input.orderGids ?? [])],
    fulfillmentOrderGids: [...(input.fulfillmentOrderGids ?? [])],
    trigger: input.trigger,
  });
}

export type OrderChangeJobDeps = ShopJobDeps<Pick<ShippingClient, "getRates" | "createDraftLabel" | "getLabel">>;

export function createAutoDraftJob(deps: OrderChangeJobDeps): JobDefinition<AutoDraftPayload> {
  return defineShopJob(deps, {
    ...AUTO_DRAFT_JOB,
    // A draft mostly waits on Shopify and the shipping service, so many run at once; one shop's
    // burst of orders (an import) holds at most four of them over the fleet, and the other shops'
    // new orders take the rest (ADR 21).
    concurrency: 16,
    perShopConcurrency: 4,
    maxRunMs: 3 * 60_000,
    backoff: BACKOFF,
    run: async (payload, context, { clients, log }) => {
      const result = await draftFulfillmentOrderAutomatically(await clients(), payload.fulfillmentOrderGid);
      // Retried or dead by the one mapping (job-outcome.ts).
      if (!result.ok) return result;
      // Another attempt (or one that died) holds the label's creating slot: back after the backoff,
      // by when it has finished or its lease is over and the slot is taken over.
      if (result.value.status === "waiting") {
        throw new NotYetJobError(
          `${payload.fulfillmentOrderGid}: label ${result.value.label.id} is being created until ${result.value.until.toISOString()}`,
        );
      }
      if (result.value.status === "blocked" && result.value.retryAt) {
        await enqueueAutoDraftAt(deps.db, context.shop, payload.fulfillmentOrderGid, result.value.retryAt);
      }
      log(`auto-draft ${result.value.status}`, { ...payload, result: result.value });
    },
  });
}

export function createRecheckLabelsJob(deps: OrderChangeJobDeps): JobDefinition<RecheckLabelsPayload> {
  return defineShopJob(deps, {
    ...RECHECK_LABELS_JOB,
    concurrency: 2,
    maxRunMs: 5 * 60_000,
    backoff: BACKOFF,
    run: async (payload, context, { clients, log }) => {
      const redraft = async (fulfillmentOrderGid: FulfillmentOrderGid) => {
        await enqueueAutoDraft(deps.db, context.shop, fulfillmentOrderGid, `recheck:${payload.trigger}`);
      };
      const result = await recheckLabels({ ...(await clients()), redraft }, payload);
      if (result.ok) log("recheck-labels done", { trigger: payload.trigger, result: result.value });
      return result;
    },
  });
}
