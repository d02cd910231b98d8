import type { PrismaClient } from "@prisma/client";

import { listShopsNeedingRecovery } from "~/labels/label-repository.server";
import { recoverStuckPurchases } from "~/labels/purchase.server";
import { retryPendingWriteBacks } from "~/labels/write-tracking.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

// A purchase whose process died after the charge, or a tracking write-back that Shopify did not
// take (throttled, down, network), must finish without the merchant noticing: this sweep finds
// them in every shop and finishes them, exactly once, through the same use cases the surfaces use.

export type LabelRecoveryDeps = {
  db: PrismaClient;
  /** The shop's Admin API, or null when the app has no offline session for it (uninstalled). */
  adminFor: (shop: string) => Promise<AdminGraphqlClient | null>;
  /** The shop's shipping client, or null when it has no usable API key. */
  shippingFor: (shop: string) => Promise<Pick<ShippingClient, "purchaseLabel" | "getLabel"> | null>;
  now?: () => Date;
};

export type LabelRecoveryReport = {
  purchasesRecovered: number;
  writeBacksDone: number;
  writeBacksPending: number;
  /** Shops skipped because the app cannot reach them right now, with why. */
  skipped: Array<{ shop: string; reason: string }>;
};

export async function runLabelRecovery(deps: LabelRecoveryDeps): Promise<LabelRecoveryReport> {
  // A live clock, read at each step: a sweep can take minutes, and a lease written from a
  // clock frozen at its start could already be over when written.
  const now = deps.now ?? (() => new Date());
  const report: LabelRecoveryReport = { purchasesRecovered: 0, writeBacksDone: 0, writeBacksPending: 0, skipped: [] };

  const { stuckPurchases } = await listShopsNeedingRecovery(deps.db, now());
  for (const shop of stuckPurchases) {
    const shipping = await deps.shippingFor(shop);
    if (!shipping) {
      report.skipped.push({ shop, reason: "no shipping API key" });
      continue;
    }
    const recovered = await recoverStuckPurchases({ db: deps.db, shop, shipping, now });
    report.purchasesRecovered += recovered.filter((label) => label.status === "purchased").length;
  }

  // After the purchases above, so a recovered label's tracking goes out in the same sweep.
  const { pendingWriteBacks } = await listShopsNeedingRecovery(deps.db, now());
  for (const shop of pendingWriteBacks) {
    const admin = await deps.adminFor(shop);
    if (!admin) {
      report.skipped.push({ shop, reason: "no offline session" });
      continue;
    }
    const { done, stillPending } = await retryPendingWriteBacks({ db: deps.db, shop, admin, now }, {});
    report.writeBacksDone += done.length;
    report.writeBacksPending += stillPending.length;
  }
  return report;
}

/**
 * Runs the sweep every `intervalMs` in this process, never two at once. Returns a stop function.
 * The timer does not keep the process alive.
 */
export function startLabelRecoveryLoop(
  deps: LabelRecoveryDeps,
  options: { intervalMs: number; onReport?: (report: LabelRecoveryReport) => void; onError?: (error: unknown) => void },
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runLabelRecovery(deps)
      .then((report) => options.onReport?.(report))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
