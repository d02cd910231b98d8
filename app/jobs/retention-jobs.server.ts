import type { PrismaClient } from "@prisma/client";

import { prunePersonalDataAccess } from "~/labels/personal-data-access.server";
import { sealLegacyPersonalData } from "~/privacy/seal-legacy-rows.server";
import { redactExpiredShipTosForAllShops } from "~/privacy/ship-to-retention.server";

import type { Schedule } from "../queue/job-queue";

// The retention sweep on the worker's schedule: ship-to details of labels delivered or voided
// longer ago than their shop's retention period are redacted (docs/protected-customer-data.md).
// It is database work only (no Shopify, no shipping service), idempotent and cheap when there is
// nothing to do, so it runs inline like the bulk-run sweep rather than as a queued job per shop;
// on PostgreSQL one worker runs each tick (pg-boss's cron), and a label is redacted once anyway.
// Each run also seals what was stored in clear before ADR 28 and prunes the personal-data access
// log past its year. The worker logs the sweep's own openings of ship-to details as its own.

export const SHIP_TO_RETENTION_SCHEDULE = "ship-to-retention";
/** Periods are counted in days: a few runs a day keep a label within hours of its due date. */
export const SHIP_TO_RETENTION_EVERY_MS = 6 * 60 * 60_000;

export function createShipToRetentionSchedule(
  db: PrismaClient,
  log: (line: string) => void,
  now: () => Date = () => new Date(),
): Schedule {
  return {
    name: SHIP_TO_RETENTION_SCHEDULE,
    everyMs: SHIP_TO_RETENTION_EVERY_MS,
    run: async () => {
      const sealed = await sealLegacyPersonalData(db);
      if (Object.values(sealed).some((count) => count > 0)) log(`sealed rows kept in clear ${JSON.stringify(sealed)}`);
      const reports = await redactExpiredShipTosForAllShops({ db, now, log });
      for (const report of reports) log(`ship-to retention ${JSON.stringify(report)}`);
      const pruned = await prunePersonalDataAccess(db, now());
      if (pruned > 0) log(`personal-data access log: ${pruned} entries past their year deleted`);
    },
  };
}
