import { describe, expect, it, vi } from "vitest";

import { recordAutoDraftOutcome } from "~/auto-draft/auto-draft-outcomes.server";
import { setShippingApiKey } from "~/settings/settings.server";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { withGeneratedOrders } from "../../test/fixtures/generated-orders";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { mockTokenExchange, routeAdminToEmulator, setupMockServer } from "../../test/helpers/msw";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { loader } from "./app.orders._index";
import { loader as versionLoader } from "./app.orders-version";

setupMockServer();

type LoaderData = Awaited<ReturnType<typeof loader>>;

async function loadOrders(path = "/app/orders"): Promise<LoaderData> {
  return loader({ request: createAdminRequest(path), params: {}, context: {} });
}

function useEmulator(options: { generatedOrders?: number } = {}) {
  mockTokenExchange();
  return routeAdminToEmulator(
    createShopifyAdminEmulator({
      shop: TEST_SHOP,
      ...(options.generatedOrders ? { seed: withGeneratedOrders(options.generatedOrders) } : {}),
    }),
  );
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

  it("leaves the declared value of an international order to the order page, which reads the prices", async () => {
    useEmulator();
    const problemsOf = async (name: string) => (await loadOrders(`/app/orders?q=${name}`)).list?.rows[0]?.problems;
    // Germany, ready to ship: nothing blocks it. Brazil without CPF: only the tax id does.
    expect((await problemsOf("1004"))?.blocking).toBe(0);
    // ...but the list reads no prices or duties terms: it says "Check customs", never "Ready".
    expect((await problemsOf("1004"))?.unchecked).toMatchObject({
      badge: "Check customs",
      why: expect.stringMatching(/customs/),
    });
    expect((await problemsOf("1007"))?.blocking).toBe(1);
    expect((await problemsOf("1007"))?.messages.join(" ")).not.toMatch(/declared value/i);
  });

  it("keeps only orders with a blocking problem on the Problems tab", async () => {
    useEmulator();
    const data = await loadOrders("/app/orders?tab=problems");
    expect(data.list?.rows.length).toBeGreaterThan(0);
    expect(data.list?.rows.every((r) => (r.problems?.blocking ?? 0) > 0)).toBe(true);
    expect(data.list?.filteredOnPage).toBe(true);
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
    const data = await versionLoader({ request: createAdminRequest("/app/orders-version"), params: {}, context: {} });
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
