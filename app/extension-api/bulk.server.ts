import { describeNothingToLabel, shipmentsToLabel } from "~/bulk/bulk-runs.server";
import { type LabelError } from "~/labels/label-errors";
import { checkShipment } from "~/shipments/check-shipment";
import { loadOrder, loadShopContext, shipmentOf } from "~/shipments/load-shipment.server";
import { getNumericId, type OrderGid } from "~/shopify/ids";
import { mapBounded } from "~/utils/map-bounded";
import { ok, type Result } from "~/utils/result";

import type { ExtensionBulkPreflightResponse } from "./contract";
import { type ExtensionDeps, orderAppUrl, SHOPIFY_READS_IN_FLIGHT } from "./shared.server";

// The bulk door ("Create labels" on Shopify's order list): what a bulk run would find.

/**
 * "Create labels" on Shopify's order list: what a bulk run would find, before it starts and
 * without a call to the shipping service. Each order is read and prefilled as the run's check does.
 */
export async function preflightOrdersForExtension(
  deps: ExtensionDeps,
  orderGids: readonly OrderGid[],
): Promise<Result<ExtensionBulkPreflightResponse, LabelError>> {
  const context = await loadShopContext(deps);
  if (!context.ok) return context;
  const summary: ExtensionBulkPreflightResponse = { ready: 0, needsFixing: [], leftOut: [] };
  const reads = await mapBounded(orderGids, SHOPIFY_READS_IN_FLIGHT, (gid) => loadOrder(deps, gid, context.value));
  for (const [index, read] of reads.entries()) {
    const gid = orderGids[index] as OrderGid;
    if (!read.ok) {
      if (read.error.code !== "NOT_FOUND") return read;
      summary.leftOut.push({ orderName: `Order ${getNumericId(gid) ?? gid}`, reason: "Not found in Shopify." });
      continue;
    }
    const { order } = read.value;
    // The shipments a bulk run would label, as its check picks them.
    const shipments = shipmentsToLabel(order);
    if (shipments.length === 0) {
      summary.leftOut.push({ orderName: order.name, reason: describeNothingToLabel(order) });
      continue;
    }
    for (const fo of shipments) {
      const shipment = shipmentOf(read.value, fo.id);
      if (!shipment) continue;
      const label = shipment.activeLabel;
      if (label && label.status !== "draft") {
        // One line per order: a split order's shipments all labelled say it once.
        if (!summary.leftOut.some((o) => o.orderName === order.name && o.reason === "Already has a label.")) {
          summary.leftOut.push({ orderName: order.name, reason: "Already has a label." });
        }
        continue;
      }
      if (label) {
        summary.ready += 1; // the run buys its draft as it is
        continue;
      }
      // The pipeline's check, as the run's own check will judge it: no "ready" the run then blocks.
      const check = checkShipment(shipment);
      if (check.ready) {
        summary.ready += 1;
        continue;
      }
      const problems = check.problems.filter((p) => p.severity === "blocking").map((p) => p.message);
      // One entry per order, its shipments' problems together (each said once).
      const listed = summary.needsFixing.find((o) => o.orderName === order.name);
      if (listed) listed.problems = [...new Set([...listed.problems, ...problems])];
      else summary.needsFixing.push({ orderName: order.name, appUrl: orderAppUrl(order.legacyId), problems });
    }
  }
  return ok(summary);
}

/** The selection's orders as a bulk run takes them; names are filled in by the run's check. */
export function toBulkRunOrders(orderGids: readonly OrderGid[]) {
  return orderGids.map((orderGid) => ({ orderGid, orderName: `#${getNumericId(orderGid) ?? ""}` }));
}
