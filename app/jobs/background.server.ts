import db from "~/db.server";
import { getEnv } from "~/env.server";
import { createShippingClientForShop } from "~/labels/settings.server";
import { unauthenticated } from "~/shopify.server";

import { startLabelRecoveryLoop } from "./label-recovery.server";

declare global {
  var backgroundJobsStarted: boolean | undefined;
}

const RECOVERY_INTERVAL_MS = 60_000;

/**
 * Starts the in-process background work once per process (Vite reloads modules in development,
 * hence the global flag). Tests call the jobs directly instead.
 */
export function startBackgroundJobs(): void {
  if (globalThis.backgroundJobsStarted || getEnv().NODE_ENV === "test") return;
  globalThis.backgroundJobsStarted = true;
  startLabelRecoveryLoop(
    {
      db,
      adminFor: async (shop) => {
        try {
          const { admin } = await unauthenticated.admin(shop);
          return admin.graphql;
        } catch {
          return null; // no offline session: the app was uninstalled from this shop
        }
      },
      shippingFor: async (shop) => {
        const client = await createShippingClientForShop(db, shop);
        return client.ok ? client.value : null;
      },
    },
    {
      intervalMs: RECOVERY_INTERVAL_MS,
      onReport: (report) => {
        if (report.purchasesRecovered || report.writeBacksDone || report.writeBacksPending) {
          console.info("label recovery", JSON.stringify(report));
        }
      },
      onError: (error) => console.error("label recovery failed", error),
    },
  );
}
