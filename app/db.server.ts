import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";

import { resolveDatabaseUrl } from "../prisma/database-url";
import { getEnv } from "./env.server";

// One client per process; in development Vite reloads modules, so keep it on globalThis to
// avoid opening a new connection on every change.
declare global {
  var prismaGlobal: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaLibSQL({ url: resolveDatabaseUrl(databaseUrl) }) });
}

const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient(getEnv().DATABASE_URL);
if (getEnv().NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
