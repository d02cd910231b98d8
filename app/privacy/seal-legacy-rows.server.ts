import type { PrismaClient } from "@prisma/client";

import { sealLegacyLabelRows } from "~/labels/label-redaction.server";
import {
  DIGEST_PREFIX,
  digestPersonal,
  isSealed,
  SEALED_PREFIX,
  sealPersonal,
} from "~/settings/personal-data-box.server";
import { isUniqueViolation } from "~/utils/prisma-errors";

// Rows written before the ship-to details were sealed (ADR 28) are sealed where they lie, by the
// retention sweep's schedule: a SQL migration cannot encrypt, and a deploy must not wait on a
// shop's years of labels. Until a row is sealed, every read takes its clear value as it is, so
// nothing breaks meanwhile. Idempotent: a sealed row is never matched again, and each write is
// conditional on the clear value it replaces.

// Rows per batch (and per table per run): small writes, so the sweep never holds SQLite's lock long.
const BATCH = 100;

export type LegacySealReport = {
  labels: number;
  addressValidations: number;
  dataRequests: number;
  parcels: number;
  /** Auto-draft outcomes' and bulk items' problems (a blocking problem may quote the ZIP code). */
  problems: number;
};

async function sealLabels(db: PrismaClient): Promise<number> {
  let total = 0;
  for (;;) {
    const { seen, sealed } = await sealLegacyLabelRows(db, BATCH);
    total += sealed;
    if (seen < BATCH || sealed === 0) return total;
  }
}

/** A validation's key digested and its answer sealed; a row for the same address already digested wins. */
async function sealAddressValidations(db: PrismaClient): Promise<number> {
  const rows = await db.addressValidation.findMany({
    where: { NOT: { addressKey: { startsWith: DIGEST_PREFIX } } },
    take: BATCH * 10,
  });
  let sealed = 0;
  for (const row of rows) {
    const data = {
      addressKey: digestPersonal(row.addressKey),
      result: isSealed(row.result) ? row.result : sealPersonal(row.result),
    };
    try {
      sealed += (await db.addressValidation.updateMany({ where: { id: row.id, addressKey: row.addressKey }, data }))
        .count;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The address was validated again since, and stored sealed: the clear copy is not needed.
      sealed += (await db.addressValidation.deleteMany({ where: { id: row.id, addressKey: row.addressKey } })).count;
    }
  }
  return sealed;
}

async function sealDataRequests(db: PrismaClient): Promise<number> {
  const rows = await db.customerDataRequest.findMany({
    where: { NOT: { report: { startsWith: SEALED_PREFIX } } },
    take: BATCH * 10,
  });
  let sealed = 0;
  for (const row of rows) {
    sealed += (
      await db.customerDataRequest.updateMany({
        where: { id: row.id, report: row.report },
        data: { report: sealPersonal(row.report) },
      })
    ).count;
  }
  return sealed;
}

async function sealParcelLocations(db: PrismaClient): Promise<number> {
  const rows = await db.parcelTracking.findMany({
    where: { location: { not: null }, NOT: { location: { startsWith: SEALED_PREFIX } } },
    select: { id: true, location: true, updatedAt: true },
    take: BATCH * 10,
  });
  let sealed = 0;
  for (const row of rows) {
    if (row.location === null) continue;
    sealed += (
      await db.parcelTracking.updateMany({
        where: { id: row.id, location: row.location },
        data: { location: sealPersonal(row.location), updatedAt: row.updatedAt },
      })
    ).count;
  }
  return sealed;
}

async function sealProblems(db: PrismaClient): Promise<number> {
  const clear = { AND: [{ NOT: { problems: "[]" } }, { NOT: { problems: { startsWith: SEALED_PREFIX } } }] };
  let sealed = 0;
  const outcomes = await db.autoDraftOutcome.findMany({
    where: clear,
    select: { id: true, problems: true, updatedAt: true },
    take: BATCH * 10,
  });
  for (const row of outcomes) {
    sealed += (
      await db.autoDraftOutcome.updateMany({
        where: { id: row.id, problems: row.problems },
        // The Orders list's change token reads `updatedAt`: sealing changes nothing it shows.
        data: { problems: sealPersonal(row.problems), updatedAt: row.updatedAt },
      })
    ).count;
  }
  const items = await db.bulkRunItem.findMany({
    where: clear,
    select: { id: true, problems: true, updatedAt: true },
    take: BATCH * 10,
  });
  for (const row of items) {
    sealed += (
      await db.bulkRunItem.updateMany({
        where: { id: row.id, problems: row.problems },
        data: { problems: sealPersonal(row.problems), updatedAt: row.updatedAt },
      })
    ).count;
  }
  return sealed;
}

/** One pass over every table that held ship-to details in clear: what is left is for the next run. */
export async function sealLegacyPersonalData(db: PrismaClient): Promise<LegacySealReport> {
  return {
    labels: await sealLabels(db),
    addressValidations: await sealAddressValidations(db),
    dataRequests: await sealDataRequests(db),
    parcels: await sealParcelLocations(db),
    problems: await sealProblems(db),
  };
}
