// How large a bulk run may be, read by the Orders list (in the browser) and the run's server code.

/** The most orders one bulk run takes (the Orders list says so before it sends more). */
export const MAX_BULK_RUN_ORDERS = 1000;

/**
 * How long the transaction that stores a run's items with their jobs may take. Prisma's default
 * (5 s) is too short on PostgreSQL: each of up to MAX_BULK_RUN_ORDERS jobs is its own pg-boss
 * insert inside it, and a busy database took over 5 s for a few hundred (issue 23's bench).
 */
export const RUN_TRANSACTION = { timeout: 60_000 } as const;
