import { describe, expect, it } from "vitest";

import { loadOrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { countProblems } from "~/shipments/problem-count";

import { ORDER_SCENARIOS } from "../emulator/shopify/seed";
import { createDoorWorld } from "./helpers/doors";

// The Orders list's badge, the order page and a bulk run's review judge each demo scenario order
// alike (issues 21 and 40): they all ask the pipeline's one check, and count its problems alike
// (one per field, problem-count.ts). The list reads an international order's prices and duties
// terms for the judge, so a blocker blocks there too; only an order with more lines than the list
// reads says "Check items" (no demo scenario has that many).

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
    const counts = sections.map((s) => countProblems(s.prefill.problems));
    const count = (severity: "blocking" | "warning") =>
      counts.reduce((n, c) => n + (severity === "blocking" ? c.blocking : c.warnings), 0);

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
    // The list blocks exactly what the run blocks: a blocker is never a hint, nor left unjudged.
    expect(list.blocking > 0, "the list blocks what the run blocks").toBe(blocked);
    expect(list.unchecked, "the list judged it").toBeNull();
    // And it counts what the order page shows: "2 to fix" beside "2 details need fixing".
    expect({ blocking: list.blocking, warnings: list.warnings }).toEqual({
      blocking: count("blocking"),
      warnings: count("warning"),
    });
  });
});
