/** A throwaway PostgreSQL cluster on loopback (postgres-cluster.mjs). */
export function startThrowawayCluster(): Promise<{ url: string; restart: () => Promise<void>; stop: () => void }>;
