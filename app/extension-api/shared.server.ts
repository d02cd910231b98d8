import type { PrismaClient } from "@prisma/client";

import { type LabelView } from "~/labels/label-repository.server";
import { describeVoidBlocker } from "~/labels/void-label.server";
import { trackingUrlsFor } from "~/labels/write-tracking.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { PreflightProblem } from "~/shipping/preflight";
import { type Rate } from "~/shipping/schemas";
import { parseAmountCents } from "~/shipping/vocabulary";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

import type { ExtensionLabel, ExtensionProblem, ExtensionRate } from "./contract";

// The use cases behind the admin UI extensions (extensions/): wiring over the pipeline
// (app/shipments: load, check, quote, draft, buy), answered in the extensions' contract
// (contract.ts). Nothing here trusts what the extension holds: the shipment is loaded and
// checked again from Shopify on every call, and a purchase goes through only at the exact amount
// the merchant was shown.

export type ExtensionDeps = { db: PrismaClient; shop: string; admin: AdminGraphqlClient };
export type ExtensionBuyDeps = ExtensionDeps & { shipping: ShippingClient; staffMemberId: string | null };

/** Selected orders one extension call may look at: the admin's selection of a page or two. */
export const MAX_EXTENSION_ORDERS = 250;
export const SHOPIFY_READS_IN_FLIGHT = 4;

/** `app:` URLs open the embedded app at that path, from inside Shopify's admin. */
export const appUrlFor = (path: string) => `app:${path.replace(/^\//, "")}`;
export const orderAppUrl = (legacyId: string) => appUrlFor(`/app/orders/${legacyId}`);

export const BOUGHT: ReadonlySet<LabelView["status"]> = new Set(["purchased", "fulfilled"]);
const PRINTABLE_FORMATS = new Set(["pdf", "png"]);

export function toExtensionLabel(label: LabelView, now = new Date()): ExtensionLabel {
  const bought = BOUGHT.has(label.status);
  const voided = label.status === "void_pending" || label.status === "voided";
  const cents = bought || voided ? (label.chargedCents ?? label.quotedCents) : label.quotedCents;
  // A request still in flight reads as pending: the merchant asked, the carrier has not decided.
  const refund = label.void;
  const refundCents = refund?.refundCents ?? cents;
  const format = label.labelFormat?.toLowerCase() ?? null;
  const urls = trackingUrlsFor(label.trackingNumbers, label.trackingUrl);
  return {
    id: label.id,
    state: label.status === "draft" ? "draft" : bought ? "bought" : voided ? "voided" : "in_progress",
    carrier: label.carrier,
    serviceName: label.serviceName,
    serviceCode: label.serviceCode,
    price: cents === null ? null : { cents, currency: label.currency },
    trackingNumbers: label.trackingNumbers.map((number, i) => ({ number, url: urls[i] ?? null })),
    format,
    printable: bought && format !== null && PRINTABLE_FORMATS.has(format) && label.labelUrl !== null,
    writeBackError: bought && label.writeBack.status === "failed" ? label.writeBack.lastError : null,
    canVoid: bought && describeVoidBlocker(label, now) === null,
    refund: refund
      ? {
          status: refund.status === "requesting" ? "pending" : refund.status,
          amount: refundCents === null ? null : { cents: refundCents, currency: label.currency },
        }
      : null,
  };
}

export function toExtensionRate(rate: Rate): ExtensionRate | null {
  const cents = parseAmountCents(rate.amount);
  if (cents === null) return null;
  return {
    serviceCode: rate.service_code,
    carrier: rate.carrier,
    serviceName: rate.service,
    price: { cents, currency: rate.currency },
    deliveryDays: rate.delivery_days ?? null,
  };
}

export function toExtensionProblem(problem: PreflightProblem): ExtensionProblem {
  return { path: problem.path, message: problem.message, fix: problem.suggestion ?? null };
}
