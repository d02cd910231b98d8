// Types for migrate-postgresql.mjs (plain JavaScript: `npm install` runs it before any TypeScript tooling).
export declare const POSTGRESQL_MIGRATIONS_DIR: string;
export declare function listPostgresqlMigrations(dir?: string): { name: string; sql: string }[];
export declare function migratePostgresql(
  connectionString: string,
  options?: { log?: (line: string) => void },
): Promise<string[]>;
export declare function isPostgresqlUrl(url: string | undefined): boolean;
