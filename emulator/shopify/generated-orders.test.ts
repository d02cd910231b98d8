import { createRequire } from "node:module";

import { describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "./emulator";
import { generateOrders } from "./generated-orders";
import { buildLocations, buildVariants, createSeedState } from "./seed";

const context = () => ({ variants: buildVariants(), locations: buildLocations(), firstIndex: 100 });

describe("generated orders", () => {
  it("adds the requested number of orders before the 22 scenario orders", () => {
    const state = createSeedState({ history: (c) => generateOrders(300, c) });
    expect(state.orders).toHaveLength(322);
    expect(state.orders[0]?.name).toBe("#701");
    expect(state.orders[299]?.name).toBe("#1000");
    expect(state.orders.slice(-22).map((o) => o.name)).toEqual(Array.from({ length: 22 }, (_, i) => `#${1001 + i}`));
  });

  it("gives the same orders for the same count, every time", () => {
    const a = generateOrders(50, context());
    const b = generateOrders(50, context());
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("dates them over weeks, older than the scenario orders, numbers growing with time", () => {
    const orders = generateOrders(300, context());
    const scenarioOldest = createSeedState().orders[0]?.createdAt ?? "";
    const dates = orders.map((o) => o.createdAt);
    expect([...dates].sort()).toEqual(dates);
    expect(dates.every((d) => d < scenarioOldest)).toBe(true);
    const spanDays = (Date.parse(dates.at(-1) ?? "") - Date.parse(dates[0] ?? "")) / 86_400_000;
    expect(spanDays).toBeGreaterThan(30);
  });

  it("mixes domestic and international, shipped and unshipped orders", () => {
    const orders = generateOrders(300, context());
    const international = orders.filter((o) => o.shippingAddress?.countryCodeV2 !== "US");
    expect(international.length).toBeGreaterThan(20);
    expect(international.length).toBeLessThan(100);
    // International orders carry a phone and only products with HS codes and weights.
    for (const order of international) {
      expect(order.shippingAddress?.phone).toMatch(/^\+\d{9,}$/);
      for (const line of order.lineItems) {
        expect(line.variant?.inventoryItem.harmonizedSystemCode).toBeTruthy();
        expect(line.weight).not.toBeNull();
      }
    }
    const shipped = orders.filter((o) => o.fulfillments.length > 0);
    expect(shipped.length).toBeGreaterThan(100);
    expect(orders.length - shipped.length).toBeGreaterThan(30);
  });

  it("uses US addresses whose ZIP, city and state agree", () => {
    const zipcodes = createRequire(import.meta.url)("zipcodes") as {
      lookup: (zip: string) => { city: string; state: string } | undefined;
    };
    for (const order of generateOrders(300, context())) {
      const address = order.shippingAddress;
      if (address?.countryCodeV2 !== "US") continue;
      expect(zipcodes.lookup(address.zip ?? "")?.state, `${address.zip}`).toBe(address.provinceCode);
    }
  });

  it("builds a 10,000-order store quickly and pages through it", async () => {
    const started = performance.now();
    const emulator = createShopifyAdminEmulator({ generatedOrders: 10_000, throttle: false });
    expect(emulator.state().orders).toHaveLength(10_022);
    const query = `query Orders($after: String) {
      orders(first: 100, after: $after, sortKey: CREATED_AT, reverse: true, query: "fulfillment_status:unfulfilled") {
        pageInfo { hasNextPage endCursor } nodes { id name lineItems(first: 5) { nodes { unfulfilledQuantity } } } } }`;
    const first = (await (await emulator.graphql(query)).json()) as {
      data: { orders: { pageInfo: { endCursor: string }; nodes: { name: string }[] } };
    };
    expect(first.data.orders.nodes[0]?.name).toBe("#1022");
    const second = (await (
      await emulator.graphql(query, { variables: { after: first.data.orders.pageInfo.endCursor } })
    ).json()) as { data: { orders: { nodes: unknown[] } } };
    expect(second.data.orders.nodes).toHaveLength(100);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
