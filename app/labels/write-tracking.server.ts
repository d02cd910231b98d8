import { randomUUID } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import { getShopSettings } from "~/settings/settings.server";
import {
  type AdminGraphqlClient,
  createShopifyError,
  type RunAdminGraphqlOptions,
  type ShopifyError,
} from "~/shopify/admin-client";
import { getFulfillmentOrderGuard } from "~/shopify/fulfillment-order-state";
import { createFulfillmentWithTracking, getFulfillmentOrderForWriteBack } from "~/shopify/fulfillments";
import type { FulfillmentGid, ReverseDeliveryGid } from "~/shopify/ids";
import { attachReturnLabel, findReverseDeliveryWithTracking, readOrderReturns } from "~/shopify/returns";
import { err, ok, type Result } from "~/utils/result";

import { recordAudit } from "./audit.server";
import { cancelVoidedFulfillment } from "./cancel-voided-fulfillment.server";
import { fromShopifyError, type LabelError, labelError, labelNotFound } from "./label-errors";
import {
  findLabel,
  type LabelLineItem,
  type LabelView,
  listRetryableWriteBackIds,
  type OutboundLabelView,
  type ReturnLabelView,
} from "./label-repository.server";
import { BOUGHT_WHILE_HELD_TITLE } from "./label-state";
import { flagLabelAttention } from "./label-transitions.server";
import { dropVoidedWriteBack, planFulfillmentCancel, recordVoidedWriteBack } from "./void-transitions.server";
import { claimWriteBack, completeWriteBack, releaseWriteBack } from "./write-back-claims.server";

// After purchase, the tracking goes to Shopify as a fulfillment of exactly the label's items,
// exactly once per label:
// - a conditional claim (writeBackStatus → writing, with a token and a lease) lets one writer
//   write at a time;
// - before creating, the fulfillment order's fulfillments are searched for this label's
//   tracking number, so a fulfillment Shopify created but whose answer we lost is adopted;
// - a fulfillment Shopify holds is a fact: any writer records it, whoever owns the claim;
// - before marking a write-back failed, the search runs again: a slower writer may have
//   created it meanwhile. Transient failures stay "pending" for the recovery job.

/** Carrier names Shopify recognizes (it then builds tracking links itself). */
const SHOPIFY_CARRIER_NAMES: Record<string, string> = { USPS: "USPS", UPS: "UPS", FEDEX: "FedEx", DHL: "DHL Express" };

/** The carrier as Shopify names it, or null (company omitted) for a carrier Shopify does not know. */
export function toShopifyCarrierName(carrier: string | null): string | null {
  if (!carrier) return null;
  return SHOPIFY_CARRIER_NAMES[carrier.toUpperCase()] ?? null;
}

/** One URL per tracking number: the service gives one URL, built around the first number. */
export function trackingUrlsFor(numbers: readonly string[], trackingUrl: string | null): string[] {
  if (!trackingUrl) return [];
  const [first] = numbers;
  if (!first || !trackingUrl.includes(first)) return numbers.length === 1 ? [trackingUrl] : [];
  return numbers.map((n) => trackingUrl.replace(first, n));
}

/** The label's items, each capped at what remains on the fulfillment order; none left are dropped. */
export function capToRemaining(
  lineItems: readonly LabelLineItem[],
  remaining: ReadonlyMap<string, number>,
): LabelLineItem[] {
  return lineItems
    .map((line) => ({ id: line.id, quantity: Math.min(line.quantity, remaining.get(line.id) ?? 0) }))
    .filter((line) => line.quantity > 0);
}

export type WriteTrackingDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** Who asked for it (the session token's `sub`); null for the recovery job. */
  staffMemberId?: string | null;
  now?: () => Date;
};
/** notifyCustomer defaults to the shop's setting. */
export type WriteTrackingOptions = {
  notifyCustomer?: boolean;
  leaseMs?: number;
  /**
   * What remained of each line of the fulfillment order when the spend guard read it, right
   * before this call's caller bought the label. Used only on the label's first write-back, when
   * no fulfillment can carry its tracking numbers yet (nobody knew them): Shopify is then not
   * read again, which spares the shop 7 points a label (ADR 20). A stale figure makes
   * Shopify refuse the fulfillment; the write-back then stays pending, and the recovery job's next
   * attempt reads the order afresh before the merchant is asked to act.
   */
  remainingAtPurchase?: { readonly byLine: ReadonlyMap<string, number>; readonly complete: boolean };
};

const DEFAULT_LEASE_MS = 60_000;
// Shopify calls must end this long before the write-back lease does.
const LEASE_SAFETY_MS = 10_000;
// A write-back still failing after this many attempts needs the merchant, not another retry.
export const MAX_WRITE_BACK_ATTEMPTS = 8;

export async function writeTracking(
  deps: WriteTrackingDeps,
  labelId: string,
  options: WriteTrackingOptions,
): Promise<Result<LabelView, LabelError>> {
  const { db, shop, admin } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const label = await findLabel(db, shop, labelId);
  if (!label) return err(labelNotFound("writeTracking", shop, labelId));
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

  const ref = { db, shop, labelId };
  const token = randomUUID();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const claim = { token, now, leaseUntil: new Date(now.getTime() + leaseMs) };
  const atPurchase = label.kind === "return" ? null : options.remainingAtPurchase;
  const firstWithGuardRead = atPurchase?.complete ? await claimWriteBack(ref, { ...claim, first: true }) : false;
  const claimed = firstWithGuardRead || (await claimWriteBack(ref, claim));
  // Another writer is at it (or just finished): report the label as it stands.
  if (!claimed) return currentLabel(deps, labelId);
  // Every Shopify call ends before the lease does (measured on the lease's clock), so no
  // writer can still create a fulfillment once another may have taken over.
  const calls = {
    deadline: now.getTime() + leaseMs - Math.min(LEASE_SAFETY_MS, leaseMs / 4),
    now: () => (deps.now ?? (() => new Date()))().getTime(),
  };

  if (label.kind === "return") return attachReturn(deps, label, token, calls, options);
  const findExisting = async () => {
    const found = await getFulfillmentOrderForWriteBack(admin, label.fulfillmentOrderGid, label.trackingNumbers, calls);
    return found.ok ? ok(found.value.fulfillmentWithTracking) : found;
  };

  const fo =
    firstWithGuardRead && atPurchase
      ? ok({ fulfillmentWithTracking: null, remaining: atPurchase.byLine })
      : await getFulfillmentOrderForWriteBack(admin, label.fulfillmentOrderGid, label.trackingNumbers, calls);
  if (!fo.ok) return giveUp(deps, label, token, fo.error, findExisting, { calls });
  if (fo.value.fulfillmentWithTracking) return record(deps, labelId, fo.value.fulfillmentWithTracking);

  const lineItems = capToRemaining(label.lineItems, fo.value.remaining);
  if (lineItems.length === 0) {
    return giveUp(
      deps,
      label,
      token,
      refusal(
        label.lineItems.length === 0
          ? "This label does not record which items it ships. Fulfil the order in Shopify and add the tracking number there."
          : "None of this label's items are left to fulfil in Shopify (they were fulfilled or removed). Check the order in Shopify.",
        `writeTracking: nothing of ${labelId}'s ${label.lineItems.length} lines remains on ${label.fulfillmentOrderGid}`,
      ),
      findExisting,
      { calls },
    );
  }
  const notifyCustomer = options.notifyCustomer ?? (await getShopSettings(db, shop)).notifyCustomer;
  const created = await createFulfillmentWithTracking(
    admin,
    {
      fulfillmentOrderId: label.fulfillmentOrderGid,
      lineItems,
      tracking: {
        company: toShopifyCarrierName(label.carrier),
        numbers: label.trackingNumbers,
        urls: trackingUrlsFor(label.trackingNumbers, label.trackingUrl),
      },
      notifyCustomer,
    },
    calls,
  );
  // Refused on the guard's figures: they may be a second old (the merchant fulfilled some items in
  // Shopify meanwhile), so the recovery job tries again on a fresh read before the merchant is asked.
  if (!created.ok) {
    return giveUp(deps, label, token, created.error, findExisting, { onGuardRead: firstWithGuardRead, calls });
  }
  await recordAudit(db, {
    shop,
    action: "fulfill",
    outcome: "ok",
    orderGid: label.orderGid,
    labelId,
    detail: `fulfillment ${created.value.id}: ${lineItems.map((l) => `${l.quantity} × ${l.id}`).join(", ")}`,
    staffMemberId: deps.staffMemberId ?? null,
  });
  return record(deps, labelId, created.value.id);
}

/**
 * A return label goes to Shopify as the return's reverse delivery, with its file and tracking, so
 * Shopify can send it to the customer (ADR 23). The same claim and the same search first: a
 * reverse delivery carrying this tracking number is adopted, never made twice.
 */
async function attachReturn(
  deps: WriteTrackingDeps,
  label: ReturnLabelView,
  token: string,
  calls: RunAdminGraphqlOptions,
  options: WriteTrackingOptions,
): Promise<Result<LabelView, LabelError>> {
  const findExisting = async () => {
    const returns = await readOrderReturns(deps.admin, label.orderGid, calls);
    if (!returns.ok) return returns;
    return ok(
      findReverseDeliveryWithTracking(returns.value, label.fulfillmentOrderGid, label.trackingNumbers)?.id ?? null,
    );
  };
  const existing = await findExisting();
  if (!existing.ok) return giveUp(deps, label, token, existing.error, findExisting);
  if (existing.value) return record(deps, label.id, existing.value);
  if (!label.labelUrl) {
    return giveUp(
      deps,
      label,
      token,
      refusal(
        "The shipping service gave no label file to send to the customer. Print the label and send it yourself.",
        `writeTracking: return label ${label.id} has no label URL`,
      ),
      findExisting,
    );
  }
  const [trackingNumber] = label.trackingNumbers;
  const notifyCustomer = options.notifyCustomer ?? (await getShopSettings(deps.db, deps.shop)).notifyCustomer;
  const attached = await attachReturnLabel(
    deps.admin,
    {
      reverseFulfillmentOrderId: label.fulfillmentOrderGid,
      lineItems: label.lineItems.map((line) => ({ id: line.id, quantity: line.quantity })),
      labelFileUrl: label.labelUrl,
      trackingNumber: trackingNumber ?? null,
      trackingUrl: trackingNumber ? (trackingUrlsFor([trackingNumber], label.trackingUrl)[0] ?? null) : null,
      notifyCustomer,
    },
    calls,
  );
  if (!attached.ok) return giveUp(deps, label, token, attached.error, findExisting);
  await recordAudit(deps.db, {
    shop: deps.shop,
    action: "fulfill",
    outcome: "ok",
    orderGid: label.orderGid,
    labelId: label.id,
    detail: `return label attached as reverse delivery ${attached.value.id}`,
    staffMemberId: deps.staffMemberId ?? null,
  });
  return record(deps, label.id, attached.value.id);
}

// Nothing to send is Shopify's refusal in advance: the merchant must look, as for a userError.
const refusal = (message: string, logMessage: string): ShopifyError =>
  createShopifyError("USER_ERROR", logMessage, { message });

/**
 * Shopify holds the fulfillment: record it (any writer may) and answer with the label. The label
 * may have been voided while it was written (ADR 22): then the fulfillment is recorded on the
 * voided label and cancelled now, so no live fulfillment carries a voided label's tracking. A
 * cancel that fails stays planned for the recovery job.
 */
async function record(
  deps: WriteTrackingDeps,
  labelId: string,
  fulfillmentGid: FulfillmentGid | ReverseDeliveryGid,
): Promise<Result<LabelView, LabelError>> {
  const ref = { db: deps.db, shop: deps.shop, labelId };
  if (!(await completeWriteBack(ref, fulfillmentGid)) && (await recordVoidedWriteBack(ref, fulfillmentGid))) {
    await recordAudit(deps.db, {
      shop: deps.shop,
      action: "fulfill",
      outcome: "ok",
      labelId,
      detail: `${fulfillmentGid} landed after the label was voided: to cancel`,
      staffMemberId: null,
    });
    if (await planFulfillmentCancel(ref)) await cancelVoidedFulfillment(deps, labelId);
  }
  return currentLabel(deps, labelId);
}

/**
 * For the recovery job: a voided label whose write-back was in flight when it was voided and whose
 * writer died. Shopify is searched for its tracking: found, it is recorded (and planned for the
 * cancel); not found, nothing of it is in Shopify and the write-back is dropped.
 */
export async function settleVoidedWriteBack(
  deps: WriteTrackingDeps,
  labelId: string,
): Promise<Result<void, LabelError>> {
  const now = (deps.now ?? (() => new Date()))();
  const label = await findLabel(deps.db, deps.shop, labelId);
  if (!label || label.fulfillmentGid || label.writeBack.status !== "writing") return ok(undefined);
  const calls = { deadline: now.getTime() + DEFAULT_LEASE_MS - LEASE_SAFETY_MS };
  let found: Result<FulfillmentGid | ReverseDeliveryGid | null, ShopifyError>;
  if (label.kind === "return") {
    const returns = await readOrderReturns(deps.admin, label.orderGid, calls);
    found = returns.ok
      ? ok(findReverseDeliveryWithTracking(returns.value, label.fulfillmentOrderGid, label.trackingNumbers)?.id ?? null)
      : returns;
  } else {
    const fo = await getFulfillmentOrderForWriteBack(
      deps.admin,
      label.fulfillmentOrderGid,
      label.trackingNumbers,
      calls,
    );
    found = fo.ok ? ok(fo.value.fulfillmentWithTracking) : fo;
  }
  if (!found.ok) return err(fromShopifyError("settleVoidedWriteBack", found.error));
  const ref = { db: deps.db, shop: deps.shop, labelId };
  if (!found.value) {
    await dropVoidedWriteBack(ref, now);
    return ok(undefined);
  }
  if (await recordVoidedWriteBack(ref, found.value)) await planFulfillmentCancel(ref);
  return ok(undefined);
}

async function currentLabel(deps: WriteTrackingDeps, labelId: string): Promise<Result<LabelView, LabelError>> {
  const label = await findLabel(deps.db, deps.shop, labelId);
  return label ? ok(label) : err(labelNotFound("writeTracking", deps.shop, labelId));
}

/**
 * The write-back did not go through. A slower writer may have created the fulfillment
 * meanwhile (ours then fails with "nothing left"), so look once more and adopt it. Otherwise:
 * Shopify refusing it, or the fulfillment order gone, needs the merchant ("failed"); anything
 * else (throttling, network) stays "pending" for the recovery job, up to a number of attempts.
 */
async function giveUp(
  deps: WriteTrackingDeps,
  label: LabelView,
  token: string,
  error: ShopifyError,
  findExisting: () => Promise<Result<FulfillmentGid | ReverseDeliveryGid | null, ShopifyError>>,
  options: { onGuardRead?: boolean; calls?: RunAdminGraphqlOptions } = {},
): Promise<Result<LabelView, LabelError>> {
  const again = await findExisting();
  if (again.ok && again.value) return record(deps, label.id, again.value);
  // Shopify refused the fulfillment: held or cancelled since the spend guard let the purchase go?
  const held =
    error.code === "USER_ERROR" && label.kind === "outbound"
      ? await findHeldShipment(deps, label, options.calls)
      : null;
  const attempts = label.writeBack.attempts + 1;
  const needsMerchant =
    held !== null ||
    (error.code === "USER_ERROR" && again.ok && !options.onGuardRead) ||
    error.code === "NOT_FOUND" ||
    attempts >= MAX_WRITE_BACK_ATTEMPTS;
  const released = await releaseWriteBack({ db: deps.db, shop: deps.shop, labelId: label.id }, token, {
    status: needsMerchant ? "failed" : "pending",
    error:
      attempts >= MAX_WRITE_BACK_ATTEMPTS && error.code !== "USER_ERROR"
        ? `gave up after ${attempts} attempts: ${error.logMessage}`
        : error.logMessage,
  });
  // Taken over meanwhile, and the new writer finished: its result stands.
  if (!released) {
    const current = await findLabel(deps.db, deps.shop, label.id);
    if (current?.fulfillmentGid) return ok(current);
  }
  if (held) {
    // Told at once, on every screen that shows the label: the flag, not a bare failed write-back.
    await flagLabelAttention(deps.db, deps.shop, label.id, "bought_while_held", (deps.now ?? (() => new Date()))());
    return err(
      labelError(
        "NOT_FULFILLABLE",
        `${BOUGHT_WHILE_HELD_TITLE}: ${held.why} in the moment the label was bought, so it was charged but its tracking could not be added. ${held.next}`,
        `writeTracking: ${label.id} bought while ${held.why}: ${error.logMessage}`,
      ),
    );
  }
  return err(fromShopifyError("writeTracking", error));
}

/**
 * Why Shopify would not take a bought label's fulfillment, when it is a hold or a cancellation that
 * landed between the spend guard and the purchase (Shopify offers no reservation to close that
 * window), and what the merchant can do. Null for any other refusal, or when Shopify cannot say
 * (the write-back's own handling then goes on as before).
 */
async function findHeldShipment(
  deps: WriteTrackingDeps,
  label: OutboundLabelView,
  calls: RunAdminGraphqlOptions = {},
): Promise<{ why: string; next: string } | null> {
  const guard = await getFulfillmentOrderGuard(deps.admin, label.fulfillmentOrderGid, calls);
  if (!guard.ok) return null;
  if (guard.value.orderCancelled || guard.value.status === "CANCELLED") {
    return {
      why: "the order was cancelled in Shopify",
      next: "Void the label to get the charge back: a cancelled order is not shipped.",
    };
  }
  if (guard.value.status === "ON_HOLD") {
    return {
      why: "Shopify put this shipment on hold",
      next: "Void the label to get the charge back, or release the hold in Shopify and the tracking is sent.",
    };
  }
  return null;
}

/** For a job: retries every purchased label whose tracking has not reached Shopify. */
export async function retryPendingWriteBacks(
  deps: WriteTrackingDeps,
  options: WriteTrackingOptions & { limit?: number },
): Promise<{ done: LabelView[]; stillPending: LabelView[] }> {
  const now = (deps.now ?? (() => new Date()))();
  const done: LabelView[] = [];
  const stillPending: LabelView[] = [];
  for (const id of await listRetryableWriteBackIds(deps.db, deps.shop, now, options.limit ?? 50)) {
    const result = await writeTracking(deps, id, options);
    if (result.ok && result.value.status === "fulfilled") done.push(result.value);
    else {
      const label = await findLabel(deps.db, deps.shop, id);
      if (label) stillPending.push(label);
    }
  }
  return { done, stillPending };
}
