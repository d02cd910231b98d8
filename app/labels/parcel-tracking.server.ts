import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { openPersonalOrNull } from "~/settings/personal-data-box.server";
import { isTrackingStatus, type TrackingStatus } from "~/shipping/schemas";
import { parseStoredJson } from "~/utils/stored-json";

// Each parcel's latest status as the shipping service reported it (ParcelTracking rows, written by
// shipping-events.server.ts), read for the Labels and order screens.

export type Parcel = {
  trackingNumber: string;
  status: TrackingStatus;
  statusDetail: string | null;
  occurredAt: Date;
  estimatedDeliveryAt: Date | null;
  location: { city?: string | null; state?: string | null; zip?: string | null; country?: string | null } | null;
};

export type ParcelStatusView = {
  trackingNumber: string;
  status: TrackingStatus;
  statusDetail: string | null;
  occurredAt: string;
  estimatedDeliveryAt: string | null;
  place: string | null;
};

const LocationSchema = z
  .object({
    city: z.string().nullish(),
    state: z.string().nullish(),
    zip: z.string().nullish(),
    country: z.string().nullish(),
  })
  .nullable();

export async function listParcels(db: PrismaClient, shop: string, labelIds: readonly string[]) {
  const rows = await db.parcelTracking.findMany({ where: { shop, labelId: { in: [...labelIds] } } });
  return rows.flatMap((row) =>
    isTrackingStatus(row.status)
      ? [
          {
            labelId: row.labelId,
            trackingNumber: row.trackingNumber,
            status: row.status,
            statusDetail: row.statusDetail,
            occurredAt: row.occurredAt,
            estimatedDeliveryAt: row.estimatedDeliveryAt,
            location: parseStoredJson(openPersonalOrNull(row.location), LocationSchema, null),
          },
        ]
      : [],
  );
}

/** The latest status of each parcel of these labels, for the Labels and order screens. */
export async function listParcelStatuses(
  db: PrismaClient,
  shop: string,
  labelIds: readonly string[],
): Promise<Map<string, ParcelStatusView[]>> {
  const byLabel = new Map<string, ParcelStatusView[]>();
  for (const parcel of await listParcels(db, shop, labelIds)) {
    const place = [parcel.location?.city, parcel.location?.state, parcel.location?.country].filter(Boolean).join(", ");
    byLabel.set(parcel.labelId, [
      ...(byLabel.get(parcel.labelId) ?? []),
      {
        trackingNumber: parcel.trackingNumber,
        status: parcel.status,
        statusDetail: parcel.statusDetail,
        occurredAt: parcel.occurredAt.toISOString(),
        estimatedDeliveryAt: parcel.estimatedDeliveryAt?.toISOString() ?? null,
        place: place || null,
      },
    ]);
  }
  return byLabel;
}

/** An event of the shipping service about a label that is none of this shop's, for the Activity screen. */
export type ForeignEventView = {
  eventId: string;
  type: string;
  serviceLabelId: string | null;
  detail: string | null;
  receivedAt: string;
};

export async function listForeignShippingEvents(
  db: PrismaClient,
  shop: string,
  options: { take?: number } = {},
): Promise<ForeignEventView[]> {
  const rows = await db.shippingEvent.findMany({
    where: { shop, outcome: "not_ours" },
    orderBy: { receivedAt: "desc" },
    take: options.take ?? 20,
  });
  return rows.map((row) => ({
    eventId: row.eventId,
    type: row.type,
    serviceLabelId: row.serviceLabelId,
    detail: row.detail,
    receivedAt: row.receivedAt.toISOString(),
  }));
}
