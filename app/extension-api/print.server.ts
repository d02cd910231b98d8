import { type LabelView, listActiveLabelsForOrders } from "~/labels/label-repository.server";
import { getNumericId, numericOrderGid, type OrderGid, parseOrderGid } from "~/shopify/ids";

import type { ExtensionPrintSummary } from "./contract";
import { BOUGHT, type ExtensionDeps, toExtensionLabel } from "./shared.server";

// The print door ("Shipping label" in both print menus): the selection's bought labels.

/** An order's bought labels, one per shipment, in a stable order (the order's own). */
function boughtLabelsOf(labels: readonly LabelView[], orderGid: OrderGid): LabelView[] {
  return labels
    .filter((l) => l.orderGid === orderGid && BOUGHT.has(l.status))
    .sort((a, b) => a.fulfillmentOrderGid.localeCompare(b.fulfillmentOrderGid));
}

/** The print menu's "Shipping label" for one order or a selection: what goes in the PDF. */
export async function summarizePrintForExtension(
  deps: Pick<ExtensionDeps, "db" | "shop">,
  orderGids: readonly OrderGid[],
): Promise<ExtensionPrintSummary> {
  const labels = await listActiveLabelsForOrders(deps.db, deps.shop, orderGids);
  const summary: ExtensionPrintSummary = { printable: [], zplOnly: [], withoutLabel: [], pdfPath: null };
  for (const gid of orderGids) {
    const bought = boughtLabelsOf(labels, gid);
    if (bought.length === 0) {
      const name = labels.find((l) => l.orderGid === gid)?.orderName ?? `Order ${getNumericId(gid) ?? gid}`;
      summary.withoutLabel.push(name);
      continue;
    }
    for (const label of bought) {
      const view = toExtensionLabel(label);
      if (view.printable) summary.printable.push({ orderName: label.orderName, labelId: label.id });
      else {
        summary.zplOnly.push({
          orderName: label.orderName,
          howTo:
            view.format === "zpl"
              ? "ZPL label for a thermal printer: download it from the order's page in the app."
              : "This label's file is not ready to print yet: open the order's page in the app.",
        });
      }
    }
  }
  if (summary.printable.length > 0) {
    const ids = orderGids.map((gid) => getNumericId(gid)).join(",");
    summary.pdfPath = `/api/extensions/print/pdf?orders=${ids}`;
  }
  return summary;
}

/** The order GIDs a request names, as numeric ids or GIDs; null when one is neither. */
export function parseOrderIds(values: readonly string[]): OrderGid[] | null {
  const gids: OrderGid[] = [];
  for (const value of values) {
    // A numeric id, or an Order GID with one (Shopify's ids are positive integers).
    const gid =
      numericOrderGid(value) ?? (/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(value) ? parseOrderGid(value) : undefined);
    if (!gid) return null;
    if (!gids.includes(gid)) gids.push(gid);
  }
  return gids;
}

/** The orders' bought PDF and PNG labels in the order the selection names them: the print menu's PDF. */
export async function listPrintableLabelsForOrders(
  deps: Pick<ExtensionDeps, "db" | "shop">,
  orderGids: readonly OrderGid[],
): Promise<LabelView[]> {
  const labels = await listActiveLabelsForOrders(deps.db, deps.shop, orderGids);
  return orderGids.flatMap((gid) => boughtLabelsOf(labels, gid).filter((l) => toExtensionLabel(l).printable));
}
