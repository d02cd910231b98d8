import type { Prisma, PrismaClient } from "@prisma/client";

// The audit trail of every call to the shipping service that can cost money (address
// validation, purchase): who, which order, how much, the service's request id, and the outcome.

// fulfill: a tracking write-back created a Shopify fulfillment (not billed, but a person's act).
export type AuditAction = "validate" | "purchase" | "fulfill";
/** ok: charged now; recovered: charged by an earlier attempt whose result was lost; error: not charged; unknown: may have been charged. */
export type AuditOutcome = "ok" | "recovered" | "error" | "unknown";

export type AuditInput = {
  shop: string;
  action: AuditAction;
  outcome: AuditOutcome;
  orderGid?: string | null;
  labelId?: string | null;
  amountCents?: number | null;
  currency?: string;
  requestId?: string | null;
  detail?: string | null;
  /** The Shopify staff member (session token `sub`) who made the call; null for jobs. */
  staffMemberId?: string | null;
};

/** Takes a transaction client too: a purchase is saved and audited in one transaction. */
export async function recordAudit(db: Prisma.TransactionClient, entry: AuditInput): Promise<void> {
  await db.auditEntry.create({
    data: {
      shop: entry.shop,
      action: entry.action,
      outcome: entry.outcome,
      orderGid: entry.orderGid ?? null,
      labelId: entry.labelId ?? null,
      amountCents: entry.amountCents ?? null,
      currency: entry.currency ?? "USD",
      requestId: entry.requestId ?? null,
      detail: entry.detail ?? null,
      staffMemberId: entry.staffMemberId ?? null,
    },
  });
}

export async function listAuditEntries(db: PrismaClient, shop: string, filter: { labelId?: string } = {}) {
  return db.auditEntry.findMany({
    where: { shop, ...(filter.labelId ? { labelId: filter.labelId } : {}) },
    orderBy: { createdAt: "asc" },
  });
}
