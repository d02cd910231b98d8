import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";

import { resolveDatabaseUrl } from "./prisma/database-url";

// `engine: "js"` runs migrations with the WebAssembly schema engine that ships inside the prisma
// package, so no native engine is downloaded (this machine reaches only the npm registry).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaLibSQL({ url: resolveDatabaseUrl() });
  },
});
