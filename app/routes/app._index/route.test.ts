import { http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import { insertLabelRow } from "../../../test/helpers/label-rows";
import { mockTokenExchange, server, setupMockServer } from "../../../test/helpers/msw";
import { renderScreen } from "../../../test/helpers/render-screen";
import { routeArgs } from "../../../test/helpers/route-args";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { listShopLabels } from "../app.labels/label-list.server";
import HomePage, { action, loader } from "./route";

setupMockServer();

// A fixed clock: Wednesday 18 November 2026, 15:00 UTC (the week began Monday the 16th).
const NOW = new Date("2026-11-18T15:00:00Z");
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The emulated store, and the Admin API operations the app sent it. */
function useEmulator() {
  mockTokenExchange();
  const emulator = createShopifyAdminEmulator({ shop: TEST_SHOP });
  const operations: string[] = [];
  server.use(
    http.post(`https://${TEST_SHOP}/admin/api/:version/graphql.json`, async ({ request }) => {
      const body = (await request.clone().json()) as { query: string };
      operations.push(/query\s+(\w+)/.exec(body.query)?.[1] ?? "?");
      return emulator.fetch(request);
    }),
  );
  const order = (name: string) => {
    const found = emulator.findOrderByName(name);
    if (!found) throw new Error(`no order ${name} in the seed`);
    return { orderGid: found.id, orderName: name, numericId: found.id.split("/").pop() ?? "" };
  };
  return { emulator, operations, order };
}

const bought = (at: string, fields: Parameters<typeof insertLabelRow>[0] = {}) =>
  insertLabelRow({
    status: "fulfilled",
    writeBackStatus: "done",
    carrier: "UPS",
    serviceName: "Ground",
    chargedCents: 612,
    currency: "USD",
    purchasedAt: new Date(at),
    ...fields,
  });

type HomeData = Awaited<ReturnType<typeof loader>>;
const loadHome = async () => (await loader(routeArgs(createAdminRequest("/app")))) as HomeData;

describe("home page loader", () => {
  it("adds up this week's and month's labels from the label rows, a refunded void taken off once", async () => {
    const { order } = useEmulator();
    const o1 = order("#1001");
    const o2 = order("#1002");
    await bought("2026-11-17T10:00:00Z", { orderGid: o1.orderGid, orderName: o1.orderName });
    await bought("2026-11-17T11:00:00Z", {
      orderGid: o2.orderGid,
      orderName: o2.orderName,
      status: "voided",
      chargedCents: 700,
      refundStatus: "refunded",
      refundCents: 700,
    });
    await bought("2026-11-03T09:00:00Z", { carrier: "USPS", serviceName: "Priority Mail", chargedCents: 950 });
    // Last month: in the charts' window, not in this month's figures.
    await bought("2026-10-30T09:00:00Z", { chargedCents: 5000 });

    const { home } = await loadHome();
    expect(home.week).toMatchObject({ start: "2026-11-16", labels: 1, voided: 1 });
    expect(home.week.byCurrency).toEqual([
      expect.objectContaining({ currency: "USD", spendCents: 612, refundedCents: 700, averageCents: 612 }),
    ]);
    expect(home.month).toMatchObject({ start: "2026-11-01", labels: 2, voided: 1 });
    expect(home.month.byCurrency[0]?.spendCents).toBe(612 + 950);
    expect(home.month.byCurrency[0]?.byService).toEqual([
      { carrier: "USPS", service: "Priority Mail", labels: 1, spendCents: 950 },
      { carrier: "UPS", service: "Ground", labels: 1, spendCents: 612 },
    ]);
    expect(home.labelsByCarrier).toEqual([
      { carrier: "UPS", labels: 1 },
      { carrier: "USPS", labels: 1 },
    ]);
    expect(home.spendPerDay.find((d) => d.date === "2026-11-17")?.spendCents).toBe(612);
    expect(home.spendPerDay.find((d) => d.date === "2026-10-30")?.spendCents).toBe(5000);
  });

  it("reads what an order's customer paid for shipping from Shopify once, then from its own row", async () => {
    const { order, operations } = useEmulator();
    const o1 = order("#1001");
    await bought("2026-11-17T10:00:00Z", { orderGid: o1.orderGid, orderName: o1.orderName, chargedCents: 612 });

    const first = await loadHome();
    // #1001's customer paid $8.95 for Standard Shipping in the seed.
    expect(first.home.margin.recentOrders[0]).toMatchObject({
      orderName: "#1001",
      orderId: o1.numericId,
      paidCents: 895,
      costCents: 612,
      marginCents: 283,
    });
    expect(first.home.margin.week).toEqual({ orders: 1, paidCents: 895, costCents: 612, marginCents: 283 });
    expect(first.home.margin.unknownOrders).toBe(0);
    expect(operations.filter((o) => o === "OrdersShippingPaid")).toHaveLength(1);
    expect(await db.orderShippingPaid.findMany({ where: { shop: TEST_SHOP } })).toEqual([
      expect.objectContaining({ orderGid: o1.orderGid, paidCents: 895, currency: "USD" }),
    ]);

    const second = await loadHome();
    expect(second.home.margin.week.marginCents).toBe(283);
    // No second read: the home's load costs Shopify only its count of orders awaiting shipment.
    expect(operations.filter((o) => o === "OrdersShippingPaid")).toHaveLength(1);
    expect(operations.filter((o) => o === "OrdersAwaitingShipmentCount")).toHaveLength(2);
  });

  it("leaves the shipping payments unread while a bulk run spends the shop's rate limit", async () => {
    const { order, operations } = useEmulator();
    const o1 = order("#1001");
    await bought("2026-11-17T10:00:00Z", { orderGid: o1.orderGid, orderName: o1.orderName, chargedCents: 612 });
    const run = await db.bulkRun.create({ data: { shop: TEST_SHOP, status: "running" } });

    const during = await loadHome();
    expect(during.home.margin).toMatchObject({ unknownOrders: 1, unknownWaitForRun: true });
    expect(during.home.margin.week.orders).toBe(0);
    expect(operations.filter((o) => o === "OrdersShippingPaid")).toHaveLength(0);

    await db.bulkRun.update({ where: { id: run.id }, data: { status: "done" } });
    const after = await loadHome();
    expect(after.home.margin.unknownOrders).toBe(0);
    expect(after.home.margin.week.marginCents).toBe(283);
    expect(operations.filter((o) => o === "OrdersShippingPaid")).toHaveLength(1);
  });

  it("counts what needs attention, each from the rows the linked list shows", async () => {
    const { order } = useEmulator();
    const draft = order("#1003");
    const held = order("#1004");
    const failed = order("#1005");
    await insertLabelRow({ ...pick(draft), status: "draft" });
    await insertLabelRow({ ...pick(held), status: "draft", attention: "on_hold" });
    await bought("2026-11-17T10:00:00Z", { ...pick(failed), status: "purchased", writeBackStatus: "failed" });
    await bought("2026-11-17T10:00:00Z", { attention: "address_changed" });
    const delayed = await bought("2026-11-16T10:00:00Z");
    await db.parcelTracking.create({
      data: { shop: TEST_SHOP, labelId: delayed.id, trackingNumber: "1Z1", status: "exception", occurredAt: NOW },
    });

    const { home } = await loadHome();
    const awaiting = await countAwaitingInSeed();
    expect(home.attention).toEqual({
      // The three orders with a label on the way are not counted as needing one.
      needsLabel: { count: awaiting - 3, atLeast: false },
      drafts: 1,
      problems: 1,
      onHold: 1,
      trackingExceptions: 1,
      failedWriteBacks: 1,
    });
    // Each label tile's number is the length of the Labels list its link opens.
    for (const [filter, count] of [
      ["tracking_exception", home.attention.trackingExceptions],
      ["write_back_failed", home.attention.failedWriteBacks],
    ] as const) {
      expect((await listShopLabels(db, TEST_SHOP, { filter })).items, filter).toHaveLength(count);
    }
    expect(home.shopifyProblem).toBeNull();
  });
});

describe("home page", () => {
  it("lists each label bought for a held order under Needs attention, its void naming the refund", async () => {
    const { order } = useEmulator();
    const held = order("#1004");
    await bought("2026-11-17T10:00:00Z", {
      ...pick(held),
      status: "purchased",
      writeBackStatus: "failed",
      attention: "bought_while_held",
      chargedCents: 1_234,
    });
    const loaded = await loadHome();
    expect(loaded.home.heldPurchases).toMatchObject({
      count: 1,
      labels: [{ orderName: held.orderName, refundCents: 1_234, currency: "USD" }],
    });
    const html = await renderScreen("/app", HomePage, loaded);
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("Bought for a held order: 1");
    expect(text).toContain("Void label: refund $12.34 to your shipping balance");
    expect(html).toContain(`href="/app/orders/${held.numericId}"`);
  });

  it("renders on the server with its figures, links to the filtered lists and room for the charts", async () => {
    const { order } = useEmulator();
    const o1 = order("#1001");
    await bought("2026-11-17T10:00:00Z", { orderGid: o1.orderGid, orderName: o1.orderName, chargedCents: 612 });
    await insertLabelRow({ ...pick(order("#1003")), status: "draft" });
    const html = await renderScreen("/app", HomePage, await loadHome());
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("Needs attention now");
    expect(html).toContain('href="/app/orders?tab=drafts"');
    // Held drafts have their own tab: the On hold tile opens it, not Drafts.
    expect(html).toContain('href="/app/orders?tab=on_hold"');
    expect(html).toContain('href="/app/orders?tab=problems"');
    expect(html).toContain('href="/app/orders?tab=needs_label"');
    expect(html).toContain('href="/app/labels?status=tracking_exception"');
    expect(html).toContain('href="/app/labels?status=write_back_failed"');
    expect(html).toContain(`href="/app/orders/${o1.numericId}"`);
    expect(text).toContain("$6.12");
    // The margin of #1001: $8.95 paid for shipping, $6.12 of label.
    expect(text).toContain("$2.83");
    expect(text).toContain("Spend per day");
    expect(text).toContain("Order number");
  });
});

function pick(o: { orderGid: string; orderName: string }) {
  return { orderGid: o.orderGid, orderName: o.orderName };
}

/** What the emulated store says of its orders awaiting shipment (the Orders list's search). */
async function countAwaitingInSeed(): Promise<number> {
  const emulator = createShopifyAdminEmulator({ shop: TEST_SHOP });
  const response = await emulator.graphql(
    `query { ordersCount(query: "status:open fulfillment_status:unfulfilled delivery_method:shipping") { count } }`,
  );
  const body = (await response.json()) as { data: { ordersCount: { count: number } } };
  return body.data.ordersCount.count;
}

describe("scan to ship", () => {
  const scan = (orderNumber: string) => callRoute(action, createAdminFormRequest("/app?index", { orderNumber }));

  it("opens the label page of the order a scanner typed, with or without its #", async () => {
    const { order } = useEmulator();
    for (const typed of ["1003", "#1003", " #1003\n"]) {
      const answer = await scan(typed);
      expect(answer).toBeInstanceOf(Response);
      const response = answer as Response;
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get("Location") ?? "", "https://x").pathname).toBe(
        `/app/orders/${order("#1003").numericId}`,
      );
    }
  });

  it("finds an order it has a label for without asking Shopify", async () => {
    const { order, operations } = useEmulator();
    const o = order("#1006");
    await insertLabelRow({ ...pick(o), status: "draft" });
    const response = (await scan("1006")) as Response;
    expect(new URL(response.headers.get("Location") ?? "", "https://x").pathname).toBe(`/app/orders/${o.numericId}`);
    expect(operations).not.toContain("OrderByName");
  });

  it("names the field and the number when no order has it, and refuses what is no order number", async () => {
    useEmulator();
    const unknown = (await scan("9999")) as Response;
    expect(unknown.status).toBe(422);
    const message = "Order number: no order #9999 in this store.";
    expect(await unknown.json()).toEqual({
      error: { code: "ORDER_NOT_FOUND", message, fields: [{ path: "orderNumber", message }] },
    });
    const garbage = (await scan("1001 OR name:*")) as Response;
    expect(garbage.status).toBe(422);
    expect(((await garbage.json()) as { error: { message: string } }).error.message).toMatch(/^Order number: /);
  });
});
