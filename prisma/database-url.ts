import { isAbsolute, resolve } from "node:path";

export const DEFAULT_DATABASE_URL = "file:prisma/dev.sqlite";

// Prisma's CLI resolves relative SQLite paths against the schema folder while libsql resolves
// them against the working directory; normalising to an absolute path makes both agree.
export function resolveDatabaseUrl(raw: string | undefined = process.env.DATABASE_URL): string {
  const url = raw && raw.length > 0 ? raw : DEFAULT_DATABASE_URL;
  if (!url.startsWith("file:")) return url;
  const path = url.slice("file:".length);
  return isAbsolute(path) ? url : `file:${resolve(process.cwd(), path)}`;
}
