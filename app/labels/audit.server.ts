import type { Prisma, PrismaClient } from "@prisma/client";

// The audit trail of every call to the shipping service that can cost money (address
// validation, purchase): who, which order, how much, the service's request id, and the outcome.

// fulfill: a tracking write-back created a Shopify fulfillment (not billed, but a person's act).
// authorize: a staff member confirmed a bulk run's total, one entry per label it lets the worker
// buy (not billed itself: the worker's purchase entry is the charge, and names the same person).
// void: a void asked of the service (its refund pending); refund: the refund credited, as a negative amount.
export type AuditAction = "validate" | "purchase" | "fulfill" | "authorize" | "void" | "refund";
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

const toRow = (entry: AuditInput) => ({
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
});

/** Takes a transaction client too: a purchase is saved and audited in one transaction. */
export async function recordAudit(db: Prisma.TransactionClient, entry: AuditInput): Promise<void> {
  await db.auditEntry.create({ data: toRow(entry) });
}

/** Several entries at once (a bulk run's authorizations), in the caller's transaction. */
export async function recordAudits(db: Prisma.TransactionClient, entries: readonly AuditInput[]): Promise<void> {
  if (entries.length > 0) await db.auditEntry.createMany({ data: entries.map(toRow) });
}

/** Who last authorized buying this label (a bulk run's confirmation), for its purchase entry. */
export async function findPurchaseAuthorizer(db: PrismaClient, shop: string, labelId: string): Promise<string | null> {
  const entry = await db.auditEntry.findFirst({
    where: { shop, labelId, action: "authorize" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { staffMemberId: true },
  });
  return entry?.staffMemberId ?? null;
}

export async function listAuditEntries(db: PrismaClient, shop: string, filter: { labelId?: string } = {}) {
  return db.auditEntry.findMany({
    where: { shop, ...(filter.labelId ? { labelId: filter.labelId } : {}) },
    orderBy: { createdAt: "asc" },
  });
}
