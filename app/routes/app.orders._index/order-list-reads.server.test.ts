import { describe, expect, it } from "vitest";

import db from "~/db.server";

import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { TEST_LABEL_SHOP } from "../../../test/helpers/labels";
import { listOrdersAwaitingShipment } from "./order-list.server";
import { createOrderListReader, RUN_REUSE_MS } from "./order-list-reads.server";

const SHOP = TEST_LABEL_SHOP;

// The Orders list as the page loads it, counting what Shopify charged (the emulator's actual cost).
function setUp() {
  let now = 5_000_000;
  const shopify = createShopifyAdminEmulator({ now: () => now, throttle: false });
  const read = createOrderListReader({ now: () => now });
  const deps = { db, shop: SHOP, admin: shopify.graphql };
  const load = async () => {
    const before = shopify.queryCostSpent();
    const page = await listOrdersAwaitingShipment(deps, { tab: "all" }, { reuseDuringRuns: true, read });
    if (!page.ok) throw new Error(page.error.message);
    return { page: page.value, points: shopify.queryCostSpent() - before };
  };
  return { shopify, read, load, advance: (ms: number) => void (now += ms) };
}

const startRun = (status: string) => db.bulkRun.create({ data: { shop: SHOP, status } });

describe("the Orders list while a bulk run spends the shop's rate limit", () => {
  it("reads Shopify on every load when no run is under way", async () => {
    const { load, advance } = setUp();
    await startRun("review");
    await startRun("done");
    const first = await load();
    advance(1_000);
    const second = await load();
    expect(first.points).toBeGreaterThan(0);
    expect(second.points).toBe(first.points);
    expect(second.page.shopifyAgeSeconds).toBeNull();
  });

  it("reuses Shopify's answer for a minute while a run buys, says how old it is, then reads again", async () => {
    const { shopify, load, advance } = setUp();
    const run = await startRun("running");
    const lists = (page: { rows: { orderGid: string }[] }, order: { id: string }) =>
      page.rows.some((r) => r.orderGid === order.id);
    const first = await load();
    expect(first.points).toBeGreaterThan(0);

    // An order placed meanwhile (the newest, so first on the page) is not listed yet, and
    // nothing is charged.
    const placed = shopify.createOrder().order;
    advance(12_000);
    const reused = await load();
    expect(reused.points).toBe(0);
    expect(lists(reused.page, placed)).toBe(false);
    expect(reused.page.shopifyAgeSeconds).toBe(12);

    advance(RUN_REUSE_MS);
    const fresh = await load();
    expect(fresh.points).toBeGreaterThan(0);
    expect(lists(fresh.page, placed)).toBe(true);
    expect(fresh.page.shopifyAgeSeconds).toBeNull();

    // The run over, the next load reads afresh even though the last read is recent.
    await db.bulkRun.update({ where: { id: run.id }, data: { status: "done" } });
    const later = shopify.createOrder().order;
    advance(1_000);
    const after = await load();
    expect(after.points).toBeGreaterThan(0);
    expect(lists(after.page, later)).toBe(true);
  });

  it("never reuses another page's or another shop's read", async () => {
    const { read, load, advance } = setUp();
    await startRun("checking");
    await load();
    advance(1_000);
    const other = createShopifyAdminEmulator({ throttle: false });
    other.createOrder();
    const loadWith = async (shop: string, search: string | null) => {
      const before = other.queryCostSpent();
      const page = await listOrdersAwaitingShipment(
        { db, shop, admin: other.graphql },
        { tab: "all", search },
        { reuseDuringRuns: true, read },
      );
      if (!page.ok) throw new Error(page.error.message);
      return { age: page.value.shopifyAgeSeconds, points: other.queryCostSpent() - before };
    };
    // Another search of the same shop, then another shop (which has a run of its own).
    expect(await loadWith(SHOP, "#1001")).toMatchObject({ age: null });
    await db.bulkRun.create({ data: { shop: "other-shop.myshopify.com", status: "running" } });
    const otherShop = await loadWith("other-shop.myshopify.com", null);
    expect(otherShop.age).toBeNull();
    expect(otherShop.points).toBeGreaterThan(0);
  });
});
