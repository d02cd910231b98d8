import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The Prisma CLI for PostgreSQL (`DATABASE_URL=postgresql://…`): the schema derived from
// prisma/schema.prisma (scripts/prisma-postgresql.mjs) and its own migrations. As for SQLite
// (prisma.config.ts), the WebAssembly schema engine runs them: nothing is downloaded.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/postgresql/schema.prisma",
  migrations: { path: "prisma/postgresql/migrations" },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "" });
  },
});
