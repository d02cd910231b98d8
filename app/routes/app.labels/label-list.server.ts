import type { PrismaClient } from "@prisma/client";

import { countLabelsNeeding } from "~/labels/label-needs.server";
import {
  countLabelsByStatus,
  countReturnLabels,
  type LabelKind,
  type LabelView,
  listLabels,
} from "~/labels/label-repository.server";
import { type LabelNeed, type LabelStatus, type WriteBackStatus } from "~/labels/label-state";
import { listParcelStatuses, type ParcelStatusView } from "~/labels/parcel-tracking.server";
import { describeVoidBlocker } from "~/labels/void-label.server";
import { getNumericId } from "~/shopify/ids";

import { type LabelListFilter } from "./label-list";

// The Labels screen's read model: every label of the shop, newest first, one page at a time,
// optionally only one state. Reads only; label rows are written by the label repository alone.

export const LABEL_PAGE_SIZE = 25;

/** One row as the screen shows it: plain JSON (dates as ISO strings), no request body. */
export type LabelListItem = {
  id: string;
  orderName: string;
  /** A return label brings a Shopify return's items back (ADR 23). */
  kind: LabelKind;
  /** For the link to the order's label page, `/app/orders/<id>`. */
  orderNumericId: string | null;
  status: LabelStatus;
  carrier: string | null;
  serviceName: string | null;
  trackingNumbers: string[];
  trackingUrl: string | null;
  quotedCents: number | null;
  chargedCents: number | null;
  currency: string;
  chargeMismatch: boolean;
  labelUrl: string | null;
  labelFormat: string | null;
  writeBack: { status: WriteBackStatus; lastError: string | null };
  lastError: string | null;
  createdAt: string;
  /** Bought in the shipping service's dashboard or by another tool. */
  boughtOutside: boolean;
  /** Each parcel's latest status from the service's tracking events. */
  parcels: ParcelStatusView[];
  /** A void asked for this label (ADR 22): where its refund stands, and how much; null if never. */
  refund: {
    status: NonNullable<LabelView["void"]>["status"];
    cents: number | null;
    refusal: string | null;
    /** Where its Shopify fulfillment stands: cancelled for a replacement, or restored on refusal. */
    shopify: NonNullable<LabelView["void"]>["shopify"];
  } | null;
  /** Why "Void label" is not offered for it now; null when it is. */
  voidBlocker: string | null;
  /**
   * Charged for a shipment Shopify held or cancelled in the instant of the purchase ("Bought for a
   * held order"): the row says so and offers its void.
   */
  boughtWhileHeld: boolean;
};

export type LabelListPage = {
  filter: LabelListFilter;
  page: number;
  hasNextPage: boolean;
  items: LabelListItem[];
  /** Labels per state across the shop, for the filter tabs. */
  counts: Record<LabelListFilter, number>;
};

export async function listShopLabels(
  db: PrismaClient,
  shop: string,
  options: { filter?: LabelListFilter; page?: number; pageSize?: number; now?: Date } = {},
): Promise<LabelListPage> {
  const filter = options.filter ?? "all";
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const pageSize = options.pageSize ?? LABEL_PAGE_SIZE;
  const [labels, byStatus, returns, trackingExceptions, failedWriteBacks, boughtWhileHeld] = await Promise.all([
    listLabels(db, shop, {
      ...selectFilter(filter),
      newestBy: "createdAt",
      skip: (page - 1) * pageSize,
      // One extra row tells whether there is a next page without counting.
      take: pageSize + 1,
    }),
    countLabelsByStatus(db, shop),
    countReturnLabels(db, shop),
    countLabelsNeeding(db, shop, "tracking_exception"),
    countLabelsNeeding(db, shop, "write_back_failed"),
    countLabelsNeeding(db, shop, "bought_while_held"),
  ]);
  const parcels = await listParcelStatuses(
    db,
    shop,
    labels.map((l) => l.id),
  );
  const counts: Record<LabelListFilter, number> = {
    all: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
    return: returns,
    tracking_exception: trackingExceptions,
    write_back_failed: failedWriteBacks,
    bought_while_held: boughtWhileHeld,
    ...byStatus,
  };
  return {
    filter,
    page,
    hasNextPage: labels.length > pageSize,
    items: labels
      .slice(0, pageSize)
      .map((label) => toLabelListItem(label, parcels.get(label.id) ?? [], options.now ?? new Date())),
    counts,
  };
}

function selectFilter(filter: LabelListFilter): { kind?: "return"; need?: LabelNeed; statuses?: LabelStatus[] } {
  if (filter === "all") return {};
  if (filter === "return") return { kind: "return" };
  if (filter === "tracking_exception" || filter === "write_back_failed" || filter === "bought_while_held") {
    return { need: filter };
  }
  return { statuses: [filter] };
}

function toLabelListItem(label: LabelView, parcels: ParcelStatusView[], now: Date): LabelListItem {
  return {
    id: label.id,
    orderName: label.orderName,
    kind: label.kind,
    orderNumericId: getNumericId(label.orderGid) ?? null,
    status: label.status,
    carrier: label.carrier,
    serviceName: label.serviceName,
    trackingNumbers: label.trackingNumbers,
    trackingUrl: label.trackingUrl,
    quotedCents: label.quotedCents,
    chargedCents: label.chargedCents,
    currency: label.currency,
    chargeMismatch: label.chargeMismatch,
    labelUrl: label.labelUrl,
    labelFormat: label.labelFormat,
    writeBack: { status: label.writeBack.status, lastError: label.writeBack.lastError },
    lastError: label.lastError,
    createdAt: label.createdAt.toISOString(),
    boughtOutside: label.boughtOutside,
    parcels,
    refund: label.void
      ? {
          status: label.void.status,
          cents: label.void.refundCents ?? label.chargedCents,
          refusal: label.void.refusal,
          shopify: label.void.shopify,
        }
      : null,
    voidBlocker: describeVoidBlocker(label, now),
    boughtWhileHeld:
      label.attention?.reason === "bought_while_held" && (label.status === "purchased" || label.status === "fulfilled"),
  };
}
