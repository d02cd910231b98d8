/** Prisma's P2002: an insert or update hit a unique index (the row, or its key, exists already). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}
