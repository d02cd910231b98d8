import { describe, expect, it } from "vitest";

import type { LabelListPage } from "~/screens/label-list.server";

import { callRoute } from "../../test/helpers/admin-form-requests";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { mockTokenExchange, setupMockServer } from "../../test/helpers/msw";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { loader } from "./app.labels";

setupMockServer();

async function load(path: string) {
  mockTokenExchange();
  return (await callRoute(loader, createAdminRequest(path))) as LabelListPage;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe("labels loader", () => {
  it("lists every label of the shop, newest first, with charges, tracking, write-back and file", async () => {
    await insertLabelRow({ orderName: "#1001", status: "draft", quotedCents: 900, createdAt: minutesAgo(30) });
    await insertLabelRow({
      orderGid: "gid://shopify/Order/5001",
      orderName: "#1002",
      status: "fulfilled",
      carrier: "UPS",
      serviceName: "UPS Ground",
      quotedCents: 1210,
      chargedCents: 1345,
      chargeMismatch: true,
      trackingNumbers: JSON.stringify(["1Z999"]),
      trackingUrl: "https://track.example/1Z999",
      labelUrl: "http://shipping.test/v1/labels/lbl_1/file",
      labelFormat: "pdf",
      writeBackStatus: "done",
      createdAt: minutesAgo(5),
    });
    await insertLabelRow({ shop: "other-shop.myshopify.com", orderName: "#9999" });

    const page = await load("/app/labels");
    expect(page.items.map((i) => i.orderName)).toEqual(["#1002", "#1001"]);
    expect(page.items[0]).toMatchObject({
      orderNumericId: "5001",
      carrier: "UPS",
      serviceName: "UPS Ground",
      trackingNumbers: ["1Z999"],
      quotedCents: 1210,
      chargedCents: 1345,
      chargeMismatch: true,
      labelUrl: "http://shipping.test/v1/labels/lbl_1/file",
      writeBack: { status: "done", lastError: null },
    });
    expect(page.counts).toMatchObject({ all: 2, draft: 1, fulfilled: 1, failed: 0 });
    expect(JSON.stringify(page)).not.toContain("#9999");
  });

  it("filters by state and pages through the rest", async () => {
    for (let i = 0; i < 27; i++) await insertLabelRow({ status: "purchased", createdAt: minutesAgo(100 - i) });
    await insertLabelRow({ status: "failed", lastError: "The address was refused" });

    const failed = await load("/app/labels?status=failed");
    expect(failed.items.map((i) => [i.status, i.lastError])).toEqual([["failed", "The address was refused"]]);

    const first = await load("/app/labels?status=purchased");
    const second = await load("/app/labels?status=purchased&page=2");
    expect([first.items.length, first.hasNextPage, second.items.length, second.hasNextPage]).toEqual([
      25,
      true,
      2,
      false,
    ]);
    const ids = new Set([...first.items, ...second.items].map((i) => i.id));
    expect(ids.size).toBe(27);
  });

  it("shows the first page of all labels for a malformed query instead of failing", async () => {
    await insertLabelRow();
    const page = await load("/app/labels?status=shipped&page=-3");
    expect([page.filter, page.page, page.items.length]).toEqual(["all", 1, 1]);
  });

  it("renders with no labels and no shipping key", async () => {
    const page = await load("/app/labels");
    expect(page).toMatchObject({ items: [], hasNextPage: false, counts: { all: 0 } });
  });

  it("answers a request with an expired session token with 401", async () => {
    const result = await callRoute(loader, createAdminRequest("/app/labels", { expiresIn: -120 }));
    expect((result as Response).status).toBe(401);
  });
});
