import type { PrismaClient } from "@prisma/client";

import type { AdminGraphqlClient, ShopifyError } from "~/shopify/admin-client";
import { createFulfillmentWithTracking, findFulfillmentWithTracking } from "~/shopify/fulfillments";
import type { FulfillmentOrderGid } from "~/shopify/ids";
import { err, ok, type Result } from "~/utils/result";

import { fromShopifyError, type LabelError, labelError } from "./label-errors";
import { findLabel, type LabelView, toLabelView } from "./label-store.server";
import { getShopSettings } from "./settings.server";

// After purchase, the tracking goes to Shopify as a fulfillment of the fulfillment order's
// remaining items, exactly once per label:
// - a conditional claim (writeBackStatus → writing, with a lease) lets one caller write at a time;
// - before creating, the fulfillment order's fulfillments are searched for this label's tracking
//   number, so a crash between Shopify's answer and our save is adopted, not repeated;
// - failures leave the label "pending" (retried by retryPendingWriteBacks) or "failed" when
//   Shopify refused it (shown to the merchant), never silently dropped.

/** Carrier names Shopify recognizes (it then builds tracking links itself). */
const SHOPIFY_CARRIER_NAMES: Record<string, string> = { USPS: "USPS", UPS: "UPS", FEDEX: "FedEx", DHL: "DHL Express" };

export function toShopifyCarrierName(carrier: string | null): string {
  if (!carrier) return "Other";
  return SHOPIFY_CARRIER_NAMES[carrier.toUpperCase()] ?? carrier;
}

/** One URL per tracking number: the service gives one URL, built around the first number. */
export function trackingUrlsFor(numbers: readonly string[], trackingUrl: string | null): string[] {
  if (!trackingUrl) return [];
  const [first] = numbers;
  if (!first || !trackingUrl.includes(first)) return numbers.length === 1 ? [trackingUrl] : [];
  return numbers.map((n) => trackingUrl.replace(first, n));
}

export type WriteTrackingDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient; now?: () => Date };
/** notifyCustomer defaults to the shop's setting. */
export type WriteTrackingOptions = { notifyCustomer?: boolean; leaseMs?: number };

const DEFAULT_LEASE_MS = 60_000;

export async function writeTracking(
  deps: WriteTrackingDeps,
  labelId: string,
  options: WriteTrackingOptions,
): Promise<Result<LabelView, LabelError>> {
  const { db, shop, admin } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const label = await findLabel(db, shop, labelId);
  if (!label)
    return err(
      labelError("NOT_FOUND", "This label no longer exists.", `writeTracking: no label ${labelId} for ${shop}`),
    );
  if (label.fulfillmentGid || label.status === "fulfilled") return ok(label);
  if (label.status !== "purchased") {
    return err(
      labelError(
        "INVALID_STATE",
        "Buy the label before sending tracking to Shopify.",
        `writeTracking: ${labelId} is ${label.status}`,
      ),
    );
  }

  const claim = await db.label.updateMany({
    where: {
      id: labelId,
      shop,
      status: "purchased",
      fulfillmentGid: null,
      OR: [
        { writeBackStatus: { in: ["none", "pending", "failed"] } },
        { writeBackStatus: "writing", writeBackLeaseUntil: { lt: now } },
      ],
    },
    data: {
      writeBackStatus: "writing",
      writeBackLeaseUntil: new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS)),
      writeBackAttempts: { increment: 1 },
    },
  });
  if (claim.count === 0) {
    // Another caller is writing it (or just finished): report the label as it stands.
    const current = await findLabel(db, shop, labelId);
    return current
      ? ok(current)
      : err(labelError("NOT_FOUND", "This label no longer exists.", `writeTracking: ${labelId} vanished`));
  }

  const existing = await findFulfillmentWithTracking(admin, label.fulfillmentOrderGid, label.trackingNumbers);
  if (!existing.ok) return markWriteBackFailed(deps, label, existing.error);
  let fulfillmentGid = existing.value;
  if (!fulfillmentGid) {
    const created = await createFulfillmentWithTracking(admin, {
      fulfillmentOrderId: label.fulfillmentOrderGid as FulfillmentOrderGid,
      lineItems: "all remaining",
      tracking: {
        company: toShopifyCarrierName(label.carrier),
        numbers: label.trackingNumbers,
        urls: trackingUrlsFor(label.trackingNumbers, label.trackingUrl),
      },
      notifyCustomer: options.notifyCustomer ?? (await getShopSettings(db, shop)).notifyCustomer,
    });
    if (!created.ok) return markWriteBackFailed(deps, label, created.error);
    fulfillmentGid = created.value.id;
  }

  await db.label.updateMany({
    where: { id: labelId, shop, writeBackStatus: "writing" },
    data: {
      status: "fulfilled",
      fulfillmentGid,
      writeBackStatus: "done",
      writeBackLastError: null,
      writeBackLeaseUntil: null,
    },
  });
  const row = await db.label.findFirst({ where: { id: labelId, shop } });
  if (!row) return err(labelError("NOT_FOUND", "This label no longer exists.", `writeTracking: ${labelId} vanished`));
  return ok(toLabelView(row));
}

async function markWriteBackFailed(
  deps: WriteTrackingDeps,
  label: LabelView,
  error: ShopifyError,
): Promise<Result<LabelView, LabelError>> {
  // Shopify refusing the fulfillment (closed fulfillment order, nothing left) needs the
  // merchant; anything else (throttling, network) is retried.
  const status = error.code === "USER_ERROR" ? "failed" : "pending";
  await deps.db.label.updateMany({
    where: { id: label.id, shop: deps.shop, writeBackStatus: "writing" },
    data: { writeBackStatus: status, writeBackLastError: error.logMessage, writeBackLeaseUntil: null },
  });
  return err(fromShopifyError("writeTracking", error));
}

/** For a job: retries every purchased label whose tracking has not reached Shopify. */
export async function retryPendingWriteBacks(
  deps: WriteTrackingDeps,
  options: WriteTrackingOptions & { limit?: number },
): Promise<{ done: LabelView[]; stillPending: LabelView[] }> {
  const now = (deps.now ?? (() => new Date()))();
  const rows = await deps.db.label.findMany({
    where: {
      shop: deps.shop,
      status: "purchased",
      OR: [{ writeBackStatus: "pending" }, { writeBackStatus: "writing", writeBackLeaseUntil: { lt: now } }],
    },
    orderBy: { updatedAt: "asc" },
    take: options.limit ?? 50,
    select: { id: true },
  });
  const done: LabelView[] = [];
  const stillPending: LabelView[] = [];
  for (const { id } of rows) {
    const result = await writeTracking(deps, id, options);
    if (result.ok && result.value.status === "fulfilled") done.push(result.value);
    else {
      const label = await findLabel(deps.db, deps.shop, id);
      if (label) stillPending.push(label);
    }
  }
  return { done, stillPending };
}
