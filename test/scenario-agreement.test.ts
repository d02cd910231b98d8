import { describe, expect, it } from "vitest";

import { loadOrderLabelPage } from "~/screens/order-label-page.server";

import { ORDER_SCENARIOS } from "../emulator/shopify/seed";
import { createDoorWorld } from "./helpers/doors";

// The Orders list's badge, the order page and a bulk run's review judge each demo scenario order
// alike (issue 21): they all ask the pipeline's one check. The list reads less (no prices, no
// fulfillment orders, three lines), so where that could hide a problem it says "Check customs" or "Check items",
// never "Ready"; where it reads the whole order, its counts are the order page's.

const SCENARIOS = Object.keys(ORDER_SCENARIOS);

describe("the list, the order page and the bulk review agree on every demo scenario order", () => {
  it.each(SCENARIOS)("%s", async (name) => {
    const world = createDoorWorld();
    // Read before the run drafts anything: a drafted order's row shows its label, not problems.
    const row = await world.listRow(name).catch(() => null);
    const page = await loadOrderLabelPage(world.deps, world.orderGidOf(name));
    if (!page.ok) throw new Error(page.error.logMessage);
    const bulk = (await world.bulkRun([name])).review.items;
    // The shipments a run labels (open, shipped by a carrier) are the ones to compare.
    const labelled = new Set(bulk.flatMap((item) => (item.fulfillmentOrderGid ? [item.fulfillmentOrderGid] : [])));
    const sections = page.value.fulfillmentOrders.filter((s) => labelled.has(s.id));
    const count = (severity: string) =>
      sections.flatMap((s) => s.prefill.problems).filter((p) => p.severity === severity).length;

    if (bulk.every((item) => item.status === "skipped")) {
      // Picked up or delivered locally: no label anywhere, and the list does not offer it.
      expect(
        page.value.fulfillmentOrders.every((s) => s.prefill.problems.some((p) => p.code === "DELIVERY_NOT_SHIPPING")),
      ).toBe(true);
      expect(row).toBeNull();
      return;
    }
    const blocked = bulk.some((item) => item.status === "blocked");
    const list = row?.problems;
    if (!list) throw new Error(`${name} has no badge`);

    // Blocked by the run's check ⇔ blocking problems on the order page.
    expect(count("blocking") > 0, "the order page blocks what the run blocks").toBe(blocked);
    // The list never says Ready for what the run blocks, and never blocks what the run drafts.
    if (blocked) expect(list.blocking > 0 || list.unchecked !== null, "the list says Ready").toBe(true);
    else expect(list.blocking, "the list blocks what the run drafts").toBe(0);
    // Where it read the whole order, the list counts what the order page shows.
    if (list.unchecked === null) {
      expect({ blocking: list.blocking, warnings: list.warnings }).toEqual({
        blocking: count("blocking"),
        warnings: count("warning"),
      });
    } else {
      expect(list.blocking).toBeLessThanOrEqual(count("blocking"));
    }
  });
});
