import type { Label, PrismaClient } from "@prisma/client";
import { z } from "zod";

// Reading Label rows, and the one shape the rest of the app sees. Every query filters by shop.

export const LABEL_STATUSES = [
  "creating",
  "draft",
  "purchasing",
  "purchased",
  "fulfilled",
  "failed",
  "voided",
] as const;
export type LabelStatus = (typeof LABEL_STATUSES)[number];
export const WRITE_BACK_STATUSES = ["none", "pending", "writing", "done", "failed"] as const;
export type WriteBackStatus = (typeof WRITE_BACK_STATUSES)[number];

/** The statuses that hold a fulfillment order's one active label. */
export const ACTIVE_STATUSES: readonly LabelStatus[] = ["creating", "draft", "purchasing", "purchased", "fulfilled"];

export type LabelView = {
  id: string;
  shop: string;
  orderGid: string;
  orderName: string;
  fulfillmentOrderGid: string;
  status: LabelStatus;
  serviceLabelId: string | null;
  rateId: string | null;
  carrier: string | null;
  serviceCode: string | null;
  serviceName: string | null;
  quotedCents: number | null;
  chargedCents: number | null;
  currency: string;
  /** Charged differs from the quote (re-priced): the merchant should look. */
  chargeMismatch: boolean;
  trackingNumbers: string[];
  trackingUrl: string | null;
  labelFormat: string | null;
  labelSize: string | null;
  labelUrl: string | null;
  shipDate: string | null;
  packageCount: number;
  requestIds: string[];
  fulfillmentGid: string | null;
  writeBack: { status: WriteBackStatus; attempts: number; lastError: string | null };
  lastError: string | null;
  purchasedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const StringListSchema = z.array(z.string());

function parseStringList(json: string): string[] {
  try {
    const parsed = StringListSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function asLabelStatus(value: string): LabelStatus {
  return (LABEL_STATUSES as readonly string[]).includes(value) ? (value as LabelStatus) : "failed";
}
function asWriteBackStatus(value: string): WriteBackStatus {
  return (WRITE_BACK_STATUSES as readonly string[]).includes(value) ? (value as WriteBackStatus) : "pending";
}

export function toLabelView(row: Label): LabelView {
  return {
    id: row.id,
    shop: row.shop,
    orderGid: row.orderGid,
    orderName: row.orderName,
    fulfillmentOrderGid: row.fulfillmentOrderGid,
    status: asLabelStatus(row.status),
    serviceLabelId: row.serviceLabelId,
    rateId: row.rateId,
    carrier: row.carrier,
    serviceCode: row.serviceCode,
    serviceName: row.serviceName,
    quotedCents: row.quotedCents,
    chargedCents: row.chargedCents,
    currency: row.currency,
    chargeMismatch: row.chargeMismatch,
    trackingNumbers: parseStringList(row.trackingNumbers),
    trackingUrl: row.trackingUrl,
    labelFormat: row.labelFormat,
    labelSize: row.labelSize,
    labelUrl: row.labelUrl,
    shipDate: row.shipDate,
    packageCount: row.packageCount,
    requestIds: parseStringList(row.requestIds),
    fulfillmentGid: row.fulfillmentGid,
    writeBack: {
      status: asWriteBackStatus(row.writeBackStatus),
      attempts: row.writeBackAttempts,
      lastError: row.writeBackLastError,
    },
    lastError: row.lastError,
    purchasedAt: row.purchasedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function activeKeyFor(shop: string, fulfillmentOrderGid: string): string {
  return `${shop}:${fulfillmentOrderGid}`;
}

export function appendRequestId(json: string, requestId: string | null | undefined): string {
  const list = parseStringList(json);
  if (requestId && !list.includes(requestId)) list.push(requestId);
  return JSON.stringify(list);
}

export async function findLabel(db: PrismaClient, shop: string, labelId: string): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { id: labelId, shop } });
  return row ? toLabelView(row) : null;
}

export async function findActiveLabel(
  db: PrismaClient,
  shop: string,
  fulfillmentOrderGid: string,
): Promise<LabelView | null> {
  const row = await db.label.findFirst({ where: { shop, activeKey: activeKeyFor(shop, fulfillmentOrderGid) } });
  return row ? toLabelView(row) : null;
}

export async function listLabelsForOrder(db: PrismaClient, shop: string, orderGid: string): Promise<LabelView[]> {
  const rows = await db.label.findMany({ where: { shop, orderGid }, orderBy: { createdAt: "asc" } });
  return rows.map(toLabelView);
}

/** Purchased labels whose tracking has not reached Shopify yet (shown as "tracking pending"). */
export async function listPendingWriteBacks(db: PrismaClient, shop: string): Promise<LabelView[]> {
  const rows = await db.label.findMany({
    where: { shop, status: "purchased", writeBackStatus: { in: ["pending", "writing", "failed"] } },
    orderBy: { updatedAt: "asc" },
  });
  return rows.map(toLabelView);
}

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "P2002"
  );
}
