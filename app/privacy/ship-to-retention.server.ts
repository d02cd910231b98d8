import type { Label, Prisma, PrismaClient } from "@prisma/client";

import {
  listLabelsDueForShipToRedaction,
  listShopsWithShipTosDue,
  redactLabelShipTos,
  type ShipToRetentionCutoffs,
} from "~/labels/label-redaction.server";
import { openPersonalOrNull, sealPersonal } from "~/settings/personal-data-box.server";
import { MIN_SHIP_TO_RETENTION_DAYS } from "~/settings/retention";
import { getShipToRetentionDays } from "~/settings/retention-settings.server";

import { personalStrings, redactedLabelFields, scrubText, shipTosOf, validationsFor } from "./privacy.server";

// Retention of ship-to details (docs/protected-customer-data.md). A label needs its recipient's
// name, address, phone and e-mail while it may still be bought, printed, tracked or disputed.
// Once its journey ended (delivered, the label voided, or its creation failed) and the shop's
// retention period has passed, they are replaced, the same way customers/redact replaces them
// (privacy.server.ts). A bought label whose parcels were never delivered (lost, untracked,
// returned to the sender) has no such end: its details go once the purchase is older than twice
// the period (label-redaction.server.ts, dueBefore).
// Amounts, carrier, service, tracking numbers, statuses and the destination country stay: they
// are the merchant's books, and name no one.

const DAY_MS = 24 * 60 * 60 * 1000;
// Labels redacted per transaction: a shop's first sweep after years of labels is many small ones.
const BATCH = 100;

export type ShipToRetentionDeps = { db: PrismaClient; now: () => Date };

export type ShipToRetentionReport = { shop: string; retentionDays: number; cutoff: string; labels: number };

/** A period of `days` before `at`, and twice that for bought labels never delivered. */
function cutoffsFor(at: Date, days: number): ShipToRetentionCutoffs {
  return {
    ended: new Date(at.getTime() - days * DAY_MS),
    undelivered: new Date(at.getTime() - 2 * days * DAY_MS),
  };
}

/**
 * One shop's sweep: every label delivered, voided or failed more than the shop's retention
 * period ago, and every bought label never delivered whose purchase is older than twice the
 * period, loses its ship-to details. Idempotent: a label is redacted once (it is marked), so
 * running it again, or on two workers at once, changes nothing more.
 */
export async function redactExpiredShipTos(deps: ShipToRetentionDeps, shop: string): Promise<ShipToRetentionReport> {
  const { db } = deps;
  const at = deps.now();
  const retentionDays = await getShipToRetentionDays(db, shop);
  const cutoffs = cutoffsFor(at, retentionDays);
  const cutoff = cutoffs.ended;
  let labels = 0;
  for (;;) {
    const written = await db.$transaction(async (tx) => {
      const due = await listLabelsDueForShipToRedaction(tx, shop, cutoffs, BATCH);
      if (due.length === 0) return null;
      return { seen: due.length, written: await redactBatch(tx, shop, due, cutoff, at) };
    });
    if (!written) break;
    labels += written.written;
    // Another worker redacted this batch meanwhile: what is left is its to do, or nothing.
    if (written.written === 0 || written.seen < BATCH) break;
  }
  return { shop, retentionDays, cutoff: cutoff.toISOString(), labels };
}

/** A problems text (sealed, ADR 28, or from before) with the recipient's details replaced, sealed; null when none was in it. */
function scrubSealed(stored: string, strings: readonly string[]): string | null {
  const opened = openPersonalOrNull(stored) ?? "[]";
  const scrubbed = scrubText(opened, strings) ?? "[]";
  return scrubbed === opened ? null : sealPersonal(scrubbed);
}

async function redactBatch(
  tx: Prisma.TransactionClient,
  shop: string,
  labels: readonly Label[],
  cutoff: Date,
  at: Date,
): Promise<number> {
  const shipTos = shipTosOf(labels);
  const ids = labels.map((label) => label.id);
  const written = await redactLabelShipTos(
    tx,
    shop,
    labels.map((label) => {
      // Each label's own recipient: a text of one label never gets another person's details.
      const strings = personalStrings(shipTosOf([label]), {});
      return { ...redactedLabelFields(label, strings), updatedAt: label.updatedAt };
    }),
    at,
  );
  const strings = personalStrings(shipTos, {});
  // Where a parcel was last scanned: for a delivered parcel, the recipient's town and postcode.
  await tx.parcelTracking.updateMany({ where: { shop, labelId: { in: ids } }, data: { location: null } });
  // Texts kept beside the labels that may quote the address.
  for (const entry of await tx.auditEntry.findMany({ where: { shop, labelId: { in: ids } } })) {
    const detail = scrubText(entry.detail, strings);
    if (detail !== entry.detail) await tx.auditEntry.update({ where: { id: entry.id }, data: { detail } });
  }
  for (const outcome of await tx.autoDraftOutcome.findMany({ where: { shop, labelId: { in: ids } } })) {
    const problems = scrubSealed(outcome.problems, strings);
    const note = scrubText(outcome.note, strings);
    if (problems !== null || note !== outcome.note) {
      await tx.autoDraftOutcome.update({
        where: { id: outcome.id },
        data: { problems: problems ?? outcome.problems, note },
      });
    }
  }
  for (const item of await tx.bulkRunItem.findMany({ where: { shop, labelId: { in: ids } } })) {
    const problems = scrubSealed(item.problems, strings);
    const message = scrubText(item.message, strings);
    if (problems !== null || message !== item.message) {
      await tx.bulkRunItem.update({ where: { id: item.id }, data: { problems: problems ?? item.problems, message } });
    }
  }
  // A validation result is the address itself, cached to avoid paying twice. One made before the
  // cutoff for these addresses goes (its charge stays in the audit); one made since stays with the
  // newer order it was made for. A repeat customer's old result goes too: validating their address
  // again for a later label costs one more validation, the price of not keeping it.
  const validations = await validationsFor(tx, shop, shipTos, []);
  await tx.addressValidation.deleteMany({
    where: { shop, id: { in: validations.map((row) => row.id) }, createdAt: { lt: cutoff } },
  });
  return written;
}

/**
 * Every shop's sweep, for the worker's schedule. A shop's failure is logged and the others still
 * run; the next run picks the shop up again. Only shops with a label that would be due under the
 * shortest period a shop may choose (a day; two for one never delivered) are opened.
 */
export async function redactExpiredShipTosForAllShops(
  deps: ShipToRetentionDeps & { log: (line: string) => void },
): Promise<ShipToRetentionReport[]> {
  const earliest = cutoffsFor(deps.now(), MIN_SHIP_TO_RETENTION_DAYS);
  const reports: ShipToRetentionReport[] = [];
  for (const shop of await listShopsWithShipTosDue(deps.db, earliest)) {
    try {
      const report = await redactExpiredShipTos(deps, shop);
      if (report.labels > 0) reports.push(report);
    } catch (error) {
      deps.log(`ship-to retention ${shop} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return reports;
}
