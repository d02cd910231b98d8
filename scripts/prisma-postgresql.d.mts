// Types for prisma-postgresql.mjs (plain JavaScript: `npm install` runs it before any TypeScript tooling).
export declare const POSTGRESQL_SCHEMA_PATH: string;
export declare const POSTGRESQL_CLIENT_OUTPUT: string;
export declare function derivePostgresqlSchema(source?: string): string;
