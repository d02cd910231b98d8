import { describe, expect, it, vi } from "vitest";

import { recordAutoDraftOutcome } from "~/auto-draft/auto-draft-outcomes.server";
import type { OrderRow } from "~/routes/app.orders._index/order-list.server";
import { loadOrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { setShippingApiKey } from "~/settings/settings.server";
import { countProblems } from "~/shipments/problem-count";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import { ORDER_SCENARIOS } from "../../../emulator/shopify/seed";
import { withGeneratedOrders } from "../../../test/fixtures/generated-orders";
import { insertLabelRow } from "../../../test/helpers/label-rows";
import { mockTokenExchange, routeAdminToEmulator, setupMockServer } from "../../../test/helpers/msw";
import { routeArgs } from "../../../test/helpers/route-args";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { loader as homeLoader } from "../app._index/route";
import { loader as versionLoader } from "../app.orders-version";
import { loader } from "./route";

setupMockServer();

type LoaderData = Awaited<ReturnType<typeof loader>>;

async function loadOrders(path = "/app/orders"): Promise<LoaderData> {
  return loader(routeArgs(createAdminRequest(path)));
}

function useEmulator(options: { generatedOrders?: number; storeHistory?: number; throttle?: false } = {}) {
  mockTokenExchange();
  return routeAdminToEmulator(
    createShopifyAdminEmulator({
      shop: TEST_SHOP,
      // Tests that load many pages in a row are not about Shopify's rate limit.
      ...(options.throttle === false ? { throttle: false } : {}),
      ...(options.generatedOrders ? { seed: withGeneratedOrders(options.generatedOrders) } : {}),
      // The demo's store: older orders, mostly shipped, some with a customer's return request.
      ...(options.storeHistory ? { generatedOrders: options.storeHistory } : {}),
    }),
  );
}

const loadHome = async () =>
  (await homeLoader(routeArgs(createAdminRequest("/app")))) as Awaited<ReturnType<typeof homeLoader>>;

/** Every row of a tab, page after page. */
async function loadAllRows(path: string): Promise<OrderRow[]> {
  const rows: OrderRow[] = [];
  let next = path;
  for (let pages = 0; pages < 50; pages++) {
    const list = (await loadOrders(next)).list;
    if (!list) throw new Error(`no list at ${next}`);
    rows.push(...list.rows);
    if (!list.pageInfo.hasNextPage) return rows;
    next = `${path}${path.includes("?") ? "&" : "?"}after=${encodeURIComponent(list.pageInfo.endCursor ?? "")}`;
  }
  throw new Error("more than 50 pages");
}

function seeded(emulator: ShopifyAdminEmulator, name: string) {
  const found = emulator.findOrderByName(name);
  if (!found) throw new Error(`no order ${name} in the seed`);
  return { orderGid: found.id as OrderGid, orderName: name };
}

const foOf = (emulator: ShopifyAdminEmulator, name: string) =>
  (emulator.findOrderByName(name)?.fulfillmentOrders[0]?.id ?? "") as FulfillmentOrderGid;

/**
 * What the order page says of an order's problems (its banner, counted per field), over the
 * shipments it judges: the one judge, on the page's full read of the order.
 */
async function pageProblems(emulator: ShopifyAdminEmulator, name: string) {
  const page = await loadOrderLabelPage(
    { db, shop: TEST_SHOP, admin: emulator.graphql },
    seeded(emulator, name).orderGid,
  );
  if (!page.ok) throw new Error(`${name}: ${page.error.logMessage}`);
  // The shipments still to ship (the list judges those): a closed one's section says only that it is closed.
  const counts = page.value.fulfillmentOrders
    .filter((fo) => fo.status !== "CLOSED" && fo.status !== "CANCELLED")
    .map((fo) => countProblems(fo.prefill.problems));
  return {
    blocking: counts.reduce((n, c) => n + c.blocking, 0),
    warnings: counts.reduce((n, c) => n + c.warnings, 0),
  };
}

describe("Orders page loader", () => {
  it("lists the seeded orders awaiting shipment, newest first, 20 to a page with a cursor to the next", async () => {
    useEmulator({ generatedOrders: 30 });
    const data = await loadOrders();
    expect(data.problem).toBeNull();
    const names = data.list?.rows.map((r) => r.name) ?? [];
    expect(names).toHaveLength(20);
    expect(names[0]).toBe("#1022");
    // Pickup and local delivery orders have nothing for a carrier: they are not awaiting shipment.
    expect(names).not.toContain("#1018");
    expect(names).not.toContain("#1019");
    expect(data.list?.pageInfo.hasNextPage).toBe(true);

    const next = await loadOrders(`/app/orders?after=${encodeURIComponent(data.list?.pageInfo.endCursor ?? "")}`);
    expect(next.list?.rows[0]?.name).toBe("#100001");
    expect(next.list?.pageInfo.hasPreviousPage).toBe(true);

    const back = await loadOrders(`/app/orders?before=${encodeURIComponent(next.list?.pageInfo.startCursor ?? "")}`);
    expect(back.list?.rows.map((r) => r.name)).toEqual(names);
  });

  it("shows customer, destination, items and weight for each order", async () => {
    useEmulator();
    const data = await loadOrders("/app/orders?q=1003");
    expect(data.list?.rows).toEqual([
      expect.objectContaining({
        name: "#1003",
        orderId: expect.stringMatching(/^\d+$/),
        customer: expect.any(String),
        destination: expect.stringMatching(/CA$/),
        items: expect.any(Number),
        label: { progress: "none", count: 0 },
      }),
    ]);
    expect(data.list?.rows[0]?.weightGrams).toBeGreaterThan(0);
  });

  it("flags the problems preflight finds: a missing tax id, no weight, a vague type, no phone", async () => {
    useEmulator();
    const problemsOf = async (name: string) => (await loadOrders(`/app/orders?q=${name}`)).list?.rows[0]?.problems;
    expect(await problemsOf("1007")).toMatchObject({ blocking: expect.any(Number) });
    expect((await problemsOf("1007"))?.messages.join(" ")).toMatch(/CPF|tax/i);
    expect((await problemsOf("1014"))?.messages.join(" ")).toMatch(/weight/i);
    expect((await problemsOf("1015"))?.messages.join(" ")).toMatch(/vague|specific/i);
    expect((await problemsOf("1013"))?.messages.join(" ")).toMatch(/phone/i);
    expect(await problemsOf("1001")).toEqual({
      blocking: 0,
      warnings: 0,
      messages: [],
      unchecked: null,
    });
  });

  it("judges an international order's customs as its page does: an export declaration or duties paid block it", async () => {
    const emulator = useEmulator();
    const problemsOf = async (name: string) => (await loadOrders(`/app/orders?q=${name}`)).list?.rows[0]?.problems;
    // Germany, ready to ship: nothing blocks it, and nothing is left unjudged (no "Check customs").
    expect(await problemsOf("1004")).toMatchObject({ blocking: 0, unchecked: null });
    // Over 2,500 USD (an AES ITN is needed) and duties paid at checkout (DDP): blocked, as their pages say.
    for (const name of ["#1011", "#1020"]) {
      const listed = await problemsOf(name.slice(1));
      const page = await pageProblems(emulator, name);
      expect(listed?.blocking, name).toBeGreaterThan(0);
      expect(listed?.unchecked, name).toBeNull();
      expect(listed?.blocking, name).toBe(page.blocking);
      expect(listed?.warnings, name).toBe(page.warnings);
    }
    expect((await problemsOf("1011"))?.messages.join(" ")).toMatch(/AES ITN|export declaration/i);
    expect((await problemsOf("1020"))?.messages.join(" ")).toMatch(/DDP|duties/i);
    expect((await problemsOf("1007"))?.blocking).toBe(1);
    expect((await problemsOf("1007"))?.messages.join(" ")).not.toMatch(/declared value/i);
  });

  it("says of every seeded scenario what its order page says: the same fields to fix and to check", async () => {
    const emulator = useEmulator({ throttle: false });
    const rows = await loadAllRows("/app/orders");
    const scenarios: string[] = Object.keys(ORDER_SCENARIOS);
    const listed = rows.filter((r) => scenarios.includes(r.name) && r.problems);
    expect(listed.length).toBeGreaterThan(15);
    for (const row of listed) {
      const page = await pageProblems(emulator, row.name);
      expect({ name: row.name, blocking: row.problems?.blocking, warnings: row.problems?.warnings }).toEqual({
        name: row.name,
        ...page,
      });
      expect(row.problems?.unchecked ?? null, row.name).toBeNull();
    }
  });

  it("lists on the Flagged tab exactly the orders Home's Flagged tile counts", async () => {
    const emulator = useEmulator();
    await insertLabelRow({ ...seeded(emulator, "#1003"), status: "purchased", attention: "order_cancelled" });
    await recordAutoDraftOutcome(db, TEST_SHOP, {
      ...seeded(emulator, "#1014"),
      fulfillmentOrderGid: foOf(emulator, "#1014"),
      status: "blocked",
      problems: [{ path: "parcel.weight", message: "Enter the weight." }],
    });
    await insertLabelRow({ ...seeded(emulator, "#1005"), status: "fulfilled", attention: "address_changed" });
    // Charged in the instant Shopify held the order: flagged here too, not only on Labels.
    await insertLabelRow({ ...seeded(emulator, "#1006"), status: "purchased", attention: "bought_while_held" });
    // Held and voided labels are not problems: they have their own tab, or nothing left to do.
    await insertLabelRow({ ...seeded(emulator, "#1001"), status: "draft", attention: "on_hold" });
    await insertLabelRow({ ...seeded(emulator, "#1002"), status: "voided", attention: "address_changed" });

    const data = await loadOrders("/app/orders?tab=problems");
    const { home } = await loadHome();
    expect(data.list?.rows.map((r) => r.name).sort()).toEqual(["#1003", "#1005", "#1006", "#1014"]);
    expect(home.attention.problems).toBe(4);
    expect(data.list?.counts.problems).toBe(4);
    expect(data.list?.rows.every((r) => r.attention.length > 0)).toBe(true);
    expect(data.list?.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it("opens from the On hold tile a list of the held drafts, which the Drafts tab and tile leave out", async () => {
    const emulator = useEmulator();
    await insertLabelRow({ ...seeded(emulator, "#1001"), status: "draft" });
    await insertLabelRow({ ...seeded(emulator, "#1002"), status: "draft" });
    await insertLabelRow({ ...seeded(emulator, "#1003"), status: "draft", attention: "on_hold" });
    // A return label is the return's, not an order's draft to buy nor an order's label bought.
    await insertLabelRow({ ...seeded(emulator, "#1004"), status: "draft", kind: "return" });
    await insertLabelRow({ ...seeded(emulator, "#1005"), status: "fulfilled", kind: "return" });
    await insertLabelRow({ ...seeded(emulator, "#1006"), status: "fulfilled", writeBackStatus: "done" });

    const drafts = await loadOrders("/app/orders?tab=drafts");
    const onHold = await loadOrders("/app/orders?tab=on_hold");
    const { home } = await loadHome();
    expect(drafts.list?.rows.map((r) => r.name).sort()).toEqual(["#1001", "#1002"]);
    expect(onHold.list?.rows.map((r) => [r.name, r.label.progress])).toEqual([["#1003", "on_hold"]]);
    expect([home.attention.drafts, home.attention.onHold]).toEqual([2, 1]);
    expect(drafts.list?.counts).toMatchObject({ drafts: 2, onHold: 1 });
    const bought = await loadOrders("/app/orders?tab=bought");
    expect(bought.list?.rows.map((r) => r.name)).toEqual(["#1006"]);
  });

  it("fills every Needs label page before paging: full pages, no empty last page, Previous goes back", async () => {
    useEmulator({ generatedOrders: 40, throttle: false });
    const first = await loadOrders();
    // Labels on 15 of the first 20 orders: a filter of Shopify's page would have shown 5 rows.
    for (const row of first.list?.rows.slice(0, 15) ?? []) {
      await insertLabelRow({ orderGid: row.orderGid, orderName: row.name, status: "draft" });
    }
    const unlabelled = (await loadAllRows("/app/orders")).filter((r) => r.label.count === 0).map((r) => r.name);
    const pages: string[][] = [];
    let path = "/app/orders?tab=needs_label";
    for (;;) {
      const list = (await loadOrders(path)).list;
      if (!list) throw new Error(`no list at ${path}`);
      pages.push(list.rows.map((r) => r.name));
      if (pages.length > 8) throw new Error("too many pages");
      if (pages.length === 2) {
        const before = encodeURIComponent(list.pageInfo.startCursor ?? "");
        const back = await loadOrders(`/app/orders?tab=needs_label&before=${before}`);
        expect(back.list?.rows.map((r) => r.name)).toEqual(pages[0]);
        expect(back.list?.pageInfo.hasPreviousPage).toBe(false);
      }
      if (!list.pageInfo.hasNextPage) break;
      path = `/app/orders?tab=needs_label&after=${encodeURIComponent(list.pageInfo.endCursor ?? "")}`;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.slice(0, -1).every((page) => page.length === 20)).toBe(true);
    expect(pages.at(-1)?.length).toBeGreaterThan(0);
    expect(pages.flat()).toEqual(unlabelled);
  });

  it("reaches a customer's return request: the Return requested tab, and a search by its order number", async () => {
    const emulator = useEmulator({ storeHistory: 300 });
    const requested = emulator.returns().filter(({ ret }) => ret.status === "REQUESTED");
    expect(requested.length).toBeGreaterThan(0);
    const tab = await loadOrders("/app/orders?tab=returns");
    expect(tab.list?.rows.map((r) => r.name).sort()).toEqual(requested.map((r) => r.orderName).sort());
    expect(tab.list?.rows.every((r) => r.returnRequested && r.problems === null)).toBe(true);
    for (const { orderName } of requested) {
      const found = await loadOrders(`/app/orders?q=${encodeURIComponent(orderName)}`);
      expect(found.list?.rows, orderName).toEqual([
        expect.objectContaining({ name: orderName, returnRequested: true, shipped: true, problems: null }),
      ]);
    }
  });

  it("asks for the API key with a setup card until one is saved, and lists orders either way", async () => {
    useEmulator();
    const before = await loadOrders();
    expect(before.setup).toEqual({ apiKeyConfigured: false, mode: "sandbox" });
    expect(before.list?.rows.length).toBeGreaterThan(0);
    await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
    expect((await loadOrders()).setup).toEqual({ apiKeyConfigured: true, mode: "live" });
  });

  it("answers an empty search with no rows", async () => {
    useEmulator();
    const data = await loadOrders("/app/orders?q=9999");
    expect(data.list?.rows).toEqual([]);
  });

  it("still renders, with a merchant-readable problem quoting the logged reference, when Shopify fails", async () => {
    const emulator = useEmulator();
    // Throttled beyond what a screen waits for: the adapter gives up with a typed error.
    emulator.failNextRequest("THROTTLED");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const data = await loadOrders();
    const reference = /ERR-[0-9A-Z]{6}/.exec(String(warn.mock.calls[0]?.[0]))?.[0];
    expect(reference).toBeDefined();
    expect(data.list).toBeNull();
    expect(data.problem).toContain(`(Reference: ${reference})`);
  });
});

describe("the Orders list's change check", () => {
  async function checkVersion(): Promise<string> {
    const data = await versionLoader(routeArgs(createAdminRequest("/app/orders-version")));
    return data.version;
  }

  it("answers the version the list was read with while nothing changed, without asking Shopify", async () => {
    mockTokenExchange();
    const emulator = createShopifyAdminEmulator({ shop: TEST_SHOP });
    let shopifyCalls = 0;
    routeAdminToEmulator({
      ...emulator,
      fetch: (input, init) => {
        shopifyCalls += 1;
        return emulator.fetch(input, init);
      },
    });
    const data = await loadOrders();
    const callsForTheList = shopifyCalls;
    expect(callsForTheList).toBeGreaterThan(0);
    expect(await checkVersion()).toBe(data.version);
    expect(await checkVersion()).toBe(data.version);
    expect(shopifyCalls).toBe(callsForTheList);
  });

  it("answers a new version once the worker drafts a label, so the open list reloads", async () => {
    useEmulator();
    const { version } = await loadOrders();
    await insertLabelRow({ status: "creating" });
    const afterDraft = await checkVersion();
    expect(afterDraft).not.toBe(version);
    expect((await loadOrders()).version).toBe(afterDraft);
  });

  it("answers a new version when a label changes state or automatic drafting records an outcome", async () => {
    useEmulator();
    const row = await insertLabelRow({ status: "creating" });
    const created = await checkVersion();
    await db.label.update({ where: { id: row.id }, data: { status: "draft" } });
    const drafted = await checkVersion();
    expect(drafted).not.toBe(created);
    await recordAutoDraftOutcome(db, TEST_SHOP, {
      orderGid: "gid://shopify/Order/77" as never,
      orderName: "#77",
      fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/77" as never,
      status: "blocked",
      problems: [{ path: "parcel.weight", message: "Enter the weight." }],
    });
    expect(await checkVersion()).not.toBe(drafted);
  });
});
