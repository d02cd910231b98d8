// The PostgreSQL side of the one Prisma schema (ADR 14). prisma/schema.prisma is the schema; the
// PostgreSQL copy is derived from it here, never edited by hand: the provider is swapped and the
// client goes to its own folder (a client is generated for one provider). `npm run setup` writes
// it, and a test fails when the committed copy differs from what this derives.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const POSTGRESQL_SCHEMA_PATH = join(root, "prisma/postgresql/schema.prisma");
export const POSTGRESQL_CLIENT_OUTPUT = "../../node_modules/.prisma/client-postgresql";

const HEADER = `// GENERATED from prisma/schema.prisma by scripts/prisma-postgresql.mjs (npm run setup): do not
// edit. Change prisma/schema.prisma, run \`npm run setup\`, then \`npm run db:migration -- <name>\`.
`;

export function derivePostgresqlSchema(source = readFileSync(join(root, "prisma/schema.prisma"), "utf8")) {
  const withProvider = source.replace(
    /(datasource db \{[^}]*?provider\s*=\s*)"sqlite"/,
    (_, head) => `${head}"postgresql"`,
  );
  if (withProvider === source) throw new Error('prisma/schema.prisma: no `provider = "sqlite"` in its datasource');
  const withOutput = withProvider.replace(
    /(generator client \{)/,
    `$1\n  output          = "${POSTGRESQL_CLIENT_OUTPUT}"`,
  );
  return HEADER + withOutput;
}
