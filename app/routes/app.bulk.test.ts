import { describe, expect, it } from "vitest";

import type { VoidLabelsAnswer } from "~/http/void-labels.server";
import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { withGeneratedOrders } from "../../test/fixtures/generated-orders";
import { callRoute, createAdminFormRequest } from "../../test/helpers/admin-form-requests";
import { countJobs, listJobs } from "../../test/helpers/jobs";
import { mockTokenExchange, routeAdminToEmulator, setupMockServer } from "../../test/helpers/msw";
import { buyOnOrderPage, readServiceLabel, recordVoidRequests, setUpShop } from "../../test/helpers/order-page-labels";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as startAction } from "./app.bulk";
import { action as runAction, loader as runLoader } from "./app.bulk.$runId/route";
import { loader as ordersLoader } from "./app.orders._index/route";

setupMockServer();

const ORDERS = [
  { orderGid: "gid://shopify/Order/5001", orderName: "#5001" },
  { orderGid: "gid://shopify/Order/5002", orderName: "#5002" },
];

/** The run a redirect opens: /app/bulk/<id>, on the app's origin, whatever query it carries. */
function runIdOf(location: string): string | undefined {
  return /^\/app\/bulk\/([a-z0-9]+)$/.exec(new URL(location, "https://app.invalid").pathname)?.[1];
}

async function start(fields: Record<string, string>) {
  mockTokenExchange();
  return callRoute(startAction, createAdminFormRequest("/app/bulk", fields));
}

describe("/app/bulk", () => {
  it("starts a run over the selected orders, queues one check per order, and opens it", async () => {
    const response = await start({ orders: JSON.stringify(ORDERS), choice: JSON.stringify({ mode: "cheapest" }) });
    expect(response).toBeInstanceOf(Response);
    const location = (response as Response).headers.get("Location") ?? "";
    const runId = runIdOf(location);
    expect(runId, location).toBeTruthy();
    const items = await db.bulkRunItem.findMany({ where: { runId }, orderBy: { position: "asc" } });
    expect(items.map((i) => [i.orderName, i.status])).toEqual([
      ["#5001", "checking"],
      ["#5002", "checking"],
    ]);
    const jobs = await listJobs(db, { shop: TEST_SHOP, name: "bulk-check" });
    expect(jobs.map((j) => (j.payload as { itemId: string }).itemId).sort()).toEqual(items.map((i) => i.id).sort());
    // Nothing is shown as bought or buyable yet.
    mockTokenExchange();
    const page = (await callRoute(runLoader, createAdminRequest(`/app/bulk/${runId}`), { runId: runId ?? "" })) as {
      run: { status: string; totalCents: number };
    };
    expect(page.run).toMatchObject({ status: "checking", totalCents: 0 });
  });

  it("opens the run with Shopify's redirect, keeping the shop and host the admin frame needs", async () => {
    mockTokenExchange();
    const request = createAdminFormRequest(
      "/app/bulk?embedded=1&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGVzdA&shop=" + TEST_SHOP,
      {
        orders: JSON.stringify(ORDERS),
      },
    );
    const response = (await callRoute(startAction, request)) as Response;
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location") ?? "", "https://app.invalid");
    expect(runIdOf(location.toString())).toBeTruthy();
    expect(location.searchParams.get("host")).toBe("YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGVzdA");
    expect(location.searchParams.get("shop")).toBe(TEST_SHOP);
  });

  it("takes every order the tab and search show, across pages, when all are selected", async () => {
    mockTokenExchange();
    routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP, seed: withGeneratedOrders(45) }));
    const response = (await callRoute(
      startAction,
      createAdminFormRequest("/app/bulk", { scope: "all", tab: "all", q: "" }),
    )) as Response;
    const runId = runIdOf(response.headers.get("Location") ?? "");
    const items = await db.bulkRunItem.findMany({
      where: { runId },
      select: { orderGid: true },
      orderBy: { position: "asc" },
    });
    // What the Orders screen shows, page after page (20 a page): all of them, each once, in its order.
    const shown: string[] = [];
    for (let after: string | null = null; ;) {
      mockTokenExchange();
      const path: string = `/app/orders${after ? `?after=${encodeURIComponent(after)}` : ""}`;
      const page = (await callRoute(ordersLoader, createAdminRequest(path))) as {
        list: { rows: { orderGid: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      };
      shown.push(...page.list.rows.map((r) => r.orderGid));
      if (!page.list.pageInfo.hasNextPage) break;
      after = page.list.pageInfo.endCursor;
    }
    expect(shown.length).toBeGreaterThan(20);
    expect(items.map((i) => i.orderGid)).toEqual(shown);
  });

  it("answers 400 naming the field for an empty or unreadable selection, and starts nothing", async () => {
    for (const orders of ["[]", "not json", JSON.stringify([{ orderGid: 1 }])]) {
      const response = (await start({ orders })) as Response;
      expect(response.status, orders).toBe(400);
      const body = (await response.json()) as { error: { fields: { path: string }[] } };
      expect(body.error.fields[0]?.path).toBe("orders");
    }
    expect(await db.bulkRun.count()).toBe(0);
  });

  it("takes a per-destination choice of services, and refuses one that cannot ship there, naming its field", async () => {
    const choice = {
      mode: "destination",
      domestic: { mode: "service", serviceCode: "svc_ups_ground" },
      international: { mode: "fastest" },
    };
    const started = (await start({ orders: JSON.stringify(ORDERS), choice: JSON.stringify(choice) })) as Response;
    expect(started.status).toBe(302);
    const run = await db.bulkRun.findFirstOrThrow({ where: { shop: TEST_SHOP } });
    expect(JSON.parse(run.choice)).toEqual(choice);

    const abroadAtHome = { ...choice, domestic: { mode: "service", serviceCode: "svc_dhl_express_worldwide" } };
    const refused = (await start({ orders: JSON.stringify(ORDERS), choice: JSON.stringify(abroadAtHome) })) as Response;
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { message: string; fields: { path: string }[] } };
    expect(body.error.fields[0]?.path).toBe("choice.domestic.serviceCode");
    expect(body.error.message).toMatch(/DHL Express Worldwide does not ship within the country/);
    expect(await db.bulkRun.count()).toBe(1);
  });

  it("refuses to buy at a total other than the one reviewed", async () => {
    const run = await db.bulkRun.create({ data: { shop: TEST_SHOP, status: "review" } });
    await db.bulkRunItem.create({
      data: {
        runId: run.id,
        shop: TEST_SHOP,
        position: 0,
        orderGid: ORDERS[0]?.orderGid ?? "",
        orderName: "#5001",
        status: "ready",
        quotedCents: 1234,
        labelId: "l1",
      },
    });
    mockTokenExchange();
    const wrong = (await callRoute(
      runAction,
      createAdminFormRequest(`/app/bulk/${run.id}`, { intent: "confirm", count: "1", totalCents: "1000" }),
      { runId: run.id },
    )) as Response;
    expect(wrong.status).toBe(409);
    expect(await countJobs(db, { name: "bulk-buy" })).toBe(0);

    mockTokenExchange();
    const right = await callRoute(
      runAction,
      createAdminFormRequest(`/app/bulk/${run.id}`, { intent: "confirm", count: "1", totalCents: "1234" }),
      { runId: run.id },
    );
    expect(right).toEqual({ ok: true });
    expect(await countJobs(db, { name: "bulk-buy" })).toBe(1);
    expect((await db.bulkRun.findUnique({ where: { id: run.id } }))?.status).toBe("running");
  });

  it("does not show another shop's run", async () => {
    const run = await db.bulkRun.create({ data: { shop: "other-shop.myshopify.com" } });
    mockTokenExchange();
    const response = (await callRoute(runLoader, createAdminRequest(`/app/bulk/${run.id}`), {
      runId: run.id,
    })) as Response;
    expect(response.status).toBe(404);
  });
});

describe("/app/bulk/:runId: void selected", () => {
  /** A done run whose items are labels bought on the order page (what a run's purchases leave). */
  async function doneRunOf(labelIds: string[]) {
    const run = await db.bulkRun.create({ data: { shop: TEST_SHOP, status: "done" } });
    for (const [position, labelId] of labelIds.entries()) {
      const label = await db.label.findUniqueOrThrow({ where: { id: labelId } });
      await db.bulkRunItem.create({
        data: {
          runId: run.id,
          shop: TEST_SHOP,
          position,
          orderGid: label.orderGid,
          orderName: label.orderName,
          fulfillmentOrderGid: label.fulfillmentOrderGid,
          status: "bought",
          labelId,
          serviceName: label.serviceName,
          quotedCents: label.quotedCents,
        },
      });
    }
    return run.id;
  }

  const voidOnRun = (runId: string, labelIds: string[]) =>
    callRoute(
      runAction,
      createAdminFormRequest(`/app/bulk/${runId}`, { intent: "void", labelIds: JSON.stringify(labelIds) }),
      {
        runId,
      },
    );

  it("voids the selected labels of the run, one void each, and counts a label that is not the run's as not found, sending nothing for it", async () => {
    const { shopify, shipping } = await setUpShop();
    const first = await buyOnOrderPage(shopify, "#1001");
    const second = await buyOnOrderPage(shopify, "#1002");
    const elsewhere = await buyOnOrderPage(shopify, "#1003");
    const runId = await doneRunOf([first, second]);
    const before = (await callRoute(runLoader, createAdminRequest(`/app/bulk/${runId}`), { runId })) as {
      run: BulkRunView;
    };
    expect(before.run.items.map((i) => i.voidBlocker)).toEqual([null, null]);
    const voids = recordVoidRequests();

    const answer = (await voidOnRun(runId, [first, second, elsewhere])) as VoidLabelsAnswer;

    // A label that is not the run's is not looked at: counted as not found.
    expect(answer.results.map((r) => [r.labelId, r.outcome])).toEqual([
      [first, "pending"],
      [second, "pending"],
    ]);
    expect(answer.notFound).toBe(1);
    const serviceIds = await Promise.all(
      [first, second, elsewhere].map(
        async (id) => (await db.label.findUniqueOrThrow({ where: { id } })).serviceLabelId ?? "",
      ),
    );
    expect(voids.sort()).toEqual(serviceIds.slice(0, 2).sort());
    expect((await readServiceLabel(shipping, serviceIds[2] ?? "")).status).toBe("purchased");

    // The run's page shows the refunds, offers them no more, and prints neither.
    const after = (await callRoute(runLoader, createAdminRequest(`/app/bulk/${runId}`), { runId })) as {
      run: BulkRunView;
    };
    expect(after.run.items.map((i) => i.refund?.status)).toEqual(["pending", "pending"]);
    expect(after.run.items.every((i) => i.voidBlocker !== null)).toBe(true);
    expect(after.run.printable.pdf.count).toBe(0);
  });

  it("answers 404 for a run of another shop or none, before asking anything", async () => {
    await setUpShop();
    const voids = recordVoidRequests();
    const answer = await voidOnRun("cm0000000000000000000000", ["cm0000000000000000000001"]);
    expect((answer as Response).status).toBe(404);
    expect(voids).toEqual([]);
  });
});
