import type { PrismaClient } from "@prisma/client";

import { createPrismaClient } from "./db/client.server";
import { getEnv } from "./env.server";

export { createPrismaClient, isPostgresqlUrl } from "./db/client.server";

// One client per process; in development Vite reloads modules, so keep it on globalThis to
// avoid opening a new connection on every change.
declare global {
  var prismaGlobal: PrismaClient | undefined;
}

const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient(getEnv().DATABASE_URL);
if (getEnv().NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
