import type { PrismaClient } from "@prisma/client";

import type { JobContext, JobDefinition } from "~/queue/job-queue";
import type { RequestSlots } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import type { AppError } from "~/utils/app-error";
import type { Result } from "~/utils/result";

import { JobFailedError, ShopUninstalledError } from "./job-outcome";

// The one body of a shop's job (the worker parsed its payload with the kind's schema): the shop's
// clients from its offline session and stored key, an uninstalled shop's job dropped, and a use
// case's typed failure ending the attempt through the one mapping (job-outcome.ts).

export type ShopJobDeps<S> = {
  db: PrismaClient;
  /** The shop's Admin API, or null when the app has no offline session for it (uninstalled). */
  adminFor: (shop: string) => Promise<AdminGraphqlClient | null>;
  /** The shop's shipping client, or null when it has no usable API key. */
  shippingFor: (shop: string, options?: { slots?: RequestSlots }) => Promise<S | null>;
  /** A job's result, for the logs (the worker's: the app's logger, at info). */
  onResult?: JobResultLog;
};

/** A line saying what a job did, with its context (shop, job, the ids it worked on). */
export type JobResultLog = (message: string, context: Readonly<Record<string, unknown>>) => void;

/** What a shop's job is given besides its payload and context. */
export type ShopJob<S> = {
  /** The shop's database, Admin API and shipping client, read when asked for (a job may end without them). */
  readonly clients: () => Promise<{ db: PrismaClient; shop: string; admin: AdminGraphqlClient; shipping: S | null }>;
  /** Logs what the job did, with its shop, name and id. */
  readonly log: (message: string, fields: Readonly<Record<string, unknown>>) => void;
};

/**
 * A job definition whose `run` works for the job's shop. Its shipping client takes one of
 * `slots` a request when given; a failed Result it returns ends the attempt as a JobFailedError.
 */
export function defineShopJob<P, S>(
  deps: ShopJobDeps<S>,
  definition: Omit<JobDefinition<P>, "run"> & {
    readonly slots?: RequestSlots;
    readonly run: (payload: P, context: JobContext, job: ShopJob<S>) => Promise<Result<unknown, AppError> | void>;
  },
): JobDefinition<P> {
  const { slots, run, ...rest } = definition;
  return {
    ...rest,
    run: async (payload, context) => {
      const { shop, jobId } = context;
      const result = await run(payload, context, {
        clients: async () => {
          const admin = await deps.adminFor(shop);
          // Retrying cannot bring a session back, and there is no merchant to show a dead job to:
          // the job is dropped (job-outcome.ts). A reinstall sends its own webhooks.
          if (!admin) throw new ShopUninstalledError(shop);
          return { db: deps.db, shop, admin, shipping: await deps.shippingFor(shop, slots ? { slots } : {}) };
        },
        log: (message, fields) => deps.onResult?.(message, { shop, job: rest.name, jobId, ...fields }),
      });
      if (result && !result.ok) throw new JobFailedError(result.error);
    },
  };
}
